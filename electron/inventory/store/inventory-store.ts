/**
 * What the inventory feature asks of its store (issue 21.1): per connection profile, the node's
 * device, organization and appliance lists as last fetched, single devices, what was learned of
 * the node, the followed deployment tasks and the Overview's counts. Every method answers a
 * Promise, so an implementation on a server database can follow without touching the services;
 * the SQLite one (sqlite-inventory-store.ts over inventory-db.ts) does its work synchronously inside.
 */
import type { DeviceFacets, DeviceSort, DeviceWindowFilter } from '../../../shared/model/device-window';
import type { DeploymentStatus, DeviceView, OrganizationView, TaskStatus } from '../../../shared/model/inventory';
import type { StoredOrganization } from '../../../shared/model/hierarchy';
import type { DeploymentCounts, FailedDeployment } from './inventory-counts';
import type { FetchKind, StoredAppliance, StoredList } from './inventory-db';

export type { DeploymentCounts, FailedDeployment } from './inventory-counts';
export type { FetchKind, InventoryKind, StoredAppliance, StoredList, StoredOrganization } from './inventory-db';

export interface InventoryStore {
  /** Replace a whole list in one go, with the time it was fetched and how many records were left out. */
  replaceDevices(profileId: string, devices: readonly DeviceView[], fetchedAt: string, unreadable?: number): Promise<void>;
  replaceOrganizations(profileId: string, orgs: readonly StoredOrganization[], fetchedAt: string, unreadable?: number): Promise<void>;
  replaceAppliances(profileId: string, appliances: readonly StoredAppliance[], fetchedAt: string, unreadable?: number): Promise<void>;

  devices(profileId: string): Promise<StoredList<DeviceView>>;
  /** The organizations with hierarchy, inherited plans and device counts. */
  organizations(profileId: string): Promise<StoredList<OrganizationView>>;
  deviceCount(profileId: string): Promise<number>;
  organizationCount(profileId: string): Promise<number>;
  fetchedAt(profileId: string, what: FetchKind): Promise<string | null>;

  device(profileId: string, deviceName: string): Promise<DeviceView | undefined>;
  /** A page of the devices table (issue 25.3): filtered, searched and sorted in the store (C-99). */
  deviceWindow(profileId: string, filter: DeviceWindowFilter, sort: DeviceSort | undefined, offset: number, limit: number): Promise<{ fetchedAt: string | null; rows: DeviceView[]; total: number }>;
  /** The devices page's count, filter choices and ages, before any row. */
  deviceFacets(profileId: string): Promise<Omit<DeviceFacets, 'profileId'>>;
  /** Writes one device (after onboarding, a fetch or a deployment); the list's fetch time stays. */
  upsertDevice(profileId: string, device: DeviceView): Promise<void>;
  /** False when the device was not stored. */
  deleteDevice(profileId: string, deviceName: string): Promise<boolean>;
  /** Moves a stored device to a deployment status; false when the device is not stored. */
  setDeploymentStatus(profileId: string, deviceName: string, status: DeploymentStatus, lastTaskId: string | null): Promise<boolean>;

  /** What the console learned of a node (e.g. `namespace`); undefined when nothing yet. */
  nodeMeta(profileId: string, key: string): Promise<string | undefined>;
  setNodeMeta(profileId: string, key: string, value: string): Promise<void>;

  task(profileId: string, taskId: string): Promise<TaskStatus | undefined>;
  putTask(task: TaskStatus): Promise<void>;

  // The Overview's counts.
  deploymentCounts(profileId: string): Promise<DeploymentCounts>;
  failedDeployments(profileId: string, limit: number): Promise<FailedDeployment[]>;

  /** Drops everything stored for a profile (the profile was deleted). */
  forgetProfile(profileId: string): Promise<void>;
  close(): Promise<void>;
}
