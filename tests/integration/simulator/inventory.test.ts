/** Data endpoints on the basic port (and /mgmt on the OAuth port): auth errors, paging, 204, device and syslog errors. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seedOrganizations: 5, seedDevices: 7 });
});
afterAll(async () => {
  await h.close();
});

const ORGS = '/mgmt/organization/orgs';
const DEVICES = '/mgmt/sdwan/workflow/devices';
const YANG_ORGS = '/api/config/nms/provider/organizations/organization';
const SYSLOG = '/api/config/system/syslog-servers';
const devicePath = (name: string) => `${DEVICES}/device/${encodeURIComponent(name)}`;
const record = (over: Record<string, unknown> = {}) => ({
  deviceName: 'lab-branch-99',
  siteId: '9099',
  orgName: 'Contoso',
  serialNumber: 'NB-LAB-99',
  deviceGroup: 'Contoso-Branches',
  locationInfo: { country: 'NL', longitude: '4.9041', latitude: '52.3676' },
  ...over,
});
const WRAP = 'mgmt.sdwan-device-workflow';
const LIST = 'mgmt.sdwan-device-list';
const wrap = (r: object) => ({ [WRAP]: r });

describe('basic authentication (MN-24, MN-25)', () => {
  it('/mgmt: 401 code 4001 Unauthenticated for wrong or missing credentials', async () => {
    const expected = {
      error: { http_status_code: 401, code: 4001, message: 'Unauthenticated', description: 'Invalid user name or password', more_info: 'https://docs.mgmt-node.invalid/errors/4001' },
    };
    for (const r of [await h.call('basic', 'GET', ORGS, { basic: { username: 'admin', password: 'wrong' } }), await h.call('basic', 'GET', ORGS), await h.call('basic', 'GET', ORGS, { bearer: 'tok' })]) {
      expect(r.status).toBe(401);
      expect(r.json).toEqual(expected);
    }
  });

  it('/api: 401 YANG access-denied with WWW-Authenticate: Basic', async () => {
    const r = await h.call('basic', 'GET', YANG_ORGS, { basic: { username: 'nobody', password: 'x' } });
    expect(r.status).toBe(401);
    expect(r.headers['www-authenticate']).toBe('Basic realm="management-node"');
    expect(r.json).toEqual({ errors: { error: [{ 'error-message': 'Invalid user name or password', 'error-urlpath': YANG_ORGS, 'error-tag': 'access-denied' }] } });
  });

  it('a viewer reads but may not write: 401 custom code 0 Access forbidden', async () => {
    const viewer = h.user('viewer');
    expect((await h.call('basic', 'GET', YANG_ORGS, { basic: viewer })).status).toBe(200);
    expect((await h.call('basic', 'GET', SYSLOG, { basic: viewer })).status).toBe(200);
    for (const r of [
      await h.call('basic', 'PUT', devicePath('lab-branch-99'), { basic: viewer, json: wrap(record()) }),
      await h.call('basic', 'POST', SYSLOG, { basic: viewer, json: { server: { host: 'syslog.viewer', port: 514, enabled: true } } }),
    ]) {
      expect(r.status).toBe(401);
      expect(r.json.error).toMatchObject({ http_status_code: 401, code: 0, message: 'Access forbidden' });
    }
  });

  it('a changed password is needed from then on', async () => {
    const { username, password } = h.user('operator');
    h.sim.setUserPassword(username, `${password}-2`);
    expect((await h.call('basic', 'GET', ORGS, { basic: { username, password } })).status).toBe(401);
    expect((await h.call('basic', 'GET', ORGS, { basic: { username, password: `${password}-2` } })).status).toBe(200);
  });
});

describe('organizations', () => {
  it('pages /mgmt/organization/orgs with totalCount and a paraentOrg tree, in name order (issue 8)', async () => {
    const viewer = h.user('viewer');
    const all = await h.call('basic', 'GET', `${ORGS}?offset=0&limit=500`, { basic: viewer });
    expect(all.json.totalCount).toBe(5);
    const orgs = all.json.organizations as Array<Record<string, unknown>>;
    expect(orgs.map((o) => o.name)).toEqual(['Contoso', 'Contoso-EMEA', 'Fabrikam', 'Northwind', 'Tailspin']);
    const plan = orgs[3]!.plan;
    expect(orgs[3]).toEqual({
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
      name: 'Northwind',
      plan: expect.any(String),
      globalOrgId: '1',
      description: expect.any(String),
      sharedControlPlane: false,
      blockInterRegionRouting: false,
      cpeDeploymentType: 'SDWAN',
      authType: 'psk',
      providerOrg: true,
      depth: 1,
    });
    expect(orgs[1]).toMatchObject({ name: 'Contoso-EMEA', paraentOrg: 'Contoso', globalOrgId: '5', providerOrg: false, depth: 3 });
    expect(Object.keys(orgs[1]!)).toEqual(['uuid', 'name', 'paraentOrg', 'plan', 'globalOrgId', 'sharedControlPlane', 'blockInterRegionRouting', 'cpeDeploymentType', 'authType', 'providerOrg', 'depth']);
    expect(typeof plan).toBe('string');
    const names = new Set(orgs.map((o) => o.name));
    for (const o of orgs) if (o.name !== 'Northwind') expect(names.has(o.paraentOrg as string)).toBe(true);
    const page = await h.call('basic', 'GET', `${ORGS}?offset=2&limit=2`, { basic: viewer });
    expect(page.json).toEqual({ totalCount: 5, organizations: all.json.organizations.slice(2, 4) });
    const empty = await h.call('basic', 'GET', `${ORGS}?offset=5&limit=2`, { basic: viewer });
    expect([empty.status, empty.json]).toEqual([200, { totalCount: 5, organizations: [] }]);
  });

  it('answers 204 for an empty page with faults.emptyListAs204 (MN-27)', async () => {
    h.sim.faults.emptyListAs204 = true;
    try {
      const empty = await h.call('basic', 'GET', `${DEVICES}?offset=100&limit=10`, { basic: h.user('viewer') });
      expect(empty.status).toBe(204);
      expect(empty.text).toBe('');
      const orgs = await h.call('oauth', 'GET', `${ORGS}?offset=9`, { bearer: await h.accessToken('viewer') });
      expect(orgs.status).toBe(204);
      expect((await h.call('basic', 'GET', `${ORGS}?limit=1`, { basic: h.user('viewer') })).status).toBe(200);
    } finally {
      h.sim.faults.emptyListAs204 = false;
    }
  });

  it('rejects bad paging values with 400 code 4017', async () => {
    for (const q of ['offset=-1', 'limit=0', 'limit=501', 'offset=abc']) {
      const r = await h.call('basic', 'GET', `${ORGS}?${q}`, { basic: h.user('viewer') });
      expect({ q, status: r.status, code: r.json.error.code }).toEqual({ q, status: 400, code: 4017 });
    }
  });

  it('lists the YANG organization tree', async () => {
    const r = await h.call('basic', 'GET', YANG_ORGS, { basic: h.user('admin') });
    expect(r.status).toBe(200);
    expect(r.json.organization).toHaveLength(5);
    expect(r.json.organization[1]).toMatchObject({ name: 'Contoso', 'parent-org': 'Northwind' });
  });
});

describe('devices', () => {
  it('lists seeded devices with paging', async () => {
    // Its own node: the tests below add devices to the file's.
    const own = await startHarness({ seedOrganizations: 5, seedDevices: 7 });
    try {
      const r = await own.call('basic', 'GET', `${DEVICES}?offset=0&limit=3`, { basic: own.user('viewer') });
      expect(r.json.totalCount).toBe(7);
      expect(r.json[LIST]).toHaveLength(3);
      expect(Object.keys(r.json[LIST][0])).toEqual(['deviceName', 'lastModifiedBy', 'lastModifiedTime', 'siteId', 'workflowStatus']);
      const rest = await own.call('basic', 'GET', `${DEVICES}?offset=3&limit=3`, { basic: own.user('viewer') });
      const names = [...r.json[LIST], ...rest.json[LIST]].map((d: { deviceName: string }) => d.deviceName);
      expect(new Set(names).size).toBe(6);
    } finally {
      await own.close();
    }
  });

  it('PUT creates and updates a device (200)', async () => {
    const operator = { username: 'operator', password: h.user('operator').password };
    // Other tests here add devices too: the count is taken before.
    const before = (await h.call('basic', 'GET', `${DEVICES}?limit=1`, { basic: operator })).json.totalCount as number;
    const r = await h.call('basic', 'PUT', devicePath('lab-branch-99'), { basic: operator, json: wrap(record()) });
    expect(r.status).toBe(200);
    expect(r.json[WRAP]).toMatchObject({ ...record(), siteId: 9099, locationInfo: { country: 'NL', longitude: 4.9041, latitude: 52.3676 } });
    const again = await h.call('basic', 'PUT', devicePath('lab-branch-99'), { basic: operator, json: wrap(record({ deviceGroup: 'Lab' })) });
    expect(again.status).toBe(200);
    const list = await h.call('basic', 'GET', `${DEVICES}?limit=100`, { basic: operator });
    expect(list.json.totalCount).toBe(before + 1);
    expect(list.json[LIST].find((d: { deviceName: string }) => d.deviceName === 'lab-branch-99')).toMatchObject({ siteId: '9099', workflowStatus: 'Saved', lastModifiedBy: 'operator' });
    expect((await h.call('basic', 'GET', devicePath('lab-branch-99'), { basic: operator })).json[WRAP].deviceGroup).toBe('Lab');
  });

  it('a siteId used by another device: HTTP 500, code 0, "Global device id … is already in use"', async () => {
    const admin = h.user('admin');
    const first = (await h.call('basic', 'GET', `${DEVICES}?limit=1`, { basic: admin })).json[LIST][0];
    const r = await h.call('basic', 'PUT', devicePath('lab-branch-77'), { basic: admin, json: wrap(record({ deviceName: 'lab-branch-77', siteId: first.siteId })) });
    expect(r.status).toBe(500);
    expect(r.json.error).toMatchObject({ http_status_code: 500, code: 0, message: `Global device id ${first.siteId} is already in use`, more_info: 'https://docs.mgmt-node.invalid/errors/null' });
  });

  it('unknown organization: 404 code 4016; name mismatch or bad record: 400 code 4017', async () => {
    const admin = h.user('admin');
    const org = await h.call('basic', 'PUT', devicePath('lab-branch-98'), { basic: admin, json: wrap(record({ deviceName: 'lab-branch-98', siteId: '9098', orgName: 'Nowhere' })) });
    expect([org.status, org.json.error.code, org.json.error.http_status_code]).toEqual([404, 4016, 404]);
    const mismatch = await h.call('basic', 'PUT', devicePath('lab-branch-98'), { basic: admin, json: wrap(record({ deviceName: 'other' })) });
    expect([mismatch.status, mismatch.json.error.code]).toEqual([400, 4017]);
    expect(mismatch.json.error.description).toContain('lab-branch-98');
    const unwrapped = await h.call('basic', 'PUT', devicePath('lab-branch-99'), { basic: admin, json: record() });
    expect([unwrapped.status, unwrapped.json.error.code]).toEqual([400, 4017]);
    const country = await h.call('basic', 'PUT', devicePath('lab-branch-99'), { basic: admin, json: wrap(record({ locationInfo: { country: 'NLD', longitude: '1', latitude: '2' } })) });
    expect(country.json.error.description).toContain('country');
  });

  it('works with a bearer token on the OAuth port', async () => {
    const r = await h.call('oauth', 'PUT', devicePath('lab-branch-55'), { bearer: await h.accessToken('admin'), json: wrap(record({ deviceName: 'lab-branch-55', siteId: '9055' })) });
    expect(r.status).toBe(200);
  });
});

describe('syslog servers (YANG)', () => {
  const post = (server: Record<string, unknown>) => h.call('basic', 'POST', SYSLOG, { basic: h.user('admin'), json: { server } });

  it('creates a server: 201 with Location, then lists it', async () => {
    const r = await post({ host: 'syslog.example.net', port: 514, enabled: true });
    expect(r.status).toBe(201);
    expect(r.headers.location).toBe(`${SYSLOG}/server/syslog.example.net`);
    expect(r.text).toBe('');
    expect((await post({ host: 'syslog2.example.net', port: '6514', enabled: false })).status).toBe(201);
    const list = await h.call('basic', 'GET', SYSLOG, { basic: h.user('viewer') });
    expect(list.json).toEqual({
      'syslog-servers': {
        server: [
          { host: 'syslog.example.net', port: 514, enabled: true },
          { host: 'syslog2.example.net', port: 6514, enabled: false },
        ],
      },
    });
  });

  it('a port that is not a valid value: 400 with error-tag malformed-message', async () => {
    for (const port of ['abc', '70000', 0, 65536, 5.5, '']) {
      const r = await post({ host: 'bad.example.net', port, enabled: true });
      expect({ port, status: r.status }).toEqual({ port, status: 400 });
      expect(r.json).toEqual({ errors: { error: [{ 'error-message': expect.stringContaining('port'), 'error-urlpath': SYSLOG, 'error-tag': 'malformed-message' }] } });
    }
    const broken = await h.call('basic', 'POST', SYSLOG, { basic: h.user('admin'), raw: '{"server":', headers: { 'content-type': 'application/json' } });
    expect([broken.status, broken.json.errors.error[0]['error-tag']]).toEqual([400, 'malformed-message']);
  });
});
