/**
 * startFalconSimulator: simulated Falcon clouds, one HTTPS listener per cloud on a loopback
 * address (EDR-F4), sharing one self-signed certificate made at start and one set of API
 * clients, tokens and rate buckets.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import { FALCON_CLOUDS } from '../vendor/falcon-clouds';
import { silentLogger } from '../log';
import { createCertificate } from '../cert';
import { SimClock } from '../clock';
import { createFalconDispatcher, type ClientState, type FalconSimState } from './dispatch';
import { RateBucket, TokenStore } from './state';
import { FalconStats } from './stats';
import { NO_FALCON_FAULTS, type FalconFaultHooks } from './fault-hooks';
import { SimTenant } from './tenant';
import type { FalconCloud, FalconSimClient, FalconSimulator, FalconSimulatorOptions } from './types';
import { assertLoopback, listen, shutdown } from '../listen';



const randomHex = (bytes: number) => randomBytes(bytes).toString('hex');
const randomSecret = () => randomBytes(30).toString('base64url').replace(/[-_]/g, 'x').slice(0, 40);

/** `faults`: where a test bends the answers (the testing entry's switches); the plain vendor without. */
export async function startFalconSimulator(opts: FalconSimulatorOptions = {}, faults: FalconFaultHooks = NO_FALCON_FAULTS): Promise<FalconSimulator> {
  const host = opts.host ?? '127.0.0.1';
  assertLoopback(host, 'The Falcon simulator');
  const regions = [...new Set(opts.regions ?? FALCON_CLOUDS)];
  if (regions.length === 0) throw new Error('The Falcon simulator needs at least one cloud.');
  const clock = opts.clock ?? new SimClock();
  const logger = opts.logger ?? silentLogger;
  const anchorMs = opts.anchorMs ?? clock.now();
  const rateLimit = opts.rateLimit ?? 6000;
  const rateWindowMs = opts.rateWindowMs ?? 60_000;

  const tenants = new Map<string, SimTenant>();
  const tenant = (spec: { cid?: string; hosts: number; seed?: number }) => {
    const t = new SimTenant({ ...spec, seed: spec.seed ?? opts.seed ?? 1, ...(opts.driftEveryMs ? { driftEveryMs: opts.driftEveryMs } : {}) }, anchorMs);
    if (tenants.has(t.cid)) throw new Error(`Two simulated Falcon tenants share the CID ${t.cid}; give them different seeds or CIDs.`);
    tenants.set(t.cid, t);
    return t;
  };
  const clients = new Map<string, ClientState>();
  const specs = opts.clients ?? [{}];
  for (const [i, c] of specs.entries()) {
    const region = c.region ?? regions[0]!;
    if (!regions.includes(region)) throw new Error(`Client ${i} lives in ${region}, which this simulator does not serve.`);
    const own = tenant(c.tenant ?? { hosts: opts.hosts ?? 10, seed: (opts.seed ?? 1) + i });
    const members = (c.members ?? []).map(tenant);
    const spec: FalconSimClient = {
      clientId: c.clientId ?? randomHex(16),
      clientSecret: c.clientSecret ?? randomSecret(),
      region,
      cid: own.cid,
      hosts: own.hosts,
      members: members.map((m) => ({ cid: m.cid, hosts: m.hosts })),
      scopes: c.scopes ?? ['hosts:read', 'zero-trust-assessment:read'],
    };
    clients.set(spec.clientId, { spec, bucket: new RateBucket(rateLimit, rateWindowMs, clock.now(), opts.rateBudgetAtStart ?? rateLimit, opts.rateBudgetAtStart !== undefined) });
  }

  const urls = new Map<FalconCloud, string>();
  const stats = new FalconStats();
  const state: FalconSimState = {
    clock,
    logger,
    clients,
    tenants,
    tokens: new TokenStore(),
    faults,
    stats,
    secret: randomHex(16),
    tokenLifetimeS: opts.tokenLifetimeS ?? 1799,
    rateLimit,
    baseUrl: (c) => urls.get(c) ?? `https://${host}:1`,
  };

  const cert = await createCertificate();
  const servers = new Map<FalconCloud, Server>();
  try {
    for (const cloud of regions) {
      const server = createServer({ key: cert.key, cert: cert.cert, keepAliveTimeout: 5_000 }, createFalconDispatcher(state, cloud));
      servers.set(cloud, server);
      const port = await listen(server, host);
      urls.set(cloud, `https://${host.includes(':') ? `[${host}]` : host}:${port}`);
    }
  } catch (e) {
    await Promise.all([...servers.values()].map(shutdown));
    throw e;
  }
  logger.info('falcon simulator listening', { clouds: Object.fromEntries(urls), fingerprint256: cert.fingerprint256 });

  let closed: Promise<void> | undefined;
  return {
    baseUrl(region) {
      const url = urls.get(region);
      if (!url) throw new Error(`This Falcon simulator does not serve ${region}; it serves ${regions.join(', ')}.`);
      return url;
    },
    baseUrls: () => Object.fromEntries(urls) as Partial<Record<FalconCloud, string>>,
    regions,
    fingerprint256: cert.fingerprint256,
    certificatePem: cert.cert,
    clients: [...clients.values()].map((c) => c.spec),
    stats,
    clock,
    expireTokens: () => state.tokens.expireAll(clock.now()),
    revokeTokens: () => state.tokens.revokeAll(),
    resetRateLimits: () => {
      for (const c of clients.values()) c.bucket.reset(clock.now());
    },
    deviceId(cid, index) {
      const t = tenants.get(cid);
      if (!t) throw new Error(`No simulated Falcon tenant ${cid}`);
      return t.deviceId(index);
    },
    close() {
      closed ??= (async () => {
        await Promise.all([...servers.values()].map(shutdown));
        logger.info('falcon simulator stopped');
      })();
      return closed;
    },
  };
}
