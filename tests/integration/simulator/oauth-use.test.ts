/** Spec 7.2 "Use token" rows on the OAuth port's /mgmt APIs, in the MN-10 order; XML errors (MN-12). */
import { XMLParser } from 'fast-xml-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimClock } from '@northbound/simulators/testing';
import { startHarness, type Harness } from './harness';

let h: Harness;
const clock = new SimClock(Date.UTC(2031, 6, 1, 8, 0, 0));
beforeAll(async () => {
  h = await startHarness({ clock });
});
afterAll(async () => {
  await h.close();
});

const ORGS = '/mgmt/organization/orgs?offset=0&limit=2';
type Client = { client_id: string; client_secret: string };
async function tokenOf(c: Client, role: 'admin' | 'operator' | 'viewer' = 'operator'): Promise<string> {
  const r = await h.token(role, h.user(role).password, { clientId: c.client_id, clientSecret: c.client_secret });
  expect(r.status).toBe(200);
  return r.json.access_token as string;
}
async function expectUseError(bearer: string | undefined, status: number, error: string, method = 'GET', path = ORGS, json?: unknown) {
  const r = await h.call('oauth', method, path, { ...(bearer ? { bearer } : {}), ...(json ? { json } : {}) });
  expect({ status: r.status, error: r.json?.error }).toEqual({ status, error });
  expect(r.json.error_description.length).toBeGreaterThan(5);
  return r;
}

describe('token use on /mgmt (OAuth port)', () => {
  it('a valid bearer token reads the custom APIs', async () => {
    const r = await h.call('oauth', 'GET', ORGS, { bearer: await h.accessToken('viewer') });
    expect(r.status).toBe(200);
    expect(r.json.organizations).toHaveLength(2);
  });

  it('invalid_request (400) when the access token is missing', async () => {
    await expectUseError(undefined, 400, 'invalid_request');
    const basic = await h.call('oauth', 'GET', ORGS, { basic: h.user('admin') });
    expect([basic.status, basic.json.error]).toEqual([400, 'invalid_request']);
  });

  it('invalid_token (401) for an unknown token, with a WWW-Authenticate challenge', async () => {
    const r = await expectUseError('made-up-token', 401, 'invalid_token');
    expect(r.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  it('access_token_expired (401) once the validity has passed', async () => {
    const c = await h.createClient({ access_token_validity: 60, refresh_token_validity: 600 });
    const t = await tokenOf(c);
    clock.advance(59_000);
    expect((await h.call('oauth', 'GET', ORGS, { bearer: t })).status).toBe(200);
    clock.advance(2_000);
    await expectUseError(t, 401, 'access_token_expired');
  });

  it('invalid_client (401) when the client was disabled after issue', async () => {
    const c = await h.createClient({});
    const t = await tokenOf(c);
    h.sim.patchClient(c.client_id, { enabled: false });
    await expectUseError(t, 401, 'invalid_client');
    h.sim.patchClient(c.client_id, { enabled: true });
    expect((await h.call('oauth', 'GET', ORGS, { bearer: t })).status).toBe(200);
  });

  it('client_expired, then client_secret_expired, then client_ip_not_allowed (401)', async () => {
    const c = await h.createClient({});
    const t = await tokenOf(c);
    const soon = new Date(clock.now() + 30_000).toISOString();
    h.sim.patchClient(c.client_id, { expires_at: soon, client_secret_expires_at: soon, allowed_source_client_address: { source_type: 'IP_ADDRESS_LIST', ip_address_list: ['192.0.2.0/24', '2001:db8::/32'] } });
    expect(h.sim.getClient(c.client_id)?.expires_at).toBe(soon);
    await expectUseError(t, 401, 'client_ip_not_allowed');
    clock.advance(31_000);
    await expectUseError(t, 401, 'client_expired');
    h.sim.patchClient(c.client_id, { expires_at: '' });
    await expectUseError(t, 401, 'client_secret_expired');
    h.sim.patchClient(c.client_id, { client_secret_expires_at: '' });
    await expectUseError(t, 401, 'client_ip_not_allowed');
    h.sim.patchClient(c.client_id, { allowed_source_client_address: { source_type: 'IP_ADDRESS_LIST', ip_address_list: ['127.0.0.1'] } });
    expect((await h.call('oauth', 'GET', ORGS, { bearer: t })).status).toBe(200);
  });

  it('user_credentials_not_matched (401) after setUserPassword; a new token works', async () => {
    const c = await h.createClient({});
    const t = await tokenOf(c, 'viewer');
    h.sim.setUserPassword('viewer', 'viewer-password-2');
    await expectUseError(t, 401, 'user_credentials_not_matched');
    const fresh = await tokenOf(c, 'viewer');
    expect((await h.call('oauth', 'GET', ORGS, { bearer: fresh })).status).toBe(200);
  });

  it('access_forbidden (401) when a viewer writes; an operator may', async () => {
    const list = await h.call('oauth', 'GET', '/mgmt/sdwan/workflow/devices?limit=1', { bearer: await h.accessToken('operator') });
    const d = list.json['mgmt.sdwan-device-list'][0];
    // the single GET answer, PUT back unchanged
    const body = (await h.call('oauth', 'GET', `/mgmt/sdwan/workflow/devices/device/${encodeURIComponent(d.deviceName)}`, { bearer: await h.accessToken('viewer') })).json;
    const path = `/mgmt/sdwan/workflow/devices/device/${encodeURIComponent(d.deviceName)}`;
    await expectUseError(await h.accessToken('viewer'), 401, 'access_forbidden', 'PUT', path, body);
    const ok = await h.call('oauth', 'PUT', path, { bearer: await h.accessToken('operator'), json: body });
    expect(ok.status).toBe(200);
  });
});

describe('OAuth errors in XML (MN-12)', () => {
  const parser = new XMLParser();
  it('follows an Accept header that prefers application/xml', async () => {
    const r = await h.call('oauth', 'POST', '/auth/token', { json: {}, headers: { accept: 'application/xml' } });
    expect(r.status).toBe(400);
    expect(r.headers['content-type']).toMatch(/^application\/xml/);
    expect(r.text.startsWith('<?xml version="1.0" encoding="UTF-8"?><oauth-error>')).toBe(true);
    const doc = parser.parse(r.text);
    expect(doc['oauth-error'].error).toBe('invalid_request');
    expect(doc['oauth-error'].error_description).toContain('client_id');
  });

  it('weighs q-values: JSON wins when preferred, XML when weighted higher', async () => {
    const json = await h.call('oauth', 'POST', '/auth/revoke', { headers: { accept: 'application/xml;q=0.5, application/json' } });
    expect(json.headers['content-type']).toMatch(/^application\/json/);
    expect(json.json.error).toBe('invalid_request');
    const xml = await h.call('oauth', 'POST', '/auth/revoke', { bearer: 'nope', headers: { accept: 'application/json;q=0.4, application/xml;q=0.9' } });
    expect(xml.status).toBe(401);
    expect(parser.parse(xml.text)['oauth-error'].error).toBe('invalid_token');
  });

  it('escapes markup in descriptions', async () => {
    const r = await h.call('oauth', 'POST', '/auth/token', {
      headers: { accept: 'application/xml' },
      json: { client_id: 'x', client_secret: 'y', username: 'u', password: 'p', grant_type: '<b>&' },
    });
    expect(r.text).toContain('&lt;b&gt;&amp;');
    expect(parser.parse(r.text)['oauth-error'].error).toBe('unsupported_grant_type');
  });
});
