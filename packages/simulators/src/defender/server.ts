/**
 * startDefenderSimulator: an Entra ID token endpoint and the Defender API on two HTTPS listeners of
 * a loopback address, with a self-signed certificate made at start (shared by both listeners).
 */
import { createServer } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { silentLogger } from '../log';
import { createCertificate } from '../cert';
import { SimClock } from '../clock';
import { readBody, type Reply } from '../http';
import { answer, apiError, authorize, routeOf, type ApiDeps } from './api';
import { NO_DEFENDER_FAULTS, type DefenderFaultHooks } from './fault-hooks';
import { aadstsError, tokenRequest, type IdpDeps } from './idp';
import { DOCUMENTED_LIMITS, SimRateLimiter } from './rate';
import { TokenIssuer } from './tokens';
import type { DefenderSimulator, DefenderSimulatorOptions, DefenderStatsView } from './types';
import { assertLoopback, listen, shutdown } from '../listen';

function newStats(): DefenderStatsView & { reset(): void } {
  const stats = {
    calls: {} as Record<string, number>,
    statuses: {} as Record<string, number>,
    throttled: 0,
    rateLimited: 0,
    tokensIssued: 0,
    inFlightVulnerabilities: 0,
    maxInFlightVulnerabilities: 0,
    reset() {
      stats.calls = {};
      stats.statuses = {};
      stats.throttled = 0;
      stats.rateLimited = 0;
      stats.tokensIssued = 0;
      stats.maxInFlightVulnerabilities = stats.inFlightVulnerabilities;
    },
  };
  return stats;
}

function write(res: ServerResponse, reply: Reply): void {
  if (res.destroyed || res.headersSent) return;
  const headers: Record<string, string> = { ...reply.headers };
  const payload = typeof reply.body === 'string' ? reply.body : reply.body === undefined ? '' : JSON.stringify(reply.body);
  headers['content-type'] ??= 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(payload));
  res.writeHead(reply.status, headers);
  res.end(payload);
}



