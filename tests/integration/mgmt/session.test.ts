/** Sessions against the simulator: refresh (C-1), sign-out (MN-13), end of session (C-2), MN-3, MN-26, MN-27. */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { MgmtSimulator } from '@northbound/simulators/testing';
import type { MgmtClient } from '../../../electron/mgmt/client';
import { OAuthSession } from '../../../electron/mgmt/oauth-session';
import { SIM_START, clientBody, failure, makeClient, password, rawCaller, startSim, type ClientSpec } from './helpers';

let sim: MgmtSimulator;
const open: MgmtClient[] = [];
const ORGS = '/mgmt/organization/orgs?offset=0&limit=5';

beforeAll(async () => {
  sim = await startSim();
});
beforeEach(() => {
  sim.stats.reset();
  Object.assign(sim.faults, { loginPage: false, expiresInAsNumber: false, neverExpire: false, emptyListAs204: false });
});
afterEach(async () => {
  await Promise.all(open.splice(0).map(async (c) => (await c.signOut().catch(() => undefined), c.close())));
});
afterAll(() => sim.close());

/** The simulator's clock runs on with real time: allow a second between the two readings. */
const expectNear = (iso: string | null | undefined, ms: number) => expect(Math.abs(Date.parse(iso ?? '') - ms)).toBeLessThan(1000);

const client = (spec: ClientSpec = {}) => {
  const t = makeClient(sim, spec);
  open.push(t.client);
  return t;
};

describe('basic authentication', () => {
  it('signs in by reading one page of organizations on the basic port', async () => {
    const { client: c, statuses } = client({ authMode: 'basic', username: 'operator' });
    const s = await c.signIn();
    expect(s).toMatchObject({ state: 'signed-in', authMode: 'basic', username: 'operator' });
    expect(sim.stats.requests).toEqual([{ method: 'GET', path: '/mgmt/organization/orgs', status: 200, port: 'basic' }]);
    expect(statuses.map((x) => x.state)).toEqual(['signing-in', 'signed-in']);
    const orgs = await c.request<{ organizations: unknown[] }>('GET', ORGS);
    expect(orgs?.organizations).toHaveLength(5);
  });

  it('wrong password: api.4001, state error', async () => {
    const { client: c } = client({ authMode: 'basic', password: 'wrong-password' });
    expect(await failure(c.signIn())).toMatchObject({ code: 'api.4001', status: 401, message: 'The node did not accept the user name or password.' });
    expect(c.status()).toMatchObject({ state: 'error', error: { code: 'api.4001' } });
  });

  it('a password changed on the node ends the session', async () => {
    const { client: c } = client({ authMode: 'basic', username: 'viewer' });
    await c.signIn();
    const old = password(sim, 'viewer')!;
    sim.setUserPassword('viewer', 'changed-password-1');
    try {
      expect(await failure(c.request('GET', ORGS))).toMatchObject({ code: 'session.sign_in_required', details: { reason: 'api.4001' } });
      expect(c.status().state).toBe('sign-in-required');
    } finally {
      sim.setUserPassword('viewer', old);
    }
  });
});

describe('OAuth refresh (C-1)', () => {
  it('20 concurrent requests on an expired token: exactly one refresh', async () => {
    const { client: c } = client();
    await c.signIn();
    sim.clock.advance(3_601_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => c.request<{ organizations: unknown[] }>('GET', ORGS)));
    expect(results.every((r) => r?.organizations.length === 5)).toBe(true);
    expect(sim.stats.count('POST', '/auth/refresh')).toBe(1);
    expect(sim.stats.count('GET', '/mgmt/organization/orgs')).toBe(20);
  });

  it('the node says access_token_expired (client clock behind): one refresh, each call retried once', async () => {
    const { client: c } = client({ now: Date.now });
    await c.signIn();
    sim.clock.advance(3_601_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => c.request<{ organizations: unknown[] }>('GET', ORGS)));
    expect(results.every((r) => r?.organizations.length === 5)).toBe(true);
    expect(sim.stats.count('POST', '/auth/refresh')).toBe(1);
    const gets = sim.stats.requests.filter((r) => r.path === '/mgmt/organization/orgs');
    expect(gets.filter((r) => r.status === 401)).toHaveLength(20);
    expect(gets.filter((r) => r.status === 200)).toHaveLength(20);
  });

  it('refreshes ahead of expiry and reports the new expiry', async () => {
    const { client: c, statuses } = client();
    await c.signIn();
    sim.clock.advance(3_600_000 - 30_000);
    await c.request('GET', ORGS);
    expect(sim.stats.count('POST', '/auth/refresh')).toBe(1);
    expect(sim.stats.requests.filter((r) => r.status !== 200 && r.status !== 201)).toEqual([]);
    expectNear(statuses.at(-1)?.accessTokenExpiresAt, sim.clock.now() + 3_600_000);
  });

  it('an expired refresh token leads to sign-in-required', async () => {
    const { client: c, statuses } = client();
    await c.signIn();
    sim.clock.advance(86_400_000 + 60_000);
    expect(await failure(c.request('GET', ORGS))).toMatchObject({ code: 'session.sign_in_required' });
    expect(statuses.at(-1)).toMatchObject({ state: 'sign-in-required', error: { code: 'oauth.invalid_refresh_token' } });
    // Signing in again works.
    expect((await c.signIn()).state).toBe('signed-in');
  });
});

