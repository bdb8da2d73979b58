/**
 * The application menu. No theme toggle here: the theme is a UI setting of the contract
 * (`settings.update`), changed in the app's own settings, so there is one source of truth.
 */
import type { Menu, MenuItemConstructorOptions } from 'electron';

export interface MenuOptions {
  appName: string;
  platform: NodeJS.Platform;
  /** Development adds reload and the developer tools. */
  isDev: boolean;
  onAbout(): void;
}

export function buildMenuTemplate(o: MenuOptions): MenuItemConstructorOptions[] {
  const mac = o.platform === 'darwin';
  const about: MenuItemConstructorOptions = { label: `About ${o.appName}`, click: () => o.onAbout() };
  const view: MenuItemConstructorOptions[] = [
    ...(o.isDev ? ([{ role: 'reload' }, { role: 'forceReload' }, { role: 'toggleDevTools' }, { type: 'separator' }] as MenuItemConstructorOptions[]) : []),
    { role: 'resetZoom' },
    { role: 'zoomIn' },
    { role: 'zoomOut' },
    { type: 'separator' },
    { role: 'togglefullscreen' },
  ];
  return [
    ...(mac
      ? ([
          {
            label: o.appName,
            submenu: [about, { type: 'separator' }, { role: 'hide' }, { role: 'hideOthers' }, { role: 'unhide' }, { type: 'separator' }, { role: 'quit' }],
          },
        ] as MenuItemConstructorOptions[])
      : []),
    { label: 'File', submenu: [mac ? { role: 'close' } : { role: 'quit' }] },
    {
      label: 'Edit',
      submenu: [{ role: 'undo' }, { role: 'redo' }, { type: 'separator' }, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
    },
    { label: 'View', submenu: view },
    { role: 'windowMenu' },
    { role: 'help', submenu: mac ? [] : [about] },
  ];
}

export function installMenu(menu: Pick<typeof Menu, 'buildFromTemplate' | 'setApplicationMenu'>, options: MenuOptions): void {
  menu.setApplicationMenu(menu.buildFromTemplate(buildMenuTemplate(options)));
}
