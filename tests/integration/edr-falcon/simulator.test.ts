/** The Falcon simulator speaks the public API: token 201 + X-Cs-Region, envelopes, limits and their real errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FALCON_SIM_LIMITS } from '@northbound/simulators/testing/falcon';
import { startRig, type Rig } from './helpers';

let rig: Rig;
let token: string;

beforeAll(async () => {
  rig = await startRig({
    regions: ['us-1', 'eu-1', 'us-gov-1'],
    clients: [
      { region: 'us-1', tenant: { hosts: 12_000, seed: 7 } },
      { region: 'eu-1', tenant: { hosts: 5, seed: 8 } },
      { region: 'us-gov-1', tenant: { hosts: 5, seed: 9 } },
      { region: 'us-1', tenant: { hosts: 5, seed: 10 }, scopes: ['hosts:read'] },
    ],
  });
  token = await rig.token();
});
afterAll(() => rig.close());

const get = (path: string, bearer = token) => rig.call('us-1', { method: 'GET', path, bearer });

describe('POST /oauth2/token', () => {
  it('answers 201 with a bearer token, expires_in 1799 and the client’s cloud in X-Cs-Region', async () => {
    const res = await rig.call('us-1', { method: 'POST', path: '/oauth2/token', form: { client_id: rig.client.clientId, client_secret: rig.client.clientSecret } });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ access_token: expect.any(String), token_type: 'bearer', expires_in: 1799 });
    expect(res.headers['x-cs-region']).toBe('us-1');
    expect(res.headers['x-ratelimit-limit']).toBe('6000');
  });

  it('refuses a wrong secret with 403 in Falcon’s error envelope', async () => {
    const res = await rig.call('us-1', { method: 'POST', path: '/oauth2/token', form: { client_id: rig.client.clientId, client_secret: 'x'.repeat(40) } });
    expect(res.status).toBe(403);
    expect(res.json).toMatchObject({ meta: { powered_by: 'csam', trace_id: expect.any(String) }, errors: [{ code: 403, message: expect.stringContaining('Client authentication failed') }], resources: null });
    expect(res.headers).toMatchObject({ 'x-cs-region': 'us-1', 'x-ratelimit-limit': '6000', 'x-ratelimit-remaining': '6000' });
  });

  it('names the right cloud when asked at the wrong one, and that token works only there', async () => {
    const eu = rig.sim.clients[1]!;
    const res = await rig.call('us-1', { method: 'POST', path: '/oauth2/token', form: { client_id: eu.clientId, client_secret: eu.clientSecret } });
    expect(res.status).toBe(201);
    expect(res.headers['x-cs-region']).toBe('eu-1');
    const here = await rig.call('us-1', { method: 'GET', path: '/devices/queries/devices/v1?limit=1', bearer: res.json.access_token });
    expect(here.status).toBe(401);
    expect(here.json.errors[0].message).toBe('access denied, invalid bearer token');
    const home = await rig.call('eu-1', { method: 'GET', path: '/devices/queries/devices/v1?limit=1', bearer: res.json.access_token });
    expect(home.status).toBe(200);
  });

  it('can answer the wrong cloud with 308 and a Location instead', async () => {
    rig.sim.faults.wrongRegionAs308 = true;
    try {
      const eu = rig.sim.clients[1]!;
      const res = await rig.call('us-1', { method: 'POST', path: '/oauth2/token', form: { client_id: eu.clientId, client_secret: eu.clientSecret } });
      expect(res.status).toBe(308);
      expect(res.headers['x-cs-region']).toBe('eu-1');
      expect(res.headers.location).toBe(`${rig.sim.baseUrl('eu-1')}/oauth2/token`);
    } finally {
      rig.sim.faults.wrongRegionAs308 = false;
    }
  });

  it('keeps GovCloud separate: its clients are unknown to the commercial clouds', async () => {
    const gov = rig.sim.clients[2]!;
    const res = await rig.call('us-1', { method: 'POST', path: '/oauth2/token', form: { client_id: gov.clientId, client_secret: gov.clientSecret } });
    expect(res.status).toBe(403);
    expect((await rig.call('us-gov-1', { method: 'POST', path: '/oauth2/token', form: { client_id: gov.clientId, client_secret: gov.clientSecret } })).status).toBe(201);
  });
});

describe('data calls', () => {
  it('wrap answers in {meta, resources, errors} with rate and region headers', async () => {
    const res = await get('/devices/queries/devices/v1?limit=3');
    expect(res.status).toBe(200);
    expect(res.json).toEqual({
      meta: { query_time: expect.any(Number), pagination: { offset: 0, limit: 3, total: 12_000 }, powered_by: 'device-api', trace_id: expect.any(String) },
      resources: [rig.sim.deviceId(rig.client.cid, 0), rig.sim.deviceId(rig.client.cid, 1), rig.sim.deviceId(rig.client.cid, 2)],
      errors: [],
    });
    expect(res.headers).toMatchObject({ 'x-cs-region': 'us-1', 'x-ratelimit-limit': '6000', 'x-ratelimit-remaining': expect.stringMatching(/^\d+$/), 'x-cs-traceid': expect.any(String) });
  });

  it('reproduces the 10,000 window of the offset query with the vendor’s message', async () => {
    expect((await get('/devices/queries/devices/v1?offset=5000&limit=5000')).status).toBe(200);
    const res = await get('/devices/queries/devices/v1?offset=9950&limit=100');
    expect(res.status).toBe(400);
    expect(res.json.errors).toEqual([{ code: 400, message: 'offset 9950 and limit 100 are invalid; offset + limit must be less than or equal to 10000' }]);
    expect((await get('/devices/queries/devices/v1?limit=5001')).status).toBe(400);
  });

  it('scrolls past 10,000 with an opaque offset token', async () => {
    const first = await get('/devices/queries/devices-scroll/v1?limit=10000');
    expect(first.json.resources).toHaveLength(10_000);
    expect(first.json.meta.pagination).toEqual({ total: 12_000, offset: expect.any(String), expires_at: expect.any(Number), limit: 10_000 });
    const second = await get(`/devices/queries/devices-scroll/v1?limit=10000&offset=${encodeURIComponent(first.json.meta.pagination.offset)}`);
    expect(second.json.resources).toHaveLength(2_000);
    expect(new Set([...first.json.resources, ...second.json.resources]).size).toBe(12_000);
    expect((await get('/devices/queries/devices-scroll/v1?limit=10001')).status).toBe(400);
    expect((await get('/devices/queries/devices-scroll/v1?offset=forged')).status).toBe(400);
  });

  it('limits device details to 100 ids by GET and 5,000 by POST, and lists unknown ids as 404 errors', async () => {
    const ids = (n: number) => Array.from({ length: n }, (_, i) => rig.sim.deviceId(rig.client.cid, i));
    const many = await get(`/devices/entities/devices/v2?${ids(101).map((id) => `ids=${id}`).join('&')}`);
    expect(many.status).toBe(400);
    const post = await rig.call('us-1', { method: 'POST', path: '/devices/entities/devices/v2', bearer: token, json: { ids: ids(5000) } });
    expect(post.status).toBe(200);
    expect(post.json.resources).toHaveLength(5000);
    expect(post.json.resources[0]).toMatchObject({ device_id: ids(1)[0], cid: rig.client.cid, platform_name: expect.stringMatching(/^(Windows|Mac|Linux)$/), reduced_functionality_mode: expect.stringMatching(/^(yes|no)$/) });
    expect((await rig.call('us-1', { method: 'POST', path: '/devices/entities/devices/v2', bearer: token, json: { ids: ids(5001) } })).status).toBe(400);
    const unknown = await get(`/devices/entities/devices/v2?ids=${'0'.repeat(32)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.json.errors[0]).toMatchObject({ code: 404, id: '0'.repeat(32) });
  });

  it(`answers assessments for up to ${FALCON_SIM_LIMITS.ztaIds} ids; hosts not assessed yet come back as 404 errors`, async () => {
    const ids = Array.from({ length: 100 }, (_, i) => rig.sim.deviceId(rig.client.cid, i));
    const res = await get(`/zero-trust-assessment/entities/assessments/v1?${ids.map((id) => `ids=${id}`).join('&')}`);
    expect(res.status).toBe(200);
    expect(res.json.resources.length + res.json.errors.length).toBe(100);
    expect(res.json.errors.length).toBeGreaterThan(0);
    expect(res.json.resources[0]).toMatchObject({
      aid: expect.any(String),
      cid: rig.client.cid,
      assessment: { sensor_config: expect.any(Number), os: expect.any(Number), overall: expect.any(Number), version: expect.any(String) },
      assessment_items: { os_signals: expect.any(Array), sensor_signals: expect.any(Array) },
      modified_time: expect.any(String),
      event_platform: expect.stringMatching(/^(Win|Mac|Lin)$/),
    });
    expect((await get(`/zero-trust-assessment/entities/assessments/v1?${[...ids, ids[0]].map((id, i) => `ids=${i === 100 ? 'f'.repeat(32) : id}`).join('&')}`)).status).toBe(400);
  });

  it('answers 401 without a token or after it expired, and 403 without the scope', async () => {
    expect((await rig.call('us-1', { method: 'GET', path: '/devices/queries/devices/v1' })).status).toBe(401);
    const narrow = await rig.token('us-1', rig.sim.clients[3]!);
    const zta = await rig.call('us-1', { method: 'GET', path: `/zero-trust-assessment/entities/assessments/v1?ids=${'a'.repeat(32)}`, bearer: narrow });
    expect(zta.status).toBe(403);
    expect(zta.json.errors[0].message).toBe('access denied, authorization failed');
    const short = await rig.token();
    rig.sim.clock.advance(1_800_000);
    expect((await get('/devices/queries/devices/v1?limit=1', short)).status).toBe(401);
    token = await rig.token();
  });

  it('revokes every token issued so far after N data calls; a token issued afterwards works', async () => {
    const before = await rig.token();
    rig.sim.faults.revokeTokensAfterCalls = 2;
    expect((await get('/devices/queries/devices/v1?limit=1', before)).status).toBe(200);
    expect((await get('/devices/queries/devices/v1?limit=1', before)).status).toBe(401);
    expect(rig.sim.faults.revokeTokensAfterCalls).toBeNull();
    expect((await get('/devices/queries/devices/v1?limit=1', before)).status).toBe(401);
    const after = await rig.token();
    expect((await get('/devices/queries/devices/v1?limit=1', after)).status).toBe(200);
    rig.sim.revokeTokens();
    expect((await get('/devices/queries/devices/v1?limit=1', after)).status).toBe(401);
    token = await rig.token();
  });
});

describe('rate limit', () => {
  it('answers 429 with X-RateLimit-RetryAfter in epoch seconds once the budget is spent', async () => {
    const small = await startRig({ hosts: 5, rateLimit: 3, rateWindowMs: 60_000 });
    try {
      const t = await small.token();
      const statuses: number[] = [];
      let last: Awaited<ReturnType<Rig['call']>> | undefined;
      for (let i = 0; i < 4; i++) {
        last = await small.call('us-1', { method: 'GET', path: '/devices/queries/devices/v1', bearer: t });
        statuses.push(last.status);
      }
      expect(statuses).toEqual([200, 200, 200, 429]);
      expect(last!.headers['x-ratelimit-remaining']).toBe('0');
      const retryAfter = Number(last!.headers['x-ratelimit-retryafter']);
      expect(retryAfter * 1000).toBeGreaterThanOrEqual(small.sim.clock.now());
      expect(retryAfter * 1000).toBeLessThanOrEqual(small.sim.clock.now() + 21_000);
      expect(last!.json.errors[0]).toEqual({ code: 429, message: 'API rate limit exceeded.' });
      expect(small.sim.stats.r429).toBe(1);
    } finally {
      await small.close();
    }
  });
});
