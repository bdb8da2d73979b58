import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { INVENTORY_SCHEMA_VERSION, InventoryDb, type StoredOrganization } from '../../../electron/inventory/store/inventory-db';
import type { DeviceView } from '../../../shared/model/inventory';

const dirs: string[] = [];
const stores: InventoryDb[] = [];
const open = (dir = mkdtempSync(path.join(os.tmpdir(), 'nb-inv-'))) => {
  dirs.push(dir);
  const store = new InventoryDb(path.join(dir, 'inventory.db'));
  stores.push(store);
  return { store, dir };
};
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const device = (i: number, patch: Partial<DeviceView> = {}): DeviceView => ({
  deviceName: `branch-${String(i).padStart(5, '0')}`,
  siteId: String(i + 1),
  orgName: `org-${i % 7}`,
  serialNumber: `SN${i}`,
  deviceGroup: 'Retail',
  locationInfo: { country: 'DE', latitude: '52.52', longitude: '13.405' },
  deploymentStatus: 'deployed',
  workflowStatus: 'Deployed',
  lastModifiedBy: 'Administrator',
  lastModifiedAt: '2023-01-16T14:18:12.666Z',
  lastTaskId: String(i),
  appliance: null,
  ...patch,
});
const org = (name: string, parent: string | null, plan: string | null): StoredOrganization => ({ uuid: `u-${name}`, name, parent, subscriptionPlan: plan });

describe('InventoryStore (SQLite): devices', () => {
  it('replaces the whole list per profile with its fetch time, and keeps other profiles apart', () => {
    const { store } = open();
    expect(store.devices('p1')).toEqual({ fetchedAt: null, items: [], unreadable: 0 });
    store.replaceDevices('p1', [device(1), device(2), device(3)], '2026-05-01T10:00:00.000Z');
    store.replaceDevices('p2', [device(9)], '2026-05-01T10:05:00.000Z');
    store.replaceDevices('p1', [device(2, { orgName: 'moved' }), device(4)], '2026-05-01T11:00:00.000Z');
    const p1 = store.devices('p1');
    expect(p1.fetchedAt).toBe('2026-05-01T11:00:00.000Z');
    expect(p1.items.map((d) => d.deviceName)).toEqual(['branch-00002', 'branch-00004']);
    expect(p1.items[0]).toEqual(device(2, { orgName: 'moved' }));
    expect(store.devices('p2').items).toEqual([device(9)]);
  });

  it('keeps what a record fetch added across a list refresh while the node did not change the record (issue 22.6)', () => {
    const { store } = open();
    // The list names only the device, site ID, status and last change (MN-40).
    const listed = (i: number, patch: Partial<DeviceView> = {}) => device(i, { orgName: null, serialNumber: null, deviceGroup: null, locationInfo: null, lastTaskId: null, ...patch });
    store.replaceDevices('p1', [listed(1), listed(2), listed(3), listed(4)], '2026-05-01T10:00:00.000Z');
    // Refresh from node (MN-41) filled 1, 2 and 3; 3 also has the console's last task.
    for (const i of [1, 2, 3]) store.upsertDevice('p1', device(i, { lastTaskId: i === 3 ? '58' : null }));
    store.replaceDevices('p1', [listed(1), listed(2, { lastModifiedAt: '2026-05-01T10:30:00.000Z', siteId: '77' }), listed(3, { workflowStatus: 'Failed', deploymentStatus: 'failed' }), listed(4)], '2026-05-01T11:00:00.000Z');
    const by = new Map(store.devices('p1').items.map((d) => [d.deviceName, d]));
    // Unchanged on the node: the fetched fields stay.
    expect(by.get('branch-00001')).toMatchObject({ orgName: 'org-1', serialNumber: 'SN1', deviceGroup: 'Retail', locationInfo: { country: 'DE', latitude: '52.52', longitude: '13.405' } });
    // Changed on the node since (another desk replaced it): the old fields would be wrong, so they go.
    expect(by.get('branch-00002')).toMatchObject({ siteId: '77', orgName: null, serialNumber: null, deviceGroup: null, locationInfo: null });
    // The list's status wins; the fields and the console's last task stay.
    expect(by.get('branch-00003')).toMatchObject({ deploymentStatus: 'failed', workflowStatus: 'Failed', deviceGroup: 'Retail', lastTaskId: '58' });
    expect(by.get('branch-00004')).toMatchObject({ orgName: null, deviceGroup: null });
    // Without any change time, the same site ID stands for the same record.
    store.upsertDevice('p1', device(5, { lastModifiedAt: null }));
    store.replaceDevices('p1', [listed(5, { lastModifiedAt: null }), listed(1)], '2026-05-01T12:00:00.000Z');
    expect(store.device('p1', 'branch-00005')).toMatchObject({ deviceGroup: 'Retail', serialNumber: 'SN5' });
    store.replaceDevices('p1', [listed(5, { lastModifiedAt: null, siteId: '900' })], '2026-05-01T12:30:00.000Z');
    expect(store.device('p1', 'branch-00005')).toMatchObject({ siteId: '900', deviceGroup: null });
  });

  it('upserts single devices and moves deployment status without touching the fetch time', () => {
    const { store } = open();
    store.replaceDevices('p1', [device(1)], '2026-05-01T10:00:00.000Z');
    store.upsertDevice('p1', device(5, { deploymentStatus: 'saved', lastTaskId: null }));
    store.upsertDevice('p1', device(1, { serialNumber: 'NEW' }));
    expect(store.devices('p1').fetchedAt).toBe('2026-05-01T10:00:00.000Z');
    expect(store.device('p1', 'branch-00001')?.serialNumber).toBe('NEW');
    expect(store.setDeploymentStatus('p1', 'branch-00005', 'deploying', '77')).toBe(true);
    expect(store.device('p1', 'branch-00005')).toMatchObject({ deploymentStatus: 'deploying', lastTaskId: '77' });
    expect(store.setDeploymentStatus('p1', 'nope', 'deployed', '1')).toBe(false);
    expect(store.deleteDevice('p1', 'branch-00005')).toBe(true);
    expect(store.devices('p1').items).toHaveLength(1);
  });

  // Its speed is measured by \`npm run bench -- paging\` (20,000 devices paged in and stored), not here.
  it('writes 20,000 devices and keeps them across a reopen', () => {
    const { store, dir } = open();
    const many = Array.from({ length: 20_000 }, (_, i) => device(i));
    store.replaceDevices('p1', many, '2026-05-01T10:00:00.000Z');
    expect(store.devices('p1').items).toHaveLength(20_000);
    store.close();
    const again = open(dir).store;
    const read = again.devices('p1');
    expect(read.items).toHaveLength(20_000);
    expect(read.items[12_345]).toEqual(device(12_345));
  });

  it('keeps tasks and forgets everything of a deleted profile', () => {
    const { store } = open();
    store.replaceDevices('p1', [device(1)], '2026-05-01T10:00:00.000Z');
    store.replaceOrganizations('p1', [org('a', null, 'Gold')], '2026-05-01T10:00:00.000Z');
    const task = { profileId: 'p1', taskId: '7', deviceName: 'branch-00001', state: 'in-progress' as const, percent: 50, message: 'Configuration', startedAt: '2026-05-01T10:00:00.000Z', endedAt: null, steps: [{ at: '2026-05-01T10:00:01.000Z', message: 'Configuration', level: 'info' as const, timeFrom: 'node' as const }] };
    store.putTask(task);
    expect(store.task('p1', '7')).toEqual(task);
    store.forgetProfile('p1');
    expect(store.task('p1', '7')).toBeUndefined();
    expect(store.devices('p1')).toEqual({ fetchedAt: null, items: [], unreadable: 0 });
    expect(store.organizations('p1')).toEqual({ fetchedAt: null, items: [], unreadable: 0 });
  });
});

