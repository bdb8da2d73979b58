/**
 * Settings: a flat key/value JSON file, `<dataDir>/settings.json`, through `conf` (atomic
 * writes). Desktop uses the same wrapper over electron-store (electron/platform/settings.ts).
 * A file that is not a JSON object is never cleared in place: it is moved to
 * `settings.json.corrupt-<time>` first, at open and whenever a later read finds it broken.
 * Plain Node.
 */
import Conf from 'conf';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SettingsBackend } from './ports';
import type { Logger } from '../log';
import { PRIVATE_FILE_MODE, ensurePrivateDirSync, moveAsideSync, restrictModeSync } from './files';

export type { SettingsBackend } from './ports';

export const SETTINGS_NAME = 'settings';
export const SETTINGS_FILE = `${SETTINGS_NAME}.json`;

/** The store both backends share (conf and electron-store have the same API). */
export interface KeyValueStore {
  readonly path: string;
  get(key: string): unknown;
  set(key: string, value: unknown): void;
  delete(key: string): void;
}

/** Options common to conf and electron-store: literal keys, owner-only file, no silent reset. */
export const storeOptions = (dataDir: string) => ({
  cwd: dataDir,
  // Keys are literal (`oauthClients.<id>` is one key), so an id with a dot cannot nest.
  accessPropertiesByDotNotation: false,
  configFileMode: PRIVATE_FILE_MODE,
  // conf would otherwise replace an unreadable file with {}: we move it aside ourselves first.
  clearInvalidConfig: false,
  watch: false,
});

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Moves `<dataDir>/settings.json` aside when it is not a JSON object; answers where it went. */
export function quarantineIfCorrupt(file: string, logger: Logger): string | undefined {
  if (!existsSync(file)) return undefined;
  let ok: boolean;
  try {
    ok = isPlainObject(JSON.parse(readFileSync(file, 'utf8')));
  } catch {
    ok = false;
  }
  if (ok) return undefined;
  const moved = moveAsideSync(file, 'corrupt');
  logger.warn('the settings file was damaged; it was moved aside and defaults are used', { file, movedTo: moved });
  return moved;
}

const isBrokenFile = (e: unknown) => e instanceof SyntaxError || (e instanceof Error && e.message.startsWith('Config schema violation'));

/**
 * Wraps a conf-like store as the app's SettingsBackend. If the file turns out broken later (edited
 * by hand while the app runs), it is moved aside and the operation retried on a fresh file.
 */
export function wrapStore(store: KeyValueStore, logger: Logger): SettingsBackend {
  const guarded = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      if (!isBrokenFile(e) || !existsSync(store.path)) throw e;
      const moved = moveAsideSync(store.path, 'corrupt');
      logger.warn('the settings file was damaged; it was moved aside and defaults are used', { file: store.path, movedTo: moved });
      return fn();
    }
  };
  return {
    get: <T>(key: string) => guarded(() => store.get(key) as T | undefined),
    set: (key, value) => guarded(() => (value === undefined ? store.delete(key) : store.set(key, value))),
    delete: (key) => guarded(() => store.delete(key)),
  };
}

/**
 * Before a settings store opens: the data folder owner-only (0700), a settings file left wider
 * narrowed to 0600 (conf and electron-store set 0600 only when they write), a broken one moved aside.
 */
export function prepareSettingsFile(dataDir: string, logger: Logger): void {
  ensurePrivateDirSync(dataDir);
  const file = path.join(dataDir, SETTINGS_FILE);
  restrictModeSync(file, PRIVATE_FILE_MODE);
  quarantineIfCorrupt(file, logger);
}

/** Settings for browser mode and the CLI: `conf` in `dataDir`. */
export function openConfSettings(dataDir: string, logger: Logger): SettingsBackend {
  prepareSettingsFile(dataDir, logger);
  const store = new Conf<Record<string, unknown>>({ ...storeOptions(dataDir), configName: SETTINGS_NAME, projectName: 'northbound', projectSuffix: '' });
  return wrapStore(store, logger);
}
