/**
 * Browser mode: the same router and events as the desktop app, served on 127.0.0.1 over
 * HTTP + WebSocket. A per-launch token (valid until the process ends) guards every request and
 * socket: the opening URL carries it once, the page turns it into an HttpOnly SameSite=Strict
 * cookie and redirects to drop it from the address bar; after that only the cookie or the
 * `X-Northbound-Token` header count, never a query string. Requests from another Origin or Host
 * are refused (no CSRF, no DNS rebinding). Each channel's body is limited to its contract's
 * `maxBytes` (413 above it), and no request or frame can take the process down.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Downloads } from '../app/downloads';
import type { EventHub } from '../app/events';
import type { Router } from '../app/router';
import type { Logger } from '../log';
import { maxRequestBytes } from '../../shared/contract';
import { ErrorCodes, type AppErrorShape } from '../../shared/model/errors';
import { formatBytes, readBody, safeDecode } from './body';

export interface WebHostOptions {
  router: Router;
  events: EventHub;
  logger: Logger;
  /** Folder with the built renderer (vite build output). */
  staticDir: string;
  port?: number;
  token?: string;
  /** Called with every message sent to a browser (tests use it to prove no secret leaves main). */
  onSend?: (text: string) => void;
  /** Files main offers for download once (exports): `GET /api/download/<id>`. */
  downloads?: Downloads;
}

export interface WebHost {
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

// 'self' covers ws:// to the same host and port (CSP Level 3), so no other port on 127.0.0.1 is reachable.
const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.map': 'application/json',
  '.woff2': 'font/woff2',
};

const TOKEN_HEADER = 'x-northbound-token';

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieValue(req: http.IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return safeDecode(v.join('='));
  }
  return undefined;
}

type Reply = (status: number, error: AppErrorShape, headers?: http.OutgoingHttpHeaders) => void;

