/**
 * The desktop's platform adapters for `createApp`: electron-store settings and the vault, both in
 * userData, the vault's cipher chosen by `decideSecretStorage` (see safe-storage.ts), asking the
 * operator when the system has no keyring.
 */
import type { App, BrowserWindow, Dialog, IpcMain, Shell } from 'electron';
import { AppError, ErrorCodes, isAppError } from '../../shared/model/errors';
import type { PlatformAdapters, SettingsBackend, Vault } from '../app/ports';
import type { Logger } from '../log';
import { createMemoryCipher, createPassphraseCipher, type SecretCipher } from '../store/cipher';
import { ensurePrivateDir } from '../store/files';
import { createMemoryVault, openVault } from '../store/vault';
import { createSafeStorageCipher, decideSecretStorage, PASSPHRASE_ENV, probeSafeStorage, takePassphrase, type SafeStorageLike, type SafeStorageStatus } from './safe-storage';
import { createNotifier, type NotificationClass } from './notify';
import { createReportPrinter, createSaveFile } from './report-pdf';
import { openElectronStoreSettings } from './settings';
import { createUpdater, readFeedConfig, type AppUpdaterLike } from './updater';
import yaml from 'js-yaml';
import type { BrowserWindowClass } from './window';

/** Settings key remembering "keep secrets in memory, don't ask again" for a system without a keyring. */
export const NO_KEYRING_CHOICE_KEY = 'secretStorage.whenNoKeyring';

type MessageBox = Pick<Dialog, 'showMessageBox'>;

/** What the report's hidden window and the save dialog need from main.ts. */
export interface DesktopFileDeps {
  BrowserWindow: BrowserWindowClass;
  /** The main window's preload (the hidden report window gets the same). */
  preload: string;
  /** The page the main window loads (`northbound://app/index.html` or the dev server). */
  entryUrl: string;
  /** The main window, when one is open (the save dialog's parent). */
  mainWindow(): BrowserWindow | undefined;
}

export interface DesktopAdapterDeps {
  app: Pick<App, 'getPath' | 'getVersion'> & Partial<Pick<App, 'isPackaged'>>;
  /** Where the packaged app's resources are (process.resourcesPath): its update feed. */
  resourcesPath?: string;
  safeStorage: SafeStorageLike;
  dialog: MessageBox & Partial<Pick<Dialog, 'showSaveDialog'>>;
  /** The risk report's PDF and main's save dialog (exports, reports); without them files go as in browser mode. */
  files?: DesktopFileDeps;
  ipcMain?: Pick<IpcMain, 'removeAllListeners'>;
  /** Opens the data folder in the file manager (Settings page). */
  shell?: Pick<Shell, 'openPath'>;
  /** The system's notifications for new alarms (C-31); a click brings `mainWindow` forward. */
  notifications?: { Notification: NotificationClass; mainWindow(): BrowserWindow | undefined };
  logger: Logger;
  platform?: NodeJS.Platform;
  env?: NodeJS.ProcessEnv;
}

/** Shown when safeStorage is not usable and no passphrase was given. */
export async function askWhenNoKeyring(dialog: MessageBox, status: SafeStorageStatus): Promise<{ choice: 'memory' | 'quit'; remember: boolean }> {
  const { response, checkboxChecked } = await dialog.showMessageBox({
    type: 'warning',
    title: 'Saved passwords',
    message: 'Northbound cannot keep passwords safely on this computer.',
    detail:
      `${status.reason ?? ''}\n\n` +
      'Keep passwords in memory only: you enter them again after every restart.\n\n' +
      'Or quit, then start a system keyring (GNOME Keyring, KWallet), or start Northbound with the ' +
      `environment variable ${PASSPHRASE_ENV} set to a passphrase of your choice: saved passwords are then encrypted with it.`,
    buttons: ['Keep in memory only', 'Quit'],
    defaultId: 0,
    cancelId: 1,
    noLink: true,
    checkboxLabel: "Don't ask again",
  });
  return { choice: response === 0 ? 'memory' : 'quit', remember: response === 0 && checkboxChecked };
}

