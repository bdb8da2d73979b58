/**
 * The inventory store's writes on its worker thread (`openInventoryStore(…, { offMain: true })`,
 * electron/inventory/store/inventory-writer.ts; C-100): main's event loop turns while 100,000 devices
 * are replaced (on the owner's connection it does not turn at all) and a read meanwhile answers the
 * list before it; writes run in the order asked (a device upserted after a replace wins over the
 * replace's record of it); a worker that dies mid-replace fails the call and leaves the previous list
 * whole, later writes running on the owner's connection; a write the thread refuses is the call's
 * rejection; closing waits for the writes asked before.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openInventoryStore, type SqliteInventoryStore } from '../../../electron/inventory/store/sqlite-inventory-store';
import { SqlWorkerStopped } from '../../../electron/store/sql-worker';
import type { DeviceView } from '../../../shared/model/inventory';

const P = 'p1';
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function openStore(offMain: boolean): { store: SqliteInventoryStore; file: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-inv-writer-'));
  const file = path.join(dir, 'inventory.db');
  const store = openInventoryStore(file, { offMain });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  return { store, file };
}

const device = (stem: string, i: number, status: DeviceView['deploymentStatus'] = 'deployed'): DeviceView => ({
  deviceName: `${stem}-${i}`,
  siteId: String(1000 + i),
  orgName: `Org-${i % 40}`,
  serialNumber: i % 4 ? `SN${i}` : null,
  deviceGroup: `Group-${i % 12}`,
  locationInfo: { country: ['DE', 'FR', 'US'][i % 3]!, latitude: '1', longitude: '2' },
  deploymentStatus: status,
  workflowStatus: null,
  lastModifiedBy: null,
  lastModifiedAt: null,
  lastTaskId: null,
  appliance: null,
});
const list = (stem: string, n: number) => Array.from({ length: n }, (_, i) => device(stem, i));

/** Counts the runs of a 5 ms interval timer on main until stopped (not a spinning loop: the worker needs the other core). */
function countTicks(): { readonly ticks: number; stop(): void } {
  let ticks = 0;
  const timer = setInterval(() => (ticks += 1), 5);
  return {
    get ticks() {
      return ticks;
    },
    stop: () => clearInterval(timer),
  };
}

