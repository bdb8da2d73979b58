/** Device records over real HTTPS: status fields, GET one, the PUT rules of MN-42 in order, the next free site ID. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seedOrganizations: 14, seedDevices: 60 });
});
afterAll(async () => {
  await h.close();
});

const WRAP = 'mgmt.sdwan-device-workflow';
const DEVICES = '/mgmt/sdwan/workflow/devices';
const devicePath = (name: string) => `${DEVICES}/device/${encodeURIComponent(name)}`;
const record = (over: Record<string, unknown> = {}) => ({
  deviceName: 'rules-01',
  siteId: '7001',
  orgName: 'Contoso-EMEA',
  serialNumber: 'NB-RULES-01',
  deviceGroup: 'Contoso-Office',
  locationInfo: { country: 'NL', longitude: '4.9041', latitude: '52.3676' },
  ...over,
});
const loc = (over: Record<string, unknown>) => ({ locationInfo: { country: 'NL', longitude: '4.9041', latitude: '52.3676', ...over } });
const admin = () => h.user('admin');
const put = (name: string, body: unknown) => h.call('basic', 'PUT', devicePath(name), { basic: admin(), json: body });
const get = (name: string) => h.call('basic', 'GET', devicePath(name), { basic: h.user('viewer') });
const firstDevices = async (n: number) => (await h.call('basic', 'GET', `${DEVICES}?limit=${n}`, { basic: admin() })).json.devices;

describe('device records (MN-40, MN-41)', () => {
  it('list records carry deploymentStatus and lastTaskId; seeds are deployed, saved or failed', async () => {
    const all = (await h.call('basic', 'GET', `${DEVICES}?limit=500`, { basic: admin() })).json.devices as Array<{ deploymentStatus: string; lastTaskId: string | null }>;
    expect(all).toHaveLength(60);
    expect(new Set(all.map((d) => d.deploymentStatus))).toEqual(new Set(['DEPLOYED', 'SAVED', 'FAILED']));
    for (const d of all) expect(d.lastTaskId === null).toBe(d.deploymentStatus === 'SAVED');
  });

  it('GET one device answers the list record under the wrapper key', async () => {
    const [first] = await firstDevices(1);
    const r = await get(first.deviceName);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ [WRAP]: first });
    expect(r.json[WRAP]).toMatchObject({ deploymentStatus: 'DEPLOYED', lastTaskId: expect.stringMatching(/^\d+$/) });
  });

  it('an unknown device: 404 code 4015 NO_DATA_FOUND (also on the OAuth port)', async () => {
    const r = await get('no-such-device');
    expect(r.status).toBe(404);
    expect(r.json.error).toMatchObject({ http_status_code: 404, code: 4015, message: 'NO_DATA_FOUND', description: expect.stringContaining('no-such-device') });
    const oauth = await h.call('oauth', 'GET', devicePath('no-such-device'), { bearer: await h.accessToken('viewer') });
    expect([oauth.status, oauth.json.error.code]).toEqual([404, 4015]);
  });

  it('PUT answers the stored record with SAVED; an identical re-PUT keeps the status, a changed one goes back to SAVED', async () => {
    const created = await put('rules-01', { [WRAP]: record() });
    expect([created.status, created.json]).toEqual([200, { [WRAP]: { ...record(), deploymentStatus: 'SAVED', lastTaskId: null } }]);

    const [seeded] = await firstDevices(1);
    const { deploymentStatus, lastTaskId, ...plain } = seeded;
    expect(deploymentStatus).toBe('DEPLOYED');
    const same = await put(seeded.deviceName, { [WRAP]: plain });
    expect(same.json[WRAP]).toEqual(seeded);
    const changed = await put(seeded.deviceName, { [WRAP]: { ...plain, deviceGroup: 'Moved' } });
    expect(changed.json[WRAP]).toMatchObject({ deviceGroup: 'Moved', deploymentStatus: 'SAVED', lastTaskId });
    expect((await get(seeded.deviceName)).json[WRAP].deploymentStatus).toBe('SAVED');
  });

  it('stores the country upper case and the site ID without leading zeros', async () => {
    const r = await put('rules-02', { [WRAP]: record({ deviceName: 'rules-02', siteId: '007002', ...loc({ country: 'de' }) }) });
    expect(r.status).toBe(200);
    expect(r.json[WRAP]).toMatchObject({ siteId: '7002', locationInfo: { country: 'DE' } });
  });
});

describe('PUT field rules (MN-42): 400 code 4017, description starting with the field path', () => {
  const cases: Array<[string, string, unknown]> = [
    ['no wrapper key', 'mgmt.sdwan-device-workflow: ', record()],
    ['wrapper not an object', 'mgmt.sdwan-device-workflow: ', { [WRAP]: 'x' }],
    ['name mismatch', 'deviceName: ', { [WRAP]: record({ deviceName: 'other-name' }) }],
    ['name missing', 'deviceName: ', { [WRAP]: record({ deviceName: undefined }) }],
    ['siteId 0', 'siteId: ', { [WRAP]: record({ siteId: '0' }) }],
    ['siteId too large', 'siteId: ', { [WRAP]: record({ siteId: '1000000000' }) }],
    ['siteId not digits', 'siteId: ', { [WRAP]: record({ siteId: '12a' }) }],
    ['siteId a number', 'siteId: ', { [WRAP]: record({ siteId: 12 }) }],
    ['orgName empty', 'orgName: ', { [WRAP]: record({ orgName: '' }) }],
    ['serialNumber missing', 'serialNumber: ', { [WRAP]: record({ serialNumber: undefined }) }],
    ['deviceGroup blank', 'deviceGroup: ', { [WRAP]: record({ deviceGroup: '  ' }) }],
    ['locationInfo missing', 'locationInfo: ', { [WRAP]: record({ locationInfo: undefined }) }],
    ['country of three letters', 'locationInfo.country: ', { [WRAP]: record(loc({ country: 'NLD' })) }],
    ['country not assigned', 'locationInfo.country: ', { [WRAP]: record(loc({ country: 'ZZ' })) }],
    ['country UK (not ISO 3166-1)', 'locationInfo.country: ', { [WRAP]: record(loc({ country: 'UK' })) }],
    ['latitude above 90', 'locationInfo.latitude: ', { [WRAP]: record(loc({ latitude: '90.5' })) }],
    ['latitude below -90', 'locationInfo.latitude: ', { [WRAP]: record(loc({ latitude: '-91' })) }],
    ['latitude not a number', 'locationInfo.latitude: ', { [WRAP]: record(loc({ latitude: 'north' })) }],
    ['latitude a JSON number', 'locationInfo.latitude: ', { [WRAP]: record(loc({ latitude: 52.1 })) }],
    ['longitude above 180', 'locationInfo.longitude: ', { [WRAP]: record(loc({ longitude: '180.01' })) }],
    ['longitude in exponent form', 'locationInfo.longitude: ', { [WRAP]: record(loc({ longitude: '1e2' })) }],
  ];

  it.each(cases)('%s', async (_label, prefix, body) => {
    const r = await put('rules-01', body);
    expect(r.status).toBe(400);
    expect(r.json.error).toMatchObject({ http_status_code: 400, code: 4017 });
    expect(r.json.error.description.startsWith(prefix)).toBe(true);
  });

  it('a device name that does not match the pattern (path and body agree)', async () => {
    for (const name of ['-leading-dash', 'with space', 'x'.repeat(64), 'ümlaut']) {
      const r = await put(name, { [WRAP]: record({ deviceName: name }) });
      expect({ name, status: r.status, code: r.json.error.code }).toEqual({ name, status: 400, code: 4017 });
      expect(r.json.error.description).toMatch(/^deviceName: /);
    }
  });

  it('the boundaries are accepted: latitude ±90, longitude ±180, siteId 999999999', async () => {
    const r = await put('rules-03', { [WRAP]: record({ deviceName: 'rules-03', siteId: '999999999', ...loc({ latitude: '-90', longitude: '180.0' }) }) });
    expect(r.status).toBe(200);
  });

  it('checks in order: fields first, then the organization (404 4016), then the site ID (500 code 0)', async () => {
    const [holder] = await firstDevices(1);
    const everythingWrong = record({ deviceName: 'rules-04', siteId: holder.siteId, orgName: 'Nowhere', ...loc({ country: 'ZZ', latitude: '99' }) });
    const first = await put('rules-04', { [WRAP]: everythingWrong });
    expect(first.json.error.description).toMatch(/^locationInfo\.country: /);
    const second = await put('rules-04', { [WRAP]: { ...everythingWrong, locationInfo: { country: 'NL', longitude: '4', latitude: '99' } } });
    expect(second.json.error.description).toMatch(/^locationInfo\.latitude: /);
    const org = await put('rules-04', { [WRAP]: { ...everythingWrong, locationInfo: { country: 'NL', longitude: '4', latitude: '52' } } });
    expect(org.status).toBe(404);
    expect(org.json.error).toMatchObject({ http_status_code: 404, code: 4016, message: 'ORG_NOT_FOUND', description: expect.stringMatching(/^orgName: .*Nowhere/) });
    const conflict = await put('rules-04', { [WRAP]: { ...everythingWrong, orgName: 'Fabrikam', locationInfo: { country: 'NL', longitude: '4', latitude: '52' } } });
    expect(conflict.status).toBe(500);
    expect(conflict.json.error).toEqual({
      http_status_code: 500,
      code: 0,
      message: `Global device id ${holder.siteId} is already in use`,
      description: expect.stringContaining(holder.deviceName),
      more_info: 'https://docs.mgmt-node.invalid/errors/0',
    });
  });
});

describe('next free site ID (MN-43)', () => {
  it('is the lowest whole number no device uses', async () => {
    const small = await startHarness({ seedOrganizations: 3, seedDevices: 5 });
    try {
      const a = small.user('admin');
      const next = async () => {
        const r = await small.call('basic', 'GET', '/mgmt/sdwan/global/Branch/availableId', { basic: a });
        expect(r.status).toBe(200);
        return r.json;
      };
      expect(await next()).toEqual({ AvailableIDResponseModel: { branchId: 6 } });
      const body = (siteId: string) => ({ [WRAP]: record({ deviceName: 'gap-maker', siteId, orgName: 'Contoso' }) });
      expect((await small.call('basic', 'PUT', devicePath('gap-maker'), { basic: a, json: body('6') })).status).toBe(200);
      expect((await next()).AvailableIDResponseModel.branchId).toBe(7);
      // Moving a device to another site ID frees its old one.
      const devices = (await small.call('basic', 'GET', `${DEVICES}?limit=10`, { basic: a })).json.devices;
      const second = devices[1];
      const { deploymentStatus: _s, lastTaskId: _t, ...plain } = second;
      expect((await small.call('basic', 'PUT', devicePath(second.deviceName), { basic: a, json: { [WRAP]: { ...plain, siteId: '500' } } })).status).toBe(200);
      expect((await next()).AvailableIDResponseModel.branchId).toBe(Number(second.siteId));
      expect((await small.call('basic', 'PUT', devicePath('gap-maker'), { basic: a, json: body(second.siteId) })).status).toBe(200);
      expect((await next()).AvailableIDResponseModel.branchId).toBe(6);
    } finally {
      await small.close();
    }
  });
});
