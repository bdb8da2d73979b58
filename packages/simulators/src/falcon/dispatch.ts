/**
 * One request on one simulated cloud: the token endpoint, then for data calls routing,
 * the bearer token (it works in its client's home cloud only), mid-cycle expiry, the rate
 * bucket, injected faults, scopes and the handler. Every answer carries X-Cs-Region,
 * X-Cs-Traceid and the X-RateLimit headers.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { SimLogger as Logger } from '../log';
import type { SimClock } from '../clock';
import { readBody, type Reply } from '../http';
import { getAssessments, getDevices, postDevices, queryDevices, scrollDevices, type DataRequest } from './devices';
import { errorReply, MSG, POWERED_BY, type RateBucket, type TokenStore } from './state';
import type { FalconFaultHooks } from './fault-hooks';
import type { FalconStats } from './stats';
import type { SimTenant } from './tenant';
import type { FalconCloud, FalconScope, FalconSimClient } from './types';

export interface ClientState {
  spec: FalconSimClient;
  bucket: RateBucket;
}

export interface FalconSimState {
  clock: SimClock;
  logger: Logger;
  clients: Map<string, ClientState>;
  tenants: Map<string, SimTenant>;
  tokens: TokenStore;
  /** Where a test bends the answers (NO_FALCON_FAULTS: never). */
  faults: FalconFaultHooks;
  stats: FalconStats;
  secret: string;
  tokenLifetimeS: number;
  rateLimit: number;
  baseUrl(cloud: FalconCloud): string;
}

type Handler = (r: DataRequest) => Reply;
const ROUTES: Record<string, { scope: FalconScope; methods: Record<string, Handler> }> = {
  '/devices/queries/devices/v1': { scope: 'hosts:read', methods: { GET: queryDevices } },
  '/devices/queries/devices-scroll/v1': { scope: 'hosts:read', methods: { GET: scrollDevices } },
  '/devices/entities/devices/v2': { scope: 'hosts:read', methods: { GET: getDevices, POST: postDevices } },
  '/zero-trust-assessment/entities/assessments/v1': { scope: 'zero-trust-assessment:read', methods: { GET: getAssessments } },
};

const isGov = (c: FalconCloud) => c === 'us-gov-1';

function rateHeaders(limit: number, remaining: number): Record<string, string> {
  return { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(Math.max(0, remaining)) };
}