describe('InventoryStore (SQLite): organizations', () => {
  it('computes the plan in force through several levels, where it comes from, depth and counts', () => {
    const { store } = open();
    store.replaceOrganizations(
      'p1',
      [
        org('Provider', null, 'Default-All'),
        org('Contoso', 'Provider', null),
        org('Contoso-EMEA', 'Contoso', null),
        org('Contoso-EMEA-North', 'Contoso-EMEA', null),
        org('Fabrikam', 'Provider', 'Premium'),
        org('Fabrikam-APAC', 'Fabrikam', null),
        org('Fabrikam-APAC-Labs', 'Fabrikam-APAC', 'Essentials'),
        org('Fabrikam-APAC-Labs-1', 'Fabrikam-APAC-Labs', null),
        org('Lonely', null, null),
        org('Orphan', 'Gone', null),
      ],
      '2026-05-01T10:00:00.000Z',
    );
    store.replaceDevices('p1', [device(1, { orgName: 'Contoso-EMEA-North' }), device(2, { orgName: 'Contoso-EMEA-North' }), device(3, { orgName: 'Fabrikam' })], '2026-05-01T10:00:00.000Z');
    const { items, fetchedAt } = store.organizations('p1');
    expect(fetchedAt).toBe('2026-05-01T10:00:00.000Z');
    const by = new Map(items.map((o) => [o.name, o]));
    expect(by.get('Provider')).toMatchObject({ depth: 0, effectivePlan: 'Default-All', inheritedFrom: null, children: 2, devices: 0 });
    expect(by.get('Contoso-EMEA-North')).toMatchObject({ depth: 3, effectivePlan: 'Default-All', inheritedFrom: 'Provider', subscriptionPlan: null, children: 0, devices: 2 });
    expect(by.get('Fabrikam')).toMatchObject({ depth: 1, effectivePlan: 'Premium', inheritedFrom: null, devices: 1 });
    expect(by.get('Fabrikam-APAC')).toMatchObject({ depth: 2, effectivePlan: 'Premium', inheritedFrom: 'Fabrikam' });
    expect(by.get('Fabrikam-APAC-Labs')).toMatchObject({ depth: 3, effectivePlan: 'Essentials', inheritedFrom: null });
    expect(by.get('Fabrikam-APAC-Labs-1')).toMatchObject({ depth: 4, effectivePlan: 'Essentials', inheritedFrom: 'Fabrikam-APAC-Labs' });
    expect(by.get('Lonely')).toMatchObject({ depth: 0, effectivePlan: null, inheritedFrom: null });
    expect(by.get('Orphan')).toMatchObject({ depth: 0, parent: 'Gone', effectivePlan: null });
    // Tree order: each organization right after its parent's earlier siblings' subtrees.
    expect(items.map((o) => o.name)).toEqual([
      'Lonely',
      'Orphan',
      'Provider',
      'Contoso',
      'Contoso-EMEA',
      'Contoso-EMEA-North',
      'Fabrikam',
      'Fabrikam-APAC',
      'Fabrikam-APAC-Labs',
      'Fabrikam-APAC-Labs-1',
    ]);
  });

  it('does not hang on parent links that loop, and still lists every organization once', () => {
    const { store } = open();
    store.replaceOrganizations(
      'p1',
      [org('A', 'C', null), org('B', 'A', 'Gold'), org('C', 'B', null), org('D', 'C', null), org('Self', 'Self', 'Silver'), org('E', 'Self', null)],
      '2026-05-01T10:00:00.000Z',
    );
    // It answers at all (the test's time limit); how fast is the bench's org-hierarchy line.
    const { items } = store.organizations('p1');
    expect(items.map((o) => o.name).sort()).toEqual(['A', 'B', 'C', 'D', 'E', 'Self']);
    const by = new Map(items.map((o) => [o.name, o]));
    // The loop is cut at one link: every member gets a finite depth and a plan from within the loop.
    for (const n of ['A', 'B', 'C', 'D']) expect(by.get(n)!.depth).toBeLessThanOrEqual(3);
    expect(by.get('B')).toMatchObject({ effectivePlan: 'Gold' });
    expect(by.get('C')).toMatchObject({ effectivePlan: 'Gold', inheritedFrom: 'B' });
    expect(by.get('D')).toMatchObject({ effectivePlan: 'Gold', inheritedFrom: 'B', depth: by.get('C')!.depth + 1 });
    expect(by.get('Self')).toMatchObject({ depth: 0, effectivePlan: 'Silver', children: 1 });
    expect(by.get('E')).toMatchObject({ depth: 1, effectivePlan: 'Silver', inheritedFrom: 'Self' });
  });

  it('handles a deep chain of 5,000 organizations (its time: the org-hierarchy bench line)', () => {
    const { store } = open();
    const chain = Array.from({ length: 5000 }, (_, i) => org(`o${i}`, i === 0 ? null : `o${i - 1}`, i === 0 ? 'Root-Plan' : null));
    store.replaceOrganizations('p1', chain.reverse(), '2026-05-01T10:00:00.000Z');
    const { items } = store.organizations('p1');
    expect(items).toHaveLength(5000);
    expect(items.map((o) => o.depth)).toEqual(Array.from({ length: 5000 }, (_, i) => i));
    expect(items.at(-1)).toMatchObject({ name: 'o4999', depth: 4999, effectivePlan: 'Root-Plan', inheritedFrom: 'o0' });
  });
});

