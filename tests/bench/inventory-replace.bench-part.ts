/**
 * A node's device list replaced in inventory.db (C-100), as an inventory refresh does it: over the
 * same list already stored, with an appliance per device (its state gives reachability, sync, serial
 * and owner keys), then the appliances replaced. Each on the owner's connection (main's thread, as
 * before the writer thread) and through the writer thread (the app), side by side in one run; a
 * probe on main's loop (loop-stall.ts) gives the longest time it could not answer anything meanwhile.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openInventoryStore } from '../../electron/inventory/store/sqlite-inventory-store';
import type { StoredAppliance } from '../../electron/inventory/store/inventory-db';
import type { DeviceView } from '../../shared/model/inventory';
import { watchStalls, type StallReport } from './loop-stall';

export interface ReplaceRun {
  devices: number;
  where: 'owner' | 'writer';
  replaceMs: number;
  replaceStall: StallReport;
  appliancesMs: number;
  appliancesStall: StallReport;
}

const device = (i: number): DeviceView => ({
  deviceName: `Branch-${i}`,
  siteId: String(1000 + i),
  orgName: i % 3 ? `Org-${i % 40}` : null,
  serialNumber: i % 4 ? `SN${i}` : null,
  deviceGroup: `Group-${i % 12}`,
  locationInfo: { country: ['DE', 'FR', 'US', 'JP'][i % 4]!, latitude: '1', longitude: '2' },
  deploymentStatus: (['saved', 'deploying', 'deployed', 'failed'] as const)[i % 4]!,
  workflowStatus: null,
  lastModifiedBy: null,
  lastModifiedAt: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
  lastTaskId: null,
  appliance: null,
});
const appliance = (i: number, round: number): StoredAppliance => ({
  name: `Branch-${i}`,
  reachability: (['reachable', 'unreachable', 'unknown'] as const)[(i + round) % 3]!,
  configSync: (['in-sync', 'out-of-sync', 'unknown'] as const)[i % 3]!,
  pingStatus: null,
  syncStatus: null,
  softwareVersion: '22.1.4',
  ownerOrg: `Owner-${i % 7}`,
  model: null,
  serialNo: `APL${i}`,
  lastUpdatedAt: null,
  alarms: null,
});

async function once(devices: number, where: ReplaceRun['where']): Promise<ReplaceRun> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-invw-'));
  const store = openInventoryStore(path.join(dir, 'inventory.db'), { offMain: where === 'writer' });
  try {
    const list = Array.from({ length: devices }, (_, i) => device(i));
    await store.replaceDevices('p', list, 'T0');
    await store.replaceAppliances('p', Array.from({ length: devices }, (_, i) => appliance(i, 0)), 'T0');
    let probe = watchStalls();
    let t0 = performance.now();
    await store.replaceDevices('p', list, 'T1');
    const replaceMs = performance.now() - t0;
    const replaceStall = probe.stop();
    // A third of the devices change reachability: their keys are rewritten (all of them: ≥ BULK_ROWS).
    const appliances = Array.from({ length: devices }, (_, i) => appliance(i, 1));
    probe = watchStalls();
    t0 = performance.now();
    await store.replaceAppliances('p', appliances, 'T1');
    const appliancesMs = performance.now() - t0;
    const appliancesStall = probe.stop();
    if ((await store.deviceCount('p')) !== devices) throw new Error('the replace lost devices');
    return { devices, where, replaceMs, replaceStall, appliancesMs, appliancesStall };
  } finally {
    await store.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Each size on the owner's connection and on the writer thread, alternated `rounds` times. */
export async function benchInventoryReplace(sizes: readonly number[], rounds = 2): Promise<ReplaceRun[]> {
  const runs: ReplaceRun[] = [];
  for (const n of sizes) for (let r = 0; r < rounds; r++) for (const where of r % 2 ? (['writer', 'owner'] as const) : (['owner', 'writer'] as const)) runs.push(await once(n, where));
  return runs;
}
