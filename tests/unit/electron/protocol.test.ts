import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { appOriginFor, APP_ORIGIN, originOf, registerAppScheme, rendererResponse } from '../../../electron/platform/protocol';

let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'nb-proto-'));
  mkdirSync(path.join(root, 'renderer', 'assets'), { recursive: true });
  writeFileSync(path.join(root, 'renderer', 'index.html'), '<!doctype html><title>Northbound</title>');
  writeFileSync(path.join(root, 'renderer', 'assets', 'app.js'), 'console.log(1)');
  writeFileSync(path.join(root, 'secret.txt'), 'outside');
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
const serve = (url: string) => rendererResponse(url, path.join(root, 'renderer'), "default-src 'self'");

describe('app scheme', () => {
  it('computes origins for http(s) and the app scheme only', () => {
    expect(originOf('northbound://app/index.html')).toBe(APP_ORIGIN);
    expect(originOf('http://127.0.0.1:5173/x')).toBe('http://127.0.0.1:5173');
    expect(originOf('file:///etc/passwd')).toBeUndefined();
    expect(originOf('javascript:alert(1)')).toBeUndefined();
    expect(originOf('::')).toBeUndefined();
    expect(appOriginFor(undefined)).toBe(APP_ORIGIN);
    expect(appOriginFor('http://localhost:5173/')).toBe('http://localhost:5173');
    expect(() => appOriginFor('file:///x')).toThrow();
  });

  it('registers a standard, secure scheme', () => {
    const registerSchemesAsPrivileged = vi.fn();
    registerAppScheme({ registerSchemesAsPrivileged });
    expect(registerSchemesAsPrivileged.mock.calls[0]![0]).toEqual([{ scheme: 'northbound', privileges: expect.objectContaining({ standard: true, secure: true }) }]);
  });

  it('serves the renderer with the CSP header and a content type', async () => {
    const index = await serve('northbound://app/');
    expect(index.status).toBe(200);
    expect(index.headers.get('content-security-policy')).toBe("default-src 'self'");
    expect(index.headers.get('content-type')).toMatch(/text\/html/);
    expect(await index.text()).toContain('Northbound');
    const js = await serve('northbound://app/assets/app.js');
    expect(js.headers.get('content-type')).toMatch(/javascript/);
    expect((await serve('northbound://app/profiles/abc')).status).toBe(200);
  });

  it('serves nothing outside the renderer folder or for another host', async () => {
    for (const url of ['northbound://app/../secret.txt', 'northbound://app/%2e%2e/secret.txt', 'northbound://app/..%2fsecret.txt', 'northbound://other/index.html', 'northbound://app/missing.js', 'northbound://app/a%00b']) {
      const res = await serve(url);
      expect(res.status, url).toBe(404);
      expect(await res.text()).not.toContain('outside');
    }
  });
});
