/**
 * The storage ports: what the services need from a secret vault and a settings store. Electron
 * adapters (electron/platform) and Node ones (this folder) implement them; app/ports.ts
 * re-exports them for the composition root. They live here so the store never imports app/.
 */
export interface Vault {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  /** Sets every pair in order (a later pair wins over an earlier one of the same key), in one write; none is kept if that write fails. */
  setMany(entries: ReadonlyArray<readonly [key: string, value: string]>): Promise<void>;
  delete(key: string): Promise<void>;
  deletePrefix(prefix: string): Promise<void>;
  has(key: string): Promise<boolean>;
  readonly persistent: boolean;
  readonly kind: string;
}

export interface SettingsBackend {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}
