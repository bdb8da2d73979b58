/**
 * Organization tree and plan inheritance in both lists (MN-46; the custom list in the recorded
 * shape of issue 8), seeds and paging at full size,
 * the pageCap fault (MN-47) and the dataDelayMs latency fault, over real HTTPS.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { until } from '../../support/until';
import { DEFAULT_SEED_DEVICES, DEFAULT_SEED_ORGANIZATIONS, startMgmtSimulator } from '@northbound/simulators/testing';
import { startHarness, type Harness } from './harness';

const ORGS = '/mgmt/organization/orgs';
const DEVICES = '/mgmt/sdwan/workflow/devices';
const YANG_ORGS = '/api/config/nms/provider/organizations/organization';
const DEVICE_LIST = 'mgmt.sdwan-device-list';

/** A record of the custom list in the recorded shape (issue 8): `paraentOrg` absent on roots, `plan` = the plan in force. */
interface Org {
  uuid: string;
  name: string;
  paraentOrg?: string;
  plan?: string;
  globalOrgId: string;
  depth: number;
  providerOrg: boolean;
}
const parentOf = (o: Org): string | null => o.paraentOrg ?? null;

/** Pages like the console (MN-47): limit=500, offset advanced by what came back, until totalCount. */
async function pageAll<T>(h: Harness, path: string, key: string): Promise<{ items: T[]; calls: number; sizes: number[] }> {
  const items: T[] = [];
  const sizes: number[] = [];
  let total = Infinity;
  while (items.length < total) {
    const r = await h.call('basic', 'GET', `${path}?offset=${items.length}&limit=500`, { basic: h.user('viewer') });
    expect(r.status).toBe(200);
    total = r.json.totalCount;
    const page = r.json[key] as T[];
    expect(page.length).toBeGreaterThan(0);
    sizes.push(page.length);
    items.push(...page);
  }
  return { items, calls: sizes.length, sizes };
}

const depthOf = (orgs: Org[]) => {
  const byName = new Map(orgs.map((o) => [o.name, o]));
  const depth = (o: Org): number => (o.paraentOrg === undefined ? 0 : 1 + depth(byName.get(o.paraentOrg)!));
  return depth;
};

