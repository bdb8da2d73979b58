/**
 * Who the app is to the system (issue 23.2, 23.6), applied first thing in main.ts, before the
 * single-instance lock (which Electron keys by the data folder):
 * - on Windows, the app user model ID the installer's shortcut carries, so the system matches the
 *   app's notifications to it (without it, critical-alarm toasts silently vanish);
 * - the data folder: the product's own (`Northbound`, from package.json's productName) when
 *   packaged; one of its own in development, so `npm start` never runs migrations against the
 *   installed app's data nor takes its lock. An installed app that kept its data in the old
 *   lower-case folder (Linux, where names differ by case) has it moved once.
 */
import type { App } from 'electron';
import { existsSync, renameSync } from 'node:fs';
import path from 'node:path';

/** electron-builder.yml's appId (a test keeps them equal). */
export const APP_ID = 'io.northbound.console';
/** package.json's productName: the app's name in menus and its data folder. */
export const PRODUCT_NAME = 'Northbound';
/** Where `npm start` keeps its data, beside the installed app's. */
export const DEV_DATA_FOLDER = 'Northbound (development)';
/** The folder both used before the product had a name (package.json's `name`). */
export const LEGACY_DATA_FOLDER = 'northbound';

export interface IdentityOutcome {
  userData: string;
  /** The legacy folder moved into place, if it was. */
  movedFrom?: string;
}

export interface IdentityFs {
  exists(p: string): boolean;
  rename(from: string, to: string): void;
}

const nodeFs: IdentityFs = { exists: existsSync, rename: renameSync };

export function applyIdentity(app: Pick<App, 'isPackaged' | 'getPath' | 'setPath' | 'setAppUserModelId'>, platform: NodeJS.Platform = process.platform, fs: IdentityFs = nodeFs): IdentityOutcome {
  if (platform === 'win32') app.setAppUserModelId(APP_ID);
  const appData = app.getPath('appData');
  if (!app.isPackaged) {
    const userData = path.join(appData, DEV_DATA_FOLDER);
    app.setPath('userData', userData);
    return { userData };
  }
  const userData = app.getPath('userData');
  const legacy = path.join(appData, LEGACY_DATA_FOLDER);
  // Case-insensitive file systems (Windows, macOS) already see the old folder under the new name.
  if (platform === 'linux' && userData !== legacy && !fs.exists(userData) && fs.exists(legacy)) {
    fs.rename(legacy, userData);
    return { userData, movedFrom: legacy };
  }
  return { userData };
}
