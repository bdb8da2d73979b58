/**
 * Every row of spec 7.2 (and the token limits of MN-9), produced by the simulator over real
 * HTTPS and surfaced by the client as a typed AppError with an operator-readable message.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MgmtSimulator } from '@northbound/simulators/testing';
import type { MgmtClient } from '../../../electron/mgmt/client';
import { clientBody, failure, makeClient, rawCaller, startSim, type ClientSpec } from './helpers';

let sim: MgmtSimulator;
let raw: ReturnType<typeof rawCaller>;
const open: MgmtClient[] = [];

beforeAll(async () => {
  sim = await startSim();
  raw = rawCaller(sim);
});
afterEach(async () => {
  await Promise.all(open.splice(0).map(async (c) => (await c.signOut().catch(() => undefined), c.close())));
});
afterAll(async () => {
  await raw.close();
  await sim.close();
});

const client = (spec: ClientSpec = {}) => {
  const t = makeClient(sim, spec);
  open.push(t.client);
  return t;
};

let n = 0;
/** A fresh OAuth client on the node (via the bootstrap admin), for tests that break it. */
async function freshClient(over: Parameters<typeof clientBody>[1] = {}) {
  const { client: admin } = client();
  await admin.signIn();
  return admin.createOAuthClient(clientBody(`it-client-${++n}`, over));
}

const PAST = '2020-01-01T00:00:00Z';

describe('get token', () => {
  it('invalid_client: wrong client secret', async () => {
    const e = await failure(client({ clientSecret: 'not-the-secret' }).client.signIn());
    expect(e).toMatchObject({ code: 'oauth.invalid_client', status: 401, message: expect.stringMatching(/does not accept the OAuth client/) });
    expect(e.hint).toMatch(/client ID and client secret/);
  });

  it('invalid_client: unknown client id', async () => {
    expect(await failure(client({ clientId: 'no-such-client' }).client.signIn())).toMatchObject({ code: 'oauth.invalid_client' });
  });

  it('invalid_grant: wrong password; the session shows the error', async () => {
    const { client: c } = client({ password: 'wrong-password' });
    const e = await failure(c.signIn());
    expect(e).toMatchObject({ code: 'oauth.invalid_grant', status: 401, message: 'The user name or password is wrong.' });
    expect(c.status()).toMatchObject({ state: 'error', error: { code: 'oauth.invalid_grant' } });
  });

  it('invalid_request: a required parameter is empty (no user name)', async () => {
    const e = await failure(client({ username: '', password: 'some-password' }).client.signIn());
    expect(e).toMatchObject({ code: 'oauth.invalid_request', status: 400, message: expect.stringMatching(/missing a required parameter/) });
    // The node's description is not shown: the token request is the first contact, before the port answered as a node (issue 20.8).
    expect(e.details).toEqual({ error: 'invalid_request' });
  });

  it('unsupported_grant_type: the client does not allow the password grant', async () => {
    const created = await freshClient({ allowed_grant_types: ['client_credentials'] });
    const e = await failure(client({ clientId: created.client.client_id, clientSecret: created.clientSecret }).client.signIn());
    expect(e).toMatchObject({ code: 'oauth.unsupported_grant_type', status: 400, message: expect.stringMatching(/only password and refresh_token/) });
  });

  it('unsupported_grant_type: client_credentials at the token endpoint (MN-1)', async () => {
    const e = await failure(raw.call('POST', '/auth/token', { operation: 'token', json: { client_id: sim.bootstrapClient.clientId, client_secret: sim.bootstrapClient.clientSecret, username: 'admin', password: 'x', grant_type: 'client_credentials' } }));
    expect(e).toMatchObject({ code: 'oauth.unsupported_grant_type' });
  });

  it('missing vault secrets are vault.missing_secret, nothing is sent', async () => {
    const before = sim.stats.count('POST', '/auth/token');
    expect(await failure(client({ password: undefined }).client.signIn())).toMatchObject({ code: 'vault.missing_secret', hint: 'Enter the password in the connection form.' });
    expect(await failure(client({ clientSecret: undefined }).client.signIn())).toMatchObject({ code: 'vault.missing_secret', hint: 'Enter the client secret in the connection form.' });
    expect(sim.stats.count('POST', '/auth/token')).toBe(before);
  });
});