describe('organization tree and plans (MN-46), demo-sized seeds', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  it('defaults to 14 organizations and 60 devices (the demo workspace)', async () => {
    expect([DEFAULT_SEED_ORGANIZATIONS, DEFAULT_SEED_DEVICES]).toEqual([14, 60]);
    expect([h.sim.inventory.organizationCount(), h.sim.inventory.deviceCount()]).toEqual([14, 60]);
  });

  it('custom list: a tree several levels deep; every organization sends the plan in force, roots are providers at depth 1', async () => {
    const { items: orgs } = await pageAll<Org>(h, ORGS, 'organizations');
    expect(orgs).toHaveLength(14);
    const names = new Set(orgs.map((o) => o.name));
    expect(names.size).toBe(14);
    const byName = new Map(orgs.map((o) => [o.name, o]));
    const depth = depthOf(orgs);
    for (const o of orgs) {
      const parent = parentOf(o);
      if (parent !== null) expect(names.has(parent)).toBe(true);
      expect(o.depth).toBe(depth(o) + 1);
      expect(o.providerOrg).toBe(parent === null);
      expect(o.plan).toEqual(expect.any(String));
    }
    // The recorded order: case-insensitive by name, so children may precede their parents.
    expect(orgs.map((o) => o.name)).toEqual([...orgs.map((o) => o.name)].sort((a, b) => a.toLowerCase().localeCompare(b.toLowerCase())));
    expect(orgs.some((o, i) => parentOf(o) !== null && orgs.findIndex((p) => p.name === parentOf(o)) > i)).toBe(true);
    expect(new Set(orgs.map((o) => o.globalOrgId)).size).toBe(14);
    expect(Math.max(...orgs.map(depth))).toBeGreaterThanOrEqual(3);
    // Inheritance (MN-46): an organization without a plan of its own sends its parent's plan in force.
    const own = h.sim.inventory.organizations();
    const inheriting = own.filter((o) => o.subscriptionPlan === null);
    expect(inheriting.length).toBeGreaterThanOrEqual(own.length / 3);
    for (const o of inheriting) expect(byName.get(o.name)!.plan).toBe(byName.get(o.parent!)!.plan);
    for (const o of own.filter((x) => x.subscriptionPlan !== null)) expect(byName.get(o.name)!.plan).toBe(o.subscriptionPlan);
    // Some organizations below a root set their own plan (overriding their parent's).
    expect(own.some((o) => o.parent !== null && o.subscriptionPlan !== null && o.subscriptionPlan !== byName.get(o.parent)!.plan)).toBe(true);
  });

  it('YANG list: the same organizations; parent-org absent for roots, subscription-plan absent when inherited', async () => {
    const custom = new Map((await pageAll<Org>(h, ORGS, 'organizations')).items.map((o) => [o.name, o]));
    const r = await h.call('basic', 'GET', YANG_ORGS, { basic: h.user('viewer') });
    expect(r.status).toBe(200);
    const yang = r.json.organization as Array<Record<string, string>>;
    expect(yang).toHaveLength(custom.size);
    const own = new Map(h.sim.inventory.organizations().map((o) => [o.name, o]));
    for (const y of yang) {
      const o = custom.get(y.name!)!;
      const plan = own.get(y.name!)!.subscriptionPlan;
      expect(y).toEqual({
        name: o.name,
        uuid: o.uuid,
        ...(o.paraentOrg !== undefined ? { 'parent-org': o.paraentOrg } : {}),
        ...(plan !== null ? { 'subscription-plan': plan } : {}),
      });
      if (plan !== null) expect(y['subscription-plan']).toBe(o.plan);
    }
  });

  it('devices are spread over the non-root organizations only', async () => {
    const orgs = (await pageAll<Org>(h, ORGS, 'organizations')).items;
    const { items: listed } = await pageAll<{ siteId: string; deviceName: string }>(h, DEVICES, DEVICE_LIST);
    // The list no longer carries the owner (real list records have five keys); the single GET does.
    const owners = await Promise.all(listed.map(async (d) => (await h.call('basic', 'GET', `${DEVICES}/device/${d.deviceName}`, { basic: h.user('viewer') })).json['mgmt.sdwan-device-workflow'].orgName as string));
    const nonRoots = new Set(orgs.filter((o) => parentOf(o) !== null).map((o) => o.name));
    expect(listed).toHaveLength(60);
    for (const owner of owners) expect(nonRoots.has(owner)).toBe(true);
    expect(new Set(owners)).toEqual(nonRoots);
  });

  it('seeds are deterministic: the same counts give the same organizations and devices', async () => {
    const other = await startHarness();
    try {
      for (const [path, key] of [
        [ORGS, 'organizations'],
        [DEVICES, DEVICE_LIST],
        ['/mgmt/appliance/appliance', ''],
      ] as const) {
        if (key === '') {
          // Appliance records hold times of the clock; compare what the seeds decide.
          const pick = (hh: Harness) => hh.call('basic', 'GET', `${path}?limit=500`, { basic: hh.user('viewer') });
          const strip = (r: Awaited<ReturnType<typeof pick>>) =>
            (r.json['mgmt.ApplianceStatusResult'].appliances as Array<Record<string, unknown>>).map(({ name, uuid, ownerOrg, branchId, Hardware, alarmSummary, ...rest }) => [name, uuid, ownerOrg, branchId, Hardware, alarmSummary, rest['ping-status'], rest['sync-status']]);
          expect(strip(await pick(other))).toEqual(strip(await pick(h)));
          continue;
        }
        // lastModifiedTime of seeded devices follows the start time of each simulator.
        const untimed = (items: unknown[]) => items.map((x) => ({ ...(x as object), lastModifiedTime: undefined }));
        const mine = untimed((await pageAll(h, path, key)).items);
        const theirs = untimed((await pageAll(other, path, key)).items);
        expect(theirs).toEqual(mine);
      }
    } finally {
      await other.close();
    }
  });
});

