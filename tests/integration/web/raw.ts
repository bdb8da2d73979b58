/**
 * Raw HTTP and WebSocket access to the browser-mode host, for what fetch and the ws client will
 * not send: invalid UTF-8 text frames, oversize frames, unfinished percent-escapes in a path.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';

export interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One HTTP request with the path sent exactly as given; rejects after `timeoutMs`. */
export function rawRequest(port: number, opts: { method?: string; path: string; headers?: Record<string, string>; body?: Buffer | string; timeoutMs?: number }): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', port, method: opts.method ?? 'GET', path: opts.path, headers: { host: `127.0.0.1:${port}`, ...opts.headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(opts.timeoutMs ?? 10_000, () => req.destroy(new Error(`no answer within ${opts.timeoutMs ?? 10_000} ms`)));
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** A client frame (masked, FIN set) with the given opcode: 0x1 text, 0x2 binary. */
export function clientFrame(opcode: number, payload: Buffer): Buffer {
  const mask = randomBytes(4);
  const len = payload.length;
  const head = len < 126 ? Buffer.from([0x80 | opcode, 0x80 | len]) : len < 65536 ? Buffer.alloc(4) : Buffer.alloc(10);
  if (len >= 126 && len < 65536) {
    head[0] = 0x80 | opcode;
    head[1] = 0x80 | 126;
    head.writeUInt16BE(len, 2);
  } else if (len >= 65536) {
    head[0] = 0x80 | opcode;
    head[1] = 0x80 | 127;
    head.writeBigUInt64BE(BigInt(len), 2);
  }
  const body = Buffer.from(payload);
  for (let i = 0; i < body.length; i++) body[i]! ^= mask[i % 4]!;
  return Buffer.concat([head, mask, body]);
}

export interface RawSocket {
  /** Status line of the upgrade answer, e.g. "HTTP/1.1 101 Switching Protocols". */
  statusLine: string;
  socket: net.Socket;
  /** Resolves with the close code the server sent (or null if it just hung up); rejects after `timeoutMs`. */
  closed(timeoutMs?: number): Promise<number | null>;
  /** Resolves once a text frame containing `text` arrived; rejects after `timeoutMs`. */
  received(text: string, timeoutMs?: number): Promise<void>;
}

/** Server frames (unmasked) in `buf`: complete ones are parsed, the rest is left for later. */
function parseFrames(buf: Buffer): { frames: Array<{ opcode: number; payload: Buffer }>; rest: Buffer } {
  const frames: Array<{ opcode: number; payload: Buffer }> = [];
  let at = 0;
  for (;;) {
    if (buf.length - at < 2) break;
    let len = buf[at + 1]! & 0x7f;
    let head = 2;
    if (len === 126) {
      if (buf.length - at < 4) break;
      len = buf.readUInt16BE(at + 2);
      head = 4;
    } else if (len === 127) {
      if (buf.length - at < 10) break;
      len = Number(buf.readBigUInt64BE(at + 2));
      head = 10;
    }
    if (buf.length - at < head + len) break;
    frames.push({ opcode: buf[at]! & 0x0f, payload: buf.subarray(at + head, at + head + len) });
    at += head + len;
  }
  return { frames, rest: buf.subarray(at) };
}

/** Opens `/api/events` by hand (upgrade request with the given headers). */
export function rawWebSocket(port: number, headers: Record<string, string>, timeoutMs = 10_000): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no upgrade answer'));
    }, timeoutMs);
    let buf: Buffer = Buffer.alloc(0);
    let answered = false;
    let closeCode: number | null = null;
    let ended = false;
    let texts = '';
    const waiters: Array<() => void> = [];
    const textWaiters: Array<() => boolean> = [];
    socket.on('data', (c: Buffer) => {
      buf = Buffer.concat([buf, c]);
      if (!answered) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        answered = true;
        clearTimeout(timer);
        const statusLine = buf.subarray(0, buf.indexOf('\r\n')).toString();
        buf = buf.subarray(end + 4);
        resolve({
          statusLine,
          socket,
          closed: (ms = 10_000) =>
            new Promise((res, rej) => {
              if (ended) return res(closeCode);
              const t = setTimeout(() => rej(new Error('the server did not close the socket')), ms);
              waiters.push(() => {
                clearTimeout(t);
                res(closeCode);
              });
            }),
          received: (text, ms = 10_000) =>
            new Promise((res, rej) => {
              const t = setTimeout(() => rej(new Error(`no frame with ${JSON.stringify(text)} arrived`)), ms);
              const check = () => {
                if (!texts.includes(text)) return false;
                clearTimeout(t);
                res();
                return true;
              };
              if (!check()) textWaiters.push(check);
            }),
        });
      }
      const { frames, rest } = parseFrames(buf);
      buf = rest;
      for (const f of frames) {
        // A close frame carries its code in the first two payload bytes.
        if (f.opcode === 0x8 && f.payload.length >= 2) closeCode = f.payload.readUInt16BE(0);
        if (f.opcode === 0x1) texts += f.payload.toString('utf8');
      }
      for (const w of textWaiters.splice(0)) if (!w()) textWaiters.push(w);
    });
    socket.on('error', () => undefined);
    socket.on('close', () => {
      ended = true;
      for (const w of waiters.splice(0)) w();
      if (!answered) {
        clearTimeout(timer);
        reject(new Error('closed before answering'));
      }
    });
    const lines = [
      'GET /api/events HTTP/1.1',
      `Host: 127.0.0.1:${port}`,
      'Upgrade: websocket',
      'Connection: Upgrade',
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
      'Sec-WebSocket-Version: 13',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  });
}