describe('refresh', () => {
  it('invalid_client: the client was disabled → sign-in-required (C-2)', async () => {
    const created = await freshClient();
    const { client: c } = client({ clientId: created.client.client_id, clientSecret: created.clientSecret });
    await c.signIn();
    sim.patchClient(created.client.client_id, { enabled: false });
    sim.clock.advance(3_600_000); // the client refreshes ahead of expiry
    const e = await failure(c.request('GET', '/mgmt/organization/orgs'));
    expect(e).toMatchObject({ code: 'session.sign_in_required', details: { reason: 'oauth.invalid_client' } });
    expect(e.message).toMatch(/session on 127\.0\.0\.1 has ended: The node does not accept the OAuth client/);
    expect(c.status()).toMatchObject({ state: 'sign-in-required', error: { code: 'oauth.invalid_client' } });
  });

  it('invalid_refresh_token: refresh token expired → sign-in-required', async () => {
    const { client: c } = client();
    await c.signIn();
    sim.clock.advance(86_400_000 + 1000);
    const e = await failure(c.request('GET', '/mgmt/organization/orgs'));
    expect(e).toMatchObject({ code: 'session.sign_in_required', hint: 'Sign in again.', details: { reason: 'oauth.invalid_refresh_token' } });
    expect(c.status().state).toBe('sign-in-required');
  });

  it('invalid_request and unsupported_grant_type', async () => {
    const id = sim.bootstrapClient.clientId;
    const secret = sim.bootstrapClient.clientSecret;
    expect(await failure(raw.call('POST', '/auth/refresh', { operation: 'refresh', json: { grant_type: 'refresh_token', client_id: id, client_secret: secret } }))).toMatchObject({
      code: 'oauth.invalid_request',
      status: 400,
      message: expect.stringMatching(/renewal request is missing/),
    });
    expect(await failure(raw.call('POST', '/auth/refresh', { operation: 'refresh', json: { grant_type: 'password', client_id: id, client_secret: secret, refresh_token: 'x' } }))).toMatchObject({
      code: 'oauth.unsupported_grant_type',
      status: 400,
    });
  });
});

describe('revoke', () => {
  it('invalid_request without a token, invalid_token with a wrong one', async () => {
    expect(await failure(raw.call('POST', '/auth/revoke', { operation: 'revoke', headers: { 'content-type': 'application/json' } }))).toMatchObject({ code: 'oauth.invalid_request', status: 400, message: expect.stringMatching(/no access token/) });
    expect(await failure(raw.call('POST', '/auth/revoke', { operation: 'revoke', bearer: 'no-such-token' }))).toMatchObject({ code: 'oauth.invalid_token', status: 401 });
  });

  it('signing out with a token the node no longer knows is a clean sign-out', async () => {
    const { client: c } = client();
    await c.signIn();
    sim.clock.advance(24 * 3_600_000); // past midnight: the clean-up removes the expired token (MN-11)
    const s = await c.signOut();
    expect(s.state).toBe('signed-out');
    expect(s.error).toBeUndefined();
  });
});

