/**
 * Stores written before the console kept a custom CA's PEM hold only its path (`caFile`). On
 * start, each such path is read once (asynchronously, a regular file under 1 MiB, see
 * net/pem-file.ts) and the PEM is kept with the connection; the path stays for the record. A
 * file that cannot be read leaves the entry as it is: using it asks for the CA file again.
 */
import path from 'node:path';
import { readPemFile } from '../net/pem-file';
import type { Logger } from '../log';
import type { SettingsBackend } from './ports';

const KEYS = ['profiles', 'edrConnectors'] as const;

type Entry = { id?: unknown; tls?: { mode?: unknown; caFile?: unknown; caPem?: unknown; caName?: unknown } };

export async function readLegacyCaFiles(settings: SettingsBackend, logger: Logger): Promise<number> {
  let migrated = 0;
  for (const key of KEYS) {
    const list = settings.get<unknown[]>(key);
    if (!Array.isArray(list)) continue;
    let changed = false;
    const next: unknown[] = [];
    for (const raw of list) {
      const e = raw as Entry;
      const tls = e?.tls;
      if (tls?.mode !== 'custom-ca' || typeof tls.caFile !== 'string' || typeof tls.caPem === 'string') {
        next.push(raw);
        continue;
      }
      try {
        const caPem = await readPemFile(tls.caFile);
        next.push({ ...e, tls: { ...tls, caPem, caName: typeof tls.caName === 'string' ? tls.caName : path.basename(tls.caFile) } });
        changed = true;
        migrated++;
      } catch (err) {
        logger.warn('the CA file of a connection could not be read; it must be chosen again', { key, id: String(e.id), error: err instanceof Error ? err.message : String(err) });
        next.push(raw);
      }
    }
    if (changed) settings.set(key, next);
  }
  return migrated;
}
