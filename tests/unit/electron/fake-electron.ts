/** A fake of the parts of `electron` the main process uses: records what was called, plays events back. */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

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

export function createFakeElectron(opts: { lock?: boolean; userData: string; appPath?: string }) {
  const appEvents = new EventEmitter();
  const windows: FakeBrowserWindow[] = [];
  const handlers = new Map<string, (event: unknown, request: unknown) => Promise<unknown>>();
  const ready = { resolve: () => undefined as void };
  const whenReadyPromise = new Promise<void>((resolve) => (ready.resolve = resolve));

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
      notifications.push(this);
    }
  }

  const session = {
    defaultSession: {
      webRequest: { onHeadersReceived: vi.fn() },
      setPermissionRequestHandler: vi.fn(),
      setPermissionCheckHandler: vi.fn(),
      setDevicePermissionHandler: vi.fn(),
    },
  };
  const app = {
    requestSingleInstanceLock: vi.fn(() => opts.lock ?? true),
    quit: vi.fn(),
    exit: vi.fn(),
    enableSandbox: vi.fn(),
    isPackaged: false,
    whenReady: vi.fn(() => whenReadyPromise),
    getPath: vi.fn(() => opts.userData),
    getAppPath: vi.fn(() => opts.appPath ?? '/opt/northbound/app.asar'),
    getVersion: vi.fn(() => '0.1.0'),
    setAboutPanelOptions: vi.fn(),
    showAboutPanel: vi.fn(),
    on: vi.fn((name: string, l: (...a: unknown[]) => void) => void appEvents.on(name, l)),
    emit: (name: string, ...args: unknown[]) => appEvents.emit(name, ...args),
  };
  const ipcMain = {
    handle: vi.fn((channel: string, h: (event: unknown, request: unknown) => Promise<unknown>) => void handlers.set(channel, h)),
    removeHandler: vi.fn((channel: string) => void handlers.delete(channel)),
    removeAllListeners: vi.fn(),
    on: vi.fn(),
  };
  const electron = {
    app,
    ipcMain,
    session,
    BrowserWindow: FakeBrowserWindow,
    Notification: FakeNotification,
    shell: { openExternal: vi.fn(async () => undefined), openPath: vi.fn() },
    protocol: { registerSchemesAsPrivileged: vi.fn(), handle: vi.fn() },
    Menu: { buildFromTemplate: vi.fn((t: unknown) => ({ template: t })), setApplicationMenu: vi.fn() },
    dialog: {
      showMessageBox: vi.fn(async () => ({ response: 1, checkboxChecked: false })),
      showErrorBox: vi.fn(),
      showSaveDialog: vi.fn(async (..._args: unknown[]) => ({ canceled: false, filePath: '/home/op/Documents/report.pdf' as string | undefined })),
    },
    safeStorage: {
      isEncryptionAvailable: vi.fn(() => true),
      getSelectedStorageBackend: vi.fn(() => 'gnome_libsecret'),
      encryptString: vi.fn((s: string) => Buffer.from(`k:${s}`)),
      decryptString: vi.fn((b: Buffer) => b.toString().slice(2)),
    },
  };
  return { electron, windows, handlers, ready, appEvents, notifications };
}
