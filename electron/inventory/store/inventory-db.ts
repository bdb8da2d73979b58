/**
 * The inventory store (SQLite, WAL): per profile, the devices and organizations of the node as
 * last fetched (each list replaced whole in one transaction, with the time it was fetched),
 * single devices written after onboarding, a fetch or a deployment, and the deployment tasks
 * the console followed. The Devices and Organizations pages read from here, so they open
 * offline. 20,000 devices are written in one transaction with one prepared statement.
 */
import type Database from 'better-sqlite3';
import { z } from 'zod';
import { TaskStep, type ApplianceState, type DeploymentStatus, type DeviceView, type OrganizationView, type TaskStatus } from '../../../shared/model/inventory';
import { organizationViews, type StoredOrganization } from '../../../shared/model/hierarchy';
import { deploymentCounts, failedDeployments, type DeploymentCounts, type FailedDeployment } from './inventory-counts';
import { migrate, openPrivateDatabase } from '../../store/sqlite';
import { listedDevice } from './listed-device';
import { DEVICE_INDEXES, MIGRATIONS } from './inventory-schema';
import { deviceKeys, type DeviceKeys, type DeviceFacets, type DeviceWindowFilter, type DeviceSort } from '../../../shared/model/device-window';
import { DEFAULT_SORT, DeviceWindowSql } from './device-window-sql';
import { DEVICE_COLUMNS, applianceOf, deviceOf, deviceParams, rowOf, sameKeys, shown, type DeviceRow } from './device-rows';

export type { StoredOrganization } from '../../../shared/model/hierarchy';
export type InventoryKind = 'devices' | 'organizations';
/** What a fetch time is kept for: the two lists, and the appliance list that completes the devices. */
export type FetchKind = InventoryKind | 'appliances';

export interface StoredList<T> {
  /** When the whole list was last fetched; null = never. */
  fetchedAt: string | null;
  items: T[];
  /** Records of the last fetch that could not be read (left out, counted). */
  unreadable: number;
}

export { INVENTORY_SCHEMA_VERSION } from './inventory-schema';

/** Rows written at once from which the sort indexes are built after the rows instead of beside them. */
const BULK_ROWS = 10_000;

interface TaskRow {
  profile_id: string;
  task_id: string;
  device_name: string;
  state: TaskStatus['state'];
  percent: number;
  message: string;
  started_at: string | null;
  ended_at: string | null;
  steps: string;
}