/** Shown when the vault on disk cannot be opened with the storage in use; the file is left alone. */
async function askWhenLocked(dialog: MessageBox, message: string, hint: string): Promise<'memory' | 'quit'> {
  const { response } = await dialog.showMessageBox({
    type: 'error',
    title: 'Saved passwords',
    message,
    detail: `${hint}\n\nYou can continue with passwords kept in memory only for this session; the vault file is not changed.`,
    buttons: ['Continue with memory only', 'Quit'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  });
  return response === 0 ? 'memory' : 'quit';
}

/** Opens the desktop vault, or answers undefined when the operator chose to quit. */
export async function openDesktopVault(d: DesktopAdapterDeps, dataDir: string, settings: SettingsBackend): Promise<Vault | undefined> {
  const logger = d.logger.child('vault');
  const platform = d.platform ?? process.platform;
  const status = await probeSafeStorage(d.safeStorage, platform);
  const passphrase = takePassphrase(d.env ?? process.env);
  const decision = decideSecretStorage(status, { passphrase, rememberedChoice: settings.get(NO_KEYRING_CHOICE_KEY) });
  logger.info('secret storage', { decision, backend: status.backend, ...(status.reason ? { reason: status.reason } : {}) });

  let cipher: SecretCipher;
  if (decision === 'passphrase') cipher = createPassphraseCipher(passphrase ?? '');
  else if (decision === 'safeStorage') cipher = createSafeStorageCipher(d.safeStorage, platform);
  else if (decision === 'memory') cipher = createMemoryCipher();
  else {
    const answer = await askWhenNoKeyring(d.dialog, status);
    if (answer.choice === 'quit') return undefined;
    if (answer.remember) settings.set(NO_KEYRING_CHOICE_KEY, 'memory');
    cipher = createMemoryCipher();
  }

  try {
    // A safeStorage vault whose keyring key is gone cannot be recovered: keep the file aside, start anew.
    return await openVault({ dataDir, cipher, logger, whenUnreadable: cipher.kind === 'safeStorage' ? 'move-aside' : 'throw' });
  } catch (e) {
    if (!isAppError(e) || (e.code !== 'vault.locked' && e.code !== 'vault.unavailable')) throw e;
    logger.warn('the vault could not be opened', { code: e.code, message: e.message });
    if ((await askWhenLocked(d.dialog, e.message, e.hint)) === 'quit') return undefined;
    return createMemoryVault(createMemoryCipher(), logger);
  }
}

/** Everything `createApp` needs on the desktop; undefined when the operator chose to quit. */
export async function createDesktopAdapters(d: DesktopAdapterDeps): Promise<PlatformAdapters | undefined> {
  const dataDir = d.app.getPath('userData');
  // Electron creates userData with the umask's mode (often 0755): everything in it is the user's alone.
  await ensurePrivateDir(dataDir);
  const settings = openElectronStoreSettings(dataDir, d.logger.child('settings'), d.ipcMain);
  const vault = await openDesktopVault(d, dataDir, settings);
  if (!vault) return undefined;
  const shell = d.shell;
  const files = d.files;
  const showSaveDialog = d.dialog.showSaveDialog?.bind(d.dialog);
  const updater = createDesktopUpdater(d);
  return {
    mode: 'desktop',
    dataDir,
    vault,
    settings,
    logger: d.logger,
    version: d.app.getVersion(),
    ...(shell ? { openDataDir: () => openFolder(shell, dataDir) } : {}),
    updater,
    ...(d.notifications ? { notify: createNotifier({ ...d.notifications, logger: d.logger.child('notify') }) } : {}),
    ...(files && showSaveDialog
      ? {
          saveFile: createSaveFile({ dialog: { showSaveDialog }, parent: files.mainWindow, startDir: documentsDir(d.app) }),
          printToPdf: createReportPrinter({ BrowserWindow: files.BrowserWindow, preload: files.preload, entryUrl: files.entryUrl, logger: d.logger.child('report') }),
        }
      : {}),
  };
}

/**
 * The app's updates: the build's feed (resources/app-update.yml, written by electron-builder's
 * `publish`); electron-updater is loaded only when the operator first asks. A start from a clone
 * has none (updates come with the clone).
 */
function createDesktopUpdater(d: DesktopAdapterDeps) {
  const packaged = d.app.isPackaged === true;
  const feed = packaged ? readFeedConfig(d.resourcesPath, (text) => yaml.load(text)) : undefined;
  const port = createUpdater({
    updater: async () => (await import('electron-updater')).autoUpdater as unknown as AppUpdaterLike,
    feed,
    version: d.app.getVersion(),
    platform: process.platform,
    logger: d.logger.child('updates'),
  });
  if (packaged) return port;
  // From a clone: the same port, off, with the reason a developer needs.
  const status = { ...port.status(), state: 'off' as const, message: 'Started from a clone: update it with git pull and npm install.' };
  return { ...port, status: () => status, check: async () => status, download: async () => status };
}

/** Where save dialogs start; none when the system names no documents folder. */
function documentsDir(app: Pick<App, 'getPath'>): string | undefined {
  try {
    return app.getPath('documents');
  } catch {
    return undefined;
  }
}

/** shell.openPath answers an error text instead of throwing. */
async function openFolder(shell: Pick<Shell, 'openPath'>, dir: string): Promise<void> {
  const failure = await shell.openPath(dir);
  if (failure) throw new AppError(ErrorCodes.internal, `The file manager could not open the data folder: ${failure}`, 'Copy the location and open it yourself.');
}
