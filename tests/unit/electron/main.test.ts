import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { channelNames } from '../../../shared/contract';
import type { PlatformAdapters } from '../../../electron/app/ports';
import { readFileSync } from 'node:fs';
import { APP_ID, DEV_DATA_FOLDER, PRODUCT_NAME } from '../../../electron/platform/identity';
import { createFakeElectron, type FakeElectronOptions } from './fake-electron';

const h = vi.hoisted(() => ({
  fake: undefined as unknown as ReturnType<typeof createFakeElectron>,
  shutdown: vi.fn(async () => undefined),
  invoke: vi.fn(),
  adapters: undefined as PlatformAdapters | undefined,
}));

// Every test builds a fresh fake; the mocked module reads the current one on each access.
vi.mock('electron', () => {
  const current = new Proxy({}, { get: (_t, key) => (h.fake.electron as Record<string | symbol, unknown>)[key] });
  return new Proxy({ default: current }, { get: (t, key) => (key === 'default' ? t.default : Reflect.get(current, key)), has: () => true });
});
vi.mock('../../../electron/platform/logging', async () => {
  const { createMemoryLogger } = await import('../../../electron/log');
  return { createDesktopLogger: () => createMemoryLogger() };
});
vi.mock('../../../electron/app/services', () => ({
  createApp: vi.fn(async (adapters: PlatformAdapters) => {
    h.adapters = adapters;
    return { router: { invoke: h.invoke }, events: { subscribe: vi.fn(() => () => undefined) }, shutdown: h.shutdown };
  }),
}));

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-main-'));
  vi.resetModules();
  h.shutdown.mockClear();
  h.adapters = undefined;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Main started on a fake Electron whose data folders are under this test's own folder. */
async function boot(lock = true, more: Partial<FakeElectronOptions> = {}) {
  h.fake = createFakeElectron({ lock, userData: path.join(dir, 'config', PRODUCT_NAME), ...more });
  await import('../../../electron/main');
  return h.fake;
}
const started = async (fake: ReturnType<typeof createFakeElectron>) => {
  fake.ready.resolve();
  await vi.waitFor(() => expect(fake.windows).toHaveLength(1));
  return fake.windows[0]!;
};

