/**
 * Device records over real HTTPS in the recorded dialect (issue 8): list records with workflowStatus,
 * GET one under the wrapper (numeric siteId), the VOAEException 404, the PUT rules of MN-42 in order,
 * the next free site ID.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Answer, type Harness } from './harness';

const SEED = { seedOrganizations: 14, seedDevices: 60 };
let h: Harness;
beforeAll(async () => {
  h = await startHarness(SEED);
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
const LIST = 'mgmt.sdwan-device-list';
const firstDevices = async (n: number) => (await h.call('basic', 'GET', `${DEVICES}?limit=${n}`, { basic: admin() })).json[LIST];
/** The 2.3 record of a single GET answer, as a console would PUT it (strings). */
const plainOf = (w: Answer['json']) => ({
  deviceName: w.deviceName,
  siteId: String(w.siteId),
  orgName: w.orgName,
  serialNumber: w.serialNumber,
  deviceGroup: w.deviceGroup,
  locationInfo: { country: w.locationInfo.country, longitude: String(w.locationInfo.longitude), latitude: String(w.locationInfo.latitude) },
});
const statusOf = async (name: string) => ((await h.call('basic', 'GET', `${DEVICES}?limit=500`, { basic: admin() })).json[LIST] as Array<{ deviceName: string; workflowStatus: string }>).find((d) => d.deviceName === name)?.workflowStatus;

