/** The desktop's alarm notifications (C-31) against a fake Electron: shown through `Notification`, a click brings the window forward. */
import { createMemoryLogger } from '../../../electron/log';
import { createNotifier, type NotificationClass } from '../../../electron/platform/notify';
import type { BrowserWindow } from 'electron';
import { createFakeElectron } from './fake-electron';

function setup(supported = true) {
  const fake = createFakeElectron({ userData: '/tmp/unused', ready: true });
  fake.electron.Notification.supported = supported;
  const win = new fake.electron.BrowserWindow({});
  const logger = createMemoryLogger();
  const notify = createNotifier({ Notification: fake.electron.Notification as unknown as NotificationClass, mainWindow: () => win as unknown as BrowserWindow, logger });
  return { fake, win, notify, logger };
}

describe('desktop notifications', () => {
  it('show the title and body through Electron’s Notification, and a click shows and focuses the window', () => {
    const { fake, win, notify } = setup();
    notify('Critical alarm on branch-7', 'Interface vni-0/1 is down (Acme · vni-0/1)');
    expect(fake.notifications).toHaveLength(1);
    const n = fake.notifications[0]!;
    expect(n.options).toEqual({ title: 'Critical alarm on branch-7', body: 'Interface vni-0/1 is down (Acme · vni-0/1)', silent: false });
    expect(n.shown).toBe(1);
    win.isMinimized.mockReturnValue(true);
    n.emit('click');
    expect(win.restore).toHaveBeenCalled();
    expect(win.show).toHaveBeenCalled();
    expect(win.focus).toHaveBeenCalled();
  });

  it('show nothing where the system has no notifications, and a failing one is logged, not thrown', () => {
    const none = setup(false);
    none.notify('Critical alarm', 'x');
    expect(none.fake.notifications).toHaveLength(0);

    const broken = setup();
    broken.fake.electron.Notification.isSupported.mockImplementationOnce(() => {
      throw new Error('no D-Bus');
    });
    expect(() => broken.notify('Critical alarm', 'x')).not.toThrow();
    expect(broken.logger.lines.some((l) => l.includes('a notification could not be shown') && l.includes('no D-Bus'))).toBe(true);
  });

  it('a click on a notification whose window was closed does nothing', () => {
    const { fake, win, notify } = setup();
    win.destroy();
    notify('Critical alarm', 'x');
    fake.notifications[0]!.emit('click');
    expect(win.focus).not.toHaveBeenCalled();
  });
});
