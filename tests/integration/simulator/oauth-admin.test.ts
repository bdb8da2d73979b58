/** Client management (spec 4.3; MN-1, MN-7, MN-8): create, update, registration tokens, existing_client_found. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimClock } from '@northbound/simulators/testing';
import { OAuthClient, OAuthClientBody } from '../../../shared/model/oauth-client';
import { clientBody, startHarness, type Harness } from './harness';

let h: Harness;
const clock = new SimClock(Date.UTC(2031, 8, 1, 12, 0, 0));
beforeAll(async () => {
  h = await startHarness({ clock });
});
afterAll(async () => {
  await h.close();
});

const create = (bearer: string | undefined, body: unknown) => h.call('oauth', 'POST', '/auth/admin/clients', { ...(bearer ? { bearer } : {}), json: body });
const update = (bearer: string | undefined, id: string, body: unknown) =>
  h.call('oauth', 'PUT', `/auth/admin/clients/${encodeURIComponent(id)}`, { ...(bearer ? { bearer } : {}), json: body });
function expectError(r: { status: number; json: { error?: string } }, status: number, error: string) {
  expect({ status: r.status, error: r.json?.error }).toEqual({ status, error });
}

describe('POST /auth/admin/clients', () => {
  it('201 with id, secret, every 2.1 field, timestamps and a registration token (MN-7); the client hands out tokens', async () => {
    const body = clientBody({ description: 'NOC desk', contacts: ['noc@example.com'] });
    const r = await create(await h.accessToken('admin'), body);
    expect(r.status).toBe(201);
    expect(r.json).toMatchObject({ ...body, client_id: expect.stringMatching(/^[0-9a-f-]{36}$/), client_secret: expect.stringMatching(/^.{32}$/) });
    expect(r.json.created_at).toBe(r.json.updated_at);
    expect(Date.parse(r.json.created_at)).toBeGreaterThanOrEqual(Date.UTC(2031, 8, 1, 12, 0, 0));
    expect(r.json.registration_access_token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.json.registration_client_uri).toBe(`${h.sim.oauthUrl}/auth/admin/clients/${r.json.client_id}`);
    expect(OAuthClient.parse(r.json).name).toBe(body.name);
    expect(h.sim.getClient(r.json.client_id)).toEqual({ client_id: r.json.client_id, ...body });
    const t = await h.token('viewer', h.user('viewer').password, { clientId: r.json.client_id, clientSecret: r.json.client_secret });
    expect(t.status).toBe(200);
  });

  it('invalid_request (400) names the failing field', async () => {
    const admin = await h.accessToken('admin');
    const bad = await create(admin, { ...clientBody(), max_access_tokens: 0 });
    expectError(bad, 400, 'invalid_request');
    expect(bad.json.error_description).toMatch(/^max_access_tokens: /);
    const ip = await create(admin, { ...clientBody(), allowed_source_client_address: { source_type: 'IP_ADDRESS_LIST', ip_address_list: ['not-an-ip'] } });
    expect(ip.json.error_description).toContain('allowed_source_client_address.ip_address_list.0');
    const extra = await create(admin, { ...clientBody(), colour: 'blue' });
    expectError(extra, 400, 'invalid_request');
    expect(extra.json.error_description).toContain('colour');
    expectError(await h.call('oauth', 'POST', '/auth/admin/clients', { bearer: admin }), 400, 'invalid_request');
  });

  it('checks the body by the node’s own rules (spec 2.1, MN-4 to MN-6), not by the console’s form schema', async () => {
    const admin = await h.accessToken('admin');
    // Form rules of the console only: a name with a space, more tokens per user than in all, refresh_token without password.
    const formOnly = { ...clientBody({ name: 'NOC desk 2' }), max_access_tokens: 5, max_access_tokens_per_user: 10, allowed_grant_types: ['refresh_token', 'client_credentials'] };
    expect(OAuthClientBody.safeParse(formOnly).success).toBe(false);
    const r = await create(admin, formOnly);
    expect(r.status).toBe(201);
    expect(h.sim.getClient(r.json.client_id)).toMatchObject({ name: 'NOC desk 2', max_access_tokens_per_user: 10 });
    // The node's own rules: validity in seconds from 60 (MN-4), an ISO date-time (MN-5), ANYWHERE with an empty list (MN-6).
    const short = await create(admin, { ...clientBody(), access_token_validity: 30 });
    expectError(short, 400, 'invalid_request');
    expect(short.json.error_description).toMatch(/^access_token_validity: /);
    expect((await create(admin, { ...clientBody(), expires_at: '31/01/2027' })).json.error_description).toMatch(/^expires_at: /);
    const anywhere = await create(admin, { ...clientBody(), allowed_source_client_address: { source_type: 'ANYWHERE', ip_address_list: ['10.0.0.1'] } });
    expectError(anywhere, 400, 'invalid_request');
    expect(anywhere.json.error_description).toContain('allowed_source_client_address.ip_address_list');
  });

  it('existing_client_found (500) for a name that exists', async () => {
    const r = await create(await h.accessToken('admin'), clientBody({ name: 'bootstrap-admin' }));
    expectError(r, 500, 'existing_client_found');
  });

  it('access_forbidden (401) for a non-admin user or a client without client_credentials (MN-1)', async () => {
    expectError(await create(await h.accessToken('operator'), clientBody()), 401, 'access_forbidden');
    const plain = await h.createClient({ allowed_grant_types: ['password', 'refresh_token'] });
    const t = await h.token('admin', h.user('admin').password, { clientId: plain.client_id, clientSecret: plain.client_secret });
    const r = await create(t.json.access_token, clientBody());
    expectError(r, 401, 'access_forbidden');
    expect(r.json.error_description).toContain('client_credentials');
  });

  it('token-use errors apply: invalid_request without a bearer, invalid_token for a bad one', async () => {
    expectError(await create(undefined, clientBody()), 400, 'invalid_request');
    expectError(await create('bogus', clientBody()), 401, 'invalid_token');
  });
});

describe('PUT /auth/admin/clients/<client_id>', () => {
  it('200 with the updated client, without secret or registration token (MN-7)', async () => {
    const c = await h.createClient({});
    const body = clientBody({ name: `${c.name}-renamed`, max_access_tokens: 5, max_access_tokens_per_user: 5 });
    clock.advance(1_000);
    const r = await update(await h.accessToken('admin'), c.client_id, body);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ ...body, client_id: c.client_id, created_at: c.created_at });
    expect(r.json.updated_at > c.updated_at).toBe(true);
    expect(r.json).not.toHaveProperty('client_secret');
    expect(r.json).not.toHaveProperty('registration_access_token');
    expect(h.sim.getClient(c.client_id)?.max_access_tokens).toBe(5);
  });

  it('invalid_client (401) for an unknown client id; existing_client_found (500) when renaming onto another client', async () => {
    const admin = await h.accessToken('admin');
    expectError(await update(admin, 'no-such-client', clientBody()), 401, 'invalid_client');
    const a = await h.createClient({});
    const b = await h.createClient({});
    expectError(await update(admin, b.client_id, clientBody({ name: a.name })), 500, 'existing_client_found');
    expect((await update(admin, b.client_id, clientBody({ name: b.name, description: 'same name is fine' }))).status).toBe(200);
    expectError(await update(admin, b.client_id, { ...clientBody({ name: b.name }), access_token_validity: 5 }), 400, 'invalid_request');
    expectError(await update(await h.accessToken('operator'), b.client_id, clientBody({ name: b.name })), 401, 'access_forbidden');
  });

  it('accepts the client’s registration token as the bearer (MN-8)', async () => {
    const c = await h.createClient({});
    const r = await update(c.registration_access_token, c.client_id, clientBody({ name: c.name, description: 'self-service' }));
    expect(r.status).toBe(200);
    expect(r.json.description).toBe('self-service');
  });

  it('invalid_registration_token for another client’s token, registration_token_disabled, registration_token_expired', async () => {
    const a = await h.createClient({});
    const b = await h.createClient({});
    const other = await update(a.registration_access_token, b.client_id, clientBody({ name: b.name }));
    expectError(other, 401, 'invalid_registration_token');
    expectError(await update(a.registration_access_token, 'no-such-client', clientBody({ name: b.name })), 401, 'invalid_registration_token');

    h.sim.patchClient(b.client_id, { enabled: false });
    expectError(await update(b.registration_access_token, b.client_id, clientBody({ name: b.name })), 401, 'registration_token_disabled');
    h.sim.patchClient(b.client_id, { enabled: true });

    clock.advance(24 * 3_600_000);
    expectError(await update(b.registration_access_token, b.client_id, clientBody({ name: b.name })), 401, 'registration_token_expired');
    // an admin token still updates it
    expect((await update(await h.accessToken('admin'), b.client_id, clientBody({ name: b.name }))).status).toBe(200);
  });
});
