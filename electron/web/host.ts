/**
 * Browser mode: the same router and events as the desktop app, served on 127.0.0.1 over
 * HTTP + WebSocket. A per-launch token, given in the opening URL, guards every request and
 * socket; requests from another Origin or Host are refused (no CSRF, no DNS rebinding).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { WebSocketServer, type WebSocket } from 'ws';
import type { EventHub } from '../app/events';
import type { Router } from '../app/router';
import type { Logger } from '../log';

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
}

export interface WebHost {
  url: string;
  origin: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

const CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self' ws://127.0.0.1:* http://127.0.0.1:*",
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

const MAX_BODY = 1024 * 1024;
const COOKIE = 'nb_token';

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

function cookieToken(req: http.IncomingMessage): string | undefined {
  const header = req.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

export async function startWebHost(opts: WebHostOptions): Promise<WebHost> {
  const token = opts.token ?? randomBytes(24).toString('base64url');
  const log = opts.logger.child('web');
  const staticRoot = path.resolve(opts.staticDir);
  let hostHeaders: Set<string> = new Set();
  let origins: Set<string> = new Set();

  const authorized = (req: http.IncomingMessage, url: URL): boolean => {
    const given = (req.headers['x-northbound-token'] as string | undefined) ?? url.searchParams.get('token') ?? cookieToken(req);
    return typeof given === 'string' && safeEqual(given, token);
  };
  const sameOrigin = (req: http.IncomingMessage): boolean => {
    if (!hostHeaders.has(String(req.headers.host ?? ''))) return false;
    const o = req.headers.origin;
    return o === undefined || origins.has(o);
  };
  const send = (res: http.ServerResponse, status: number, body: string, type = 'application/json; charset=utf-8') => {
    res.writeHead(status, { 'Content-Type': type, 'Cache-Control': 'no-store', 'X-Content-Type-Options': 'nosniff' });
    res.end(body);
  };

  const server = http.createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Frame-Options', 'DENY');
    res.setHeader('Referrer-Policy', 'no-referrer');
    if (!sameOrigin(req)) return send(res, 403, JSON.stringify({ error: 'This page may only be opened from its own address.' }));
    if (!authorized(req, url)) {
      return send(res, 401, '<!doctype html><title>Northbound</title><p>Open Northbound with the address printed in the terminal (it carries a one-time token).</p>', 'text/html; charset=utf-8');
    }
    try {
      if (url.pathname.startsWith('/api/invoke/')) {
        if (req.method !== 'POST') return send(res, 405, JSON.stringify({ error: 'Use POST.' }));
        if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) return send(res, 415, JSON.stringify({ error: 'Send JSON.' }));
        const body = await readBody(req);
        const channel = decodeURIComponent(url.pathname.slice('/api/invoke/'.length));
        let request: unknown;
        try {
          request = body.length ? JSON.parse(body) : {};
        } catch {
          return send(res, 400, JSON.stringify({ ok: false, error: { code: 'request.invalid', message: 'The request is not valid JSON.', hint: 'Reload the page.' } }));
        }
        const result = await opts.router.invoke(channel, request);
        const text = JSON.stringify(result);
        opts.onSend?.(text);
        return send(res, 200, text);
      }
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, JSON.stringify({ error: 'Method not allowed.' }));
      // Static files of the renderer; the token in the URL becomes a same-site cookie so assets load.
      if (url.searchParams.get('token')) res.setHeader('Set-Cookie', `${COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`);
      const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
      const file = path.resolve(staticRoot, rel);
      if (!file.startsWith(staticRoot + path.sep)) return send(res, 404, 'Not found', 'text/plain');
      const info = await stat(file).catch(() => undefined);
      const target = info?.isFile() ? file : path.join(staticRoot, 'index.html');
      const exists = await stat(target).catch(() => undefined);
      if (!exists) return send(res, 500, 'The renderer is not built. Run `npm run build:renderer`.', 'text/plain');
      res.writeHead(200, { 'Content-Type': MIME[path.extname(target)] ?? 'application/octet-stream', 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
      createReadStream(target).pipe(res);
    } catch (e) {
      log.error('request failed', { path: url.pathname, error: String(e) });
      if (!res.headersSent) send(res, 500, JSON.stringify({ error: 'Internal error.' }));
    }
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 64 * 1024 });
  const sockets = new Set<WebSocket>();
  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/api/events' || !sameOrigin(req) || !authorized(req, url)) {
      socket.write('HTTP/1.1 403 Forbidden\r\nConnection: close\r\n\r\n');
      socket.destroy();
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => {
      sockets.add(ws);
      ws.on('close', () => sockets.delete(ws));
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

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new Error('body too large'));
        req.destroy();
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
