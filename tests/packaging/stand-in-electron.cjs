/**
 * A stand-in `electron` for the packaged app loaded in plain Node (tests/packaging): the parts
 * main.cjs uses, keeping Electron 45's rules on ready (node_modules/electron/electron.d.ts) —
 * schemes, the sandbox and the lock before ready; sessions, protocol handlers, windows,
 * notifications and the dialogs (but showErrorBox) after it; one ipcMain handler per channel.
 * A breach throws, as Electron does. What happened is kept in `standIn.record`.
 *
 * NB_STANDIN_DATA is the app data folder (appData and userData are set under it).
 */
const { EventEmitter } = require('node:events');
const path = require('node:path');

const record = { timeline: [], handlers: [], protocolHandlers: {}, windows: [], quit: 0, errors: [] };
let ready = false;
const mark = (name) => record.timeline.push(`${name}@${ready ? 'ready' : 'before'}`);
const requireReady = (name) => {
  mark(name);
  if (!ready) throw new Error(`${name} cannot be used before the app is ready`);
};

const appEvents = new EventEmitter();
let resolveReady;
const whenReady = new Promise((r) => (resolveReady = r));
const base = process.env.NB_STANDIN_DATA;
if (!base) throw new Error('NB_STANDIN_DATA must name the stand-in data folder.');
const paths = new Map([
  ['home', base],
  ['appData', path.join(base, 'config')],
  ['userData', path.join(base, 'config', 'Northbound')],
  ['sessionData', path.join(base, 'config', 'Northbound')],
  ['temp', path.join(base, 'tmp')],
  ['documents', path.join(base, 'Documents')],
  ['downloads', path.join(base, 'Downloads')],
  ['logs', path.join(base, 'config', 'Northbound', 'logs')],
]);

class WebContents extends EventEmitter {
  constructor() {
    super();
    this.destroyed = false;
  }
  setWindowOpenHandler(h) {
    this.windowOpenHandler = h;
  }
  send() {}
  isDestroyed() {
    return this.destroyed;
  }
  async executeJavaScript() {
    return undefined;
  }
}

class BrowserWindow extends EventEmitter {
  constructor(options) {
    super();
    requireReady('BrowserWindow');
    this.options = options;
    this.webContents = new WebContents();
    record.windows.push({ options: { width: options.width, height: options.height, show: options.show, webPreferences: options.webPreferences } });
    appEvents.emit('web-contents-created', {}, this.webContents);
  }
  async loadURL(url) {
    record.windows[record.windows.length - 1].url = url;
  }
  show() {}
  focus() {}
  restore() {}
  isMinimized() {
    return false;
  }
  isDestroyed() {
    return this.webContents.destroyed;
  }
  destroy() {
    this.webContents.destroyed = true;
  }
}

class Notification extends EventEmitter {
  static isSupported() {
    return true;
  }
  constructor(options) {
    super();
    requireReady('Notification');
    this.options = options;
  }
  show() {}
}

const defaultSession = {
  webRequest: { onHeadersReceived() {} },
  setPermissionRequestHandler() {},
  setPermissionCheckHandler() {},
  setDevicePermissionHandler() {},
};

const app = {
  isPackaged: true,
  commandLine: { hasSwitch: (name) => process.argv.includes(`--${name}`) },
  requestSingleInstanceLock() {
    mark('requestSingleInstanceLock');
    return true;
  },
  quit() {
    record.quit += 1;
    appEvents.emit('quit-called');
  },
  exit(code) {
    record.exitCode = code;
  },
  enableSandbox() {
    mark('enableSandbox');
    if (ready) throw new Error('app.enableSandbox() can only be called before app is ready');
  },
  isReady: () => ready,
  whenReady: () => whenReady,
  getPath(name) {
    const p = paths.get(name);
    if (p === undefined) throw new Error(`Failed to get '${name}' path`);
    return p;
  },
  setPath(name, p) {
    mark(`setPath:${name}`);
    paths.set(name, p);
  },
  setAppUserModelId() {
    mark('setAppUserModelId');
  },
  getAppPath: () => process.env.NB_STANDIN_APP_PATH,
  getVersion: () => require(path.join(process.env.NB_STANDIN_APP_PATH, 'package.json')).version,
  getName: () => require(path.join(process.env.NB_STANDIN_APP_PATH, 'package.json')).productName,
  setAboutPanelOptions() {},
  showAboutPanel() {},
  on(name, l) {
    appEvents.on(name, l);
    return app;
  },
};

const ipcMain = {
  handle(channel, h) {
    if (record.handlers.includes(channel)) throw new Error(`Attempted to register a second handler for '${channel}'`);
    record.handlers.push(channel);
    ipcMain._handlers.set(channel, h);
  },
  _handlers: new Map(),
  removeHandler(channel) {
    ipcMain._handlers.delete(channel);
    record.handlers = record.handlers.filter((c) => c !== channel);
  },
  removeAllListeners() {},
  on() {},
};

const electron = {
  app,
  ipcMain,
  get session() {
    return {
      get defaultSession() {
        requireReady('session.defaultSession');
        return defaultSession;
      },
    };
  },
  BrowserWindow,
  Notification,
  shell: { async openExternal() {}, async openPath() {} },
  protocol: {
    registerSchemesAsPrivileged(schemes) {
      mark('registerSchemesAsPrivileged');
      if (ready) throw new Error('protocol.registerSchemesAsPrivileged should be called before app is ready');
      record.schemes = schemes;
    },
    handle(scheme, handler) {
      requireReady('protocol.handle');
      record.protocolHandlers[scheme] = handler;
    },
  },
  Menu: { buildFromTemplate: (t) => ({ template: t }), setApplicationMenu() {} },
  dialog: {
    async showMessageBox() {
      requireReady('dialog.showMessageBox');
      return { response: 1, checkboxChecked: false };
    },
    showErrorBox(title, content) {
      record.errors.push(`${title}: ${content}`);
    },
    showMessageBoxSync(options) {
      requireReady('dialog.showMessageBoxSync');
      record.errors.push(`${options.title}: ${options.message}`);
      return 0;
    },
    async showSaveDialog() {
      requireReady('dialog.showSaveDialog');
      return { canceled: true };
    },
  },
  safeStorage: {
    isEncryptionAvailable: () => ready,
    getSelectedStorageBackend: () => (ready ? 'gnome_libsecret' : 'unknown'),
    encryptString: (s) => Buffer.from(`k:${s}`),
    decryptString: (b) => b.toString().slice(2),
    isAsyncEncryptionAvailable: async () => ready,
    encryptStringAsync: async (s) => Buffer.from(`a:${s}`),
    decryptStringAsync: async (b) => ({ shouldReEncrypt: false, result: b.toString().slice(2) }),
  },
};

/** The test's handle: the record, and the app's ready. */
electron.standIn = {
  record,
  appEvents,
  ready() {
    ready = true;
    appEvents.emit('ready');
    resolveReady();
  },
};

module.exports = electron;