describe('token response forms (MN-3)', () => {
  it('expires_in as a number', async () => {
    sim.faults.expiresInAsNumber = true;
    const { client: c } = client();
    const s = await c.signIn();
    expectNear(s.accessTokenExpiresAt, sim.clock.now() + 3_600_000);
    expectNear(s.refreshTokenExpiresAt, sim.clock.now() + 86_400_000);
  });

  it('"-1": never expires, no refresh even days later', async () => {
    sim.faults.neverExpire = true;
    const { client: c } = client();
    const s = await c.signIn();
    expect(s.accessTokenExpiresAt).toBeNull();
    sim.clock.advance(3 * 86_400_000);
    await c.request('GET', ORGS);
    expect(sim.stats.count('POST', '/auth/refresh')).toBe(0);
  });
});

describe('sign-out (MN-13)', () => {
  it('revokes: the node counts no live token and the token no longer works', async () => {
    const created = await (async () => {
      const { client: admin } = client();
      await admin.signIn();
      return admin.createOAuthClient(clientBody('signout-check'));
    })();
    const { client: c } = client({ clientId: created.client.client_id, clientSecret: created.clientSecret });
    await c.signIn();
    expect(sim.liveTokenCount(created.client.client_id)).toBe(1);
    expect((await c.signOut()).state).toBe('signed-out');
    expect(sim.stats.count('POST', '/auth/revoke')).toBeGreaterThanOrEqual(1);
    expect(sim.liveTokenCount(created.client.client_id)).toBe(0);
    expect(await failure(c.request('GET', ORGS))).toMatchObject({ code: 'session.not_signed_in' });
  });

  it('the revoked bearer is refused by the node (invalid_token)', async () => {
    const raw = rawCaller(sim);
    const session = new OAuthSession({
      profileId: 'p',
      username: 'admin',
      transport: { post: (path, body, o) => raw.call('POST', path, { ...(body ? { json: body } : { headers: { 'content-type': 'application/json' } }), ...(o.bearer ? { bearer: o.bearer } : {}), operation: o.operation }) },
      credentials: async () => ({ clientId: sim.bootstrapClient.clientId, clientSecret: sim.bootstrapClient.clientSecret, username: 'admin', password: password(sim, 'admin')! }),
      now: () => sim.clock.now(),
    });
    await session.signIn();
    const token = await session.withToken(async (t) => (await raw.call('GET', ORGS, { bearer: t }), t));
    await session.signOut();
    expect(await failure(raw.call('GET', ORGS, { bearer: token }))).toMatchObject({ code: 'oauth.invalid_token' });
    await raw.close();
  });
});

describe('answers of the node (MN-26, MN-27)', () => {
  it('204 on an empty page is an empty answer, on both ports', async () => {
    sim.faults.emptyListAs204 = true;
    for (const authMode of ['oauth', 'basic'] as const) {
      const { client: c } = client({ authMode });
      await c.signIn();
      expect(await c.request('GET', '/mgmt/organization/orgs?offset=1000&limit=10')).toBeUndefined();
    }
    expect(sim.stats.requests.filter((r) => r.status === 204).length).toBe(2);
  });

  it('a login page answered with 200 is mgmt.login_page (basic and OAuth sign-in, calls)', async () => {
    const { client: signedIn } = client({ authMode: 'basic' });
    await signedIn.signIn();
    sim.faults.loginPage = true;
    for (const authMode of ['basic', 'oauth'] as const) {
      const e = await failure(client({ authMode }).client.signIn());
      expect(e).toMatchObject({ code: 'mgmt.login_page', message: expect.stringMatching(/answered with a web login page/), hint: expect.stringMatching(/Check the port/) });
    }
    expect(await failure(signedIn.request('GET', ORGS))).toMatchObject({ code: 'mgmt.login_page' });
  });
});

describe('connection test', () => {
  it('basic: certificate, latency and accepted credentials', async () => {
    const t = await client({ authMode: 'basic' }).client.test();
    expect(t).toMatchObject({ authenticated: true, certificate: { fingerprint256: sim.fingerprint256, port: sim.basicPort, selfSigned: true, trustedBySystem: false } });
    expect(t.latencyMs).toBeGreaterThanOrEqual(0);
  });

  it('wrong credentials answer authenticated: false with the reason', async () => {
    const t = await client({ authMode: 'oauth', password: 'wrong-password' }).client.test();
    expect(t).toMatchObject({ authenticated: false, detail: expect.stringContaining('user name or password is wrong') });
  });

  it('OAuth without a session: a throwaway token, revoked at once', async () => {
    const before = sim.liveTokenCount(sim.bootstrapClient.clientId, 'viewer');
    const { client: c } = client({ username: 'viewer' });
    const t = await c.test();
    expect(t).toMatchObject({ authenticated: true, certificate: { port: sim.oauthPort } });
    expect(sim.liveTokenCount(sim.bootstrapClient.clientId, 'viewer')).toBe(before);
    expect(c.status().state).toBe('signed-out');
  });

  it('keeps secrets out of the log', async () => {
    const { client: c, logger } = client();
    await c.signIn();
    await c.request('GET', ORGS);
    await c.signOut();
    const all = logger.lines.join('\n');
    expect(all.length).toBeGreaterThan(0);
    for (const s of [password(sim, 'admin')!, sim.bootstrapClient.clientSecret]) expect(all).not.toContain(s);
  });
});

it('the simulator clock started where the tests expect', () => {
  expect(sim.clock.now()).toBeGreaterThan(SIM_START);
});
