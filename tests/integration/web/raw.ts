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
}

/** Opens `/api/events` by hand (upgrade request with the given headers). */
export function rawWebSocket(port: number, headers: Record<string, string>, timeoutMs = 10_000): Promise<RawSocket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error('no upgrade answer'));
    }, timeoutMs);
    let buf = Buffer.alloc(0);
    let answered = false;
    let closeCode: number | null = null;
    let ended = false;
    const waiters: Array<() => void> = [];
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
        });
      }
      // A server close frame: opcode 0x8, unmasked, code in the first two payload bytes.
      if (buf.length >= 4 && (buf[0]! & 0x0f) === 0x8) closeCode = buf.readUInt16BE(2);
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