describe('use token', () => {
  it('access_forbidden: an operator cannot manage OAuth clients', async () => {
    const { client: c } = client({ username: 'operator' });
    await c.signIn();
    const e = await failure(c.createOAuthClient(clientBody('forbidden-1')));
    expect(e).toMatchObject({ code: 'oauth.access_forbidden', status: 401, message: expect.stringMatching(/lacks the permission/) });
    expect(c.status().state).toBe('signed-in');
  });

  it('access_forbidden: a viewer cannot write', async () => {
    const { client: c } = client({ username: 'viewer' });
    await c.signIn();
    expect(await failure(c.request('PUT', '/mgmt/sdwan/workflow/devices/device/x', {}))).toMatchObject({ code: 'oauth.access_forbidden' });
  });

  it('access_token_expired: as the node answers it (the client heals it by a refresh, see session.test.ts)', async () => {
    const { access_token } = await raw.token();
    sim.clock.advance(3_601_000);
    expect(await failure(raw.call('GET', '/mgmt/organization/orgs', { bearer: access_token }))).toMatchObject({ code: 'oauth.access_token_expired', status: 401, message: 'The access token has expired.' });
  });

  it.each([
    ['client_expired', { expires_at: PAST }, /client has expired/],
    ['client_secret_expired', { client_secret_expires_at: PAST }, /secret has expired/],
    ['invalid_client', { enabled: false }, /no longer accepted/],
  ] as const)('%s ends the session (C-2) with the precise reason', async (error, patch, message) => {
    const created = await freshClient();
    const { client: c } = client({ clientId: created.client.client_id, clientSecret: created.clientSecret });
    await c.signIn();
    sim.patchClient(created.client.client_id, patch);
    const e = await failure(c.request('GET', '/mgmt/organization/orgs'));
    expect(e).toMatchObject({ code: `oauth.${error}`, status: 401, message: expect.stringMatching(message) });
    expect(c.status()).toMatchObject({ state: 'sign-in-required', error: { code: `oauth.${error}` } });
    expect(await failure(c.request('GET', '/mgmt/organization/orgs'))).toMatchObject({ code: 'session.sign_in_required' });
  });

  it('client_ip_not_allowed: on use and at sign-in', async () => {
    const created = await freshClient();
    const { client: c } = client({ clientId: created.client.client_id, clientSecret: created.clientSecret });
    await c.signIn();
    sim.patchClient(created.client.client_id, { allowed_source_client_address: { source_type: 'IP_ADDRESS_LIST', ip_address_list: ['10.1.2.0/24'] } });
    const e = await failure(c.request('GET', '/mgmt/organization/orgs'));
    expect(e).toMatchObject({ code: 'oauth.client_ip_not_allowed', status: 401, hint: expect.stringMatching(/allowed source addresses/) });
    await c.signOut();
    expect(await failure(c.signIn())).toMatchObject({ code: 'oauth.client_ip_not_allowed' });
  });

  it('existing_client_found: a second client with the same name', async () => {
    const { client: c } = client();
    await c.signIn();
    await c.createOAuthClient(clientBody('twin'));
    const e = await failure(c.createOAuthClient(clientBody('twin')));
    expect(e).toMatchObject({ code: 'oauth.existing_client_found', status: 500, message: 'An OAuth client with this name already exists on the node.' });
  });

  it('invalid_request: no access token; invalid_token: a revoked one', async () => {
    expect(await failure(raw.call('GET', '/mgmt/organization/orgs'))).toMatchObject({ code: 'oauth.invalid_request', status: 400 });
    const { access_token } = await raw.token();
    await raw.call('POST', '/auth/revoke', { operation: 'revoke', bearer: access_token, headers: { 'content-type': 'application/json' } });
    expect(await failure(raw.call('GET', '/mgmt/organization/orgs', { bearer: access_token }))).toMatchObject({ code: 'oauth.invalid_token', status: 401, message: expect.stringMatching(/does not accept the access token/) });
  });

  it('registration tokens: invalid, disabled, expired (MN-8)', async () => {
    const created = async (name: string) =>
      (await raw.call('POST', '/auth/admin/clients', { bearer: (await raw.token()).access_token, json: clientBody(name) })) as { client_id: string; registration_access_token: string };
    const a = await created('reg-a');
    const b = await created('reg-b');
    const { client: c } = client({ authMode: 'basic' }); // a registration token needs no session
    // It works for its own client...
    expect(await c.updateOAuthClient(a.client_id, clientBody('reg-a', { description: 'self-updated' }), { registrationAccessToken: a.registration_access_token })).toMatchObject({ description: 'self-updated' });
    // ...not for another one.
    expect(await failure(c.updateOAuthClient(b.client_id, clientBody('reg-b'), { registrationAccessToken: a.registration_access_token }))).toMatchObject({
      code: 'oauth.invalid_registration_token',
      status: 401,
      message: expect.stringMatching(/does not belong to this OAuth client/),
    });
    sim.patchClient(b.client_id, { enabled: false });
    expect(await failure(c.updateOAuthClient(b.client_id, clientBody('reg-b'), { registrationAccessToken: b.registration_access_token }))).toMatchObject({ code: 'oauth.registration_token_disabled', status: 401 });
    sim.clock.advance(24 * 3_600_000 + 1000);
    expect(await failure(c.updateOAuthClient(a.client_id, clientBody('reg-a'), { registrationAccessToken: a.registration_access_token }))).toMatchObject({
      code: 'oauth.registration_token_expired',
      message: expect.stringMatching(/24 hours/),
    });
  });

  it('user_credentials_not_matched: the password changed on the node', async () => {
    const { client: c } = client({ username: 'operator' });
    await c.signIn();
    const old = sim.users.find((u) => u.username === 'operator')!.password;
    sim.setUserPassword('operator', 'a-new-password-123');
    try {
      const e = await failure(c.request('GET', '/mgmt/organization/orgs'));
      expect(e).toMatchObject({ code: 'oauth.user_credentials_not_matched', status: 401, hint: expect.stringMatching(/new password/) });
      expect(c.status()).toMatchObject({ state: 'sign-in-required', error: { code: 'oauth.user_credentials_not_matched' } });
    } finally {
      sim.setUserPassword('operator', old);
    }
  });
});

describe('token limits (MN-9)', () => {
  it('max_access_tokens_per_user', async () => {
    const created = await freshClient({ max_access_tokens: 5, max_access_tokens_per_user: 1 });
    const spec = { clientId: created.client.client_id, clientSecret: created.clientSecret };
    await client(spec).client.signIn();
    const e = await failure(client(spec).client.signIn());
    expect(e).toMatchObject({ code: 'oauth.token_limit_exceeded', status: 400, message: expect.stringContaining('max_access_tokens_per_user') });
    expect(e.hint).toMatch(/Sign out other sessions/);
    expect(sim.liveTokenCount(created.client.client_id, 'admin')).toBe(1);
  });

  it('max_access_tokens of the client', async () => {
    const created = await freshClient({ max_access_tokens: 2, max_access_tokens_per_user: 2 });
    const spec = (username: string) => ({ username, clientId: created.client.client_id, clientSecret: created.clientSecret });
    await client(spec('admin')).client.signIn();
    await client(spec('operator')).client.signIn();
    const e = await failure(client(spec('viewer')).client.signIn());
    expect(e).toMatchObject({ code: 'oauth.token_limit_exceeded', message: expect.stringContaining('(max_access_tokens)') });
    expect(e.hint).toMatch(/raise max_access_tokens/);
  });

  it('a refresh replaces its token and does not hit the limit', async () => {
    const created = await freshClient({ max_access_tokens: 1, max_access_tokens_per_user: 1 });
    const { client: c } = client({ clientId: created.client.client_id, clientSecret: created.clientSecret });
    await c.signIn();
    sim.clock.advance(3_600_000);
    await c.request('GET', '/mgmt/organization/orgs');
    expect(sim.liveTokenCount(created.client.client_id)).toBe(1);
  });
});
