/**
 * The desktop's alarm notifications (C-31): Electron's `Notification` from main, so an operator
 * hears about a critical alarm while the window is hidden or minimised. Clicking one brings the
 * window forward. A system without notifications (no notification server) shows nothing.
 */
import type { BrowserWindow, Notification, NotificationConstructorOptions } from 'electron';
import type { Logger } from '../log';
import { focusWindow } from './window';

export interface NotificationClass {
  new (options: NotificationConstructorOptions): Pick<Notification, 'show' | 'on'>;
  isSupported(): boolean;
}

export interface NotifierDeps {
  Notification: NotificationClass;
  /** The main window, when one is open (a click brings it forward). */
  mainWindow(): BrowserWindow | undefined;
  logger: Logger;
}

/** At most this many notifications are held at a time (a shown one is kept until closed or clicked, or it may be collected before its click). */
const KEPT = 20;

export function createNotifier(d: NotifierDeps): (title: string, body: string) => void {
  const shown = new Set<Pick<Notification, 'show' | 'on'>>();
  return (title, body) => {
    try {
      if (!d.Notification.isSupported()) return;
      const n = new d.Notification({ title, body, silent: false });
      const forget = () => shown.delete(n);
      n.on('click', () => {
        forget();
        focusWindow(d.mainWindow());
      });
      n.on('close', forget);
      if (shown.size >= KEPT) shown.delete(shown.values().next().value!);
      shown.add(n);
      n.show();
    } catch (e) {
      d.logger.warn('a notification could not be shown', { error: e instanceof Error ? e.message : String(e) });
    }
  };
}