describe('device records (MN-40, MN-41, issue 8)', () => {
  it('list records: five strings; seeds are Deployed, Saved or Failed, last changed by Administrator', async () => {
    // A node of its own with the same seed: the other tests add devices and change a seeded one.
    const seeded = await startHarness(SEED);
    try {
      const all = (await seeded.call('basic', 'GET', `${DEVICES}?limit=500`, { basic: seeded.user('admin') })).json[LIST] as Array<Record<string, unknown>>;
      expect(all).toHaveLength(60);
      for (const d of all) {
        expect(Object.keys(d)).toEqual(['deviceName', 'lastModifiedBy', 'lastModifiedTime', 'siteId', 'workflowStatus']);
        expect(d.lastModifiedBy).toBe('Administrator');
        expect(d.lastModifiedTime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/);
        expect(d.siteId).toMatch(/^\d+$/);
      }
      expect(new Set(all.map((d) => d.workflowStatus))).toEqual(new Set(['Deployed', 'Saved', 'Failed']));
      // the recorded order: case-insensitive by device name
      const names = all.map((d) => d.deviceName as string);
      expect(names).toEqual([...names].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    } finally {
      await seeded.close();
    }
  });

  it('GET one device: the workflow object under the wrapper key, siteId and coordinates numbers, empty address parts', async () => {
    const [first] = await firstDevices(1);
    const r = await get(first.deviceName);
    expect(r.status).toBe(200);
    expect(Object.keys(r.json)).toEqual([WRAP]);
    const w = r.json[WRAP];
    expect(w).toMatchObject({ deviceName: first.deviceName, siteId: Number(first.siteId), locationInfo: { state: '', city: '', address1: '', address2: '', zip: '' } });
    expect([typeof w.locationInfo.latitude, typeof w.locationInfo.longitude]).toEqual(['number', 'number']);
    expect(w.postStagingTemplateInfo.templateData['device-template-variable']['variable-binding'].attrs).toContainEqual({ name: '{$v_Site_Id__siteSiteID}', value: first.siteId, isAutogeneratable: true });
    expect('deploymentStatus' in w || 'lastTaskId' in w).toBe(false);
  });

  it('an unknown device: the flat VOAEException 404 (also on the OAuth port)', async () => {
    const before = Date.now();
    const r = await get('no-such-device');
    expect(r.status).toBe(404);
    expect(r.json).toEqual({
      timestamp: expect.any(Number),
      http_status_code: 404,
      error: 'Not Found',
      exception: 'com.mgmt.common.exception.VOAEException',
      message: ' device work flow no-such-device does not exist ',
      path: `${DEVICES}/device/no-such-device`,
    });
    expect(r.json.timestamp).toBeGreaterThanOrEqual(before - 1000);
    const oauth = await h.call('oauth', 'GET', devicePath('no-such-device'), { bearer: await h.accessToken('viewer') });
    expect([oauth.status, oauth.json.exception, oauth.json.http_status_code]).toEqual([404, 'com.mgmt.common.exception.VOAEException', 404]);
  });

  it('PUT answers the stored record under the wrapper; it shows Saved, modified by the caller; an identical re-PUT keeps the status', async () => {
    const created = await put('rules-01', { [WRAP]: record() });
    expect(created.status).toBe(200);
    expect(plainOf(created.json[WRAP])).toEqual(record());
    expect(created.json[WRAP].siteId).toBe(7001);
    expect(await statusOf('rules-01')).toBe('Saved');
    const listed = (await firstDevices(500)).find((d: { deviceName: string }) => d.deviceName === 'rules-01');
    expect(listed).toMatchObject({ lastModifiedBy: admin().username, siteId: '7001' });

    const seeded = (await firstDevices(500)).find((d: { workflowStatus: string }) => d.workflowStatus === 'Deployed');
    const whole = (await get(seeded.deviceName)).json;
    // The GET body PUT back unchanged (numbers included), as real scripts do: nothing changes.
    const same = await put(seeded.deviceName, whole);
    expect([same.status, same.json]).toEqual([200, whole]);
    expect(await statusOf(seeded.deviceName)).toBe('Deployed');
    const changed = await put(seeded.deviceName, { [WRAP]: { ...plainOf(whole[WRAP]), deviceGroup: 'Moved' } });
    expect(changed.json[WRAP]).toMatchObject({ deviceGroup: 'Moved' });
    expect(await statusOf(seeded.deviceName)).toBe('Saved');
  });

  it('stores the country upper case and the site ID without leading zeros', async () => {
    const r = await put('rules-02', { [WRAP]: record({ deviceName: 'rules-02', siteId: '007002', ...loc({ country: 'de' }) }) });
    expect(r.status).toBe(200);
    expect(r.json[WRAP]).toMatchObject({ siteId: 7002, locationInfo: { country: 'DE' } });
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
    ['siteId a fractional number', 'siteId: ', { [WRAP]: record({ siteId: 12.5 }) }],
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
    ['latitude a JSON number above 90', 'locationInfo.latitude: ', { [WRAP]: record(loc({ latitude: 92.1 })) }],
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

  it('numbers are accepted where the single GET answers numbers: siteId, latitude, longitude (issue 8)', async () => {
    const r = await put('rules-05', { [WRAP]: record({ deviceName: 'rules-05', siteId: 7005, ...loc({ latitude: -33.9249, longitude: 18.4241 }) }) });
    expect(r.status).toBe(200);
    expect(r.json[WRAP]).toMatchObject({ siteId: 7005, locationInfo: { latitude: -33.9249, longitude: 18.4241 } });
    expect(h.sim.inventory.device('rules-05')).toMatchObject({ siteId: '7005', locationInfo: { latitude: '-33.9249', longitude: '18.4241' } });
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
      more_info: 'https://docs.mgmt-node.invalid/errors/null',
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
      const devices = (await small.call('basic', 'GET', `${DEVICES}?limit=10`, { basic: a })).json[LIST];
      const second = devices[1];
      const plain = plainOf((await small.call('basic', 'GET', devicePath(second.deviceName), { basic: a })).json[WRAP]);
      expect((await small.call('basic', 'PUT', devicePath(second.deviceName), { basic: a, json: { [WRAP]: { ...plain, siteId: '500' } } })).status).toBe(200);
      expect((await next()).AvailableIDResponseModel.branchId).toBe(Number(second.siteId));
      expect((await small.call('basic', 'PUT', devicePath('gap-maker'), { basic: a, json: body(second.siteId) })).status).toBe(200);
      expect((await next()).AvailableIDResponseModel.branchId).toBe(6);
    } finally {
      await small.close();
    }
  });
});
