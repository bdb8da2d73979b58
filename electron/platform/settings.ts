/**
 * Desktop settings: electron-store in the userData folder, through the same wrapper as the
 * conf backend (literal keys, 0600, a corrupt file moved aside rather than cleared).
 */
import type { IpcMain } from 'electron';
import ElectronStore from 'electron-store';
import type { Logger } from '../log';
import { prepareSettingsFile, SETTINGS_NAME, storeOptions, wrapStore, type SettingsBackend } from '../store/settings';

/** The sync IPC listener electron-store adds for renderer-side stores; the app has none. */
export const ELECTRON_STORE_IPC = 'electron-store-get-data';

export function openElectronStoreSettings(dataDir: string, logger: Logger, ipcMain?: Pick<IpcMain, 'removeAllListeners'>): SettingsBackend {
  prepareSettingsFile(dataDir, logger);
  const store = new ElectronStore<Record<string, unknown>>({ ...storeOptions(dataDir), name: SETTINGS_NAME });
  // electron-store registers an ipcMain listener any renderer could call; the only channels
  // main answers are the contract's (electron/platform/ipc.ts).
  ipcMain?.removeAllListeners(ELECTRON_STORE_IPC);
  return wrapStore(store, logger);
}