describe('electron/main.ts', () => {
  it('quits at once when another instance holds the lock', async () => {
    const fake = await boot(false);
    expect(fake.electron.app.requestSingleInstanceLock).toHaveBeenCalled();
    expect(fake.electron.app.quit).toHaveBeenCalled();
    expect(fake.electron.app.whenReady).not.toHaveBeenCalled();
    expect(fake.windows).toHaveLength(0);
  });

  it('creates a secure window on the app scheme and wires every contract channel', async () => {
    const fake = await boot();
    expect(fake.electron.app.enableSandbox).toHaveBeenCalled();
    expect(fake.electron.protocol.registerSchemesAsPrivileged).toHaveBeenCalled();
    const win = await started(fake);
    expect(win.options).toMatchObject({ width: 1280, height: 820, minWidth: 960, minHeight: 640, show: false, title: 'Northbound' });
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, preload: path.join('/opt/northbound/app.asar', 'dist-electron', 'preload.cjs') });
    expect(win.loadURL).toHaveBeenCalledWith('northbound://app/index.html');
    expect(fake.electron.protocol.handle).toHaveBeenCalledWith('northbound', expect.any(Function));
    expect([...fake.handlers.keys()].sort()).toEqual([...channelNames].sort());
    expect(fake.electron.session.defaultSession.setPermissionRequestHandler).toHaveBeenCalled();
    expect(fake.electron.Menu.setApplicationMenu).toHaveBeenCalled();

    win.emit('ready-to-show');
    expect(win.show).toHaveBeenCalled();
    // The window created after start is guarded too (web-contents-created).
    expect(win.webContents.fire('will-navigate', 'https://evil.example/')).toBe(true);
  });

  it('gives the app a save dialog over the window and a report printer whose hidden window is the main window’s twin', async () => {
    const fake = await boot();
    const win = await started(fake);
    const a = h.adapters!;
    expect(await a.saveFile!({ title: 'Export hosts', defaultName: 'hosts.csv', filters: [{ name: 'CSV', extensions: ['csv'] }] })).toBe('/home/op/Documents/report.pdf');
    expect(fake.electron.dialog.showSaveDialog).toHaveBeenCalledWith(win, expect.objectContaining({ title: 'Export hosts', defaultPath: '/home/op/Documents/hosts.csv' }));

    const pending = a.printToPdf!('#/zta/report?print=1');
    await vi.waitFor(() => expect(fake.windows).toHaveLength(2));
    const report = fake.windows[1]!;
    report.webContents.pageAnswers.push('true');
    expect(Buffer.from(await pending).toString()).toBe('%PDF-1.7 fake');
    expect(report.options).toMatchObject({ show: false, webPreferences: win.options.webPreferences });
    expect(report.loadURL).toHaveBeenCalledWith('northbound://app/index.html#/zta/report?print=1');
    expect(report.destroy).toHaveBeenCalled();
    // Guarded like every other page (web-contents-created).
    expect(report.webContents.fire('will-navigate', 'https://evil.example/')).toBe(true);
  });

  it('gives the app the system’s notifications (new alarms, C-31), whose click brings the window forward', async () => {
    const fake = await boot();
    const win = await started(fake);
    h.adapters!.notify!('Critical alarm on branch-7', 'Interface vni-0/1 is down');
    expect(fake.notifications.map((n) => n.options)).toEqual([{ title: 'Critical alarm on branch-7', body: 'Interface vni-0/1 is down', silent: false }]);
    expect(fake.notifications[0]!.show).toHaveBeenCalled();
    fake.notifications[0]!.emit('click');
    expect(win.focus).toHaveBeenCalled();
  });

  it('focuses the existing window when a second instance starts', async () => {
    const fake = await boot();
    const win = await started(fake);
    fake.electron.app.emit('second-instance');
    expect(win.focus).toHaveBeenCalled();
  });

  it('awaits shutdown on before-quit, then quits', async () => {
    const fake = await boot();
    await started(fake);
    let prevented = false;
    fake.electron.app.emit('before-quit', { preventDefault: () => (prevented = true) });
    expect(prevented).toBe(true);
    expect(h.shutdown).toHaveBeenCalledTimes(1);
    await vi.waitFor(() => expect(fake.electron.app.quit).toHaveBeenCalled());
  });

  it('keeps Electron’s start-up order: identity, lock, scheme and sandbox before ready; sessions, protocol handlers and windows after', async () => {
    const fake = await boot();
    await started(fake);
    const t = fake.timeline;
    const at = (name: string) => t.findIndex((e) => e.startsWith(`${name}@`));
    expect(t).toContain('setPath:userData@before');
    expect(at('setPath:userData')).toBeLessThan(at('requestSingleInstanceLock'));
    for (const before of ['registerSchemesAsPrivileged', 'enableSandbox', 'requestSingleInstanceLock']) expect(t).toContain(`${before}@before`);
    for (const after of ['session.defaultSession', 'protocol.handle', 'BrowserWindow']) {
      expect(t.filter((e) => e.startsWith(`${after}@`)).length).toBeGreaterThan(0);
      expect(t.filter((e) => e.startsWith(`${after}@`)).every((e) => e.endsWith('@ready'))).toBe(true);
    }
  });

  it('in development keeps its data in a folder of its own, never the installed app’s; packaged, in the product’s (issue 23.6)', async () => {
    const dev = await boot();
    expect(dev.electron.app.getPath('userData')).toBe(path.join(dir, 'config', DEV_DATA_FOLDER));
    await started(dev);
    // The vault and settings went there.
    expect(h.adapters!.dataDir).toBe(path.join(dir, 'config', DEV_DATA_FOLDER));
    vi.resetModules();
    const packaged = await boot(true, { packaged: true });
    expect(packaged.electron.app.setPath).not.toHaveBeenCalled();
    await started(packaged);
    expect(h.adapters!.dataDir).toBe(path.join(dir, 'config', PRODUCT_NAME));
  });

  it('tells Windows its app user model ID, the installer shortcut’s, so notifications show (issue 23.2)', async () => {
    const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
    Object.defineProperty(process, 'platform', { value: 'win32' });
    try {
      const fake = await boot();
      expect(fake.electron.app.setAppUserModelId).toHaveBeenCalledWith(APP_ID);
      expect(fake.timeline.indexOf('setAppUserModelId@before')).toBeGreaterThanOrEqual(0);
    } finally {
      Object.defineProperty(process, 'platform', platform);
    }
    vi.resetModules();
    const linux = await boot();
    expect(linux.electron.app.setAppUserModelId).not.toHaveBeenCalled();
  });

  it('the names the app goes by agree: electron-builder’s appId and productName, package.json’s productName', () => {
    const yml = readFileSync(path.resolve(__dirname, '../../../electron-builder.yml'), 'utf8');
    expect(/^appId:\s*(\S+)\s*$/m.exec(yml)?.[1]).toBe(APP_ID);
    expect(/^productName:\s*(.+?)\s*$/m.exec(yml)?.[1]).toBe(PRODUCT_NAME);
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8')) as { productName?: string };
    expect(pkg.productName).toBe(PRODUCT_NAME);
  });

  it('keeps secrets with Electron 45’s asynchronous safeStorage, and with the synchronous one where a release has only that', async () => {
    const fake = await boot();
    await started(fake);
    await h.adapters!.vault.set('probe', 'secret-1');
    const ss = fake.electron.safeStorage as typeof fake.electron.safeStorage & Record<'encryptStringAsync' | 'decryptStringAsync', ReturnType<typeof vi.fn>>;
    expect(ss.encryptStringAsync).toHaveBeenCalledWith(expect.stringContaining('secret-1'));
    expect(ss.encryptString).not.toHaveBeenCalled();
    expect(await h.adapters!.vault.get('probe')).toBe('secret-1');
    expect(ss.decryptStringAsync).toHaveBeenCalled();
    vi.resetModules();
    rmSync(path.join(dir, 'config'), { recursive: true, force: true });
    const old = await boot(true, { safeStorage: 'sync-only' });
    await started(old);
    await h.adapters!.vault.set('probe', 'secret-2');
    expect(old.electron.safeStorage.encryptString).toHaveBeenCalledWith(expect.stringContaining('secret-2'));
    expect(await h.adapters!.vault.get('probe')).toBe('secret-2');
  });

  it('registers each contract channel once: a second registration throws, as in Electron', async () => {
    const fake = await boot();
    await started(fake);
    const channel = [...fake.handlers.keys()][0]!;
    expect(() => fake.electron.ipcMain.handle(channel, async () => undefined)).toThrow(`Attempted to register a second handler for '${channel}'`);
  });

  it('a packaged AppImage started without the sandbox (its launcher adds --no-sandbox) refuses, says why and what to do, and starts nothing (issue 23.3)', async () => {
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    process.env.APPIMAGE = '/home/op/Apps/Northbound-0.1.0.AppImage';
    try {
      const fake = await boot(true, { packaged: true, switches: ['no-sandbox'] });
      expect(fake.electron.app.requestSingleInstanceLock).not.toHaveBeenCalled();
      expect(fake.electron.app.setPath).not.toHaveBeenCalled();
      expect(stderr.mock.calls.map((c) => String(c[0])).join('')).toContain('Northbound cannot start from this AppImage');
      fake.ready.resolve();
      await vi.waitFor(() => expect(fake.electron.app.exit).toHaveBeenCalledWith(1));
      const shown = fake.electron.dialog.showMessageBoxSync.mock.calls[0]![0] as { type: string; detail: string };
      expect(shown.type).toBe('error');
      expect(shown.detail).toContain('Install the .deb package');
      expect(shown.detail).toContain('/home/op/Apps/Northbound-0.1.0.AppImage');
      expect(fake.windows).toHaveLength(0);
      expect(fake.handlers.size).toBe(0);
      expect(h.adapters).toBeUndefined();
    } finally {
      delete process.env.APPIMAGE;
      stderr.mockRestore();
    }
  });

  it('started from a clone with --no-sandbox (a developer’s container), it runs', async () => {
    const fake = await boot(true, { switches: ['no-sandbox'] });
    await started(fake);
    expect(fake.electron.dialog.showMessageBoxSync).not.toHaveBeenCalled();
  });

  it('gives the app an updater: off from a clone, and off in a packaged build that names no feed (issue 23.7)', async () => {
    const dev = await boot();
    await started(dev);
    expect(h.adapters!.updater!.status()).toMatchObject({ state: 'off', version: '0.1.0', message: expect.stringContaining('clone') });
    vi.resetModules();
    const packaged = await boot(true, { packaged: true });
    await started(packaged);
    expect(h.adapters!.updater!.status()).toMatchObject({ state: 'off', message: expect.stringContaining('names no update feed') });
    expect(await h.adapters!.updater!.check()).toMatchObject({ state: 'off' });
  });
});