const TaskSteps = z.array(TaskStep);
/** A task's stored step log; a damaged one reads as empty (the task itself is still shown). */
const stepsOf = (json: string): TaskStep[] => {
  try {
    const parsed = TaskSteps.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
};

/** An appliance's state as stored: the view's state less the list's fetch time (kept in `fetches`). */
export type StoredAppliance = { name: string } & Omit<ApplianceState, 'fetchedAt'>;

/**
 * inventory.db itself, synchronous (better-sqlite3): the SQLite implementation of the feature's
 * `InventoryStore` (sqlite-inventory-store.ts) does its work here; the store's tests use it directly.
 */
export class InventoryDb {
  private readonly db: Database.Database;
  private readonly stmt;
  private readonly replaceDeviceList;
  private readonly replaceOrganizationList;
  private readonly replaceApplianceList;
  private readonly putOneDevice;
  private readonly windows: DeviceWindowSql;

  /** `upkeep: false`: a second connection (the writer thread's) to a store its owner opened; the schema and the keys of old rows are the owner's. */
  constructor(file: string, opts: { upkeep?: boolean } = {}) {
    const upkeep = opts.upkeep ?? true;
    this.db = openPrivateDatabase(file);
    if (upkeep) migrate(this.db, MIGRATIONS);
    this.windows = new DeviceWindowSql(this.db);
    this.stmt = {
      putDevice: this.db.prepare(
        `INSERT OR REPLACE INTO devices (profile_id, device_name, site_id, org_name, serial_number, device_group, country, latitude, longitude, deployment_status, workflow_status, last_modified_by, last_modified_at, last_task_id,
           name_key, site_num, org_eff, org_key, group_key, country_key, serial_key, reach_rank, sync_rank, hay)
         VALUES (@profileId, @name, @siteId, @orgName, @serial, @group, @country, @latitude, @longitude, @status, @workflowStatus, @modifiedBy, @modifiedAt, @lastTaskId,
           @nameKey, @siteNum, @org, @orgKey, @groupKey, @countryKey, @serialKey, @reachRank, @syncRank, @hay)`,
      ),
      putKeys: this.db.prepare(
        `UPDATE devices SET name_key = @nameKey, site_num = @siteNum, org_eff = @org, org_key = @orgKey, group_key = @groupKey, country_key = @countryKey,
           serial_key = @serialKey, reach_rank = @reachRank, sync_rank = @syncRank, hay = @hay
         WHERE profile_id = @profileId AND device_name = @name`,
      ),
      appliancesOf: this.db.prepare('SELECT name, state FROM appliances WHERE profile_id = ?'),
      applianceOf: this.db.prepare('SELECT state FROM appliances WHERE profile_id = ? AND name = ?'),
      // What a refresh keeps of the stored records (listed-device.ts): their own fields, no appliance, no keys, no order.
      storedRecords: this.db.prepare(
        `SELECT device_name, site_id, org_name, serial_number, device_group, country, latitude, longitude, deployment_status, workflow_status, last_modified_by, last_modified_at, last_task_id,
           NULL AS appliance FROM devices WHERE profile_id = ?`,
      ),
      keyless: this.db.prepare('SELECT DISTINCT profile_id AS profileId FROM devices WHERE name_key IS NULL'),
      deleteDevices: this.db.prepare('DELETE FROM devices WHERE profile_id = ?'),
      deleteDevice: this.db.prepare('DELETE FROM devices WHERE profile_id = ? AND device_name = ?'),
      devices: this.db
        .prepare(`SELECT ${DEVICE_COLUMNS} FROM devices d LEFT JOIN appliances a ON a.profile_id = d.profile_id AND a.name = d.device_name WHERE d.profile_id = ? ORDER BY d.device_name`)
        .raw(true),
      device: this.db.prepare(
        'SELECT d.*, a.state AS appliance FROM devices d LEFT JOIN appliances a ON a.profile_id = d.profile_id AND a.name = d.device_name WHERE d.profile_id = ? AND d.device_name = ?',
      ),
      deviceCount: this.db.prepare('SELECT COUNT(*) AS n FROM devices WHERE profile_id = ?'),
      organizationCount: this.db.prepare('SELECT COUNT(*) AS n FROM organizations WHERE profile_id = ?'),
      deleteAppliances: this.db.prepare('DELETE FROM appliances WHERE profile_id = ?'),
      putAppliance: this.db.prepare('INSERT OR REPLACE INTO appliances (profile_id, name, state) VALUES (?, ?, ?)'),
      putMeta: this.db.prepare('INSERT OR REPLACE INTO node_meta (profile_id, key, value) VALUES (?, ?, ?)'),
      meta: this.db.prepare('SELECT value FROM node_meta WHERE profile_id = ? AND key = ?'),
      setStatus: this.db.prepare('UPDATE devices SET deployment_status = ?, last_task_id = ? WHERE profile_id = ? AND device_name = ?'),
      devicesByOrg: this.db.prepare(
        `SELECT COALESCE(d.org_name, json_extract(a.state, '$.ownerOrg')) AS org, COUNT(*) AS n
         FROM devices d LEFT JOIN appliances a ON a.profile_id = d.profile_id AND a.name = d.device_name WHERE d.profile_id = ? GROUP BY org`,
      ),
      putOrg: this.db.prepare(
        'INSERT OR REPLACE INTO organizations (profile_id, name, uuid, parent, subscription_plan, position) VALUES (@profileId, @name, @uuid, @parent, @plan, @position)',
      ),
      deleteOrgs: this.db.prepare('DELETE FROM organizations WHERE profile_id = ?'),
      orgs: this.db.prepare('SELECT name, uuid, parent, subscription_plan AS subscriptionPlan FROM organizations WHERE profile_id = ? ORDER BY position'),
      fetched: this.db.prepare('INSERT OR REPLACE INTO fetches (profile_id, what, fetched_at, unreadable) VALUES (?, ?, ?, ?)'),
      fetchedAt: this.db.prepare('SELECT fetched_at AS at, unreadable FROM fetches WHERE profile_id = ? AND what = ?'),
      putTask: this.db.prepare(
        `INSERT OR REPLACE INTO tasks (profile_id, task_id, device_name, state, percent, message, started_at, ended_at, steps)
         VALUES (@profile_id, @task_id, @device_name, @state, @percent, @message, @started_at, @ended_at, @steps)`,
      ),
      task: this.db.prepare('SELECT * FROM tasks WHERE profile_id = ? AND task_id = ?'),
      forget: ['devices', 'organizations', 'fetches', 'tasks', 'appliances', 'node_meta'].map((t) => this.db.prepare(`DELETE FROM ${t} WHERE profile_id = ?`)),
    };
    this.replaceDeviceList = this.db.transaction((profileId: string, devices: readonly DeviceView[], fetchedAt: string, unreadable: number) => {
      // Fields the list does not carry survive while the record is the same (listed-device.ts).
      const stored = new Map((this.stmt.storedRecords.all(profileId) as DeviceRow[]).map((r) => [r.device_name, deviceOf(r, null)]));
      const rebuild = this.dropIndexesFor(devices.length);
      this.stmt.deleteDevices.run(profileId);
      // Each row is written with its sort keys, from the device as shown (its appliance joined).
      const appliancesAt = this.fetchedAt(profileId, 'appliances');
      const appliances = new Map((this.stmt.appliancesOf.all(profileId) as Array<{ name: string; state: string }>).map((a) => [a.name, a.state]));
      for (const d of devices) {
        const device = listedDevice(d, stored.get(d.deviceName));
        this.stmt.putDevice.run(deviceParams(profileId, device, deviceKeys(shown(device, applianceOf(appliances.get(d.deviceName) ?? null, appliancesAt)))));
      }
      rebuild();
      this.stmt.fetched.run(profileId, 'devices', fetchedAt, unreadable);
    });
    this.putOneDevice = this.db.transaction((profileId: string, device: DeviceView) => {
      const appliance = (this.stmt.applianceOf.get(profileId, device.deviceName) as { state: string } | undefined)?.state ?? null;
      this.stmt.putDevice.run(deviceParams(profileId, device, deviceKeys(shown(device, applianceOf(appliance, this.fetchedAt(profileId, 'appliances'))))));
    });
    this.replaceOrganizationList = this.db.transaction((profileId: string, orgs: readonly StoredOrganization[], fetchedAt: string, unreadable: number) => {
      this.stmt.deleteOrgs.run(profileId);
      orgs.forEach((o, position) => this.stmt.putOrg.run({ profileId, name: o.name, uuid: o.uuid, parent: o.parent, plan: o.subscriptionPlan, position }));
      this.stmt.fetched.run(profileId, 'organizations', fetchedAt, unreadable);
    });
    this.replaceApplianceList = this.db.transaction((profileId: string, appliances: readonly StoredAppliance[], fetchedAt: string, unreadable: number) => {
      this.stmt.deleteAppliances.run(profileId);
      for (const { name, ...state } of appliances) this.stmt.putAppliance.run(profileId, name, JSON.stringify(state));
      this.stmt.fetched.run(profileId, 'appliances', fetchedAt, unreadable);
      // A device's reachability, sync, serial and organization may come from its appliance.
      this.writeKeys(profileId, this.deviceRows(profileId));
    });
    // Rows stored before schema step 4 get their keys once.
    if (upkeep) for (const { profileId } of this.stmt.keyless.all() as Array<{ profileId: string }>) {
      this.db.transaction(() => this.writeKeys(profileId, this.deviceRows(profileId)))();
    }
  }

  /** The profile's stored rows by name, their appliance's state joined. */
  private deviceRows(profileId: string): DeviceRow[] {
    return (this.stmt.devices.all(profileId) as unknown[][]).map(rowOf);
  }

  /** Stores each row's sort keys and search text, from the device as `devices()` shows it (C-99); a row whose keys are unchanged is not written. */
  private writeKeys(profileId: string, rows: readonly DeviceRow[]): void {
    const appliancesAt = this.fetchedAt(profileId, 'appliances');
    const changed: Array<{ device: DeviceView; keys: DeviceKeys }> = [];
    for (const r of rows) {
      const device = deviceOf(r, appliancesAt);
      const keys = deviceKeys(device);
      if (!sameKeys(r, keys)) changed.push({ device, keys });
    }
    const rebuild = this.dropIndexesFor(changed.length);
    // The UPDATE binds the keys and the name of the row's parameters (one object literal: `deviceParams`).
    for (const { device, keys } of changed) this.stmt.putKeys.run(deviceParams(profileId, device, keys));
    rebuild();
  }

  /**
   * Inside a write's transaction: from BULK_ROWS rows on, the sort indexes are dropped before the
   * rows are written and built again after (call the answer), which costs a third of writing each
   * row into nine B-trees (C-100); fewer rows go into the indexes as they are.
   */
  private dropIndexesFor(rows: number): () => void {
    if (rows < BULK_ROWS) return () => {};
    for (const [name] of DEVICE_INDEXES) this.db.exec(`DROP INDEX IF EXISTS ${name}`);
    return () => {
      for (const [name, columns] of DEVICE_INDEXES) this.db.exec(`CREATE INDEX ${name} ON devices (${columns})`);
    };
  }

  /**
   * A page of the profile's devices as the devices table shows them (issue 25.3): filtered,
   * searched and sorted by the stored keys, with how many match (exact) and the list's fetch time.
   */
  deviceWindow(profileId: string, filter: DeviceWindowFilter, sort: DeviceSort | undefined, offset: number, limit: number): { fetchedAt: string | null; rows: DeviceView[]; total: number } {
    return this.db.transaction(() => {
      const appliancesAt = this.fetchedAt(profileId, 'appliances');
      const rows = this.windows.rows<DeviceRow>(profileId, filter, sort ?? DEFAULT_SORT, offset, limit).map((r) => deviceOf(r, appliancesAt));
      // A page shorter than asked, or the first page of a filter with none, knows its total without counting.
      const total = rows.length > 0 && rows.length < limit ? offset + rows.length : offset === 0 && rows.length === 0 ? 0 : this.windows.count(profileId, filter);
      return { fetchedAt: this.fetchedAt(profileId, 'devices'), rows, total };
    })();
  }

  /** The count, the filters' choices and the ages the devices page shows before any row. */
  deviceFacets(profileId: string): Omit<DeviceFacets, 'profileId'> {
    return this.db.transaction(() => {
      const fetch = this.fetch(profileId, 'devices');
      const { withAppliance, ...facets } = this.windows.facets(profileId);
      return { fetchedAt: fetch.at, unreadable: fetch.unreadable, stateAt: withAppliance ? this.fetchedAt(profileId, 'appliances') : null, ...facets };
    })();
  }

  /** The statement of a window and its plan (the index-use test). */
  explainWindow(profileId: string, filter: DeviceWindowFilter, sort: DeviceSort): string[] {
    const { sql, params } = this.windows.windowSql(profileId, filter, sort);
    return (this.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all({ ...params, limit: 100, offset: 0 }) as Array<{ detail: string }>).map((r) => r.detail);
  }

  /**
   * Replaces the profile's whole device list in one transaction (a device listed twice keeps its last
   * record); what a device's own record added survives while the node did not change it (listed-device.ts).
   */
  replaceDevices(profileId: string, devices: readonly DeviceView[], fetchedAt: string, unreadable = 0): void {
    this.replaceDeviceList(profileId, devices, fetchedAt, unreadable);
  }

  /** Replaces the state of every appliance of the profile (joined to the devices by name). */
  replaceAppliances(profileId: string, appliances: readonly StoredAppliance[], fetchedAt: string, unreadable = 0): void {
    this.replaceApplianceList(profileId, appliances, fetchedAt, unreadable);
  }

  deviceCount(profileId: string): number {
    return (this.stmt.deviceCount.get(profileId) as { n: number }).n;
  }

  organizationCount(profileId: string): number {
    return (this.stmt.organizationCount.get(profileId) as { n: number }).n;
  }

  /** Devices per deployment status (the Overview; inventory-counts.ts). */
  deploymentCounts(profileId: string): DeploymentCounts {
    return deploymentCounts(this.db, profileId);
  }

  /** Devices whose deployment failed, newest first (at most `limit`). */
  failedDeployments(profileId: string, limit: number): FailedDeployment[] {
    return failedDeployments(this.db, profileId, limit);
  }

  /** What the console learned of a node (e.g. `namespace`); undefined when nothing yet. */
  nodeMeta(profileId: string, key: string): string | undefined {
    return (this.stmt.meta.get(profileId, key) as { value: string } | undefined)?.value;
  }

  setNodeMeta(profileId: string, key: string, value: string): void {
    this.stmt.putMeta.run(profileId, key, value);
  }

  /** Writes one device (after onboarding, a fetch or a deployment); the list's fetch time stays. */
  upsertDevice(profileId: string, device: DeviceView): void {
    this.putOneDevice(profileId, device);
  }

  /** Moves a stored device to a deployment status; false when the device is not stored. */
  setDeploymentStatus(profileId: string, deviceName: string, status: DeploymentStatus, lastTaskId: string | null): boolean {
    return this.stmt.setStatus.run(status, lastTaskId, profileId, deviceName).changes > 0;
  }

  deleteDevice(profileId: string, deviceName: string): boolean {
    return this.stmt.deleteDevice.run(profileId, deviceName).changes > 0;
  }

  devices(profileId: string): StoredList<DeviceView> {
    const fetch = this.fetch(profileId, 'devices');
    const appliancesAt = this.fetchedAt(profileId, 'appliances');
    return { fetchedAt: fetch.at, unreadable: fetch.unreadable, items: this.deviceRows(profileId).map((r) => deviceOf(r, appliancesAt)) };
  }

  device(profileId: string, deviceName: string): DeviceView | undefined {
    const row = this.stmt.device.get(profileId, deviceName) as DeviceRow | undefined;
    return row ? deviceOf(row, this.fetchedAt(profileId, 'appliances')) : undefined;
  }

  /** Replaces the profile's organizations in one transaction, keeping the node's order. */
  replaceOrganizations(profileId: string, orgs: readonly StoredOrganization[], fetchedAt: string, unreadable = 0): void {
    this.replaceOrganizationList(profileId, orgs, fetchedAt, unreadable);
  }

  /** The stored organizations as raw records, in the node's order. */
  rawOrganizations(profileId: string): StoredOrganization[] {
    return this.stmt.orgs.all(profileId) as StoredOrganization[];
  }

  /** The organizations with hierarchy, inherited plans and counts (see shared/model/hierarchy.ts). */
  organizations(profileId: string): StoredList<OrganizationView> {
    const counts = new Map<string, number>();
    for (const r of this.stmt.devicesByOrg.all(profileId) as Array<{ org: string; n: number }>) counts.set(r.org, r.n);
    const fetch = this.fetch(profileId, 'organizations');
    return { fetchedAt: fetch.at, unreadable: fetch.unreadable, items: organizationViews(this.rawOrganizations(profileId), counts) };
  }

  private fetch(profileId: string, what: FetchKind): { at: string | null; unreadable: number } {
    const r = this.stmt.fetchedAt.get(profileId, what) as { at: string; unreadable: number } | undefined;
    return { at: r?.at ?? null, unreadable: r?.unreadable ?? 0 };
  }

  fetchedAt(profileId: string, what: FetchKind): string | null {
    return this.fetch(profileId, what).at;
  }

  putTask(task: TaskStatus): void {
    this.stmt.putTask.run({
      profile_id: task.profileId,
      task_id: task.taskId,
      device_name: task.deviceName,
      state: task.state,
      percent: task.percent,
      message: task.message,
      started_at: task.startedAt,
      ended_at: task.endedAt,
      steps: JSON.stringify(task.steps),
    } satisfies TaskRow);
  }

  task(profileId: string, taskId: string): TaskStatus | undefined {
    const r = this.stmt.task.get(profileId, taskId) as TaskRow | undefined;
    return r
      ? {
          profileId: r.profile_id,
          taskId: r.task_id,
          deviceName: r.device_name,
          state: r.state,
          percent: r.percent,
          message: r.message,
          startedAt: r.started_at,
          endedAt: r.ended_at,
          steps: stepsOf(r.steps),
        }
      : undefined;
  }

  /** Drops everything stored for a profile (the profile was deleted). */
  forgetProfile(profileId: string): void {
    this.db.transaction(() => {
      for (const s of this.stmt.forget) s.run(profileId);
    })();
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}
