/**
 * The Electron main process, kept thin: one instance, security rules for every page, the menu,
 * the window, and wiring of the app (electron/app) to IPC. Logic lives in electron/platform/.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, Notification, protocol, safeStorage, session, shell } from 'electron';
import path from 'node:path';
import { createApp } from './app/services';
import { createDesktopAdapters } from './platform/adapters';
import { forwardEvents, registerIpc } from './platform/ipc';
import { applyIdentity } from './platform/identity';
import { sandboxRefusal, type SandboxRefusal } from './platform/sandbox';
import { installGracefulQuit, SHUTDOWN_CAP_MS } from './platform/lifecycle';
import { createDesktopLogger } from './platform/logging';
import { installMenu } from './platform/menu';
import { APP_ENTRY_URL, appOriginFor, registerAppScheme, serveRenderer } from './platform/protocol';
import { contentSecurityPolicy, guardAllWebContents, secureSession } from './platform/security';
import { createMainWindow, focusWindow, WINDOW_TITLE } from './platform/window';

// Never without Chromium's sandbox (sandbox.ts): said, then nothing else starts.
const refusal = sandboxRefusal(app.commandLine, { packaged: app.isPackaged, env: process.env, argv: process.argv });
// Before the lock, which Electron keys by the data folder (identity.ts).
const identity = refusal ? undefined : applyIdentity(app);

if (refusal) {
  refuse(refusal);
} else if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  run();
}

/** Says why the app will not start: on stderr at once, in a system dialog once ready (no window, no renderer). */
function refuse(r: SandboxRefusal): void {
  process.stderr.write(`${r.title}\n${r.message}\n${r.detail}\n`);
  void app.whenReady().then(() => {
    dialog.showMessageBoxSync({ type: 'error', title: r.title, message: r.message, detail: r.detail, buttons: ['Close'] });
    app.exit(1);
  });
}

function run(): void {
  const logger = createDesktopLogger(app.getPath('userData'));
  if (identity?.movedFrom) logger.info('data folder moved to the product’s name', { from: identity.movedFrom, to: identity.userData });
  // A packaged app never loads a URL from the environment.
  const devServerUrl = app.isPackaged ? undefined : process.env.VITE_DEV_SERVER_URL;
  const origin = appOriginFor(devServerUrl);
  const csp = contentSecurityPolicy(devServerUrl ? origin : undefined);
  const appPath = app.getAppPath();
  const preload = path.join(appPath, 'dist-electron', 'preload.cjs');
  const entryUrl = devServerUrl ?? APP_ENTRY_URL;
  let win: BrowserWindow | undefined;

  app.enableSandbox();
  registerAppScheme(protocol);
  guardAllWebContents(app, { origin, openExternal: (url) => shell.openExternal(url), logger: logger.child('security') });
  app.on('second-instance', () => focusWindow(win));
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  async function start(): Promise<void> {
    secureSession(session.defaultSession, { origin, csp, logger: logger.child('security') });
    serveRenderer(protocol, path.join(appPath, 'dist', 'renderer'), csp);
    app.setAboutPanelOptions({ applicationName: WINDOW_TITLE, applicationVersion: app.getVersion() });
    installMenu(Menu, { appName: WINDOW_TITLE, platform: process.platform, isDev: Boolean(devServerUrl), onAbout: () => app.showAboutPanel() });

    const adapters = await createDesktopAdapters({
      app,
      resourcesPath: process.resourcesPath,
      safeStorage,
      dialog,
      ipcMain,
      shell,
      logger,
      files: { BrowserWindow, preload, entryUrl, mainWindow: () => win },
      notifications: { Notification, mainWindow: () => win },
    });
    if (!adapters) return app.quit();
    const northbound = await createApp(adapters);
    installGracefulQuit(app, () => northbound.shutdown(), { logger, capMs: SHUTDOWN_CAP_MS });
    registerIpc({ ipcMain, router: northbound.router, origin, logger: logger.child('ipc') });
    forwardEvents(northbound.events, () => win?.webContents);

    const open = () => {
      win = createMainWindow(BrowserWindow, {
        preload,
        icon: path.join(appPath, 'dist-electron', 'icon.png'),
        url: entryUrl,
        logger,
      });
      win.on('closed', () => {
        win = undefined;
      });
    };
    open();
    app.on('activate', () => {
      if (!win) open();
    });
  }

  app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      logger.error('Northbound could not start', { error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
      dialog.showErrorBox('Northbound could not start', e instanceof Error ? e.message : String(e));
      app.exit(1);
    });
}
