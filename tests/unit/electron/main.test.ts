import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { channelNames } from '../../../shared/contract';
import type { PlatformAdapters } from '../../../electron/app/ports';
import { createFakeElectron } from './fake-electron';

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
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

async function boot(lock = true) {
  h.fake = createFakeElectron({ lock, userData: dir });
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
    expect(fake.electron.dialog.showSaveDialog).toHaveBeenCalledWith(win, expect.objectContaining({ title: 'Export hosts', defaultPath: path.join(dir, 'hosts.csv') }));

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
});
