import { createMemoryLogger } from '../../../electron/log';
import { contentSecurityPolicy, guardAllWebContents, guardWebContents, isExternalLink, secureSession, secureWebPreferences } from '../../../electron/platform/security';
import { APP_ORIGIN } from '../../../electron/platform/protocol';
import { FakeWebContents } from './fake-electron';

const guarded = (origin = APP_ORIGIN) => {
  const contents = new FakeWebContents();
  const openExternal = vi.fn(async () => undefined);
  guardWebContents(contents as never, { origin, openExternal, logger: createMemoryLogger() });
  return { contents, openExternal };
};

describe('navigation and new windows', () => {
  it('prevents navigation and redirects to another origin, allows its own', () => {
    const { contents } = guarded();
    expect(contents.fire('will-navigate', 'https://evil.example/phish')).toBe(true);
    expect(contents.fire('will-navigate', 'file:///etc/passwd')).toBe(true);
    expect(contents.fire('will-navigate', 'northbound://other/index.html')).toBe(true);
    expect(contents.fire('will-redirect', 'http://127.0.0.1:9182/')).toBe(true);
    expect(contents.fire('will-navigate', 'northbound://app/index.html#/profiles')).toBe(false);
  });

  it('allows the dev server origin in development, and only that port', () => {
    const { contents } = guarded('http://127.0.0.1:5173');
    expect(contents.fire('will-navigate', 'http://127.0.0.1:5173/')).toBe(false);
    expect(contents.fire('will-navigate', 'http://127.0.0.1:51730/')).toBe(true);
  });

  it('denies window.open and sends http(s) links to the system browser', () => {
    const { contents, openExternal } = guarded();
    expect(contents.windowOpenHandler!({ url: 'https://docs.example.com/page' })).toEqual({ action: 'deny' });
    expect(contents.windowOpenHandler!({ url: 'http://example.com/' })).toEqual({ action: 'deny' });
    expect(openExternal.mock.calls).toEqual([['https://docs.example.com/page'], ['http://example.com/']]);
  });

  it('never hands file:, javascript: or other schemes to the system', () => {
    const { contents, openExternal } = guarded();
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'smb://host/share', 'data:text/html,x', 'northbound://app/index.html', 'not a url']) {
      expect(contents.windowOpenHandler!({ url })).toEqual({ action: 'deny' });
    }
    expect(openExternal).not.toHaveBeenCalled();
    expect(isExternalLink('https://x.example')).toBe(true);
    expect(isExternalLink('ms-msdt:whatever')).toBe(false);
  });

  it('refuses <webview> and guards every webContents created later', () => {
    const { contents } = guarded();
    expect(contents.fire('will-attach-webview', {}, {})).toBe(true);
    const listeners: Array<(e: unknown, c: FakeWebContents) => void> = [];
    guardAllWebContents({ on: ((_n: string, l: (e: unknown, c: FakeWebContents) => void) => listeners.push(l)) as never }, { origin: APP_ORIGIN, openExternal: async () => undefined });
    const later = new FakeWebContents();
    listeners[0]!({}, later);
    expect(later.fire('will-navigate', 'https://evil.example/')).toBe(true);
    expect(later.setWindowOpenHandler).toHaveBeenCalled();
  });
});

describe('session rules', () => {
  const fakeSession = () => ({
    webRequest: { onHeadersReceived: vi.fn() },
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
    setDevicePermissionHandler: vi.fn(),
  });

  it('denies every permission request and check', () => {
    const s = fakeSession();
    secureSession(s as never, { origin: APP_ORIGIN, csp: contentSecurityPolicy() });
    const request = s.setPermissionRequestHandler.mock.calls[0]![0] as (wc: unknown, p: string, cb: (ok: boolean) => void) => void;
    for (const permission of ['media', 'notifications', 'geolocation', 'clipboard-read', 'openExternal']) {
      const cb = vi.fn();
      request({}, permission, cb);
      expect(cb).toHaveBeenCalledWith(false);
    }
    expect((s.setPermissionCheckHandler.mock.calls[0]![0] as () => boolean)()).toBe(false);
    expect((s.setDevicePermissionHandler.mock.calls[0]![0] as () => boolean)()).toBe(false);
  });

  it('sets the CSP header on app responses, replacing any other, and leaves other origins alone', () => {
    const s = fakeSession();
    const csp = contentSecurityPolicy();
    secureSession(s as never, { origin: APP_ORIGIN, csp });
    const listener = s.webRequest.onHeadersReceived.mock.calls[0]![0] as (d: unknown, cb: (r: unknown) => void) => void;
    const cb = vi.fn();
    listener({ url: 'northbound://app/index.html', responseHeaders: { 'content-security-policy': ['default-src *'], 'Content-Type': ['text/html'] } }, cb);
    expect(cb).toHaveBeenCalledWith({ responseHeaders: { 'Content-Type': ['text/html'], 'Content-Security-Policy': [csp] } });
    const other = vi.fn();
    listener({ url: 'https://node.example/api', responseHeaders: {} }, other);
    expect(other).toHaveBeenCalledWith({});
  });

  it('has the strict production policy and only two dev allowances', () => {
    expect(contentSecurityPolicy()).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'",
    );
    const dev = contentSecurityPolicy('http://127.0.0.1:5173');
    expect(dev).toContain("script-src 'self' 'unsafe-inline'");
    expect(dev).toContain("connect-src 'self' ws://127.0.0.1:5173");
    expect(dev).not.toContain('unsafe-eval');
    expect(contentSecurityPolicy()).toBe(contentSecurityPolicy());
  });

  it('builds secure webPreferences', () => {
    expect(secureWebPreferences('/p.cjs')).toMatchObject({ preload: '/p.cjs', contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
  });
});
