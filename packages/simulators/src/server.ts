/**
 * startMgmtSimulator: a simulated management node on two HTTPS listeners of a loopback address,
 * the basic-auth port and the OAuth port (spec 5), with a self-signed certificate made at start.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:https';
import { silentLogger } from './log';
import { createCertificate, type SimCertificate } from './cert';
import { SimClock } from './clock';
import { createDispatcher } from './dispatch';
import { SimInventory } from './inventory';
import { inventoryRoutes } from './inventory-routes';
import { edrConnectorRoutes, ztaRoutes, type ReceivedScores } from './zta';
import { adminHandlers } from './oauth-admin';
import { tokenHandlers } from './oauth-tokens';
import { loginPageReply } from './http';
import type { Route, SimContext } from './routes';
import { SimStats } from './stats';
import { SimStore, randomPassword, randomSecret } from './store';
import { assertLoopback, listen, shutdown } from './listen';
import { ROUTING_KEY_PATTERN } from './alarms/options';
import { createSimAlarms } from './alarms/setup';
import type { MgmtSimulator, MgmtSimulatorOptions, SimUser } from './types';
import { NO_MGMT_FAULTS, type MgmtFaultHooks } from './fault-hooks';

/** MN-2: the name of the seeded admin client. */
export const BOOTSTRAP_CLIENT_NAME = 'bootstrap-admin';

const defaultUsers = (): SimUser[] => [
  { username: 'admin', password: randomPassword(), role: 'admin' },
  { username: 'operator', password: randomPassword(), role: 'operator' },
  { username: 'viewer', password: randomPassword(), role: 'viewer' },
];

/** A broker address for `describe()`, without its password. */
function withoutPassword(text: string): string {
  try {
    const u = new URL(text.trim());
    u.password = '';
    return u.toString();
  } catch {
    return text.trim().replace(/^([a-z]+:\/\/[^:@/]*):[^@/]*@/i, '$1@');
  }
}

const urlOf = (host: string, port: number) => `https://${host.includes(':') ? `[${host}]` : host}:${port}`;

