/** The main window: size, secure preferences, shown when ready. Navigation rules come from security.ts. */
import type { BrowserWindow, BrowserWindowConstructorOptions } from 'electron';
import type { Logger } from '../log';
import { secureWebPreferences } from './security';

export const WINDOW_TITLE = 'Northbound';

export interface MainWindowOptions {
  /** Absolute path of dist-electron/preload.cjs. */
  preload: string;
  /** The page to load: `northbound://app/index.html`, or the dev server. */
  url: string;
  icon?: string;
  logger: Logger;
}

export type BrowserWindowClass = new (options: BrowserWindowConstructorOptions) => BrowserWindow;

export function mainWindowOptions(o: Pick<MainWindowOptions, 'preload' | 'icon'>): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 820,
    minWidth: 960,
    minHeight: 640,
    show: false,
    title: WINDOW_TITLE,
    backgroundColor: '#0f172a',
    ...(o.icon ? { icon: o.icon } : {}),
    webPreferences: secureWebPreferences(o.preload),
  };
}

export function createMainWindow(BrowserWindowCtor: BrowserWindowClass, o: MainWindowOptions): BrowserWindow {
  const win = new BrowserWindowCtor(mainWindowOptions(o));
  win.once('ready-to-show', () => win.show());
  win.webContents.on('render-process-gone', (_event, details) => o.logger.error('the window crashed', { reason: details.reason, exitCode: details.exitCode }));
  win.loadURL(o.url).catch((e: unknown) => o.logger.error('the window could not load its page', { error: e instanceof Error ? e.message : String(e) }));
  return win;
}

/** Brings the window forward (a second launch of the app lands here). */
export function focusWindow(win: Pick<BrowserWindow, 'isDestroyed' | 'isMinimized' | 'restore' | 'show' | 'focus'> | undefined): void {
  if (!win || win.isDestroyed()) return;
  if (win.isMinimized()) win.restore();
  win.show();
  win.focus();
}