/** `faults`: where a test bends the answers (the testing entry's switches); the plain vendor without. */
export async function startDefenderSimulator(opts: DefenderSimulatorOptions, faults: DefenderFaultHooks = NO_DEFENDER_FAULTS): Promise<DefenderSimulator> {
  const host = opts.host ?? '127.0.0.1';
  assertLoopback(host, 'The Defender simulator');
  for (const t of opts.tenants) {
    if (!Number.isInteger(t.hosts) || t.hosts < 10 || t.hosts > 100_000) throw new RangeError(`Tenant ${t.tenantId}: hosts must be an integer from 10 to 100000.`);
  }
  const rateScale = opts.rateScale ?? 1;
  if (!(rateScale > 0)) throw new RangeError('rateScale must be a positive number.');
  const logger = opts.logger ?? silentLogger;
  const clock = opts.clock ?? new SimClock();
  const tenants = opts.tenants.map((t) => ({ ...t, permissions: [...t.permissions] }));
  const stats = newStats();
  const issuer = new TokenIssuer(() => clock.now());
  const limiter = new SimRateLimiter({ ...DOCUMENTED_LIMITS, ...opts.limits }, rateScale, () => clock.now());
  let apiUrl = '';
  const count = (map: Record<string, number>, key: string) => (map[key] = (map[key] ?? 0) + 1);
  const send = (res: ServerResponse, reply: Reply) => {
    count(stats.statuses, String(reply.status));
    if (reply.status === 429) stats.throttled += 1;
    write(res, reply);
  };

  const idpDeps: IdpDeps = { clock, tenants: () => tenants, issuer, tokenLifetimeSec: opts.tokenLifetimeSec ?? 3599 };
  const idp = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://login.invalid');
    const m = /^\/([^/]+)\/oauth2\/(v2\.0\/)?token\/?$/i.exec(url.pathname);
    const { text } = await readBody(req);
    if (!m) return send(res, { status: 404, headers: { 'content-type': 'text/html; charset=utf-8' }, body: '<html><body>Not Found</body></html>' });
    const version = m[2] ? 'v2' : 'v1';
    count(stats.calls, `POST /{tenant}/oauth2/${version === 'v2' ? 'v2.0/' : ''}token`);
    if (req.method !== 'POST') return send(res, aadstsError(clock, 400, 'invalid_request', 900561, 'The endpoint only accepts POST requests.'));
    const reply = tokenRequest(idpDeps, decodeURIComponent(m[1]!), version, new URLSearchParams(text));
    if (reply.status === 200) stats.tokensIssued += 1;
    send(res, reply);
  };

  const anchorMs = opts.dataAnchorMs ?? clock.now();
  const driftPeriod = () => (opts.driftEveryMs ? Math.max(0, Math.floor((clock.now() - anchorMs) / opts.driftEveryMs)) : undefined);
  const apiDeps: ApiDeps = { apiUrl: () => apiUrl, tenants: () => tenants, issuer, limiter, faults, anchorMs, driftPeriod, onRateLimited: () => (stats.rateLimited += 1) };
  const api = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'https://api.invalid');
    const route = routeOf(url.pathname);
    const method = (req.method ?? 'GET').toUpperCase();
    count(stats.calls, `${method} ${route?.key ?? url.pathname}`);
    if (route?.cls === 'vulnerabilities') {
      stats.inFlightVulnerabilities += 1;
      stats.maxInFlightVulnerabilities = Math.max(stats.maxInFlightVulnerabilities, stats.inFlightVulnerabilities);
      res.once('close', () => (stats.inFlightVulnerabilities -= 1));
    }
    await readBody(req);
    if (!route) return send(res, apiError(404, 'NotFound', `No resource at ${url.pathname}.`));
    if (method !== 'GET') return send(res, apiError(405, 'MethodNotAllowed', `${method} is not allowed on ${url.pathname}.`, { allow: 'GET' }));
    const before = faults.beforeCall(route.cls);
    if (before === 'reset') {
      req.socket.destroy();
      return;
    }
    if (before === 'revoke') issuer.revokeAll();
    const auth = authorize(apiDeps, req.headers.authorization, route.cls);
    const reply = auth.ok ? answer(apiDeps, route, auth.app, url.searchParams) : auth.reply;
    const delay = faults.delayMs(route.cls);
    if (delay > 0) await sleep(delay);
    send(res, reply);
  };

  const wrap = (handler: (req: IncomingMessage, res: ServerResponse) => Promise<void>) => (req: IncomingMessage, res: ServerResponse) => {
    handler(req, res).catch((e: unknown) => {
      logger.error('defender simulator handler failed', { error: e });
      send(res, apiError(500, 'InternalServerError', 'The simulator failed to answer.'));
    });
  };

  const cert = await createCertificate();
  const idpServer = createServer({ key: cert.key, cert: cert.cert }, wrap(idp));
  const apiServer = createServer({ key: cert.key, cert: cert.cert }, wrap(api));
  const urlOf = (port: number) => `https://${host.includes(':') ? `[${host}]` : host}:${port}`;
  try {
    const [idpPort, apiPort] = await Promise.all([listen(idpServer, host), listen(apiServer, host)]);
    apiUrl = urlOf(apiPort);
    const idpUrl = urlOf(idpPort);
    logger.info('defender simulator listening', { idpUrl, apiUrl, fingerprint256: cert.fingerprint256 });
    let closed: Promise<void> | undefined;
    return {
      idpUrl,
      apiUrl,
      fingerprint256: cert.fingerprint256,
      certificatePem: cert.cert,
      tenants,
      stats,
      clock,
      expireTokens: () => issuer.revokeAll(),
      close() {
        closed ??= Promise.all([shutdown(idpServer), shutdown(apiServer)]).then(() => logger.info('defender simulator stopped'));
        return closed;
      },
    };
  } catch (e) {
    await Promise.all([shutdown(idpServer), shutdown(apiServer)]);
    throw e;
  }
}
