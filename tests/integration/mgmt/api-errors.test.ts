/** Custom (spec 7.1), YANG and HTTP-level errors of the simulator, surfaced by the client. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MgmtSimulator } from '@northbound/simulators/testing';
import type { MgmtClient } from '../../../electron/mgmt/client';
import { failure, makeClient, password, rawCaller, startSim, type ClientSpec } from './helpers';

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

const signedIn = async (spec: ClientSpec = {}) => {
  const { client } = makeClient(sim, spec);
  open.push(client);
  await client.signIn();
  return client;
};

interface Device {
  deviceName: string;
  siteId: string;
  orgName: string;
  serialNumber: string;
  deviceGroup: string;
  locationInfo: { country: string; longitude: string; latitude: string };
}
const WRAP = 'mgmt.sdwan-device-workflow';

describe('spec 7.1 shown cases', () => {
  it('wrong basic credentials on a custom API: 401, code 4001', async () => {
    const { client } = makeClient(sim, { authMode: 'basic', password: 'not-the-password' });
    open.push(client);
    const e = await failure(client.signIn());
    // The console's own wording; the node's words are not shown before it has answered as a management node (issue 20.8).
    expect(e).toMatchObject({ code: 'api.4001', status: 401, message: 'The node did not accept the user name or password.', details: { name: 'UNAUTHENTICATED' } });
    expect(JSON.stringify(e.details)).not.toMatch(/Unauthenticated|Invalid user name/);
  });

  it.each(['basic', 'oauth'] as const)('a siteId used by another device: HTTP 500, code 0, the node message (%s)', async (authMode) => {
    const c = await signedIn({ authMode, username: 'operator' });
    // Real nodes list only name, site ID and status (MN-49): the record to send back is one device's GET.
    const list = await c.request<{ 'mgmt.sdwan-device-list': Array<{ deviceName: string; siteId: string }> }>('GET', '/mgmt/sdwan/workflow/devices?offset=0&limit=2');
    const [first, second] = list!['mgmt.sdwan-device-list'];
    const record = await c.request<Record<string, Device>>('GET', `/mgmt/sdwan/workflow/devices/device/${encodeURIComponent(second!.deviceName)}`);
    const body = { [WRAP]: { ...record![WRAP]!, siteId: first!.siteId } };
    const e = await failure(c.request('PUT', `/mgmt/sdwan/workflow/devices/device/${encodeURIComponent(second!.deviceName)}`, body));
    expect(e).toMatchObject({ code: 'api.0', status: 500 });
    expect(e.message).toMatch(new RegExp(`^The node reported an error: Global device id ${first!.siteId} is already in use`));
  });

  it('a YANG POST with an invalid port: 400 malformed-message', async () => {
    const c = await signedIn({ authMode: 'basic', username: 'operator' });
    const e = await failure(c.request('POST', '/api/config/system/syslog-servers', { server: { host: 'syslog.example', port: 'abc', enabled: true } }));
    expect(e).toMatchObject({ code: 'yang.malformed-message', status: 400, details: { tag: 'malformed-message', path: '/api/config/system/syslog-servers' } });
    expect(e.message).toMatch(/The node rejected the request: .*"abc" is not a valid port/);
    expect(e.hint).toMatch(/Check the values/);
  });
});

describe('more custom and YANG errors', () => {
  it('PUT of a device into an unknown organization: api.4016', async () => {
    const c = await signedIn({ authMode: 'oauth', username: 'operator' });
    const device: Device = { deviceName: 'new-branch', siteId: '9999', orgName: 'NoSuchOrg', serialNumber: 'SN1', deviceGroup: 'g', locationInfo: { country: 'DE', longitude: '1', latitude: '2' } };
    expect(await failure(c.request('PUT', '/mgmt/sdwan/workflow/devices/device/new-branch', { [WRAP]: device }))).toMatchObject({ code: 'api.4016', status: 404, message: expect.stringMatching(/organization does not exist/) });
  });

  it('a paging value out of range: api.4017 with the node explanation', async () => {
    const c = await signedIn({ authMode: 'basic' });
    const e = await failure(c.request('GET', '/mgmt/organization/orgs?offset=0&limit=100000'));
    expect(e).toMatchObject({ code: 'api.4017', status: 400 });
    expect(e.message).toMatch(/limit must be a whole number/);
  });

  it('a viewer writing with basic auth: code 0 Access forbidden (MN-25)', async () => {
    const c = await signedIn({ authMode: 'basic', username: 'viewer' });
    const e = await failure(c.request('PUT', '/mgmt/sdwan/workflow/devices/device/x', { [WRAP]: {} }));
    expect(e).toMatchObject({ code: 'api.0', status: 401, message: expect.stringMatching(/refused the action/), hint: expect.stringMatching(/permission/) });
    expect(c.status().state).toBe('signed-in');
  });

  it('wrong basic credentials on a YANG API: yang.access-denied (MN-24)', async () => {
    expect(await failure(raw.call('GET', '/api/config/nms/provider/organizations/organization', { port: 'basic', basic: ['admin', 'wrong'] }))).toMatchObject({ code: 'yang.access-denied', status: 401 });
  });

  it('YANG data-exists on a second identical syslog server', async () => {
    const c = await signedIn({ authMode: 'basic' });
    const body = { server: { host: 'dup.example', port: 514, enabled: true } };
    expect(await c.request('POST', '/api/config/system/syslog-servers', body)).toBeUndefined(); // 201 without a body
    expect(await failure(c.request('POST', '/api/config/system/syslog-servers', body))).toMatchObject({ code: 'yang.data-exists' });
  });
});

describe('HTTP-level errors', () => {
  it('405 with the allowed methods', async () => {
    const c = await signedIn({ authMode: 'basic' });
    const e = await failure(c.request('DELETE', '/mgmt/organization/orgs'));
    expect(e).toMatchObject({ code: 'http.405', status: 405, details: { allow: 'GET' } });
    expect(e.message).toContain('DELETE');
  });

  it('404 on an unknown path', async () => {
    const c = await signedIn({ authMode: 'oauth' });
    expect(await failure(c.request('GET', '/mgmt/no/such/thing'))).toMatchObject({ code: 'http.404', status: 404, message: expect.stringContaining('/mgmt/no/such/thing') });
  });

  it('415 when the body is not JSON', async () => {
    const e = await failure(raw.call('PUT', '/mgmt/sdwan/workflow/devices/device/x', { port: 'basic', basic: ['admin', password(sim, 'admin')!], body: 'deviceName=x', headers: { 'content-type': 'text/plain' } }));
    expect(e).toMatchObject({ code: 'http.415', status: 415 });
  });

  it('415 when Accept excludes JSON', async () => {
    const e = await failure(raw.call('GET', '/mgmt/organization/orgs', { port: 'basic', basic: ['admin', password(sim, 'admin')!], headers: { accept: 'text/csv' } }));
    expect(e).toMatchObject({ code: 'http.415' });
  });
});

describe('OAuth errors in XML (MN-12)', () => {
  it('are read like the JSON ones', async () => {
    const e = await failure(raw.call('POST', '/auth/token', {
      operation: 'token',
      headers: { accept: 'application/xml' },
      json: { client_id: sim.bootstrapClient.clientId, client_secret: sim.bootstrapClient.clientSecret, username: 'admin', password: 'wrong', grant_type: 'password' },
    }));
    expect(e).toMatchObject({ code: 'oauth.invalid_grant', status: 401, message: 'The user name or password is wrong.' });
  });
});