/** Waits (deadline 60 s) until `file` is larger than `bytes`. */
async function grown(file: string, bytes: number): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((statSync(file, { throwIfNoEntry: false })?.size ?? 0) <= bytes) {
    if (Date.now() > deadline) throw new Error(`${file} did not grow past ${bytes} bytes within 60 s`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

describe('the inventory store’s writes on a worker thread', () => {
  it('main’s event loop turns while 100,000 devices are replaced, and a read meanwhile answers the list before it', async () => {
    const { store } = openStore(true);
    await store.replaceDevices(P, list('old', 10), 'T0');
    const loop = countTicks();
    let done = false;
    const writing = store.replaceDevices(P, list('new', 100_000), 'T1').then(() => (done = true));
    const before = loop.ticks;
    await new Promise((r) => setImmediate(r));
    // The replace is one transaction on the worker's connection: main reads the old list whole.
    const during = { count: await store.deviceCount(P), fetchedAt: await store.fetchedAt(P, 'devices'), done };
    await writing;
    loop.stop();
    // Counted while the replace ran: a timer of main fired again and again.
    expect(loop.ticks).toBeGreaterThan(before + 1);
    expect(during).toEqual({ count: 10, fetchedAt: 'T0', done: false });
    expect(await store.deviceCount(P)).toBe(100_000);
    expect((await store.deviceWindow(P, {}, { key: 'deviceName', desc: true }, 0, 1)).rows[0]!.deviceName).toBe('new-99999');

    // The same write on the owner's connection holds the loop from the call to its answer.
    const { store: onMain } = openStore(false);
    const held = countTicks();
    const writingOnMain = onMain.replaceDevices(P, list('new', 1_000), 'T1');
    const heldBefore = held.ticks;
    await writingOnMain;
    held.stop();
    expect(held.ticks).toBe(heldBefore);
  });

  it('writes run in the order asked: a device upserted after a replace still running wins over the replace’s record', async () => {
    const { store } = openStore(true);
    const replacing = store.replaceDevices(P, list('dev', 20_000), 'T1');
    const upserting = store.upsertDevice(P, device('dev', 7, 'failed'));
    const marking = store.setDeploymentStatus(P, 'dev-8', 'deploying', 'task-8');
    await Promise.all([replacing, upserting]);
    expect(await marking).toBe(true);
    expect((await store.device(P, 'dev-7'))?.deploymentStatus).toBe('failed');
    expect(await store.device(P, 'dev-8')).toMatchObject({ deploymentStatus: 'deploying', lastTaskId: 'task-8' });
    expect(await store.deviceCount(P)).toBe(20_000);
    // Its keys were written with it: the status order finds it among the failed.
    expect((await store.deviceWindow(P, { status: 'failed' }, { key: 'deploymentStatus', desc: false }, 0, 10)).rows.map((d) => d.deviceName)).toEqual(['dev-7']);
  });

  it('a worker that dies mid-replace fails the call and leaves the previous list whole; later writes run on the owner’s connection', async () => {
    const { store, file } = openStore(true);
    const previous = list('old', 2_000);
    await store.replaceDevices(P, previous, 'T0');
    // An empty WAL: it grows only once the worker's transaction spills pages into it, mid-write.
    const probe = new Database(file);
    probe.pragma('wal_checkpoint(TRUNCATE)');
    probe.close();
    const replacing = store.replaceDevices(P, list('new', 100_000), 'T1');
    const failed = replacing.then(
      () => undefined,
      (e: unknown) => e,
    );
    await grown(`${file}-wal`, 0);
    await store.writes.crash();
    expect(await failed).toBeInstanceOf(SqlWorkerStopped);
    const stored = await store.devices(P);
    expect(stored.fetchedAt).toBe('T0');
    expect(stored.items.map((d) => d.deviceName).sort()).toEqual(previous.map((d) => d.deviceName).sort());
    expect((await store.deviceWindow(P, {}, undefined, 0, 1)).total).toBe(2_000);
    // Not started again: the owner's connection writes now.
    await store.upsertDevice(P, device('later', 1));
    await store.replaceAppliances(P, [], 'T2');
    expect(await store.deviceCount(P)).toBe(2_001);
  });

  it('a write that fails on the thread comes back as the call’s rejection, nothing of it stored; the thread writes on', async () => {
    const { store } = openStore(true);
    await store.replaceDevices(P, list('old', 3), 'T0');
    // Sent in parts (more than 5,000), the last device without a status: the INSERT refuses it.
    const bad = [...list('new', 6_000), { ...device('new', 6_000), deploymentStatus: null as unknown as DeviceView['deploymentStatus'] }];
    await expect(store.replaceDevices(P, bad, 'T1')).rejects.toThrow(/NOT NULL constraint failed: devices\.deployment_status/);
    expect((await store.devices(P)).items.map((d) => d.deviceName)).toEqual(['old-0', 'old-1', 'old-2']);
    await store.replaceDevices(P, list('next', 6_001), 'T2');
    expect(await store.deviceCount(P)).toBe(6_001);
  });

  it('closing waits for the writes asked before it', async () => {
    const { store, file } = openStore(true);
    const asked = [store.replaceDevices(P, list('dev', 15_000), 'T1'), store.setNodeMeta(P, 'namespace', 'ns1'), store.deleteDevice(P, 'dev-3')];
    await store.close();
    await expect(Promise.all(asked)).resolves.toEqual([undefined, undefined, true]);
    const again = openInventoryStore(file);
    try {
      expect(await again.deviceCount(P)).toBe(14_999);
      expect(await again.nodeMeta(P, 'namespace')).toBe('ns1');
    } finally {
      await again.close();
    }
  });
});