describe('InventoryStore (SQLite): migrations', () => {
  it('opens a store of the first version (issue 4 schema, no user_version) and keeps its devices, organizations and fetch times', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-inv-v1-'));
    dirs.push(dir);
    const file = path.join(dir, 'inventory.db');
    const old = new Database(file);
    old.exec(`
      CREATE TABLE devices (profile_id TEXT NOT NULL, device_name TEXT NOT NULL, site_id TEXT NOT NULL, org_name TEXT NOT NULL, serial_number TEXT NOT NULL,
        device_group TEXT NOT NULL, country TEXT NOT NULL, latitude TEXT NOT NULL, longitude TEXT NOT NULL, deployment_status TEXT NOT NULL, last_task_id TEXT,
        PRIMARY KEY (profile_id, device_name)) WITHOUT ROWID;
      CREATE TABLE organizations (profile_id TEXT NOT NULL, name TEXT NOT NULL, uuid TEXT NOT NULL, parent TEXT, subscription_plan TEXT, position INTEGER NOT NULL, PRIMARY KEY (profile_id, name)) WITHOUT ROWID;
      CREATE TABLE fetches (profile_id TEXT NOT NULL, what TEXT NOT NULL, fetched_at TEXT NOT NULL, PRIMARY KEY (profile_id, what)) WITHOUT ROWID;
      CREATE TABLE tasks (profile_id TEXT NOT NULL, task_id TEXT NOT NULL, device_name TEXT NOT NULL, state TEXT NOT NULL, percent REAL NOT NULL, message TEXT NOT NULL,
        started_at TEXT, ended_at TEXT, PRIMARY KEY (profile_id, task_id)) WITHOUT ROWID;
      INSERT INTO devices VALUES ('p1', 'edge-1', '7', 'Acme', 'SN7', 'Retail', 'DE', '52.5', '13.4', 'deployed', 't-1');
      INSERT INTO organizations VALUES ('p1', 'Acme', 'u-1', NULL, 'Gold', 0);
      INSERT INTO fetches VALUES ('p1', 'devices', '2026-01-02T03:04:05.000Z');
      INSERT INTO tasks VALUES ('p1', 't-1', 'edge-1', 'completed', 100, 'Done', '2026-01-02T03:00:00Z', '2026-01-02T03:01:00Z');
    `);
    expect(old.pragma('user_version', { simple: true })).toBe(0);
    old.close();

    const { store } = open(dir);
    expect(store.devices('p1')).toEqual({
      fetchedAt: '2026-01-02T03:04:05.000Z',
      unreadable: 0,
      items: [
        {
          deviceName: 'edge-1',
          siteId: '7',
          orgName: 'Acme',
          serialNumber: 'SN7',
          deviceGroup: 'Retail',
          locationInfo: { country: 'DE', latitude: '52.5', longitude: '13.4' },
          deploymentStatus: 'deployed',
          workflowStatus: null,
          lastModifiedBy: null,
          lastModifiedAt: null,
          lastTaskId: 't-1',
          appliance: null,
        },
      ],
    });
    expect(store.rawOrganizations('p1')).toEqual([{ name: 'Acme', uuid: 'u-1', parent: null, subscriptionPlan: 'Gold' }]);
    // Rows from before schema step 4 got their sort keys and search text when the store opened (C-99).
    expect(store.deviceWindow('p1', { q: 'sn7', org: 'Acme' }, { key: 'siteId', desc: true }, 0, 10)).toMatchObject({ total: 1, rows: [{ deviceName: 'edge-1' }] });
    // A task followed before step logs were kept has an empty one.
    expect(store.task('p1', 't-1')).toMatchObject({ state: 'completed', message: 'Done', steps: [] });
    // A device the node lists without its record now fits, and the version is recorded.
    store.replaceDevices('p1', [device(1, { orgName: null, serialNumber: null, deviceGroup: null, locationInfo: null })], '2026-02-01T00:00:00.000Z', 2);
    expect(store.devices('p1')).toMatchObject({ unreadable: 2, items: [{ orgName: null, locationInfo: null }] });
    store.close();
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(INVENTORY_SCHEMA_VERSION);
    check.close();
  });

  it('joins the appliance state to its device; the organization falls back to the appliance owner', () => {
    const { store } = open();
    store.replaceDevices('p1', [device(1, { orgName: null })], '2026-02-01T00:00:00.000Z');
    store.replaceAppliances('p1', [{ name: device(1).deviceName, reachability: 'unreachable', configSync: 'in-sync', pingStatus: 'UNREACHABLE', syncStatus: 'IN_SYNC', softwareVersion: '22.1.4', ownerOrg: 'Tenant-A', model: 'CSG', serialNo: 'HW1', lastUpdatedAt: null, alarms: { critical: 1, major: 0, minor: 0, warning: 0 } }], '2026-02-01T00:00:05.000Z');
    const [d] = store.devices('p1').items;
    expect(d).toMatchObject({ orgName: 'Tenant-A', appliance: { reachability: 'unreachable', fetchedAt: '2026-02-01T00:00:05.000Z', alarms: { critical: 1 } } });
    expect(store.organizations('p1').items).toEqual([]);
    store.replaceOrganizations('p1', [org('Tenant-A', null, null)], '2026-02-01T00:00:00.000Z');
    expect(store.organizations('p1').items[0]).toMatchObject({ name: 'Tenant-A', devices: 1 });
  });
});
