/**
 * Window security, applied to every page the app ever shows. Functions receive the Electron
 * objects they configure, so plain Node tests pass fakes. See docs/architecture.md and
 * https://www.electronjs.org/docs/latest/tutorial/security.
 */
import type { App, Session, WebContents, WebPreferences } from 'electron';
import type { Logger } from '../log';
import { isSameOrigin, originOf } from './protocol';

/** The production policy. `'unsafe-inline'` styles only (React style props, charts); no eval anywhere. */
export const CSP_DIRECTIVES: Record<string, string[]> = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'frame-ancestors': ["'none'"],
  'base-uri': ["'none'"],
};

/**
 * The Content-Security-Policy header value. With the Vite dev server (`devOrigin`), its
 * React-refresh preamble is an inline script and HMR talks over a WebSocket, so development
 * adds exactly those two allowances; a packaged app never has them.
 */
export function contentSecurityPolicy(devOrigin?: string): string {
  const d = structuredClone(CSP_DIRECTIVES);
  if (devOrigin) {
    d['script-src']!.push("'unsafe-inline'");
    d['connect-src']!.push(devOrigin.replace(/^http/, 'ws'));
  }
  return Object.entries(d)
    .map(([k, v]) => `${k} ${v.join(' ')}`)
    .join('; ');
}

export function secureWebPreferences(preload: string): WebPreferences {
  return {
    preload,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    experimentalFeatures: false,
    navigateOnDragDrop: false,
    spellcheck: false,
  };
}

/** Only http(s) links may leave the app, and only to the system browser. */
export function isExternalLink(url: string): boolean {
  try {
    const u = new URL(url);
    return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
  } catch {
    return false;
  }
}

type SessionLike = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler'> & {
  webRequest: Pick<Session['webRequest'], 'onHeadersReceived'>;
} & Partial<Pick<Session, 'setDevicePermissionHandler'>>;

/**
 * Per session: a CSP header on every response from the app's origin (whatever the server
 * sent is replaced), and every permission (camera, notifications, clipboard read, HID...) denied.
 */
export function secureSession(session: SessionLike, opts: { origin: string; csp: string; logger?: Logger }): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    if (!isSameOrigin(details.url, opts.origin)) return callback({});
    const headers: Record<string, string[]> = {};
    for (const [k, v] of Object.entries(details.responseHeaders ?? {})) {
      if (k.toLowerCase() !== 'content-security-policy') headers[k] = v;
    }
    headers['Content-Security-Policy'] = [opts.csp];
    callback({ responseHeaders: headers });
  });
  session.setPermissionRequestHandler((_contents, permission, callback) => {
    opts.logger?.info('permission request denied', { permission });
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler?.(() => false);
}

type ContentsLike = Pick<WebContents, 'on' | 'setWindowOpenHandler'>;
export interface GuardOptions {
  origin: string;
  openExternal(url: string): Promise<void>;
  logger?: Logger;
}

/**
 * Per webContents: navigation and redirects only within the app origin; no new windows (http(s)
 * links go to the system browser instead); no <webview>.
 */
export function guardWebContents(contents: ContentsLike, opts: GuardOptions): void {
  const stayHome = (kind: string) => (event: { preventDefault(): void }, url: string) => {
    if (isSameOrigin(url, opts.origin)) return;
    event.preventDefault();
    opts.logger?.warn(`${kind} blocked`, { origin: originOf(url) ?? url.split(':')[0] });
  };
  contents.on('will-navigate', stayHome('navigation'));
  contents.on('will-redirect', stayHome('redirect'));
  contents.on('will-attach-webview', (event) => {
    event.preventDefault();
    opts.logger?.warn('webview blocked');
  });
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLink(url)) {
      opts.openExternal(url).catch((e: unknown) => opts.logger?.warn('could not open the link in the browser', { error: String(e) }));
    } else {
      opts.logger?.warn('window.open blocked', { scheme: url.split(':')[0] });
    }
    return { action: 'deny' };
  });
}

/** Guards every webContents the app will ever create (windows, devtools, anything a bug opens). */
export function guardAllWebContents(app: Pick<App, 'on'>, opts: GuardOptions): void {
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, opts));
}
