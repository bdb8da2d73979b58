/**
 * Issue 8: the simulator answers in the shapes real nodes were recorded answering. Every record
 * type is compared with its fixture (tests/fixtures/mgmt-node) programmatically: the same keys
 * (misspellings included), the same value types, nested all the way down.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SimClock } from '@northbound/simulators/testing';
import { mgmtFixtures } from '../../support/replay-node';
import { startHarness, type Answer, type Harness } from './harness';

const DEVICES = '/mgmt/sdwan/workflow/devices';
const ORGS = '/mgmt/organization/orgs';
const APPLIANCES = '/mgmt/appliance/appliance';
const LIST = 'mgmt.sdwan-device-list';
const WRAP = 'mgmt.sdwan-device-workflow';
const RESULT = 'mgmt.ApplianceStatusResult';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
const kind = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

/** Differences between the shape of `actual` and of `expected` (keys as sets, types, arrays element-wise against the first expected element). */
function shapeDiff(actual: unknown, expected: unknown, at = '$'): string[] {
  if (kind(actual) !== kind(expected)) return [`${at}: ${kind(actual)} where the fixture has ${kind(expected)}`];
  if (Array.isArray(actual) && Array.isArray(expected)) {
    if (expected.length === 0) return actual.length === 0 ? [] : [`${at}: items where the fixture has none`];
    return actual.flatMap((item, i) => shapeDiff(item, expected[0], `${at}[${i}]`));
  }
  if (kind(actual) === 'object') {
    const a = actual as Record<string, unknown>;
    const e = expected as Record<string, unknown>;
    const diffs = [...Object.keys(e).filter((k) => !(k in a)).map((k) => `${at}.${k}: missing`), ...Object.keys(a).filter((k) => !(k in e)).map((k) => `${at}.${k}: not in the fixture`)];
    for (const k of Object.keys(e)) if (k in a) diffs.push(...shapeDiff(a[k], e[k], `${at}.${k}`));
    return diffs;
  }
  return [];
}

let h: Harness;
const START = Date.parse('2031-03-04T05:06:07.089Z');
beforeAll(async () => {
  h = await startHarness({ clock: new SimClock(START), seedOrganizations: 14, seedDevices: 60 });
});
afterAll(async () => {
  await h.close();
});
const get = async (path: string, port: 'basic' | 'oauth' = 'basic') => {
  const r = port === 'basic' ? await h.call('basic', 'GET', path, { basic: h.user('viewer') }) : await h.call('oauth', 'GET', path, { bearer: await h.accessToken('viewer') });
  return r;
};
const allDevices = async () => (await get(`${DEVICES}?limit=500`)).json[LIST] as Array<Record<string, string>>;

