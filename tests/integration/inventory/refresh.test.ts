/**
 * Paging the node's lists into inventory.db through the contract: 20,000 devices and 500
 * organizations (the largest MN-47 seeds), a node that caps its pages, and the stored lists read
 * back after sign-out (offline). Each test starts its own node and app.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceView, OrganizationView } from '../../../shared/model/inventory';
import { startWorld, until, type World } from './world';

/** The largest seeds (MN-47). */
const DEVICES = 20_000;
const ORGS = 500;
let w: World;
afterEach(async () => w?.close());

type Snap<T> = { profileId: string; fetchedAt: string | null; items: T[] };

/** The plan in force and its source computed straight from the simulator's tree. */
/**
 * The plan each organization works under, from the simulator's own data. The node sends the
 * plan in force on every organization (as real nodes do), so a plan equal to the parent's reads
 * as inherited from where the parent's comes from (MN-52).
 */
function expectedPlans(orgs: Array<{ name: string; parent: string | null; subscriptionPlan: string | null }>) {
  const by = new Map(orgs.map((o) => [o.name, o]));
  const memo = new Map<string, { depth: number; effectivePlan: string | null; inheritedFrom: string | null }>();
  const resolve = (o: { name: string; parent: string | null; subscriptionPlan: string | null }): { depth: number; effectivePlan: string | null; inheritedFrom: string | null } => {
    const known = memo.get(o.name);
    if (known) return known;
    const parent = o.parent ? by.get(o.parent) : undefined;
    let r: { depth: number; effectivePlan: string | null; inheritedFrom: string | null };
    if (!parent) r = { depth: 0, effectivePlan: o.subscriptionPlan, inheritedFrom: null };
    else {
      const p = resolve(parent);
      const own = o.subscriptionPlan !== null && o.subscriptionPlan !== p.effectivePlan;
      r = own ? { depth: p.depth + 1, effectivePlan: o.subscriptionPlan, inheritedFrom: null } : { depth: p.depth + 1, effectivePlan: p.effectivePlan, inheritedFrom: p.effectivePlan === null ? null : (p.inheritedFrom ?? parent.name) };
    }
    memo.set(o.name, r);
    return r;
  };
  return new Map(orgs.map((o) => [o.name, resolve(o)]));
}

