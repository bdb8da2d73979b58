/** Request-level answers in each API's style: 404, 405 with Allow (MN-21), 415 (MN-20). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seedOrganizations: 2, seedDevices: 2 });
});
afterAll(async () => {
  await h.close();
});

const custom = (status: number, code: number, message: string) => ({
  // code 0 ("no application code") is written /errors/null, as real nodes do (issue 8)
  error: { http_status_code: status, code, message, description: expect.any(String), more_info: `https://docs.mgmt-node.invalid/errors/${code === 0 ? 'null' : code}` },
});
const yang = (tag: string, urlpath: string) => ({ errors: { error: [{ 'error-message': expect.any(String), 'error-urlpath': urlpath, 'error-tag': tag }] } });
const SYSLOG = '/api/config/system/syslog-servers';

describe('404', () => {
  it('unknown paths answer a custom 404 body on both ports', async () => {
    for (const [port, path] of [
      ['basic', '/mgmt/no/such/thing'],
      ['oauth', '/mgmt/no/such/thing'],
      ['basic', '/auth/token'],
      ['basic', '/auth/admin/clients'],
      ['oauth', '/api/config/nms/provider/organizations/organization'],
      ['oauth', '/favicon.ico'],
    ] as const) {
      const r = await h.call(port, path.startsWith('/auth') ? 'POST' : 'GET', path, { basic: h.user('admin') });
      expect({ port, path, status: r.status }).toEqual({ port, path, status: 404 });
      expect(r.json).toEqual(custom(404, 0, 'Not Found'));
    }
  });

  it('a trailing slash reaches the same resource', async () => {
    const r = await h.call('basic', 'GET', '/mgmt/organization/orgs/', { basic: h.user('viewer') });
    expect(r.status).toBe(200);
    expect(r.json.totalCount).toBe(2);
  });
});

describe('405 with Allow, body in the API style (MN-21)', () => {
  it('custom API', async () => {
    const r = await h.call('basic', 'DELETE', '/mgmt/organization/orgs');
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET');
    expect(r.json).toEqual(custom(405, 0, 'Method Not Allowed'));
    const device = await h.call('oauth', 'DELETE', '/mgmt/sdwan/workflow/devices/device/x');
    expect([device.status, device.headers.allow]).toEqual([405, 'GET, PUT']);
    const deploy = await h.call('basic', 'GET', '/mgmt/sdwan/workflow/devices/device/deploy/x');
    expect([deploy.status, deploy.headers.allow]).toEqual([405, 'POST']);
  });

  it('YANG API', async () => {
    const r = await h.call('basic', 'PATCH', SYSLOG, { json: {} });
    expect(r.status).toBe(405);
    expect(r.headers.allow).toBe('GET, POST');
    expect(r.json).toEqual(yang('operation-not-supported', SYSLOG));
  });

  it('OAuth API', async () => {
    for (const [method, path, allow] of [
      ['GET', '/auth/token', 'POST'],
      ['GET', '/auth/refresh', 'POST'],
      ['DELETE', '/auth/revoke', 'POST'],
      ['GET', '/auth/admin/clients', 'POST'],
      ['POST', '/auth/admin/clients/some-id', 'PUT'],
    ] as const) {
      const r = await h.call('oauth', method, path);
      expect({ path, status: r.status, allow: r.headers.allow, error: r.json.error }).toEqual({ path, status: 405, allow, error: 'invalid_request' });
    }
  });

  it('the login page only answers GET', async () => {
    const r = await h.call('basic', 'POST', '/', { json: {} });
    expect([r.status, r.headers.allow]).toEqual([405, 'GET']);
  });
});

describe('415 (MN-20)', () => {
  it('a body that is not application/json', async () => {
    const mgmt = await h.call('basic', 'PUT', '/mgmt/sdwan/workflow/devices/device/x', { raw: 'deviceName=x', headers: { 'content-type': 'application/x-www-form-urlencoded' }, basic: h.user('admin') });
    expect(mgmt.status).toBe(415);
    expect(mgmt.json).toEqual(custom(415, 0, 'Unsupported Media Type'));
    const api = await h.call('basic', 'POST', SYSLOG, { raw: '<server/>', headers: { 'content-type': 'application/xml' }, basic: h.user('admin') });
    expect(api.status).toBe(415);
    expect(api.json).toEqual(yang('invalid-value', SYSLOG));
    const token = await h.call('oauth', 'POST', '/auth/token', { raw: 'grant_type=password', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([token.status, token.json.error]).toEqual([415, 'invalid_request']);
    const missing = await h.call('oauth', 'POST', '/auth/token', { raw: '{}' });
    expect(missing.status).toBe(415);
  });

  it('a JSON content type with a charset is fine', async () => {
    const r = await h.call('oauth', 'POST', '/auth/token', { json: {}, headers: { 'content-type': 'application/json; charset=utf-8' } });
    expect([r.status, r.json.error]).toEqual([400, 'invalid_request']);
  });

  it('an Accept header that allows no JSON (or XML on /auth)', async () => {
    const viewer = h.user('viewer');
    const html = await h.call('basic', 'GET', '/mgmt/organization/orgs', { basic: viewer, headers: { accept: 'text/html' } });
    expect(html.status).toBe(415);
    expect(html.json).toEqual(custom(415, 0, 'Unsupported Media Type'));
    const xmlOnMgmt = await h.call('basic', 'GET', '/mgmt/organization/orgs', { basic: viewer, headers: { accept: 'application/xml' } });
    expect(xmlOnMgmt.status).toBe(415);
    const zero = await h.call('basic', 'GET', '/api/config/nms/provider/organizations/organization', { basic: viewer, headers: { accept: 'application/json;q=0' } });
    expect(zero.status).toBe(415);
    expect(zero.json.errors.error[0]['error-tag']).toBe('invalid-value');
    const auth = await h.call('oauth', 'POST', '/auth/revoke', { headers: { accept: 'text/plain' } });
    expect([auth.status, auth.json.error]).toEqual([415, 'invalid_request']);
  });

  it('wildcards and XML on /auth are accepted', async () => {
    const viewer = h.user('viewer');
    for (const accept of ['*/*', 'application/*', 'text/html, application/json;q=0.1']) {
      expect((await h.call('basic', 'GET', '/mgmt/organization/orgs', { basic: viewer, headers: { accept } })).status).toBe(200);
    }
    const xml = await h.call('oauth', 'POST', '/auth/revoke', { headers: { accept: 'application/xml' } });
    expect(xml.status).toBe(400);
    expect(xml.text).toContain('<error>invalid_request</error>');
  });
});
