/**
 * A fake of the parts of `electron` the main process uses: records what was called, plays events
 * back, and keeps Electron 45's documented rules (node_modules/electron/electron.d.ts) where main
 * could break them (issue 23.8): `session`, `protocol.handle`, windows, `Notification`, the
 * dialogs (but `showErrorBox`) and safeStorage's encryption only after ready; schemes registered
 * only before it; a second `ipcMain.handle` of one channel throws; `getPath` answers per name and
 * throws for an unknown one; `isPackaged` as asked; safeStorage with the async API Electron 45 has
 * beside its deprecated sync one (or the sync one only, as older releases).
 */
import { EventEmitter } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { vi } from 'vitest';

/** The error real Electron throws for a use before ready (the wording varies by module; the point is that it throws). */
const notReady = (what: string) => new Error(`${what} cannot be used before the app is ready`);

export class FakeWebContents extends EventEmitter {
  windowOpenHandler?: (details: { url: string }) => { action: string };
  sent: Array<[string, unknown]> = [];
  destroyed = false;
  setWindowOpenHandler = vi.fn((h: (details: { url: string }) => { action: string }) => {
    this.windowOpenHandler = h;
  });
  send = vi.fn((channel: string, payload: unknown) => void this.sent.push([channel, payload]));
  isDestroyed = () => this.destroyed;
  /** What the page answers to `executeJavaScript` (the report's readiness probe), one call at a time. */
  pageAnswers: unknown[] = [];
  executeJavaScript = vi.fn(async (_code: string, _userGesture?: boolean) => this.pageAnswers.shift());
  printToPDF = vi.fn(async (_options: Record<string, unknown>) => Buffer.from('%PDF-1.7 fake'));
  /** Emits `name` with a preventable event; answers whether a handler prevented it. */
  fire(name: string, ...args: unknown[]): boolean {
    let prevented = false;
    this.emit(name, { preventDefault: () => (prevented = true) }, ...args);
    return prevented;
  }
}

export interface FakeElectronOptions {
  lock?: boolean;
  userData: string;
  appPath?: string;
  /** The home folder the other paths are under (default /home/op). */
  home?: string;
  /** `app.isPackaged` (default false: `npm start`). */
  packaged?: boolean;
  /** Start already past ready (tests of one module that runs after it). */
  ready?: boolean;
  /** Which safeStorage API the release has: Electron 45's async one beside the sync one (default), or the sync one only. */
  safeStorage?: 'async' | 'sync-only';
  /** The platform safeStorage behaves as (Linux: nothing is available before ready). */
  platform?: NodeJS.Platform;
  /** Chromium switches on the command line (`app.commandLine.hasSwitch`), e.g. 'no-sandbox'. */
  switches?: string[];
}

