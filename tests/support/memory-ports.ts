/** In-memory settings and vault for unit tests (the real ones are tested in tests/unit/store). */
import type { SettingsBackend, Vault } from '../../electron/app/ports';

export function memorySettings(): SettingsBackend & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>();
  return {
    data,
    get: <T>(k: string) => (data.has(k) ? (structuredClone(data.get(k)) as T) : undefined),
    set: (k, v) => void data.set(k, structuredClone(v)),
    delete: (k) => void data.delete(k),
  };
}

export function memoryVault(): Vault & { data: Map<string, string> } {
  const data = new Map<string, string>();
  return {
    data,
    persistent: false,
    kind: 'memory',
    get: async (k) => data.get(k),
    set: async (k, v) => void data.set(k, v),
    setMany: async (entries) => entries.forEach(([k, v]) => data.set(k, v)),
    delete: async (k) => void data.delete(k),
    deletePrefix: async (p) => {
      for (const k of [...data.keys()]) if (k.startsWith(p)) data.delete(k);
    },
    has: async (k) => data.has(k),
  };
}