/** `faults`: where a test bends the answers (the testing entry's switches); the plain node without. */
export async function startMgmtSimulator(opts: MgmtSimulatorOptions = {}, faults: MgmtFaultHooks = NO_MGMT_FAULTS): Promise<MgmtSimulator> {
  const host = opts.host ?? '127.0.0.1';
  assertLoopback(host);
  const logger = opts.logger ?? silentLogger;
  const clock = opts.clock ?? new SimClock();
  const users = (opts.users ?? defaultUsers()).map((u) => ({ ...u }));
  const store = new SimStore(clock, users);
  const stats = new SimStats();

  const bootstrap = store.addClient(
    {
      // MN-38: the admin client an operator would have made in the node's web UI.
      name: BOOTSTRAP_CLIENT_NAME,
      description: 'Admin client created in the web UI (seeded by the simulator)',
      expires_at: '',
      client_secret_expires_at: '',
      max_access_tokens: 200,
      max_access_tokens_per_user: 50,
      access_token_validity: 3600,
      refresh_token_validity: 86_400,
      allowed_grant_types: ['password', 'refresh_token', 'client_credentials'],
      allowed_source_client_address: { source_type: 'ANYWHERE', ip_address_list: [] },
      enabled: true,
      software_id: '',
      software_version: '',
      contacts: [],
      redirect_uris: [],
    },
    { id: opts.bootstrapClient?.clientId ?? randomUUID(), secret: opts.bootstrapClient?.clientSecret ?? randomSecret() },
  ).client;

  let oauthUrl = '';
  const ctx: SimContext = { store, clock, faults, logger, oauthUrl: () => oauthUrl };
  const inventory = new SimInventory(clock, { organizations: opts.seedOrganizations, devices: opts.seedDevices, deploySeconds: opts.deploySeconds });
  const inv = inventoryRoutes(ctx, inventory);
  const receivedScores: ReceivedScores[] = [];
  const edrDocument = { current: { version: 1, connectors: [] } as Record<string, unknown> };
  const zta = [...ztaRoutes(receivedScores, () => clock.now()), ...edrConnectorRoutes(edrDocument)];
  const alarms = createSimAlarms(ctx, clock, inventory, opts.alarms ?? {}, logger);
  const tokens = tokenHandlers(ctx);
  const admin = adminHandlers(ctx);
  const loginPage: Route = { pattern: '/', style: 'page', auth: 'none', methods: { GET: loginPageReply } };
  const routes: Record<'basic' | 'oauth', Route[]> = {
    basic: [loginPage, ...inv.mgmt, ...alarms.routes, ...zta, ...inv.api],
    oauth: [
      loginPage,
      ...inv.mgmt,
      ...alarms.routes,
      ...zta,
      { pattern: '/auth/token', style: 'oauth', auth: 'none', methods: { POST: tokens.token } },
      { pattern: '/auth/refresh', style: 'oauth', auth: 'none', methods: { POST: tokens.refresh } },
      { pattern: '/auth/revoke', style: 'oauth', auth: 'none', methods: { POST: tokens.revoke } },
      { pattern: '/auth/admin/clients', style: 'oauth', auth: 'none', methods: { POST: admin.create } },
      { pattern: '/auth/admin/clients/:clientId', style: 'oauth', auth: 'none', methods: { PUT: admin.update } },
    ],
  };

  let cert: SimCertificate = await createCertificate();
  const deps = { ctx, routes, stats };
  const basicServer = createServer({ key: cert.key, cert: cert.cert }, createDispatcher(deps, 'basic'));
  const oauthServer = createServer({ key: cert.key, cert: cert.cert }, createDispatcher(deps, 'oauth'));
  const stopCleanup = clock.onAdvance(() => store.runDueCleanup());

  let basicPort: number;
  let oauthPort: number;
  try {
    basicPort = await listen(basicServer, host, opts.basicPort ?? 0);
    oauthPort = await listen(oauthServer, host, opts.oauthPort ?? 0);
  } catch (e) {
    stopCleanup();
    await Promise.all([shutdown(basicServer), shutdown(oauthServer), alarms.close()]);
    throw e;
  }
  oauthUrl = urlOf(host, oauthPort);
  const basicUrl = urlOf(host, basicPort);
  logger.info('management node simulator listening', { basicUrl, oauthUrl, fingerprint256: cert.fingerprint256 });

  let closed: Promise<void> | undefined;
  const sim: MgmtSimulator = {
    receivedScores,
    edrConnectorDocument: edrDocument,
    basicUrl,
    oauthUrl,
    basicPort,
    oauthPort,
    fingerprint256: cert.fingerprint256,
    certificatePem: cert.cert,
    users,
    bootstrapClient: { clientId: bootstrap.id, clientSecret: bootstrap.secret },
    clock,
    stats,
    inventory: inventory.view(),
    alarms: alarms.control,
    setUserPassword(username, password) {
      store.setPassword(username, password);
      const user = users.find((u) => u.username === username);
      if (user) user.password = password;
    },
    patchClient(clientId, patch) {
      const client = store.clients.get(clientId);
      if (!client) throw new Error(`No simulator client ${clientId}`);
      store.updateClient(client, { ...client.body, ...structuredClone(patch) });
    },
    getClient(clientId) {
      const client = store.clients.get(clientId);
      return client ? { client_id: client.id, ...structuredClone(client.body) } : undefined;
    },
    liveTokenCount: (clientId, username) => store.liveCount(clientId, username),
    async rotateCertificate() {
      cert = await createCertificate();
      // Like a node restarted with a new certificate: open connections end, new ones get the new certificate.
      for (const server of [basicServer, oauthServer]) {
        server.setSecureContext({ key: cert.key, cert: cert.cert });
        server.closeAllConnections();
      }
      sim.fingerprint256 = cert.fingerprint256;
      sim.certificatePem = cert.cert;
      logger.info('simulator certificate rotated', { fingerprint256: cert.fingerprint256 });
    },
    describe: () => ({
      mgmt: { basicUrl, oauthUrl, fingerprint256: sim.fingerprint256 },
      users: users.map((u) => ({ ...u })),
      bootstrapClient: { ...sim.bootstrapClient },
      ...(opts.alarms
        ? {
            alarms: {
              ratePerSecond: opts.alarms.generator?.ratePerSecond ?? 0,
              ...(opts.alarms.generator?.burst ? { burst: opts.alarms.generator.burst } : {}),
              ...(opts.alarms.generator?.flapEveryMs ? { flapEveryMs: opts.alarms.generator.flapEveryMs } : {}),
              amqpUrl: opts.alarms.amqp ? withoutPassword(opts.alarms.amqp.url) : null,
              exchange: alarms.control.exchange ?? null,
              routingKey: ROUTING_KEY_PATTERN,
              pagePath: '/mgmt/fault/alarms/page',
            },
          }
        : {}),
    }),
    close() {
      closed ??= (async () => {
        stopCleanup();
        await alarms.close();
        await Promise.all([shutdown(basicServer), shutdown(oauthServer)]);
        logger.info('management node simulator stopped');
      })();
      return closed;
    },
  };
  return sim;
}
