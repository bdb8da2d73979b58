/**
 * A device's row in inventory.db, both ways: the columns a profile's whole list is read with and
 * each row array made a DeviceRow, a row made the device as shown (its appliance joined), and a
 * device with its sort keys made the parameters its INSERT or key UPDATE binds (inventory-db.ts).
 */
import { ApplianceState, type DeploymentStatus, type DeviceView } from '../../../shared/model/inventory';
import type { DeviceKeys } from '../../../shared/model/device-window';

export interface DeviceRow {
  device_name: string;
  site_id: string | null;
  org_name: string | null;
  serial_number: string | null;
  device_group: string | null;
  country: string | null;
  latitude: string | null;
  longitude: string | null;
  deployment_status: DeploymentStatus;
  workflow_status: string | null;
  last_modified_by: string | null;
  last_modified_at: string | null;
  last_task_id: string | null;
  appliance: string | null;
  // The stored sort keys and search text (schema step 4; null before it).
  name_key: string | null;
  site_num: number | null;
  org_eff: string | null;
  org_key: string | null;
  group_key: string | null;
  country_key: string | null;
  serial_key: string | null;
  reach_rank: number | null;
  sync_rank: number | null;
  hay: string | null;
}

/**
 * A profile's whole list is read as arrays (better-sqlite3's raw mode), each made a DeviceRow in one
 * object literal: rows read as objects of 25 columns cost 9-10 µs each against 3 µs (100,000 devices:
 * 1 s against 0.3 s; above ~16 columns V8 builds each row object slowly).
 */
export const DEVICE_COLUMNS =
  'd.device_name, d.site_id, d.org_name, d.serial_number, d.device_group, d.country, d.latitude, d.longitude, d.deployment_status, d.workflow_status, d.last_modified_by, d.last_modified_at, d.last_task_id, a.state, ' +
  'd.name_key, d.site_num, d.org_eff, d.org_key, d.group_key, d.country_key, d.serial_key, d.reach_rank, d.sync_rank, d.hay';
export const rowOf = (v: unknown[]): DeviceRow => ({
  device_name: v[0] as string,
  site_id: v[1] as string | null,
  org_name: v[2] as string | null,
  serial_number: v[3] as string | null,
  device_group: v[4] as string | null,
  country: v[5] as string | null,
  latitude: v[6] as string | null,
  longitude: v[7] as string | null,
  deployment_status: v[8] as DeploymentStatus,
  workflow_status: v[9] as string | null,
  last_modified_by: v[10] as string | null,
  last_modified_at: v[11] as string | null,
  last_task_id: v[12] as string | null,
  appliance: v[13] as string | null,
  name_key: v[14] as string | null,
  site_num: v[15] as number | null,
  org_eff: v[16] as string | null,
  org_key: v[17] as string | null,
  group_key: v[18] as string | null,
  country_key: v[19] as string | null,
  serial_key: v[20] as string | null,
  reach_rank: v[21] as number | null,
  sync_rank: v[22] as number | null,
  hay: v[23] as string | null,
});

/** Whether a row's stored keys are `k` already (a write that changes nothing shown rewrites no index). */
export const sameKeys = (r: DeviceRow, k: DeviceKeys) =>
  r.name_key === k.nameKey &&
  r.site_num === k.siteNum &&
  r.org_eff === k.org &&
  r.org_key === k.orgKey &&
  r.group_key === k.groupKey &&
  r.country_key === k.countryKey &&
  r.serial_key === k.serialKey &&
  r.reach_rank === k.reachRank &&
  r.sync_rank === k.syncRank &&
  r.hay === k.hay;

/** A row's stored appliance state (its time is the list's); built once, as zod compiles a schema on its first parse. */
const StoredAppliance = ApplianceState.omit({ fetchedAt: true });

export const applianceOf = (json: string | null, fetchedAt: string | null): ApplianceState | null => {
  if (!json || !fetchedAt) return null;
  const parsed = StoredAppliance.safeParse(JSON.parse(json));
  return parsed.success ? { ...parsed.data, fetchedAt } : null;
};

/** A stored device as shown: its appliance joined, the organization its owner when the record names none. */
export const shown = (d: DeviceView, appliance: ApplianceState | null): DeviceView => ({ ...d, orgName: d.orgName ?? appliance?.ownerOrg ?? null, appliance });

export const deviceOf = (r: DeviceRow, appliancesAt: string | null): DeviceView => {
  // Parsed once (a record without its organization takes the appliance's owner).
  const appliance = applianceOf(r.appliance, appliancesAt);
  return {
    deviceName: r.device_name,
    siteId: r.site_id,
    orgName: r.org_name ?? appliance?.ownerOrg ?? null,
    serialNumber: r.serial_number,
    deviceGroup: r.device_group,
    locationInfo: r.country !== null || r.latitude !== null || r.longitude !== null ? { country: r.country ?? '', latitude: r.latitude ?? '', longitude: r.longitude ?? '' } : null,
    deploymentStatus: r.deployment_status,
    workflowStatus: r.workflow_status,
    lastModifiedBy: r.last_modified_by,
    lastModifiedAt: r.last_modified_at,
    lastTaskId: r.last_task_id,
    appliance,
  };
};

/**
 * A device's row as the INSERT binds it, its sort keys (`deviceKeys`) beside it, in one object
 * literal: spreading the keys into the fields' object cost 13-19 µs a row, more than the INSERT (C-100).
 */
export const deviceParams = (profileId: string, d: DeviceView, k: DeviceKeys) => ({
  profileId,
  name: d.deviceName,
  siteId: d.siteId,
  orgName: d.orgName,
  serial: d.serialNumber,
  group: d.deviceGroup,
  country: d.locationInfo?.country ?? null,
  latitude: d.locationInfo?.latitude ?? null,
  longitude: d.locationInfo?.longitude ?? null,
  status: d.deploymentStatus,
  workflowStatus: d.workflowStatus,
  modifiedBy: d.lastModifiedBy,
  modifiedAt: d.lastModifiedAt,
  lastTaskId: d.lastTaskId,
  nameKey: k.nameKey,
  siteNum: k.siteNum,
  org: k.org,
  orgKey: k.orgKey,
  groupKey: k.groupKey,
  countryKey: k.countryKey,
  serialKey: k.serialKey,
  reachRank: k.reachRank,
  syncRank: k.syncRank,
  hay: k.hay,
});