describe('inventory refresh', () => {
  it('has nothing stored before the first refresh', async () => {
    w = await startWorld({ sim: { seedDevices: 10 } });
    expect(await w.h.call<Snap<DeviceView>>('inventory.devices', { profileId: w.profileId })).toEqual({ profileId: w.profileId, fetchedAt: null, items: [], unreadable: 0 });
  });

  it('pages 20,000 devices and 500 organizations in, with progress and a changed event', async () => {
    w = await startWorld({ sim: { seedDevices: DEVICES, seedOrganizations: ORGS } });
    const r = await w.h.call<{ devices: number; organizations: number; fetchedAt: string }>('inventory.refresh', { profileId: w.profileId });
    expect(r).toMatchObject({ devices: DEVICES, organizations: ORGS });
    // limit 500: 40 device pages and 1 organization page
    expect(w.sim.stats.count('GET', '/mgmt/sdwan/workflow/devices')).toBe(DEVICES / 500);
    expect(w.sim.stats.count('GET', '/mgmt/organization/orgs')).toBe(1);
    const progress = w.events<{ what: string; done: number; total: number | null }>('inventory.progress').filter((p) => p.what === 'devices');
    expect(progress[0]).toMatchObject({ done: 0, total: null });
    expect(progress.at(-1)).toMatchObject({ done: DEVICES, total: DEVICES });
    expect(w.events('inventory.changed')).toContainEqual({ profileId: w.profileId, what: ['organizations', 'devices'], counts: { devices: DEVICES, organizations: ORGS } });

    const devices = await w.h.call<Snap<DeviceView>>('inventory.devices', { profileId: w.profileId });
    expect(devices.fetchedAt).toBe(r.fetchedAt);
    expect(devices.items).toHaveLength(DEVICES);
    const sample = devices.items.find((d) => d.siteId === '13')!;
    const onNode = w.sim.inventory.device(sample.deviceName)!;
    expect(sample).toMatchObject({ deviceName: onNode.deviceName, siteId: onNode.siteId, deploymentStatus: onNode.deploymentStatus.toLowerCase() });
    expect(devices.items.filter((d) => d.deploymentStatus === 'saved')).toHaveLength(DEVICES / 10);

    const orgs = await w.h.call<Snap<OrganizationView>>('inventory.organizations', { profileId: w.profileId });
    expect(orgs.items).toHaveLength(ORGS);
    const expected = expectedPlans(w.sim.inventory.organizations());
    for (const o of orgs.items) expect({ name: o.name, depth: o.depth, effectivePlan: o.effectivePlan, inheritedFrom: o.inheritedFrom }).toEqual({ name: o.name, ...expected.get(o.name) });
    expect(Math.max(...orgs.items.map((o) => o.depth))).toBeGreaterThanOrEqual(3);
    expect(orgs.items.some((o) => o.inheritedFrom !== null)).toBe(true);
    // The device list of a real node names no organization: a device counts where its appliance
    // (ownerOrg) or its fetched record places it.
    const placed = devices.items.filter((d) => d.orgName !== null).length;
    expect(placed).toBe(devices.items.filter((d) => d.appliance !== null).length);
    expect(placed).toBeGreaterThan(DEVICES / 2);
    expect(orgs.items.reduce((n, o) => n + o.devices, 0)).toBe(placed);
    expect(orgs.items.reduce((n, o) => n + o.children, 0)).toBe(ORGS - orgs.items.filter((o) => o.parent === null).length);
  });

  it('advances by the records received when the node caps its pages (MN-47)', async () => {
    const devices = 2000;
    w = await startWorld({ sim: { seedDevices: devices } });
    w.sim.faults.pageCap = 450;
    const r = await w.h.call<{ devices: number }>('inventory.refresh', { profileId: w.profileId, what: 'devices' });
    expect(r.devices).toBe(devices);
    expect(w.sim.stats.count('GET', '/mgmt/sdwan/workflow/devices')).toBe(Math.ceil(devices / 450));
    expect(w.sim.stats.count('GET', '/mgmt/organization/orgs')).toBe(0);
    const names = new Set((await w.h.call<Snap<DeviceView>>('inventory.devices', { profileId: w.profileId })).items.map((d) => d.deviceName));
    expect(names.size).toBe(devices);
  });

  it('keeps serving the stored lists after sign-out, and refuses to refresh', async () => {
    w = await startWorld({ sim: { seedDevices: 120, seedOrganizations: 14 } });
    await w.h.call('inventory.refresh', { profileId: w.profileId });
    await w.h.call('session.signOut', { profileId: w.profileId });
    const devices = await w.h.call<Snap<DeviceView>>('inventory.devices', { profileId: w.profileId });
    expect(devices.items).toHaveLength(120);
    expect((await w.h.call<Snap<OrganizationView>>('inventory.organizations', { profileId: w.profileId })).items).toHaveLength(14);
    const res = await w.h.callRaw('inventory.refresh', { profileId: w.profileId });
    expect(res.ok).toBe(false);
    expect(res.error?.code).toMatch(/^session\./);
    expect((await w.h.call<Snap<DeviceView>>('inventory.devices', { profileId: w.profileId })).items).toHaveLength(120);
    const unknown = await w.h.callRaw('inventory.devices', { profileId: 'no-such-profile' });
    expect(unknown.error?.code).toBe('not_found');
  });

  it('reads the devices’ state on the node again on its own while signed in (issue 22.6)', async () => {
    w = await startWorld({ sim: { seedDevices: 40 }, inventory: { stateRefreshMs: 150 } });
    await w.h.call('inventory.refresh', { profileId: w.profileId, what: 'devices' });
    const stored = async () => (await w.h.call<Snap<DeviceView>>('inventory.devices', { profileId: w.profileId })).items;
    const target = (await stored()).find((d) => d.appliance?.reachability === 'reachable')!;
    const firstAt = target.appliance!.fetchedAt;
    const refreshes = w.sim.stats.count('GET', '/mgmt/sdwan/workflow/devices');
    // The node now sees it unreachable; nobody asks for a refresh.
    w.sim.faults.unreachableDevices = [target.deviceName];
    const later = await until('the scheduled state read', async () => {
      const d = (await stored()).find((x) => x.deviceName === target.deviceName);
      return d?.appliance?.reachability === 'unreachable' ? d : undefined;
    });
    expect(Date.parse(later.appliance!.fetchedAt)).toBeGreaterThan(Date.parse(firstAt));
    // Only the state is read on schedule, not the device list; the window is told.
    expect(w.sim.stats.count('GET', '/mgmt/sdwan/workflow/devices')).toBe(refreshes);
    // The event follows the store's write (a helper's run saw the write before the event): waited for.
    const told = () => w.events<{ profileId: string; what: string[] }>('inventory.changed').filter((e) => e.profileId === w.profileId).length;
    await until('the window told of the scheduled read', () => (told() >= 2 ? true : undefined));
    expect(told()).toBeGreaterThanOrEqual(2);
  });
});