describe('seed limits and full-size paging (MN-47)', () => {
  let big: Harness;
  beforeAll(async () => {
    big = await startHarness({ seedOrganizations: 500, seedDevices: 20_000 });
  });
  afterAll(async () => {
    await big.close();
  });

  it('starts with 500 organizations and 20,000 devices', () => {
    expect([big.sim.inventory.organizationCount(), big.sim.inventory.deviceCount()]).toEqual([500, 20_000]);
  });

  it('pages every device and organization with limit=500', async () => {
    const devices = await pageAll<{ deviceName: string; siteId: string }>(big, DEVICES, DEVICE_LIST);
    expect(devices.calls).toBe(40);
    expect(devices.items).toHaveLength(20_000);
    expect(new Set(devices.items.map((d) => d.deviceName)).size).toBe(20_000);
    expect(new Set(devices.items.map((d) => d.siteId)).size).toBe(20_000);
    const orgs = await pageAll<Org>(big, ORGS, 'organizations');
    expect([orgs.calls, orgs.items.length, new Set(orgs.items.map((o) => o.name)).size]).toEqual([1, 500, 500]);
    const depth = depthOf(orgs.items);
    expect(orgs.items.filter((o) => parentOf(o) === null).length).toBeGreaterThan(1);
    expect(Math.max(...orgs.items.map(depth))).toBeGreaterThanOrEqual(4);
    const available = await big.call('basic', 'GET', '/mgmt/sdwan/global/Branch/availableId', { basic: big.user('viewer') });
    expect(available.json.AvailableIDResponseModel.branchId).toBe(20_001);
  });

  it('pageCap: pages hold at most that many records whatever limit asks; totalCount stays the full count', async () => {
    big.sim.faults.pageCap = 120;
    try {
      const capped = await big.call('basic', 'GET', `${DEVICES}?offset=0&limit=500`, { basic: big.user('viewer') });
      expect([capped.json.totalCount, capped.json[DEVICE_LIST].length]).toEqual([20_000, 120]);
      const small = await big.call('basic', 'GET', `${DEVICES}?offset=0&limit=50`, { basic: big.user('viewer') });
      expect(small.json[DEVICE_LIST]).toHaveLength(50);
      const orgs = await big.call('basic', 'GET', `${ORGS}?limit=500`, { basic: big.user('viewer') });
      expect([orgs.json.totalCount, orgs.json.organizations.length]).toEqual([500, 120]);
      // A client that advances by what it received still gets everything.
      const all = await pageAll<{ deviceName: string }>(big, DEVICES, DEVICE_LIST);
      expect(all.items).toHaveLength(20_000);
      expect(new Set(all.items.map((d) => d.deviceName)).size).toBe(20_000);
      expect(all.calls).toBe(Math.ceil(20_000 / 120));
      expect(all.sizes.slice(0, -1).every((n) => n === 120)).toBe(true);
    } finally {
      big.sim.faults.pageCap = 0;
    }
  });

  it('refuses seed counts outside 1-500 organizations and 0-20,000 devices', async () => {
    for (const opts of [{ seedOrganizations: 0 }, { seedOrganizations: 501 }, { seedOrganizations: 2.5 }, { seedDevices: -1 }, { seedDevices: 20_001 }]) {
      await expect(startMgmtSimulator(opts)).rejects.toThrow(RangeError);
    }
  });
});

describe('dataDelayMs fault', () => {
  it('delays every data answer by the given real time; calls in flight wait side by side', async () => {
    const h = await startHarness({ seedOrganizations: 3, seedDevices: 3 });
    try {
      const viewer = h.user('viewer');
      // One call waits the delay (a delay is a minimum, whatever the machine's load).
      h.sim.faults.dataDelayMs = 500;
      const t0 = performance.now();
      expect((await h.call('basic', 'GET', `${DEVICES}?limit=1`, { basic: viewer })).status).toBe(200);
      expect(performance.now() - t0).toBeGreaterThanOrEqual(490);
      // Four calls at once: each request reads the delay as it starts waiting (counted here), and
      // all four are waiting before any of them is answered: side by side, not one after another.
      let waiting = 0;
      Object.defineProperty(h.sim.faults, 'dataDelayMs', { configurable: true, enumerable: true, get: () => ((waiting += 1), 2_000) });
      let answered = 0;
      const four = Array.from({ length: 4 }, () => h.call('basic', 'GET', ORGS, { basic: viewer }).finally(() => (answered += 1)));
      await until('four calls waiting at once', () => waiting === 4, 10_000);
      expect(answered).toBe(0);
      expect((await Promise.all(four)).map((r) => r.status)).toEqual([200, 200, 200, 200]);
      Object.defineProperty(h.sim.faults, 'dataDelayMs', { configurable: true, enumerable: true, writable: true, value: 0 });
      expect((await h.call('basic', 'GET', ORGS, { basic: viewer })).status).toBe(200);
      expect(waiting).toBe(4);
    } finally {
      await h.close();
    }
  });
});

