import type { MenuItemConstructorOptions } from 'electron';
import { createMemoryLogger } from '../../../electron/log';
import { installGracefulQuit, settleWithin } from '../../../electron/platform/lifecycle';
import { buildMenuTemplate } from '../../../electron/platform/menu';
import { focusWindow } from '../../../electron/platform/window';

const roles = (items: MenuItemConstructorOptions[]): string[] =>
  items.flatMap((i) => [...(i.role ? [String(i.role)] : []), ...(Array.isArray(i.submenu) ? roles(i.submenu) : [])]);

describe('menu', () => {
  it('has File quit, Edit roles, zoom, About; reload and devtools only in development', () => {
    const onAbout = vi.fn();
    const prod = buildMenuTemplate({ appName: 'Northbound', platform: 'linux', isDev: false, onAbout });
    expect(prod.map((m) => m.label ?? m.role)).toEqual(['File', 'Edit', 'View', 'windowMenu', 'help']);
    expect(roles(prod)).toEqual(expect.arrayContaining(['quit', 'undo', 'redo', 'cut', 'copy', 'paste', 'selectAll', 'zoomIn', 'zoomOut', 'resetZoom']));
    expect(roles(prod)).not.toContain('reload');
    expect(roles(prod)).not.toContain('toggleDevTools');
    const help = prod.find((m) => m.role === 'help')!.submenu as MenuItemConstructorOptions[];
    (help[0]!.click as () => void)();
    expect(onAbout).toHaveBeenCalled();
    expect(roles(buildMenuTemplate({ appName: 'Northbound', platform: 'linux', isDev: true, onAbout }))).toEqual(expect.arrayContaining(['reload', 'toggleDevTools']));
    expect(buildMenuTemplate({ appName: 'Northbound', platform: 'darwin', isDev: false, onAbout })[0]!.label).toBe('Northbound');
  });
});

describe('quit', () => {
  const fakeApp = () => {
    const listeners: Array<(e: { preventDefault(): void }) => void> = [];
    return { listeners, app: { on: vi.fn((_n: string, l: (e: { preventDefault(): void }) => void) => void listeners.push(l)), quit: vi.fn() } };
  };

  it('waits for shutdown once, then quits for real', async () => {
    const { app, listeners } = fakeApp();
    let finish!: () => void;
    const shutdown = vi.fn(() => new Promise<void>((r) => (finish = r)));
    installGracefulQuit(app as never, shutdown, { logger: createMemoryLogger() });
    const first = { preventDefault: vi.fn() };
    listeners[0]!(first);
    listeners[0]!({ preventDefault: vi.fn() });
    expect(first.preventDefault).toHaveBeenCalled();
    expect(shutdown).toHaveBeenCalledTimes(1);
    expect(app.quit).not.toHaveBeenCalled();
    finish();
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalledTimes(1));
    const last = { preventDefault: vi.fn() };
    listeners[0]!(last);
    expect(last.preventDefault).not.toHaveBeenCalled();
  });

  it('gives up after the cap, and survives a failing shutdown', async () => {
    expect(await settleWithin(new Promise(() => undefined), 20)).toBe('timeout');
    expect(await settleWithin(Promise.reject(new Error('x')), 20)).toBe('failed');
    const { app, listeners } = fakeApp();
    installGracefulQuit(app as never, () => new Promise(() => undefined), { logger: createMemoryLogger(), capMs: 20 });
    listeners[0]!({ preventDefault: vi.fn() });
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalled());
  });

  it('focusWindow restores a minimized window and ignores a destroyed one', () => {
    const win = { isDestroyed: () => false, isMinimized: () => true, restore: vi.fn(), show: vi.fn(), focus: vi.fn() };
    focusWindow(win);
    expect(win.restore).toHaveBeenCalled();
    expect(win.focus).toHaveBeenCalled();
    focusWindow(undefined);
    focusWindow({ ...win, isDestroyed: () => true, focus: vi.fn() });
  });
});