async function tokenRequest(s: FalconSimState, cloud: FalconCloud, req: IncomingMessage, started: number): Promise<Reply> {
  const { text } = await readBody(req);
  const form = new URLSearchParams(text);
  const clientId = form.get('client_id') ?? '';
  const secret = form.get('client_secret') ?? '';
  const anonymous = rateHeaders(s.rateLimit, s.rateLimit);
  if (!clientId || !secret) return errorReply(400, 'client_id and client_secret are required', started, POWERED_BY.token, anonymous);
  const client = s.clients.get(clientId);
  // GovCloud is a separate environment: its clients are unknown to the commercial clouds and back.
  if (!client || client.spec.clientSecret !== secret || isGov(cloud) !== isGov(client.spec.region)) return errorReply(403, MSG.badClient, started, POWERED_BY.token, anonymous);
  const home = client.spec.region;
  const limits = rateHeaders(s.rateLimit, client.bucket.remaining(s.clock.now()));
  let cid = client.spec.cid;
  const member = (form.get('member_cid') ?? '').toLowerCase().replace(/-[0-9a-f]{2}$/, '');
  if (member) {
    if (!client.spec.members.some((m) => m.cid === member)) return errorReply(403, 'Failed to issue access token - member_cid is not a child CID of this API client', started, POWERED_BY.token, limits);
    cid = member;
  }
  if (cloud !== home && s.faults.redirectWrongCloud()) {
    return { ...errorReply(308, 'Permanent Redirect', started, POWERED_BY.token), headers: { ...limits, location: `${s.baseUrl(home)}/oauth2/token`, 'x-cs-region': home } };
  }
  const t = s.tokens.issue({ clientId, home, cid, expiresAt: s.clock.now() + s.tokenLifetimeS * 1000 });
  return { status: 201, headers: { ...limits, 'x-cs-region': home }, body: { access_token: t.token, token_type: 'bearer', expires_in: s.tokenLifetimeS } };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function dataRequest(s: FalconSimState, cloud: FalconCloud, req: IncomingMessage, url: URL, started: number): Promise<Reply | 'reset'> {
  const route = ROUTES[url.pathname];
  const method = (req.method ?? 'GET').toUpperCase();
  const anonymous = rateHeaders(s.rateLimit, s.rateLimit);
  if (!route) return errorReply(404, 'Not Found', started, POWERED_BY.gateway, anonymous);
  const handler = route.methods[method];
  if (!handler) return errorReply(405, 'Method Not Allowed', started, POWERED_BY.gateway, { ...anonymous, allow: Object.keys(route.methods).join(', ') });

  const now = s.clock.now();
  const bearer = /^bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
  let token = bearer ? s.tokens.live(bearer, now) : undefined;
  const drop = token ? s.faults.dropTokens() : undefined;
  if (drop === 'expire') s.tokens.expireAll(now);
  if (drop === 'revoke') s.tokens.revokeAll();
  if (drop) token = undefined;
  const client = token ? s.clients.get(token.clientId) : undefined;
  // A token works only in its client's home cloud; elsewhere the gateway does not know it.
  if (!token || !client || token.home !== cloud) return errorReply(401, MSG.invalidBearer, started, POWERED_BY.gateway, anonymous);

  const taken = client.bucket.take(now);
  const picked = s.faults.next();
  if (picked.fault?.kind === '429' || !taken.ok) {
    const retryAt = picked.fault?.kind === '429' ? now + picked.fault.retryAfterS * 1000 : taken.ok ? now : taken.retryAtMs;
    const headers = { ...rateHeaders(s.rateLimit, taken.ok ? taken.remaining : 0), 'x-ratelimit-retryafter': String(Math.ceil(retryAt / 1000)) };
    return errorReply(429, MSG.rateLimited, started, POWERED_BY.gateway, headers);
  }
  const headers = rateHeaders(s.rateLimit, taken.remaining);
  if (!client.spec.scopes.includes(route.scope)) return errorReply(403, MSG.forbidden, started, POWERED_BY.gateway, headers);
  if (picked.delayMs > 0) await sleep(picked.delayMs);
  switch (picked.fault?.kind) {
    case 'reset':
      return 'reset';
    case '5xx': {
      const status = picked.fault.status;
      if (status === 502) return { status, headers: { ...headers, 'content-type': 'text/html' }, body: '<html><body><h1>502 Bad Gateway</h1></body></html>\n' };
      return errorReply(status, status === 503 ? 'Service Unavailable' : 'Internal Server Error', started, POWERED_BY.gateway, headers);
    }
    case 'malformed':
      return { status: 200, headers: { ...headers, 'content-type': 'application/json' }, body: '{"meta":{"query_time":0.012,"powered_by":"device-api"},"resources":["' };
    default:
      break;
  }

  let body: unknown;
  if (method === 'POST') {
    const { text, tooLarge } = await readBody(req);
    if (tooLarge) return errorReply(413, 'request body too large', started, POWERED_BY.gateway, headers);
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      return errorReply(400, 'request body is not valid JSON', started, POWERED_BY.gateway, headers);
    }
  }
  const tenant = s.tenants.get(token.cid);
  if (!tenant) return errorReply(500, 'Internal Server Error', started, POWERED_BY.gateway, headers);
  const reply = handler({ url, body, tenant, started, now, secret: s.secret });
  return { ...reply, headers: { ...headers, ...reply.headers } };
}

function write(res: ServerResponse, reply: Reply, cloud: FalconCloud): void {
  const payload = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
  const traceId = randomUUID();
  res.writeHead(reply.status, {
    'content-type': 'application/json',
    'x-cs-region': cloud,
    'x-cs-traceid': traceId,
    ...reply.headers,
    'content-length': String(Buffer.byteLength(payload)),
  });
  res.end(payload);
}

export function createFalconDispatcher(s: FalconSimState, cloud: FalconCloud): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const started = performance.now();
    const url = new URL(req.url ?? '/', 'https://falcon.invalid');
    s.stats.begin(url.pathname);
    res.once('close', () => s.stats.done());
    const isToken = url.pathname === '/oauth2/token';
    const work = isToken && req.method === 'POST' ? tokenRequest(s, cloud, req, started) : dataRequest(s, cloud, req, url, started);
    work
      .then((reply) => {
        req.resume();
        if (reply === 'reset') {
          req.socket.destroy();
          return;
        }
        s.stats.answered(reply.status);
        write(res, reply, cloud);
      })
      .catch((e: unknown) => {
        s.logger.error('falcon simulator handler failed', { path: url.pathname, error: e instanceof Error ? e.message : String(e) });
        s.stats.answered(500);
        write(res, errorReply(500, 'Internal Server Error', started), cloud);
      });
  };
}
