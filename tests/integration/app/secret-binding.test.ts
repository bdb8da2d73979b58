/**
 * Issue 7.1: a stored secret is bound to the endpoint and trust it was entered for. The three
 * reproductions of the review, made through the real router as a compromised window would make
 * them, against a listener on another port that records every byte it is sent: none of them
 * gets a secret there any more.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defenderTenant, startDefenderSimulator, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { makeCert, type TestCert } from '../../unit/net/tls-fixture';

const tenant = defenderTenant({ hosts: 10, seed: 11 });
let sim: DefenderSimulator;
let h: AppHarness;

/** An HTTPS listener that answers 200 {} to everything and keeps every request's head and body. */
interface Listener {
  url: string;
  port: number;
  cert: TestCert;
  connections: number;
  seen: string[];
  close(): Promise<void>;
}
let evil: Listener;

async function startListener(): Promise<Listener> {
  const cert = await makeCert();
  const state = { connections: 0, seen: [] as string[] };
  const server: Server = createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      state.seen.push(`${req.method} ${req.url}\n${JSON.stringify(req.headers)}\n${Buffer.concat(chunks).toString('utf8')}`);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"access_token":"x","token_type":"Bearer","expires_in":3600}');
    });
  });
  server.on('connection', () => state.connections++);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `https://127.0.0.1:${port}`,
    port,
    cert,
    get connections() {
      return state.connections;
    },
    seen: state.seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Everything the listener received, and the secret in each form it could travel in. */
const leaked = (secret: string, user = '') => {
  const forms = [secret, encodeURIComponent(secret), Buffer.from(`${user}:${secret}`).toString('base64')];
  return evil.seen.filter((text) => forms.some((f) => text.includes(f)));
};

beforeAll(async () => {
  sim = await startDefenderSimulator({ tenants: [tenant] });
  evil = await startListener();
  h = await startAppHarness({ openDemo: true, app: { demoEdr: false, edr: { firstPullDelayMs: 3_600_000, publishDelayMs: 3_600_000 } } });
});
afterAll(async () => {
  await h?.close();
  await sim?.close();
  await evil?.close();
});

const defender = () => ({
  vendor: 'defender',
  tenantId: tenant.tenantId,
  clientId: tenant.clientId,
  pollIntervalMinutes: 30,
  apiUrl: sim.apiUrl,
  idpUrl: sim.idpUrl,
  tls: { mode: 'custom-ca', caName: 'defender.pem', caPem: sim.certificatePem },
});

describe('a connector secret stays with its endpoint', () => {
  let id = '';
  beforeAll(async () => {
    id = (await h.call<{ id: string }>('connectors.save', { ...defender(), clientSecret: tenant.clientSecret })).id;
    expect((await h.call<{ ok: boolean }>('connectors.test', { connectorId: id })).ok).toBe(true);
  });

  it('connectors.save refuses a pinned certificate chosen by the request', async () => {
    const res = await h.callRaw('connectors.save', { ...defender(), id, apiUrl: evil.url, idpUrl: evil.url, tls: { mode: 'pinned', fingerprint256: evil.cert.fingerprint256, certificatePem: evil.cert.cert } });
    expect(res.ok).toBe(false);
    expect(res.error?.code).toBe('request.invalid');
    expect(h.app.edr.registry.get(id)).toMatchObject({ apiUrl: sim.apiUrl, idpUrl: sim.idpUrl });
  });

  it('connectors.save with a new address and trust but no secret is refused on the secret field, and nothing moves', async () => {
    const res = await h.callRaw('connectors.save', { ...defender(), id, apiUrl: evil.url, idpUrl: evil.url, tls: { mode: 'custom-ca', caPem: evil.cert.cert } });
    expect(res.error).toMatchObject({ code: 'request.invalid', details: { issues: [{ path: 'clientSecret', message: expect.stringMatching(/enter the client secret again/) }] } });
    expect(h.app.edr.registry.get(id)).toMatchObject({ apiUrl: sim.apiUrl, idpUrl: sim.idpUrl, tls: { mode: 'custom-ca', caPem: sim.certificatePem } });
    // The same trust with only another address, or only another trust, is refused alike.
    expect((await h.callRaw('connectors.save', { ...defender(), id, idpUrl: evil.url })).error?.details).toMatchObject({ issues: [{ path: 'clientSecret' }] });
    expect((await h.callRaw('connectors.save', { ...defender(), id, tls: { mode: 'system' } })).error?.details).toMatchObject({ issues: [{ path: 'clientSecret' }] });
    expect((await h.call<{ ok: boolean }>('connectors.test', { connectorId: id })).ok).toBe(true);
    expect(evil.connections).toBe(0);
  });

  it('an edit that keeps the endpoint keeps the secret; a new secret with a new address replaces it', async () => {
    const renamed = await h.call<{ hasClientSecret: boolean; name: string }>('connectors.save', { ...defender(), id, name: 'Renamed tenant', pollIntervalMinutes: 60 });
    expect(renamed).toMatchObject({ name: 'Renamed tenant', hasClientSecret: true });
    expect(await h.app.edr.registry.getSecret(h.app.edr.registry.get(id))).toBe(tenant.clientSecret);
  });

  it('the bulk push never moves an existing connector: the entry is refused with the reason', async () => {
    const entry = { ...defender(), apiUrl: evil.url, idpUrl: evil.url, tls: { mode: 'custom-ca', caPem: evil.cert.cert } };
    const results = await h.call<Array<{ ok: boolean; error?: { message: string } }>>('connectors.importBulk', { source: 'document', text: JSON.stringify({ version: 1, connectors: [entry] }) });
    expect(results).toEqual([expect.objectContaining({ ok: false, error: expect.objectContaining({ message: expect.stringMatching(/never moves a connector/) }) })]);
    // Even with a secret in the entry: moving is refused, and the stored secret is not replaced.
    const withSecret = await h.call<Array<{ ok: boolean }>>('connectors.importBulk', { source: 'document', text: JSON.stringify({ version: 1, connectors: [{ ...entry, clientSecret: 'Another-Secret-1' }] }) });
    expect(withSecret).toEqual([expect.objectContaining({ ok: false })]);
    expect(await h.app.edr.registry.getSecret(h.app.edr.registry.get(id))).toBe(tenant.clientSecret);
    expect((await h.call<{ ok: boolean }>('connectors.test', { connectorId: id })).ok).toBe(true);
    expect(evil.connections).toBe(0);
    expect(leaked(tenant.clientSecret)).toEqual([]);
  });
});

