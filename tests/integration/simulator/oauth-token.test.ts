/** Spec 7.2 rows of "Get token", "Refresh" and "Revoke"; MN-3, MN-10, MN-13. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimClock } from '@northbound/simulators/testing';
import { startHarness, type Harness } from './harness';

let h: Harness;
const clock = new SimClock(Date.UTC(2031, 2, 10, 9, 0, 0));
beforeAll(async () => {
  h = await startHarness({ clock });
});
afterAll(async () => {
  await h.close();
});

const creds = () => ({ client_id: h.sim.bootstrapClient.clientId, client_secret: h.sim.bootstrapClient.clientSecret });
const tokenBody = (over: Record<string, unknown> = {}) => ({ ...creds(), username: 'admin', password: h.user('admin').password, grant_type: 'password', ...over });
const postToken = (body: unknown) => h.call('oauth', 'POST', '/auth/token', { json: body });
const postRefresh = (body: unknown) => h.call('oauth', 'POST', '/auth/refresh', { json: body });
const refreshBody = (refresh_token: string, over: Record<string, unknown> = {}) => ({ grant_type: 'refresh_token', ...creds(), refresh_token, ...over });
const orgs = (bearer: string) => h.call('oauth', 'GET', '/mgmt/organization/orgs?limit=1', { bearer });

function expectOAuthError(r: { status: number; json: { error?: string; error_description?: string } }, status: number, error: string) {
  expect({ status: r.status, error: r.json?.error }).toEqual({ status, error });
  expect(typeof r.json.error_description).toBe('string');
  expect(r.json.error_description?.length).toBeGreaterThan(5);
}

describe('POST /auth/token', () => {
  it('answers the MN-3 token shape with string expiries', async () => {
    // Other tests move the simulator clock (by minutes or days): the token is stamped with its time.
    const sent = clock.now();
    const r = await postToken(tokenBody());
    const answered = clock.now();
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    expect(r.json).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      refresh_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      token_type: 'Bearer',
      expires_in: '3600',
      refresh_expires_in: '86400',
      issued_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
    expect(Date.parse(r.json.issued_at)).toBeGreaterThanOrEqual(sent);
    expect(Date.parse(r.json.issued_at)).toBeLessThanOrEqual(answered);
    expect(Math.abs(Date.parse(r.json.issued_at) - clock.now())).toBeLessThan(5_000);
    expect((await orgs(r.json.access_token)).status).toBe(200);
  });

  it('invalid_request (400) when a field is missing, empty, not a string, or the body is not JSON', async () => {
    const missing = await postToken({ ...tokenBody(), grant_type: undefined });
    expectOAuthError(missing, 400, 'invalid_request');
    expect(missing.json.error_description).toContain('grant_type');
    expectOAuthError(await postToken(tokenBody({ password: '' })), 400, 'invalid_request');
    expectOAuthError(await postToken(tokenBody({ username: 42 })), 400, 'invalid_request');
    expectOAuthError(await h.call('oauth', 'POST', '/auth/token', { raw: '{not json', headers: { 'content-type': 'application/json' } }), 400, 'invalid_request');
    expectOAuthError(await h.call('oauth', 'POST', '/auth/token'), 400, 'invalid_request');
  });

  it('unsupported_grant_type (400) for client_credentials, refresh_token or a client that does not allow password', async () => {
    expectOAuthError(await postToken(tokenBody({ grant_type: 'client_credentials' })), 400, 'unsupported_grant_type');
    const r = await postToken(tokenBody({ grant_type: 'refresh_token' }));
    expectOAuthError(r, 400, 'unsupported_grant_type');
    expect(r.json.error_description).toContain('/auth/refresh');
    const c = await h.createClient({ allowed_grant_types: ['client_credentials'] });
    expectOAuthError(await postToken(tokenBody({ client_id: c.client_id, client_secret: c.client_secret })), 400, 'unsupported_grant_type');
  });

  it('invalid_client (401) for an unknown client, a wrong secret or a disabled client', async () => {
    expectOAuthError(await postToken(tokenBody({ client_id: 'no-such-client' })), 401, 'invalid_client');
    expectOAuthError(await postToken(tokenBody({ client_secret: 'wrong-secret' })), 401, 'invalid_client');
    const c = await h.createClient({});
    h.sim.patchClient(c.client_id, { enabled: false });
    expectOAuthError(await postToken(tokenBody({ client_id: c.client_id, client_secret: c.client_secret })), 401, 'invalid_client');
  });

  it('invalid_grant (401) for a wrong password or an unknown user', async () => {
    expectOAuthError(await postToken(tokenBody({ password: 'not-the-password' })), 401, 'invalid_grant');
    expectOAuthError(await postToken(tokenBody({ username: 'nobody' })), 401, 'invalid_grant');
  });

  it('checks client expiry, secret expiry and source address before the user (MN-10)', async () => {
    const past = new Date(clock.now() - 60_000).toISOString();
    const c = await h.createClient({});
    const body = tokenBody({ client_id: c.client_id, client_secret: c.client_secret, password: 'wrong' });
    h.sim.patchClient(c.client_id, { expires_at: past, client_secret_expires_at: past });
    expectOAuthError(await postToken(body), 401, 'client_expired');
    h.sim.patchClient(c.client_id, { expires_at: '' });
    expectOAuthError(await postToken(body), 401, 'client_secret_expired');
    h.sim.patchClient(c.client_id, { client_secret_expires_at: '2099-01-01T00:00:00Z', allowed_source_client_address: { source_type: 'IP_ADDRESS_LIST', ip_address_list: ['10.0.0.0/8'] } });
    expectOAuthError(await postToken(body), 401, 'client_ip_not_allowed');
    h.sim.patchClient(c.client_id, { allowed_source_client_address: { source_type: 'IP_ADDRESS_LIST', ip_address_list: ['10.0.0.0/8', '127.0.0.0/8'] } });
    expectOAuthError(await postToken(body), 401, 'invalid_grant');
    expect((await postToken({ ...body, password: h.user('admin').password })).status).toBe(200);
  });

  it('faults: expiresInAsNumber sends numbers; neverExpire sends "-1" and the token outlives any clock move', async () => {
    h.sim.faults.expiresInAsNumber = true;
    const n = await postToken(tokenBody());
    h.sim.faults.expiresInAsNumber = false;
    expect(n.json).toMatchObject({ expires_in: 3600, refresh_expires_in: 86400 });
    h.sim.faults.neverExpire = true;
    const never = await postToken(tokenBody());
    h.sim.faults.neverExpire = false;
    expect(never.json).toMatchObject({ expires_in: '-1', refresh_expires_in: '-1' });
    clock.advance(400 * 86_400_000);
    expect((await orgs(never.json.access_token)).status).toBe(200);
    expectOAuthError(await orgs(n.json.access_token), 401, 'invalid_token');
  });
});

describe('POST /auth/refresh', () => {
  it('rotates both tokens; the old pair stops working', async () => {
    const first = (await postToken(tokenBody())).json;
    const r = await postRefresh(refreshBody(first.refresh_token));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ token_type: 'Bearer', expires_in: '3600', refresh_expires_in: '86400' });
    expect(r.json.access_token).not.toBe(first.access_token);
    expect(r.json.refresh_token).not.toBe(first.refresh_token);
    expect((await orgs(r.json.access_token)).status).toBe(200);
    expectOAuthError(await orgs(first.access_token), 401, 'invalid_token');
    expectOAuthError(await postRefresh(refreshBody(first.refresh_token)), 401, 'invalid_refresh_token');
  });

  it('invalid_request, unsupported_grant_type, invalid_client (in that order)', async () => {
    const { refresh_token } = (await postToken(tokenBody())).json;
    const r = await postRefresh({ grant_type: 'refresh_token', ...creds() });
    expectOAuthError(r, 400, 'invalid_request');
    expect(r.json.error_description).toContain('refresh_token');
    expectOAuthError(await postRefresh(refreshBody(refresh_token, { grant_type: 'password' })), 400, 'unsupported_grant_type');
    expectOAuthError(await postRefresh(refreshBody(refresh_token, { grant_type: 'client_credentials', client_secret: 'x' })), 400, 'unsupported_grant_type');
    expectOAuthError(await postRefresh(refreshBody(refresh_token, { client_secret: 'wrong' })), 401, 'invalid_client');
    expect((await postRefresh(refreshBody(refresh_token))).status).toBe(200);
  });

  it('invalid_refresh_token (401) for an unknown, expired or other client’s refresh token', async () => {
    expectOAuthError(await postRefresh(refreshBody('not-a-refresh-token')), 401, 'invalid_refresh_token');
    const c = await h.createClient({ allowed_grant_types: ['password', 'refresh_token'], access_token_validity: 60, refresh_token_validity: 120 });
    const other = (await h.token('admin', h.user('admin').password, { clientId: c.client_id, clientSecret: c.client_secret })).json;
    expectOAuthError(await postRefresh(refreshBody(other.refresh_token)), 401, 'invalid_refresh_token');
    const own = refreshBody(other.refresh_token, { client_id: c.client_id, client_secret: c.client_secret });
    clock.advance(121_000);
    expectOAuthError(await postRefresh(own), 401, 'invalid_refresh_token');
  });

  it('user_credentials_not_matched (401) after the password changed', async () => {
    const { refresh_token } = (await h.token('operator', h.user('operator').password)).json;
    h.sim.setUserPassword('operator', 'a-new-operator-password');
    expect(h.user('operator').password).toBe('a-new-operator-password');
    expectOAuthError(await postRefresh(refreshBody(refresh_token)), 401, 'user_credentials_not_matched');
  });
});

describe('POST /auth/revoke', () => {
  it('invalid_request (400) without a bearer header, invalid_token (401) for an unknown one', async () => {
    expectOAuthError(await h.call('oauth', 'POST', '/auth/revoke'), 400, 'invalid_request');
    expectOAuthError(await h.call('oauth', 'POST', '/auth/revoke', { basic: h.user('admin') }), 400, 'invalid_request');
    expectOAuthError(await h.call('oauth', 'POST', '/auth/revoke', { bearer: 'no-such-token' }), 401, 'invalid_token');
  });

  it('answers {"status":"success"} and kills the access and the refresh token (MN-13)', async () => {
    const t = (await postToken(tokenBody())).json;
    const before = h.sim.liveTokenCount(h.sim.bootstrapClient.clientId, 'admin');
    const r = await h.call('oauth', 'POST', '/auth/revoke', { bearer: t.access_token });
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ status: 'success' });
    expect(h.sim.liveTokenCount(h.sim.bootstrapClient.clientId, 'admin')).toBe(before - 1);
    expectOAuthError(await orgs(t.access_token), 401, 'invalid_token');
    expectOAuthError(await postRefresh(refreshBody(t.refresh_token)), 401, 'invalid_refresh_token');
    expectOAuthError(await h.call('oauth', 'POST', '/auth/revoke', { bearer: t.access_token }), 401, 'invalid_token');
  });
});
