/** MN-9 token limits and MN-11 daily clean-up, driven by the simulator clock. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimClock } from '@northbound/simulators/testing';
import { until } from '../../support/until';
import { startHarness, type Harness } from './harness';

let h: Harness;
const clock = new SimClock(Date.UTC(2031, 4, 20, 22, 0, 0));
beforeAll(async () => {
  h = await startHarness({ clock });
});
afterAll(async () => {
  await h.close();
});

const MIN = 60_000;
type Client = { clientId: string; clientSecret: string };
const asClient = (c: { client_id: string; client_secret: string }): Client => ({ clientId: c.client_id, clientSecret: c.client_secret });
const tokenFor = (role: 'admin' | 'operator' | 'viewer', c: Client) => h.token(role, h.user(role).password, c);
const refresh = (c: Client, refresh_token: string) =>
  h.call('oauth', 'POST', '/auth/refresh', { json: { grant_type: 'refresh_token', client_id: c.clientId, client_secret: c.clientSecret, refresh_token } });
const use = (bearer: string) => h.call('oauth', 'GET', '/mgmt/sdwan/workflow/devices?limit=1', { bearer });

describe('token limits (MN-9)', () => {
  it('max_access_tokens_per_user and max_access_tokens answer 400 token_limit_exceeded naming the limit', async () => {
    const c = asClient(await h.createClient({ max_access_tokens: 3, max_access_tokens_per_user: 2 }));
    const a1 = await tokenFor('admin', c);
    const a2 = await tokenFor('admin', c);
    expect([a1.status, a2.status]).toEqual([200, 200]);
    const a3 = await tokenFor('admin', c);
    expect(a3.status).toBe(400);
    expect(a3.json.error).toBe('token_limit_exceeded');
    expect(a3.json.error_description).toContain('max_access_tokens_per_user');
    expect((await tokenFor('operator', c)).status).toBe(200);
    const v = await tokenFor('viewer', c);
    expect(v.status).toBe(400);
    expect(v.json.error).toBe('token_limit_exceeded');
    expect(v.json.error_description).toContain('(max_access_tokens)');
    expect(h.sim.liveTokenCount(c.clientId)).toBe(3);
    expect(h.sim.liveTokenCount(c.clientId, 'admin')).toBe(2);
    expect(h.sim.liveTokenCount(c.clientId, 'viewer')).toBe(0);

    // a refresh replaces its pair and never counts twice
    const r = await refresh(c, a1.json.refresh_token);
    expect(r.status).toBe(200);
    expect(h.sim.liveTokenCount(c.clientId, 'admin')).toBe(2);

    // revoking frees a slot
    expect((await h.call('oauth', 'POST', '/auth/revoke', { bearer: a2.json.access_token })).status).toBe(200);
    expect(h.sim.liveTokenCount(c.clientId, 'admin')).toBe(1);
    expect((await tokenFor('admin', c)).status).toBe(200);

    // expired access tokens are not live any more
    clock.advance(61 * MIN);
    expect(h.sim.liveTokenCount(c.clientId)).toBe(0);
    expect((await tokenFor('viewer', c)).status).toBe(200);
  });
});

describe('daily clean-up at midnight UTC (MN-11)', () => {
  it('an expired token answers access_token_expired until the midnight after its expiry, then invalid_token', async () => {
    const start = Date.UTC(2031, 4, 21, 22, 0, 0);
    clock.advance(start - clock.now());
    const c = asClient(await h.createClient({ access_token_validity: 3600, refresh_token_validity: 3 * 3600 }));
    const a = (await tokenFor('operator', c)).json; // access until 23:00, refresh until 01:00
    expect((await use(a.access_token)).status).toBe(200);

    clock.advance(90 * MIN); // 23:30
    const expired = await use(a.access_token);
    expect([expired.status, expired.json.error]).toEqual([401, 'access_token_expired']);
    const b = (await tokenFor('operator', c)).json; // access until 00:30, refresh until 02:30

    clock.advance(75 * MIN); // 00:45, midnight crossed: the clean-up ran as of 00:00
    const cleaned = await use(a.access_token);
    expect([cleaned.status, cleaned.json.error]).toEqual([401, 'invalid_token']);
    const notYet = await use(b.access_token);
    expect([notYet.status, notYet.json.error]).toEqual([401, 'access_token_expired']);

    // the refresh token of a cleaned access token still works until it expires itself
    const renewed = await refresh(c, a.refresh_token);
    expect(renewed.status).toBe(200);
    expect((await use(renewed.json.access_token)).status).toBe(200);

    clock.advance(24 * 60 * MIN); // the next midnight cleans b's access and refresh tokens
    const gone = await use(b.access_token);
    expect([gone.status, gone.json.error]).toEqual([401, 'invalid_token']);
    const noRefresh = await refresh(c, b.refresh_token);
    expect([noRefresh.status, noRefresh.json.error]).toEqual([401, 'invalid_refresh_token']);
  });

  it('also runs when the real time crosses midnight (checked on the next request)', async () => {
    const c = asClient(await h.createClient({ access_token_validity: 60, refresh_token_validity: 60 }));
    const t = (await tokenFor('admin', c)).json;
    const ms = clock.now();
    const midnight = Math.ceil(ms / 86_400_000) * 86_400_000;
    clock.advance(midnight - ms - 700); // just before midnight: expired, not cleaned
    expect((await use(t.access_token)).json.error).toBe('access_token_expired');
    // Real time carries the sim clock past midnight (no advance, so no listener is told).
    await until('the sim clock past midnight', () => clock.now() > midnight, 5_000);
    expect((await use(t.access_token)).json.error).toBe('invalid_token');
  });
});
