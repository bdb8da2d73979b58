/**
 * Issue 20.1: a stored secret reaches only the endpoint it was stored for, even while a cycle
 * runs. The review's reproduction, made through the real router as a compromised window would
 * make it: a connector is moved to a server of the caller's choosing (with a CA of its choosing
 * and a typed secret), a poll starts and that server holds its first data call; meanwhile the
 * connector is saved back to its real endpoint and imported again with the real secret. When the
 * held call is answered 401 the connector wants a new token: before the fix it fetched the
 * secret from the vault by connector ID and sent the real one to the held server.
 */
import type { ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { until } from '../../support/until';
import { makeCert, type TestCert } from '../../unit/net/tls-fixture';

const REAL = 'Real-Node-Secret-7f3a9c';
const TYPED_AWAY = 'Typed-Away-Secret-1';
const TYPED_BACK = 'Typed-Back-Secret-2';

/**
 * An HTTPS server that issues a token to anyone, keeps every request it was sent, and holds the
 * first data call (a GET) until `release()`, then answers every data call 401.
 */
interface HeldServer {
  url: string;
  cert: TestCert;
  seen: string[];
  held: boolean;
  release(): void;
  close(): Promise<void>;
}

async function startHeldServer(): Promise<HeldServer> {
  const cert = await makeCert();
  const seen: string[] = [];
  const waiting: ServerResponse[] = [];
  let released = false;
  const server: Server = createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n${body}`);
      if (req.method === 'POST' && /token/.test(req.url ?? '')) {
        res.writeHead(req.url === '/oauth2/token' ? 201 : 200, { 'content-type': 'application/json' }).end(JSON.stringify({ access_token: `token-${seen.length}`, token_type: 'bearer', expires_in: 1799 }));
        return;
      }
      const unauthorized = () => res.writeHead(401, { 'content-type': 'application/json' }).end('{"errors":[{"code":401,"message":"access denied"}],"error":{"code":"Unauthorized","message":"token expired"}}');
      if (released) unauthorized();
      else waiting.push(Object.assign(res, { unauthorized }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cert,
    seen,
    get held() {
      return waiting.length > 0;
    },
    release() {
      released = true;
      for (const res of waiting.splice(0)) if (!res.destroyed && !res.writableEnded) (res as ServerResponse & { unauthorized(): void }).unauthorized();
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let h: AppHarness;
let held: HeldServer;
beforeEach(async () => {
  held = await startHeldServer();
  h = await startAppHarness({ app: { demoEdr: false, edr: { firstPullDelayMs: 3_600_000, publishDelayMs: 3_600_000 } } });
});
afterEach(async () => {
  held.release();
  await h?.close();
  await held?.close();
});

const sentTo = (secret: string) => held.seen.filter((t) => t.includes(secret) || t.includes(encodeURIComponent(secret)));

/** The connector as the node's bulk document gives it (its real endpoint, system trust). */
const vendors = {
  falcon: {
    home: { vendor: 'falcon', tenantId: '0123456789abcdef0123456789abcdef', clientId: '4046f1b3edcfbfe7c43efd755cfa4167', cloudRegion: 'us-1', pollIntervalMinutes: 30 },
    away: (url: string) => ({ apiUrl: url }),
  },
  defender: {
    home: { vendor: 'defender', tenantId: '11111111-2222-3333-4444-555555555555', clientId: '66666666-7777-8888-9999-000000000000', pollIntervalMinutes: 30 },
    away: (url: string) => ({ apiUrl: url, idpUrl: url }),
  },
} as const;

const importFromNode = (entry: object) => h.call<Array<{ ok: boolean; id?: string; action?: string }>>('connectors.importBulk', { source: 'document', text: JSON.stringify({ version: 1, connectors: [entry] }) });

describe.each(Object.entries(vendors))('%s: a held call never receives a secret stored for another endpoint', (_vendor, v) => {
  it('moved away, polled, moved back and imported again while the call is held: the held server never sees the real or the retyped secret', async () => {
    const [first] = await importFromNode({ ...v.home, clientSecret: REAL });
    expect(first).toMatchObject({ ok: true, action: 'created' });
    const id = first!.id!;

    // The window moves the connector to its own server, trusting its own CA, with a typed secret.
    await h.call('connectors.save', { ...v.home, id, ...v.away(held.url), tls: { mode: 'custom-ca', caPem: held.cert.cert }, clientSecret: TYPED_AWAY });
    await h.call('connectors.pollNow', { connectorId: id });
    await until("the held server to hold the first data call", () => held.held).catch((e) => { console.log(held.seen.join("\n---\n")); console.log(h.logs.slice(-15).join("\n")); throw e; });
    const cycle = h.app.edr.scheduler.status(id).progress?.cycleId;
    expect(cycle).toBeGreaterThan(0);

    // Back to the real endpoint with system trust and another typed secret, then the node's import (an update).
    await h.call('connectors.save', { ...v.home, id, tls: { mode: 'system' }, clientSecret: TYPED_BACK });
    const [again] = await importFromNode({ ...v.home, clientSecret: REAL });
    expect(again).toMatchObject({ ok: true, action: 'updated', id });

    // The held call is answered 401: a runtime still running against the old endpoint would want a new token now.
    held.release();
    await until("end", () => !h.app.edr.scheduler.status(id).running).catch((e) => { console.log(held.seen.map((s) => s.slice(0, 300)).join("\n---\n")); console.log(h.logs.slice(-15).join("\n")); throw e; });
    expect(sentTo(TYPED_AWAY).length).toBeGreaterThan(0); // the server did get the secret typed for it
    expect(sentTo(REAL)).toEqual([]);
    expect(sentTo(TYPED_BACK)).toEqual([]);
    // The save that moved the connector cancelled that cycle.
    expect(await h.app.edr.store.lastCycle(id)).toMatchObject({ id: cycle, status: 'cancelled' });
    expect(await h.app.edr.registry.getSecret(h.app.edr.registry.get(id))).toBe(REAL);
  });
});

describe('the vault entry is bound to its endpoint', () => {
  it('a runtime built for the old endpoint finds no secret once the connector moved, even with no cycle running', async () => {
    const v = vendors.defender;
    const [first] = await importFromNode({ ...v.home, clientSecret: REAL });
    const id = first!.id!;
    await h.call('connectors.save', { ...v.home, id, ...v.away(held.url), tls: { mode: 'custom-ca', caPem: held.cert.cert }, clientSecret: TYPED_AWAY });
    const away = h.app.edr.registry.get(id);
    expect(await h.app.edr.registry.getSecret(away)).toBe(TYPED_AWAY);
    await h.call('connectors.save', { ...v.home, id, tls: { mode: 'system' }, clientSecret: TYPED_BACK });
    const home = h.app.edr.registry.get(id);
    expect(await h.app.edr.registry.getSecret(home)).toBe(TYPED_BACK);
    // The old runtime's view of the connector asks for its own endpoint's secret, and there is none.
    expect(await h.app.edr.registry.getSecret(away)).toBeUndefined();
    // Retyping the secret for the same endpoint keeps it usable there.
    await h.call('connectors.save', { ...v.home, id, clientSecret: REAL });
    expect(await h.app.edr.registry.getSecret(home)).toBe(REAL);
    expect(await h.app.edr.registry.getSecret(away)).toBeUndefined();
  });
});

describe('a profile session asks for the secrets of the endpoint it was built for', () => {
  it('once the profile moved, the session of the old endpoint finds no password; a first pin keeps them', async () => {
    const base = { name: 'Node', host: '127.0.0.1', basicPort: 9443, oauthPort: 9444, authMode: 'basic', username: 'operator' };
    const created = await h.call<{ id: string; hasPassword: boolean }>('profiles.save', { ...base, tls: { mode: 'custom-ca', caPem: held.cert.cert }, password: TYPED_AWAY });
    expect(created.hasPassword).toBe(true);
    const away = h.app.profiles.get(created.id);
    expect(await h.app.profiles.secrets(away).getPassword()).toBe(TYPED_AWAY);
    const moved = await h.call<{ hasPassword: boolean }>('profiles.save', { ...base, id: created.id, host: 'localhost', tls: { mode: 'system' }, password: REAL });
    expect(moved.hasPassword).toBe(true);
    expect(await h.app.profiles.secrets(h.app.profiles.get(created.id)).getPassword()).toBe(REAL);
    expect(await h.app.profiles.secrets(away).getPassword()).toBeUndefined();
    // Pinned on first use: the password typed with the unpinned connection stays with it once pinned.
    await h.call('profiles.save', { ...base, id: created.id, tls: { mode: 'pinned' }, password: TYPED_BACK });
    const pinned = await h.app.profiles.pin(created.id, held.cert.fingerprint256, held.cert.cert);
    expect(await h.app.profiles.secrets(pinned).getPassword()).toBe(TYPED_BACK);
    expect((await h.app.profiles.toView(pinned)).hasPassword).toBe(true);
  });
});