describe('a profile password stays with its endpoint', () => {
  it('profiles.save with another port and a custom CA for it drops the stored password; sign-in sends nothing there', async () => {
    const basicId = h.app.demo.status().profileId!;
    const before = h.app.profiles.get(basicId);
    const operator = h.app.demo.simulator!.users.find((u) => u.role === 'operator')!;
    expect(await h.app.profiles.secrets(before).getPassword()).toBe(operator.password);
    const view = await h.call<{ hasPassword: boolean; basicPort: number }>('profiles.save', {
      id: basicId,
      name: before.name,
      host: before.host,
      basicPort: evil.port,
      oauthPort: before.oauthPort,
      authMode: 'basic',
      username: before.username,
      tls: { mode: 'custom-ca', caPem: evil.cert.cert },
    });
    expect(view).toMatchObject({ basicPort: evil.port, hasPassword: false });
    const signIn = await h.callRaw('session.signIn', { profileId: basicId });
    expect(signIn.ok).toBe(false);
    expect(leaked(operator.password, operator.username)).toEqual([]);
    expect(evil.seen.filter((t) => /authorization/i.test(t))).toEqual([]);
  });

  it('a trust change alone (same host and ports) drops the secrets too; a rename keeps them', async () => {
    const oauthId = h.app.demo.status().oauthProfileId!;
    const p = h.app.profiles.get(oauthId);
    const base = { id: oauthId, name: p.name, host: p.host, basicPort: p.basicPort, oauthPort: p.oauthPort, authMode: p.authMode, username: p.username, oauthClientId: p.oauthClientId };
    const renamed = await h.call<{ hasPassword: boolean; hasClientSecret: boolean; tls: { mode: string; fingerprint256?: string } }>('profiles.save', { ...base, name: 'Renamed demo', tls: { mode: 'pinned' } });
    expect(renamed).toMatchObject({ hasPassword: true, hasClientSecret: true, tls: { mode: 'pinned', fingerprint256: expect.any(String) } });
    const moved = await h.call<{ hasPassword: boolean; hasClientSecret: boolean }>('profiles.save', { ...base, name: 'Renamed demo', tls: { mode: 'custom-ca', caPem: evil.cert.cert } });
    expect(moved).toMatchObject({ hasPassword: false, hasClientSecret: false });
  });

  it('a pin comes only from tls.trust: profiles.save cannot carry a certificate or fingerprint', async () => {
    const p = h.app.profiles.get(h.app.demo.status().profileId!);
    const res = await h.callRaw('profiles.save', {
      id: p.id,
      name: p.name,
      host: p.host,
      basicPort: p.basicPort,
      oauthPort: p.oauthPort,
      authMode: p.authMode,
      username: p.username,
      tls: { mode: 'pinned', fingerprint256: evil.cert.fingerprint256, certificatePem: evil.cert.cert },
    });
    expect(res.error?.code).toBe('request.invalid');
  });
});
