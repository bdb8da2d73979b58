/** Plain node:http plumbing for the simulator: content negotiation, bodies, replies, the login page. */
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';

/** What a handler answers; the dispatcher writes it. A string body is sent as is, an object as JSON. */
export interface Reply {
  status: number;
  headers?: Record<string, string>;
  body?: string | object;
}

export const json = (status: number, body: object, headers: Record<string, string> = {}): Reply => ({ status, body, headers });

interface MediaRange {
  type: string;
  q: number;
  index: number;
}

function parseAccept(accept: string): MediaRange[] {
  return accept
    .split(',')
    .map((part, index) => {
      const [type = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
      const qParam = params.find((p) => p.startsWith('q='));
      const q = qParam ? Number(qParam.slice(2)) : 1;
      return { type, q: Number.isFinite(q) ? q : 0, index };
    })
    .filter((r) => r.type.length > 0);
}

/** Quality of `type` under the most specific matching range, and where it is named explicitly. */
function quality(ranges: MediaRange[], type: string): { q: number; explicitAt: number } {
  const exact = ranges.find((r) => r.type === type);
  if (exact) return { q: exact.q, explicitAt: exact.index };
  const sub = ranges.find((r) => r.type === `${type.split('/')[0]}/*`) ?? ranges.find((r) => r.type === '*/*');
  return { q: sub?.q ?? 0, explicitAt: Number.POSITIVE_INFINITY };
}

/**
 * MN-20 / MN-12: which representation the caller accepts. `undefined` = neither JSON nor (where
 * allowed) XML is acceptable, which is a 415. A missing Accept header means JSON.
 */
export function negotiate(accept: string | undefined, allowXml: boolean): 'json' | 'xml' | undefined {
  if (!accept || accept.trim() === '') return 'json';
  const ranges = parseAccept(accept);
  const j = quality(ranges, 'application/json');
  const x = allowXml ? quality(ranges, 'application/xml') : { q: 0, explicitAt: Number.POSITIVE_INFINITY };
  if (j.q <= 0 && x.q <= 0) return undefined;
  if (x.q > j.q) return 'xml';
  if (j.q > x.q) return 'json';
  return x.explicitAt < j.explicitAt ? 'xml' : 'json';
}

/** Whether the caller prefers XML, for rendering OAuth errors even when Accept was otherwise unacceptable. */
export const prefersXml = (accept: string | undefined): boolean => negotiate(accept, true) === 'xml';

export const isJsonContentType = (headers: IncomingHttpHeaders): boolean => {
  const ct = headers['content-type'];
  if (!ct) return false;
  const mime = ct.split(';')[0]?.trim().toLowerCase();
  return mime === 'application/json';
};

const MAX_BODY = 1_048_576;

/** The raw request body (at most 1 MiB; more is cut off and reported as too large). */
export async function readBody(req: IncomingMessage): Promise<{ text: string; tooLarge: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let tooLarge = false;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) tooLarge = true;
    else chunks.push(chunk);
  }
  return { text: Buffer.concat(chunks).toString('utf8'), tooLarge };
}

/** MN-26: the web login page a real node answers with when its session layer intercepts a call. */
export const LOGIN_PAGE = `<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Management Node - Login</title></head>
<body>
<main>
<h1>Management Node</h1>
<form method="post" action="/login" autocomplete="off">
<label>Username <input name="username" type="text"></label>
<label>Password <input name="password" type="password"></label>
<button type="submit">Log in</button>
</form>
</main>
</body>
</html>
`;

export const loginPageReply = (): Reply => ({ status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: LOGIN_PAGE });
