/** The replay node (tests/support/replay-node.ts) serves each recorded fixture over real HTTPS and records what it was asked. */
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import { mgmtFixtures, REPLAY_PATHS, startReplayNode, type ReplayNode } from '../../support/replay-node';

let node: ReplayNode;
let agent: Agent;
beforeAll(async () => {
  node = await startReplayNode({
    oauth: true,
    routes: {
      '/mgmt/broken': { status: 500, body: mgmtFixtures.customError500 },
      '/mgmt/login': { body: '<!DOCTYPE html><title>Login</title>', contentType: 'text/html; charset=utf-8' },
      'PUT /mgmt/sdwan/workflow/devices/device/CPE10': (req) => ({ status: 202, body: { echoed: JSON.parse(req.body) as unknown } }),
    },
  });
  agent = new Agent({ connect: { ca: node.certificatePem } });
});
afterAll(async () => {
  await agent.close();
  await node.close();
});

const BASIC = `Basic ${Buffer.from('anyone:anything').toString('base64')}`;
async function call(port: 'basic' | 'oauth', method: string, path: string, headers: Record<string, string> = { authorization: BASIC }, body?: string) {
  const base = port === 'basic' ? node.basicUrl : node.oauthUrl!;
  const res = await request(`${base}${path}`, { dispatcher: agent, method: method as 'GET', headers, body });
  const text = await res.body.text();
  return { status: res.statusCode, type: String(res.headers['content-type']), text, json: (text.startsWith('{') ? JSON.parse(text) : undefined) as Record<string, unknown> | undefined };
}

describe('replay node', () => {
  it('listens on loopback with a self-signed certificate it reports', () => {
    expect(new X509Certificate(node.certificatePem).fingerprint256).toBe(node.fingerprint256);
    expect(node.basicUrl).toBe(`https://127.0.0.1:${node.basicPort}`);
    expect(node.oauthPort).toEqual(expect.any(Number));
  });

  it.each([
    ['device workflow list', REPLAY_PATHS.devices, mgmtFixtures.deviceList],
    ['organization list', REPLAY_PATHS.organizations, mgmtFixtures.organizationList],
    ['appliance list', REPLAY_PATHS.appliances, mgmtFixtures.applianceList],
    ['one device', REPLAY_PATHS.device('fra-branch01'), mgmtFixtures.deviceRecord],
  ])('serves the %s fixture (query ignored) to any Basic credentials', async (_label, path, fixture) => {
    const r = await call('basic', 'GET', `${path}?offset=0&limit=25`);
    expect([r.status, r.type]).toEqual([200, 'application/json']);
    expect(r.json).toEqual(fixture);
  });

  it('another listed device gets the record with its own name and numeric site ID; an unknown one the VOAEException 404', async () => {
    const listed = await call('basic', 'GET', REPLAY_PATHS.device('CPE10'));
    expect(listed.json!['mgmt.sdwan-device-workflow']).toMatchObject({ deviceName: 'CPE10', siteId: 219 });
    const unknown = await call('basic', 'GET', REPLAY_PATHS.device('ghost-01'));
    expect(unknown.status).toBe(404);
    expect(unknown.json).toEqual({
      ...mgmtFixtures.vnmsError404,
      timestamp: expect.any(Number),
      message: ' device work flow ghost-01 does not exist ',
      path: '/mgmt/sdwan/workflow/devices/device/ghost-01',
    });
  });

  it('answers given routes: a status and body, a text/html page, a function of the request; unknown paths the Spring 404', async () => {
    expect(await call('basic', 'GET', '/mgmt/broken')).toMatchObject({ status: 500, json: mgmtFixtures.customError500 });
    expect(await call('basic', 'GET', '/mgmt/login')).toMatchObject({ status: 200, type: 'text/html; charset=utf-8', text: '<!DOCTYPE html><title>Login</title>' });
    const put = await call('basic', 'PUT', REPLAY_PATHS.device('CPE10'), { authorization: BASIC, 'content-type': 'application/json' }, '{"a":1}');
    expect([put.status, put.json]).toEqual([202, { echoed: { a: 1 } }]);
    const missing = await call('basic', 'GET', '/mgmt/nothing/here');
    expect(missing.status).toBe(404);
    expect(Object.keys(missing.json!)).toEqual(['timestamp', 'status', 'error', 'message', 'path']);
  });

  it('without credentials: 401 with the YANG-style body', async () => {
    const r = await call('basic', 'GET', REPLAY_PATHS.devices, {});
    expect([r.status, r.json]).toEqual([401, mgmtFixtures.yangError401]);
  });

  it('OAuth port: POST /auth/token answers token.json (expires_in "-1"); then any Bearer token reads', async () => {
    const t = await call('oauth', 'POST', REPLAY_PATHS.token, { 'content-type': 'application/json' }, JSON.stringify({ client_id: 'c', client_secret: 's', username: 'u', password: 'p', grant_type: 'password' }));
    expect(t.status).toBe(200);
    expect(t.json).toEqual({ ...mgmtFixtures.token, issued_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/) });
    expect(t.json!.expires_in).toBe('-1');
    expect((await call('oauth', 'GET', REPLAY_PATHS.organizations, {})).status).toBe(401);
    const orgs = await call('oauth', 'GET', REPLAY_PATHS.organizations, { authorization: `Bearer ${String(t.json!.access_token)}` });
    expect(orgs.json).toEqual(mgmtFixtures.organizationList);
  });

  it('records every request with port, method, path, query, headers and body', async () => {
    const before = node.requests.length;
    await call('basic', 'GET', `${REPLAY_PATHS.appliances}?offset=25&limit=25`);
    const token = JSON.stringify({ client_id: 'c', client_secret: 's', username: 'u', password: 'p', grant_type: 'password' });
    await call('oauth', 'POST', REPLAY_PATHS.token, { 'content-type': 'application/json' }, token);
    expect(node.requests.slice(before)).toEqual([
      expect.objectContaining({ port: 'basic', method: 'GET', path: REPLAY_PATHS.appliances, query: 'offset=25&limit=25', body: '', headers: expect.objectContaining({ authorization: BASIC }) }),
      expect.objectContaining({ port: 'oauth', method: 'POST', path: REPLAY_PATHS.token, query: '', body: token }),
    ]);
  });

  it('defaults: false serves only the given routes; no OAuth port unless asked', async () => {
    const bare = await startReplayNode({ defaults: false, routes: { '/only': { body: { ok: true } } } });
    const a = new Agent({ connect: { ca: bare.certificatePem } });
    try {
      expect(bare.oauthPort).toBeUndefined();
      const get = async (p: string) => (await request(`${bare.basicUrl}${p}`, { dispatcher: a, headers: { authorization: BASIC } })).statusCode;
      expect([await get('/only'), await get(REPLAY_PATHS.devices), await get(REPLAY_PATHS.device('fra-branch01'))]).toEqual([200, 404, 404]);
    } finally {
      await a.close();
      await bare.close();
    }
  });
});
