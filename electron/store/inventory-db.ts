/**
 * The inventory store (SQLite, WAL): per profile, the devices and organizations of the node as
 * last fetched (each list replaced whole in one transaction, with the time it was fetched),
 * single devices written after onboarding, a fetch or a deployment, and the deployment tasks
 * the console followed. The Devices and Organizations pages read from here, so they open
 * offline. 20,000 devices are written in one transaction with one prepared statement.
 */
import type Database from 'better-sqlite3';
import type { DeploymentStatus, DeviceView, OrganizationView, TaskStatus } from '../../shared/model/inventory';
import { organizationViews, type StoredOrganization } from '../inventory/hierarchy';
import { openPrivateDatabase } from './sqlite';

export type { StoredOrganization } from '../inventory/hierarchy';
export type InventoryKind = 'devices' | 'organizations';

export interface StoredList<T> {
  /** When the whole list was last fetched; null = never. */
  fetchedAt: string | null;
  items: T[];
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS devices (
  profile_id TEXT NOT NULL,
  device_name TEXT NOT NULL,
  site_id TEXT NOT NULL,
  org_name TEXT NOT NULL,
  serial_number TEXT NOT NULL,
  device_group TEXT NOT NULL,
  country TEXT NOT NULL,
  latitude TEXT NOT NULL,
  longitude TEXT NOT NULL,
  deployment_status TEXT NOT NULL,
  last_task_id TEXT,
  PRIMARY KEY (profile_id, device_name)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS devices_org ON devices(profile_id, org_name);
CREATE TABLE IF NOT EXISTS organizations (
  profile_id TEXT NOT NULL,
  name TEXT NOT NULL,
  uuid TEXT NOT NULL,
  parent TEXT,
  subscription_plan TEXT,
  position INTEGER NOT NULL,
  PRIMARY KEY (profile_id, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS fetches (
  profile_id TEXT NOT NULL,
  what TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (profile_id, what)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tasks (
  profile_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  device_name TEXT NOT NULL,
  state TEXT NOT NULL,
  percent REAL NOT NULL,
  message TEXT NOT NULL,
  started_at TEXT,
  ended_at TEXT,
  PRIMARY KEY (profile_id, task_id)
) WITHOUT ROWID;
`;

interface DeviceRow {
  device_name: string;
  site_id: string;
  org_name: string;
  serial_number: string;
  device_group: string;
  country: string;
  latitude: string;
  longitude: string;
  deployment_status: DeploymentStatus;
  last_task_id: string | null;
}

interface TaskRow {
  profile_id: string;
  task_id: string;
  device_name: string;
  state: TaskStatus['state'];
  percent: number;
  message: string;
  started_at: string | null;
  ended_at: string | null;
}

const deviceOf = (r: DeviceRow): DeviceView => ({
  deviceName: r.device_name,
  siteId: r.site_id,
  orgName: r.org_name,
  serialNumber: r.serial_number,
  deviceGroup: r.device_group,
  locationInfo: { country: r.country, latitude: r.latitude, longitude: r.longitude },
  deploymentStatus: r.deployment_status,
  lastTaskId: r.last_task_id,
});

const deviceParams = (profileId: string, d: DeviceView) => ({
  profileId,
  name: d.deviceName,
  siteId: d.siteId,
  orgName: d.orgName,
  serial: d.serialNumber,
  group: d.deviceGroup,
  country: d.locationInfo.country,
  latitude: d.locationInfo.latitude,
  longitude: d.locationInfo.longitude,
  status: d.deploymentStatus,
  lastTaskId: d.lastTaskId,
});

export class InventoryStore {
  private readonly db: Database.Database;
  private readonly stmt;
  private readonly replaceDeviceList;
  private readonly replaceOrganizationList;

  constructor(file: string) {
    this.db = openPrivateDatabase(file);
    this.db.exec(SCHEMA);
    this.stmt = {
      putDevice: this.db.prepare(
        `INSERT OR REPLACE INTO devices (profile_id, device_name, site_id, org_name, serial_number, device_group, country, latitude, longitude, deployment_status, last_task_id)
         VALUES (@profileId, @name, @siteId, @orgName, @serial, @group, @country, @latitude, @longitude, @status, @lastTaskId)`,
      ),
      deleteDevices: this.db.prepare('DELETE FROM devices WHERE profile_id = ?'),
      deleteDevice: this.db.prepare('DELETE FROM devices WHERE profile_id = ? AND device_name = ?'),
      devices: this.db.prepare('SELECT * FROM devices WHERE profile_id = ? ORDER BY device_name'),
      device: this.db.prepare('SELECT * FROM devices WHERE profile_id = ? AND device_name = ?'),
      setStatus: this.db.prepare('UPDATE devices SET deployment_status = ?, last_task_id = ? WHERE profile_id = ? AND device_name = ?'),
      devicesByOrg: this.db.prepare('SELECT org_name AS org, COUNT(*) AS n FROM devices WHERE profile_id = ? GROUP BY org_name'),
      putOrg: this.db.prepare(
        'INSERT OR REPLACE INTO organizations (profile_id, name, uuid, parent, subscription_plan, position) VALUES (@profileId, @name, @uuid, @parent, @plan, @position)',
      ),
      deleteOrgs: this.db.prepare('DELETE FROM organizations WHERE profile_id = ?'),
      orgs: this.db.prepare('SELECT name, uuid, parent, subscription_plan AS subscriptionPlan FROM organizations WHERE profile_id = ? ORDER BY position'),
      fetched: this.db.prepare('INSERT OR REPLACE INTO fetches (profile_id, what, fetched_at) VALUES (?, ?, ?)'),
      fetchedAt: this.db.prepare('SELECT fetched_at AS at FROM fetches WHERE profile_id = ? AND what = ?'),
      putTask: this.db.prepare(
        `INSERT OR REPLACE INTO tasks (profile_id, task_id, device_name, state, percent, message, started_at, ended_at)
         VALUES (@profile_id, @task_id, @device_name, @state, @percent, @message, @started_at, @ended_at)`,
      ),
      task: this.db.prepare('SELECT * FROM tasks WHERE profile_id = ? AND task_id = ?'),
      forget: ['devices', 'organizations', 'fetches', 'tasks'].map((t) => this.db.prepare(`DELETE FROM ${t} WHERE profile_id = ?`)),
    };
    this.replaceDeviceList = this.db.transaction((profileId: string, devices: readonly DeviceView[], fetchedAt: string) => {
      this.stmt.deleteDevices.run(profileId);
      for (const d of devices) this.stmt.putDevice.run(deviceParams(profileId, d));
      this.stmt.fetched.run(profileId, 'devices', fetchedAt);
    });
    this.replaceOrganizationList = this.db.transaction((profileId: string, orgs: readonly StoredOrganization[], fetchedAt: string) => {
      this.stmt.deleteOrgs.run(profileId);
      orgs.forEach((o, position) => this.stmt.putOrg.run({ profileId, name: o.name, uuid: o.uuid, parent: o.parent, plan: o.subscriptionPlan, position }));
      this.stmt.fetched.run(profileId, 'organizations', fetchedAt);
    });
  }

  /** Replaces the profile's whole device list in one transaction (a device listed twice keeps its last record). */
  replaceDevices(profileId: string, devices: readonly DeviceView[], fetchedAt: string): void {
    this.replaceDeviceList(profileId, devices, fetchedAt);
  }

  /** Writes one device (after onboarding, a fetch or a deployment); the list's fetch time stays. */
  upsertDevice(profileId: string, device: DeviceView): void {
    this.stmt.putDevice.run(deviceParams(profileId, device));
  }

  /** Moves a stored device to a deployment status; false when the device is not stored. */
  setDeploymentStatus(profileId: string, deviceName: string, status: DeploymentStatus, lastTaskId: string | null): boolean {
    return this.stmt.setStatus.run(status, lastTaskId, profileId, deviceName).changes > 0;
  }

  deleteDevice(profileId: string, deviceName: string): boolean {
    return this.stmt.deleteDevice.run(profileId, deviceName).changes > 0;
  }

  devices(profileId: string): StoredList<DeviceView> {
    return { fetchedAt: this.fetchedAt(profileId, 'devices'), items: (this.stmt.devices.all(profileId) as DeviceRow[]).map(deviceOf) };
  }

  device(profileId: string, deviceName: string): DeviceView | undefined {
    const row = this.stmt.device.get(profileId, deviceName) as DeviceRow | undefined;
    return row ? deviceOf(row) : undefined;
  }

  /** Replaces the profile's organizations in one transaction, keeping the node's order. */
  replaceOrganizations(profileId: string, orgs: readonly StoredOrganization[], fetchedAt: string): void {
    this.replaceOrganizationList(profileId, orgs, fetchedAt);
  }

  /** The stored organizations as raw records, in the node's order. */
  rawOrganizations(profileId: string): StoredOrganization[] {
    return this.stmt.orgs.all(profileId) as StoredOrganization[];
  }

  /** The organizations with hierarchy, inherited plans and counts (see inventory/hierarchy.ts). */
  organizations(profileId: string): StoredList<OrganizationView> {
    const counts = new Map<string, number>();
    for (const r of this.stmt.devicesByOrg.all(profileId) as Array<{ org: string; n: number }>) counts.set(r.org, r.n);
    return { fetchedAt: this.fetchedAt(profileId, 'organizations'), items: organizationViews(this.rawOrganizations(profileId), counts) };
  }

  fetchedAt(profileId: string, what: InventoryKind): string | null {
    return (this.stmt.fetchedAt.get(profileId, what) as { at: string } | undefined)?.at ?? null;
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
    } satisfies TaskRow);
  }

  task(profileId: string, taskId: string): TaskStatus | undefined {
    const r = this.stmt.task.get(profileId, taskId) as TaskRow | undefined;
    return r
      ? { profileId: r.profile_id, taskId: r.task_id, deviceName: r.device_name, state: r.state, percent: r.percent, message: r.message, startedAt: r.started_at, endedAt: r.ended_at }
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