export function createFakeElectron(opts: FakeElectronOptions) {
  const appEvents = new EventEmitter();
  const windows: FakeBrowserWindow[] = [];
  const handlers = new Map<string, (event: unknown, request: unknown) => Promise<unknown>>();
  let isReady = false;
  let resolveReady: () => void = () => undefined;
  const whenReadyPromise = new Promise<void>((resolve) => (resolveReady = resolve));
  /** Order of the calls that matter for start-up, with whether the app was ready: `name@ready` or `name@before`. */
  const timeline: string[] = [];
  const mark = (name: string) => timeline.push(`${name}@${isReady ? 'ready' : 'before'}`);
  const ready = {
    resolve: () => {
      if (isReady) return;
      isReady = true;
      appEvents.emit('ready');
      resolveReady();
    },
  };
  const requireReady = (what: string) => {
    mark(what);
    if (!isReady) throw notReady(what);
  };

  class FakeBrowserWindow extends EventEmitter {
    webContents = new FakeWebContents();
    loadURL = vi.fn(async (_url: string) => undefined);
    show = vi.fn();
    focus = vi.fn();
    restore = vi.fn();
    isMinimized = vi.fn(() => false);
    isDestroyed = vi.fn(() => this.webContents.destroyed);
    destroy = vi.fn(() => {
      this.webContents.destroyed = true;
    });
    constructor(public options: Record<string, unknown>) {
      super();
      requireReady('BrowserWindow');
      windows.push(this);
      appEvents.emit('web-contents-created', {}, this.webContents);
    }
  }

  /** The system's notifications: every one made is kept with what it was shown with; `supported` says whether the system has any. */
  const notifications: FakeNotification[] = [];
  class FakeNotification extends EventEmitter {
    static supported = true;
    static isSupported = vi.fn(() => FakeNotification.supported);
    shown = 0;
    show = vi.fn(() => void (this.shown += 1));
    constructor(public options: { title?: string; body?: string; silent?: boolean }) {
      super();
      requireReady('Notification');
      notifications.push(this);
    }
  }

  const defaultSession = {
    webRequest: { onHeadersReceived: vi.fn() },
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
    setDevicePermissionHandler: vi.fn(),
  };
  const session = {
    get defaultSession() {
      requireReady('session.defaultSession');
      return defaultSession;
    },
  };
  const home = opts.home ?? '/home/op';
  const paths = new Map<string, string>([
    ['home', home],
    ['appData', path.dirname(opts.userData)],
    ['userData', opts.userData],
    ['sessionData', opts.userData],
    ['temp', os.tmpdir()],
    ['desktop', path.join(home, 'Desktop')],
    ['documents', path.join(home, 'Documents')],
    ['downloads', path.join(home, 'Downloads')],
    ['music', path.join(home, 'Music')],
    ['pictures', path.join(home, 'Pictures')],
    ['videos', path.join(home, 'Videos')],
    ['logs', path.join(opts.userData, 'logs')],
    ['crashDumps', path.join(opts.userData, 'Crashpad')],
  ]);
  const app = {
    requestSingleInstanceLock: vi.fn(() => {
      mark('requestSingleInstanceLock');
      return opts.lock ?? true;
    }),
    quit: vi.fn(),
    exit: vi.fn(),
    enableSandbox: vi.fn(() => {
      mark('enableSandbox');
      if (isReady) throw new Error('app.enableSandbox() can only be called before app is ready');
    }),
    isPackaged: opts.packaged ?? false,
    commandLine: { hasSwitch: vi.fn((name: string) => (opts.switches ?? []).includes(name)) },
    isReady: vi.fn(() => isReady),
    whenReady: vi.fn(() => whenReadyPromise),
    getPath: vi.fn((name: string) => {
      const p = paths.get(name);
      if (p === undefined) throw new Error(`Failed to get '${name}' path`);
      return p;
    }),
    setPath: vi.fn((name: string, p: string) => {
      mark(`setPath:${name}`);
      if (!path.isAbsolute(p)) throw new Error(`Path must be absolute: ${p}`);
      paths.set(name, p);
      if (name === 'userData') paths.set('sessionData', p);
    }),
    setAppUserModelId: vi.fn((_id: string) => void mark('setAppUserModelId')),
    getAppPath: vi.fn(() => opts.appPath ?? '/opt/northbound/app.asar'),
    getVersion: vi.fn(() => '0.1.0'),
    setAboutPanelOptions: vi.fn(),
    showAboutPanel: vi.fn(),
    on: vi.fn((name: string, l: (...a: unknown[]) => void) => void appEvents.on(name, l)),
    emit: (name: string, ...args: unknown[]) => appEvents.emit(name, ...args),
  };
  const ipcMain = {
    handle: vi.fn((channel: string, h: (event: unknown, request: unknown) => Promise<unknown>) => {
      if (handlers.has(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
      handlers.set(channel, h);
    }),
    removeHandler: vi.fn((channel: string) => void handlers.delete(channel)),
    removeAllListeners: vi.fn(),
    on: vi.fn(),
  };
  const platform = opts.platform ?? 'linux';
  /** Linux has no encryption before ready; the other systems answer at once (electron.d.ts, isEncryptionAvailable). */
  const encryptionNow = () => platform !== 'linux' || isReady;
  const syncSafeStorage = {
    isEncryptionAvailable: vi.fn(() => encryptionNow()),
    getSelectedStorageBackend: vi.fn(() => 'gnome_libsecret'),
    encryptString: vi.fn((s: string) => {
      if (!encryptionNow()) throw new Error('Error while encrypting the text provided to safeStorage.encryptString. Encryption is not available.');
      return Buffer.from(`k:${s}`);
    }),
    decryptString: vi.fn((b: Buffer) => {
      if (!encryptionNow()) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString. Decryption is not available.');
      return b.toString().slice(2);
    }),
  };
  const asyncSafeStorage = {
    isAsyncEncryptionAvailable: vi.fn(async () => isReady),
    encryptStringAsync: vi.fn(async (s: string) => {
      requireReady('safeStorage.encryptStringAsync');
      return Buffer.from(`a:${s}`);
    }),
    decryptStringAsync: vi.fn(async (b: Buffer) => {
      requireReady('safeStorage.decryptStringAsync');
      const text = b.toString();
      // What the sync API wrote reads too, and asks to be written again.
      return { shouldReEncrypt: text.startsWith('k:'), result: text.slice(2) };
    }),
  };
  const safeStorage = (opts.safeStorage ?? 'async') === 'async' ? { ...syncSafeStorage, ...asyncSafeStorage } : syncSafeStorage;
  const electron = {
    app,
    ipcMain,
    session,
    BrowserWindow: FakeBrowserWindow,
    Notification: FakeNotification,
    shell: { openExternal: vi.fn(async () => undefined), openPath: vi.fn() },
    protocol: {
      registerSchemesAsPrivileged: vi.fn((_schemes: unknown) => {
        mark('registerSchemesAsPrivileged');
        if (isReady) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
      }),
      handle: vi.fn((_scheme: string, _handler: unknown) => requireReady('protocol.handle')),
    },
    Menu: { buildFromTemplate: vi.fn((t: unknown) => ({ template: t })), setApplicationMenu: vi.fn() },
    dialog: {
      showMessageBox: vi.fn(async (..._args: unknown[]) => {
        requireReady('dialog.showMessageBox');
        return { response: 1, checkboxChecked: false };
      }),
      // The one dialog Electron allows before ready (early errors).
      showErrorBox: vi.fn(),
      showMessageBoxSync: vi.fn((..._args: unknown[]) => {
        requireReady('dialog.showMessageBoxSync');
        return 0;
      }),
      showSaveDialog: vi.fn(async (..._args: unknown[]) => {
        requireReady('dialog.showSaveDialog');
        return { canceled: false, filePath: '/home/op/Documents/report.pdf' as string | undefined };
      }),
    },
    safeStorage,
  };
  if (opts.ready) ready.resolve();
  return { electron, windows, handlers, ready, appEvents, notifications, timeline, paths };
}