export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const log = opts.logger.child('web');
  const staticRoot = path.resolve(opts.staticDir);
  let hostHeaders: Set<string> = new Set();
  let origins: Set<string> = new Set();
  // One cookie name per port: cookies ignore ports, and two hosts on 127.0.0.1 must not overwrite each other's.
  let cookieName = 'nb_token';

  /** The token is accepted from the header or the cookie only; a URL carries it once, to the page (see below). */
  const authorized = (req: http.IncomingMessage): boolean => {
    const header = req.headers[TOKEN_HEADER];
    const given = typeof header === 'string' ? header : cookieValue(req, cookieName);
    return typeof given === 'string' && safeEqual(given, token);
  };
  const sameOrigin = (req: http.IncomingMessage): boolean => {
    if (!hostHeaders.has(String(req.headers.host ?? ''))) return false;
    const o = req.headers.origin;
    return o === undefined || origins.has(o);
  };
  const send = (res: http.ServerResponse, status: number, body: string, type = 'application/json; charset=utf-8', headers: http.OutgoingHttpHeaders = {}) => {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff', ...headers });
    res.end(body);
  };
  const replier =
    (res: http.ServerResponse): Reply =>
    (status, error, headers) => {
      const text = JSON.stringify({ ok: false, error });
      opts.onSend?.(text);
      send(res, status, text, undefined, headers);
    };

  const invoke = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL, reply: Reply) => {
    const channel = safeDecode(url.pathname.slice('/api/invoke/'.length));
    if (channel === undefined) return reply(400, { code: ErrorCodes.validation, message: 'The address of the request is not valid (a broken %-escape).', hint: 'Reload the page.' });
    if (req.method !== 'POST') return reply(405, { code: ErrorCodes.httpMethodNotAllowed, message: 'Use POST.', hint: 'Reload the page.' }, { Allow: 'POST' });
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) {
      return reply(415, { code: ErrorCodes.httpUnsupportedMedia, message: 'Send the request as JSON.', hint: 'Reload the page.' });
    }
    const limit = maxRequestBytes(channel);
    const body = await readBody(req, limit);
    if (body.kind === 'aborted') return;
    if (body.kind === 'too-large') {
      log.info('request too large', { channel, limit });
      return reply(
        413,
        { code: ErrorCodes.tooLarge, message: `The request is larger than the ${formatBytes(limit)} this action accepts.`, hint: 'Send less at once, e.g. split the file into several smaller ones.', details: { maxBytes: limit } },
        { Connection: 'close' },
      );
    }
    if (body.kind === 'bad-encoding') return reply(400, { code: ErrorCodes.validation, message: 'The request is not valid UTF-8 text.', hint: 'Reload the page.' });
    let request: unknown;
    try {
      request = body.text.length ? JSON.parse(body.text) : {};
    } catch {
      return reply(400, { code: ErrorCodes.validation, message: 'The request is not valid JSON.', hint: 'Reload the page.' });
    }
    const result = await opts.router.invoke(channel, request);
    const text = JSON.stringify(result);
    opts.onSend?.(text);
    return send(res, 200, text);
  };

  /** A file main offered once: sent as an attachment, then deleted. */
  const download = async (res: http.ServerResponse, url: URL, reply: Reply) => {
    const offer = opts.downloads?.take(url.pathname.slice('/api/download/'.length));
    if (!offer) return reply(404, { code: ErrorCodes.httpNotFound, message: 'This download is no longer available.', hint: 'Export again.' });
    const info = await stat(offer.file).catch(() => undefined);
    if (!info?.isFile()) return reply(404, { code: ErrorCodes.httpNotFound, message: 'This download is no longer available.', hint: 'Export again.' });
    res.writeHead(200, {
      'Content-Type': offer.type,
      'Content-Length': info.size,
      'Content-Disposition': `attachment; filename="${offer.name.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    });
    const stream = createReadStream(offer.file);
    stream.on('close', () => void offer.discard());
    stream.pipe(res);
  };

  const serveStatic = async (req: http.IncomingMessage, res: http.ServerResponse, url: URL) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'Method not allowed.', 'text/plain; charset=utf-8', { Allow: 'GET, HEAD' });
    const decoded = safeDecode(url.pathname);
    if (decoded === undefined) return send(res, 400, 'Bad address (a broken %-escape).', 'text/plain; charset=utf-8');
    const rel = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
    const file = path.resolve(staticRoot, rel);
    if (!file.startsWith(staticRoot + path.sep)) return send(res, 404, 'Not found', 'text/plain');
    const info = await stat(file).catch(() => undefined);
    const target = info?.isFile() ? file : path.join(staticRoot, 'index.html');
    const exists = await stat(target).catch(() => undefined);
    if (!exists) return send(res, 500, 'The renderer is not built. Run `npm run build:renderer`.', 'text/plain');
    res.writeHead(200, { 'Content-Type': MIME[path.extname(target)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
    if (req.method === 'HEAD') return res.end();
    createReadStream(target).pipe(res);
  };

  const handle = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    const reply = replier(res);
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://127.0.0.1');
    } catch {
      return reply(400, { code: ErrorCodes.validation, message: 'The address of the request is not valid.', hint: 'Reload the page.' });
    }
    const api = url.pathname.startsWith('/api/');
    if (!sameOrigin(req)) return reply(403, { code: ErrorCodes.forbidden, message: 'This page may only be opened from its own address.', hint: 'Open the address printed in the terminal (127.0.0.1).' });
    // The opening URL carries the token once: it becomes an HttpOnly cookie and leaves the address bar (303 to the same path).
    const fromUrl = url.searchParams.get('token');
    if (!api && fromUrl !== null && (req.method === 'GET' || req.method === 'HEAD') && safeEqual(fromUrl, token)) {
      url.searchParams.delete('token');
      // One leading slash: `/.//evil.example` has the path `//evil.example`, which a browser would read as another host.
      const location = `/${url.pathname.replace(/^\/+/, '')}${url.search}`;
      res.writeHead(303, { Location: location, 'Set-Cookie': `${cookieName}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`, 'Cache-Control': 'no-store' });
      return res.end();
    }
    if (!authorized(req)) {
      if (api) return reply(401, { code: ErrorCodes.unauthorized, message: 'This request does not carry the launch token.', hint: 'Open Northbound with the address printed in the terminal.' });
      return send(res, 401, '<!doctype html><title>Northbound</title><p>Open Northbound with the address printed in the terminal (it carries the token for this launch).</p>', 'text/html; charset=utf-8');
    }
    if (url.pathname.startsWith('/api/invoke/')) return invoke(req, res, url, reply);
    if (url.pathname.startsWith('/api/download/') && req.method === 'GET') return download(res, url, reply);
    if (api) return reply(404, { code: ErrorCodes.httpNotFound, message: `There is no ${url.pathname}.`, hint: 'Reload the page.' });
    return serveStatic(req, res, url);
  };

  const server = http.createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      log.error('request failed', { error: String(e) });
      if (!res.headersSent) send(res, 500, JSON.stringify({ ok: false, error: { code: ErrorCodes.internal, message: 'Something went wrong inside the app.', hint: 'Try again; if it keeps happening, the log has the details.' } }));
      else res.destroy();
    });
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const sockets = new Set<WebSocket>();
  // A bad frame (over maxPayload, invalid UTF-8) ends that socket with a close code; it must never reach the process.
  wss.on('error', (e) => log.warn('event socket server error', { error: String(e) }));
  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== '/api/events' || !sameOrigin(req) || !authorized(req)) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
      ws.on('error', (e) => {
        log.info('event socket closed on a bad frame', { error: e.message });
        sockets.delete(ws);
      });
      ws.on('message', () => undefined); // the socket is push-only
    });
  });
  const unsubscribe = opts.events.subscribe((event, payload) => {
    const text = JSON.stringify({ event, payload });
    for (const ws of sockets) {
      if (ws.readyState === ws.OPEN) {
        opts.onSend?.(text);
        ws.send(text);
      }
    }
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  hostHeaders = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
  cookieName = `nb_token_${port}`;
  origins = new Set([origin, `http://localhost:${port}`]);
  log.info('browser mode listening', { origin });

  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    async close() {
      unsubscribe();
      for (const ws of sockets) ws.terminate();
      wss.close();
      // Stop accepting, then drop open keep-alive connections, or close() would wait for the browser.
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
