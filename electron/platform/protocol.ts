/**
 * The app's own origin. The built renderer is served from `northbound://app/` rather than
 * `file://`, because a file:// page has no real origin (any local file would pass an origin check,
 * and can read other local files) and gets no response headers, so no CSP header. A privileged
 * standard scheme gives a proper origin that IPC and navigation checks compare against, and lets
 * us send the CSP with every response. In development the Vite server's origin is the app origin.
 */
import type { CustomScheme, Protocol } from 'electron';
import { promises as fsp } from 'node:fs';
import path from 'node:path';

export const APP_SCHEME = 'northbound';
export const APP_HOST = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
export const APP_ENTRY_URL = `${APP_ORIGIN}/index.html`;

export const APP_SCHEME_PRIVILEGES: CustomScheme = {
  scheme: APP_SCHEME,
  privileges: { standard: true, secure: true, supportFetchAPI: true, codeCache: true },
};

/** Must run before the app is ready. */
export function registerAppScheme(protocol: Pick<Protocol, 'registerSchemesAsPrivileged'>): void {
  protocol.registerSchemesAsPrivileged([APP_SCHEME_PRIVILEGES]);
}

/**
 * The origin of a URL for our checks: http(s) and the app scheme only; anything else (file:,
 * data:, about:, javascript:, devtools:) has no origin we trust and answers undefined.
 * (Node answers "null" as the origin of a custom scheme, hence the special case.)
 */
export function originOf(url: string): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol === 'http:' || u.protocol === 'https:') return u.origin;
  if (u.protocol === `${APP_SCHEME}:` && u.host) return `${APP_SCHEME}://${u.host}`;
  return undefined;
}

/** The origin the app's pages come from: the dev server's in development, `northbound://app` otherwise. */
export function appOriginFor(devServerUrl: string | undefined): string {
  const dev = devServerUrl ? originOf(devServerUrl) : undefined;
  if (devServerUrl && !dev) throw new Error(`VITE_DEV_SERVER_URL must be an http(s) URL, not ${devServerUrl}`);
  return dev ?? APP_ORIGIN;
}

export const isSameOrigin = (url: string, origin: string) => originOf(url) === origin;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Answers one request for the app scheme from the built renderer folder. Only files inside
 * `rootDir`; a path without an extension that is not found gets index.html (client routing).
 */
export async function rendererResponse(requestUrl: string, rootDir: string, csp: string): Promise<Response> {
  const notFound = () => new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  let u: URL;
  try {
    u = new URL(requestUrl);
  } catch {
    return notFound();
  }
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return notFound();
  let pathname: string;
  try {
    pathname = decodeURIComponent(u.pathname);
  } catch {
    return notFound();
  }
  if (pathname.includes('\0')) return notFound();
  const root = path.resolve(rootDir);
  const wanted = pathname === '/' || pathname === '' ? '/index.html' : pathname;
  let file = path.resolve(root, `.${wanted}`);
  if (!file.startsWith(root + path.sep)) return notFound();
  let body: Buffer;
  try {
    body = await fsp.readFile(file);
  } catch {
    if (path.extname(file)) return notFound();
    file = path.join(root, 'index.html');
    try {
      body = await fsp.readFile(file);
    } catch {
      return notFound();
    }
  }
  return new Response(new Uint8Array(body), {
    status: 200,
    headers: {
      'Content-Type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
      'Content-Security-Policy': csp,
      'X-Content-Type-Options': 'nosniff',
      'Cache-Control': 'no-cache',
    },
  });
}

/** Serves `rootDir` (dist/renderer) on the app scheme. Call once the app is ready. */
export function serveRenderer(protocol: Pick<Protocol, 'handle'>, rootDir: string, csp: string): void {
  protocol.handle(APP_SCHEME, (request) => rendererResponse(request.url, rootDir, csp));
}