describe('record shapes match the fixtures (keys, misspellings, value types)', () => {
  it('the comparison itself notices a renamed key, a changed type, a wrong nested element', () => {
    expect(shapeDiff({ a: 1, b: { c: 'x' } }, { a: 1, b: { c: 'y' } })).toEqual([]);
    expect(shapeDiff({ parentOrg: 'x' }, { paraentOrg: 'x' })).toEqual(['$.paraentOrg: missing', '$.parentOrg: not in the fixture']);
    expect(shapeDiff({ siteId: 109 }, { siteId: '109' })).toEqual(['$.siteId: number where the fixture has string']);
    expect(shapeDiff({ rows: [{ v: [1] }, { v: ['1'] }] }, { rows: [{ v: [0] }] })).toEqual(['$.rows[1].v[0]: string where the fixture has number']);
    expect(shapeDiff({ nodes: { nodeStatusList: [] } }, { nodes: { nodeStatusList: {} } })).toEqual(['$.nodes.nodeStatusList: array where the fixture has object']);
  });

  it('the device workflow list and its records', async () => {
    const fixture = mgmtFixtures.deviceList;
    const r = await get(`${DEVICES}?limit=500`);
    expect(Object.keys(r.json)).toEqual(Object.keys(fixture));
    expect(shapeDiff({ ...r.json, [LIST]: [] }, { ...fixture, [LIST]: [] })).toEqual([]);
    const sample = fixture[LIST][0] as Json;
    for (const rec of r.json[LIST]) {
      expect(shapeDiff(rec, sample)).toEqual([]);
      expect(Object.keys(rec)).toEqual(Object.keys(sample as object));
    }
    // formats, not only types
    for (const rec of r.json[LIST]) expect(rec.lastModifiedTime).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
  });

  it('the organization list: a child like the recorded child, a root like the recorded root', async () => {
    const [child, root] = mgmtFixtures.organizationList.organizations;
    const r = await get(`${ORGS}?limit=500`);
    expect(Object.keys(r.json)).toEqual(Object.keys(mgmtFixtures.organizationList));
    const orgs = r.json.organizations as Array<Record<string, unknown>>;
    expect(orgs.filter((o) => o.providerOrg).length).toBeGreaterThan(0);
    for (const o of orgs) {
      const like = o.providerOrg ? root : child;
      expect({ name: o.name, diff: shapeDiff(o, like) }).toEqual({ name: o.name, diff: [] });
      expect(Object.keys(o)).toEqual(Object.keys(like!));
    }
  });

  it('the single device GET: wrapper, numeric siteId and coordinates, template binding', async () => {
    const [first] = await allDevices();
    const r = await get(`${DEVICES}/device/${first!.deviceName}`);
    expect(shapeDiff(r.json, mgmtFixtures.deviceRecord)).toEqual([]);
    expect(Object.keys(r.json[WRAP])).toEqual(Object.keys(mgmtFixtures.deviceRecord[WRAP]));
    expect(r.json[WRAP].siteId).toBe(Number(first!.siteId));
  });

  it('the appliance list: wrapper, totalCount, branch records with the recorded key set and order', async () => {
    const fixture = mgmtFixtures.applianceList;
    const branch = fixture[RESULT].appliances.find((a) => a.type === 'branch')!;
    const r = await get(`${APPLIANCES}?offset=0&limit=500`);
    expect(Object.keys(r.json)).toEqual([RESULT]);
    expect(Object.keys(r.json[RESULT])).toEqual(Object.keys(fixture[RESULT]));
    expect(typeof r.json[RESULT].totalCount).toBe('number');
    for (const a of r.json[RESULT].appliances) {
      expect({ name: a.name, diff: shapeDiff(a, branch) }).toEqual({ name: a.name, diff: [] });
      expect(Object.keys(a)).toEqual(Object.keys(branch));
    }
    const one = r.json[RESULT].appliances[0];
    expect(one.alarmSummary.rows.map((row: { firstColumnValue: string }) => row.firstColumnValue)).toEqual(['Critical', 'Major', 'Minor', 'Warning', 'Indeterminate']);
    expect(one.Hardware.hardWareSerialNo).toEqual(expect.any(String));
    expect(one['controll-status']).toBe('Unavailable');
    expect(one.branchId).toMatch(/^\d+$/);
    expect(one.startTime).toMatch(/^[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \d{4}$/);
    expect(one.createdAt).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
  });

  it('errors: the VOAEException 404 for an unknown device, the custom 500 for a taken site ID, the 401', async () => {
    const missing = await get(`${DEVICES}/device/ghost-77`);
    expect(missing.status).toBe(404);
    expect(shapeDiff(missing.json, mgmtFixtures.vnmsError404)).toEqual([]);
    expect(Object.keys(missing.json)).toEqual(Object.keys(mgmtFixtures.vnmsError404));

    const [holder] = await allDevices();
    const body = { [WRAP]: { deviceName: 'dialect-1', siteId: holder!.siteId, orgName: 'Contoso', serialNumber: 'SN-DIALECT', deviceGroup: 'G', locationInfo: { country: 'NL', latitude: '52', longitude: '4' } } };
    const conflict = await h.call('basic', 'PUT', `${DEVICES}/device/dialect-1`, { basic: h.user('admin'), json: body });
    expect(conflict.status).toBe(500);
    // The recorded keys, plus the description our spec (2.5) allows and the console's field mapping reads.
    expect(shapeDiff(conflict.json, { error: { ...mgmtFixtures.customError500.error, description: '' } })).toEqual([]);
    expect(conflict.json.error).toMatchObject({ code: 0, message: `Global device id ${holder!.siteId} is already in use`, more_info: expect.stringMatching(/\/errors\/null$/) });

    const unauthenticated = await h.call('basic', 'GET', DEVICES);
    expect(unauthenticated.status).toBe(401);
    expect(shapeDiff(unauthenticated.json, mgmtFixtures.yangError401)).toEqual([]);
  });
});

describe('appliance list: one appliance per deployed device (issue 8)', () => {
  it('pages like the other lists; totalCount = deployed devices; names, owners, serials and site IDs from the devices', async () => {
    const devices = await allDevices();
    const deployed = devices.filter((d) => d.workflowStatus === 'Deployed');
    expect(deployed.length).toBeGreaterThan(40);
    expect(deployed.length).toBeLessThan(devices.length);
    const pages: Array<Array<Record<string, Answer['json']>>> = [];
    for (let offset = 0; ; offset += 20) {
      const r = await get(`${APPLIANCES}?offset=${offset}&limit=20`);
      expect(r.status).toBe(200);
      expect(r.json[RESULT].totalCount).toBe(deployed.length);
      if (r.json[RESULT].appliances.length === 0) break;
      pages.push(r.json[RESULT].appliances);
    }
    expect(pages.map((p) => p.length)).toEqual([20, 20, deployed.length - 40]);
    const appliances = pages.flat();
    expect(appliances.map((a) => a.name)).toEqual(deployed.map((d) => d.deviceName));
    for (const a of appliances.slice(0, 8)) {
      const w = (await get(`${DEVICES}/device/${a.name}`)).json[WRAP];
      expect([a.ownerOrg, a.Hardware.serialNo, a.branchId, a.applianceLocation.applianceName]).toEqual([w.orgName, w.serialNumber, String(w.siteId), a.name]);
    }
    // mixed reachability and sync, both last-updated-time formats alternating
    const values = (k: string) => new Set(appliances.map((a) => a[k]));
    expect(values('ping-status')).toEqual(new Set(['REACHABLE', 'UNREACHABLE']));
    expect([...values('sync-status')].sort()).toEqual(['IN_SYNC', 'OUT_OF_SYNC', 'UNKNOWN']);
    for (const a of appliances) expect(a.unreachable).toBe(a['ping-status'] === 'UNREACHABLE');
    appliances.forEach((a, i) => expect(a['last-updated-time']).toMatch(i % 2 === 0 ? /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d$/ : /^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d$/));
  });

  it('the same on the OAuth port; bad paging is 400 code 4017; pageCap holds', async () => {
    const basic = await get(`${APPLIANCES}?limit=5`);
    const oauth = await get(`${APPLIANCES}?limit=5`, 'oauth');
    expect(oauth.status).toBe(200);
    expect(oauth.json[RESULT].appliances.map((a: { name: string }) => a.name)).toEqual(basic.json[RESULT].appliances.map((a: { name: string }) => a.name));
    const bad = await get(`${APPLIANCES}?limit=0`);
    expect([bad.status, bad.json.error.code]).toEqual([400, 4017]);
    h.sim.faults.pageCap = 3;
    try {
      expect((await get(`${APPLIANCES}?limit=50`)).json[RESULT].appliances).toHaveLength(3);
    } finally {
      h.sim.faults.pageCap = 0;
    }
  });

  it('fault unreachableDevices makes a named device unreachable on demand, and back', async () => {
    const list = async () => (await get(`${APPLIANCES}?limit=500`)).json[RESULT].appliances as Array<Record<string, Answer['json']>>;
    const up = (await list()).find((a) => a['ping-status'] === 'REACHABLE')!;
    h.sim.faults.unreachableDevices = [up.name];
    try {
      const down = (await list()).find((a) => a.name === up.name)!;
      expect(down).toMatchObject({ 'ping-status': 'UNREACHABLE', 'sync-status': 'UNKNOWN', 'services-status': 'UNKNOWN', unreachable: true });
      expect(down.alarmSummary.rows[0].columnValues[0]).toBeGreaterThan(0);
    } finally {
      h.sim.faults.unreachableDevices = [];
    }
    expect((await list()).find((a) => a.name === up.name)).toMatchObject({ 'ping-status': 'REACHABLE', unreachable: false });
  });

  it('a device deployed now joins the list once its deployment completes', async () => {
    const saved = (await allDevices()).find((d) => d.workflowStatus === 'Saved')!;
    const total = async () => (await get(`${APPLIANCES}?limit=1`)).json[RESULT].totalCount as number;
    const before = await total();
    const deploy = await h.call('basic', 'POST', `${DEVICES}/device/deploy/${saved.deviceName}`, { basic: h.user('operator') });
    expect(deploy.status).toBe(202);
    expect((await allDevices()).find((d) => d.deviceName === saved.deviceName)!.workflowStatus).toBe('In Progress');
    expect(await total()).toBe(before);
    h.sim.clock.advance(60_000);
    expect((await allDevices()).find((d) => d.deviceName === saved.deviceName)!.workflowStatus).toBe('Deployed');
    expect(await total()).toBe(before + 1);
    const names = ((await get(`${APPLIANCES}?limit=500`)).json[RESULT].appliances as Array<{ name: string }>).map((a) => a.name);
    expect(names).toContain(saved.deviceName);
  });
});
