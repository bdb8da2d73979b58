/**
 * Issue 20.5 through the contract against the simulated node: a device and an organization whose
 * names are a million characters long are stored (and shown) cut to the name limit, with the
 * mark that says how long they were.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceView, OrganizationView } from '../../../shared/model/inventory';
import { isTruncated, LIMITS } from '../../../shared/model/limits';
import { startWorld, type World } from './world';

type Snap<T> = { profileId: string; fetchedAt: string | null; items: T[] };
const LONG = 1_000_000;
let w: World;
beforeAll(async () => {
  w = await startWorld({ sim: { seedDevices: 10, seedOrganizations: 3 } });
  w.sim.faults.longNames = LONG;
}, 30_000);
afterAll(async () => w?.close());

describe('names from the node are bounded (issue 20.5)', () => {
  it('stores a device and an organization with a huge name cut, the full size noted', async () => {
    await w.h.call('inventory.refresh', { profileId: w.profileId });
    const devices = await w.h.call<Snap<DeviceView>>('inventory.devices', { profileId: w.profileId });
    expect(devices.items).toHaveLength(10);
    const long = devices.items.filter((d) => d.deviceName.length > 63);
    expect(long).toHaveLength(1);
    expect(long[0]!.deviceName).toHaveLength(LIMITS.name);
    expect(long[0]!.deviceName.endsWith(`… [truncated, 1,000,000 characters]`)).toBe(true);
    expect(isTruncated(long[0]!.lastModifiedBy!)).toBe(true);
    const orgs = await w.h.call<Snap<OrganizationView>>('inventory.organizations', { profileId: w.profileId });
    const longOrg = orgs.items.filter((o) => o.name.length > 128);
    expect(longOrg.map((o) => o.name.length)).toEqual([LIMITS.name]);
    expect(isTruncated(longOrg[0]!.name)).toBe(true);
    // Nothing the window received held the whole name.
    expect(Math.max(...w.h.answers.map((a) => a.length))).toBeLessThan(100_000);
  }, 60_000);
});
