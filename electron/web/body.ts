/**
 * Reading a request body in browser mode, never more than the channel's limit. A body over the
 * limit is not read further: the host answers 413 with `Connection: close`, so the answer is
 * written in full before the connection ends (the client gets the JSON error, not a reset).
 */
import type http from 'node:http';

export type BodyResult =
  | { kind: 'ok'; text: string }
  /** Larger than the limit (declared in Content-Length or seen while reading). */
  | { kind: 'too-large' }
  /** Not valid UTF-8. */
  | { kind: 'bad-encoding' }
  /** The client went away before the end of the body. */
  | { kind: 'aborted' };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** A Content-Length above the limit, known before reading a byte. */
export function declaredTooLarge(req: http.IncomingMessage, limit: number): boolean {
  const declared = Number(req.headers['content-length']);
  return Number.isFinite(declared) && declared > limit;
}

export function readBody(req: http.IncomingMessage, limit: number): Promise<BodyResult> {
  if (declaredTooLarge(req, limit)) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (r: BodyResult) => {
      if (settled) return;
      settled = true;
      req.off('data', onData);
      req.off('end', onEnd);
      resolve(r);
    };
    const onData = (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        chunks.length = 0;
        // Stop reading: what is left is discarded by Node once the 413 is written.
        req.pause();
        finish({ kind: 'too-large' });
        return;
      }
      chunks.push(c);
    };
    const onEnd = () => {
      try {
        finish({ kind: 'ok', text: utf8.decode(Buffer.concat(chunks, size)) });
      } catch {
        finish({ kind: 'bad-encoding' });
      }
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', () => finish({ kind: 'aborted' }));
    req.on('close', () => finish({ kind: 'aborted' }));
  });
}

/** `decodeURIComponent` that answers undefined for a malformed escape instead of throwing. */
export function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

export const formatBytes = (n: number): string => (n >= 1024 * 1024 ? `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB` : `${Math.round(n / 1024)} KiB`);
