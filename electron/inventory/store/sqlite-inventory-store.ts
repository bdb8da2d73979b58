/**
 * The inventory feature's store on SQLite (issue 21.1): `InventoryStore`'s methods over
 * inventory.db (inventory-db.ts), each answering a Promise of what the synchronous store did; a
 * statement that throws rejects it. `offMain` (the app): every write runs on the writer thread
 * (inventory-writer.ts), in the order asked; reads run here.
 */
import type { DeploymentStatus, DeviceView, TaskStatus } from '../../../shared/model/inventory';
import type { DeviceSort, DeviceWindowFilter } from '../../../shared/model/device-window';
import type { StoredOrganization } from '../../../shared/model/hierarchy';
import { InventoryDb, type FetchKind, type StoredAppliance } from './inventory-db';
import type { InventoryStore } from './inventory-store';
import { InventoryWrites } from './inventory-writer';

export class SqliteInventoryStore implements InventoryStore {
  /** `db`: the synchronous store (its tests read it directly); `writes`: where the writes run (tests: `crash`). */
  constructor(
    readonly db: InventoryDb,
    readonly writes: InventoryWrites = new InventoryWrites('', false),
  ) {}

  async replaceDevices(profileId: string, devices: readonly DeviceView[], fetchedAt: string, unreadable?: number) {
    return this.writes.run(this.db, 'replaceDevices', profileId, devices, fetchedAt, unreadable);
  }

  async replaceOrganizations(profileId: string, orgs: readonly StoredOrganization[], fetchedAt: string, unreadable?: number) {
    return this.writes.run(this.db, 'replaceOrganizations', profileId, orgs, fetchedAt, unreadable);
  }

  async replaceAppliances(profileId: string, appliances: readonly StoredAppliance[], fetchedAt: string, unreadable?: number) {
    return this.writes.run(this.db, 'replaceAppliances', profileId, appliances, fetchedAt, unreadable);
  }

  async devices(profileId: string) {
    return this.db.devices(profileId);
  }

  async organizations(profileId: string) {
    return this.db.organizations(profileId);
  }

  async deviceCount(profileId: string) {
    return this.db.deviceCount(profileId);
  }

  async organizationCount(profileId: string) {
    return this.db.organizationCount(profileId);
  }

  async fetchedAt(profileId: string, what: FetchKind) {
    return this.db.fetchedAt(profileId, what);
  }

  async device(profileId: string, deviceName: string) {
    return this.db.device(profileId, deviceName);
  }

  async deviceWindow(profileId: string, filter: DeviceWindowFilter, sort: DeviceSort | undefined, offset: number, limit: number) {
    return this.db.deviceWindow(profileId, filter, sort, offset, limit);
  }

  async deviceFacets(profileId: string) {
    return this.db.deviceFacets(profileId);
  }

  async upsertDevice(profileId: string, device: DeviceView) {
    return this.writes.run(this.db, 'upsertDevice', profileId, device);
  }

  async deleteDevice(profileId: string, deviceName: string) {
    return this.writes.run(this.db, 'deleteDevice', profileId, deviceName);
  }

  async setDeploymentStatus(profileId: string, deviceName: string, status: DeploymentStatus, lastTaskId: string | null) {
    return this.writes.run(this.db, 'setDeploymentStatus', profileId, deviceName, status, lastTaskId);
  }

  async nodeMeta(profileId: string, key: string) {
    return this.db.nodeMeta(profileId, key);
  }

  async setNodeMeta(profileId: string, key: string, value: string) {
    return this.writes.run(this.db, 'setNodeMeta', profileId, key, value);
  }

  async task(profileId: string, taskId: string) {
    return this.db.task(profileId, taskId);
  }

  async putTask(task: TaskStatus) {
    return this.writes.run(this.db, 'putTask', task);
  }

  async deploymentCounts(profileId: string) {
    return this.db.deploymentCounts(profileId);
  }

  async failedDeployments(profileId: string, limit: number) {
    return this.db.failedDeployments(profileId, limit);
  }

  async forgetProfile(profileId: string) {
    return this.writes.run(this.db, 'forgetProfile', profileId);
  }

  /** The writes asked finish (on the writer thread), then both connections close. */
  async close() {
    try {
      await this.writes.close();
    } finally {
      this.db.close();
    }
  }
}

export function openInventoryStore(file: string, opts: { offMain?: boolean } = {}): SqliteInventoryStore {
  // The owner's connection first: it makes the schema and the keys of old rows before a writer opens.
  const db = new InventoryDb(file);
  return new SqliteInventoryStore(db, new InventoryWrites(file, opts.offMain ?? false));
}
