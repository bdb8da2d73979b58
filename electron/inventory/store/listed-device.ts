/**
 * What a list refresh keeps of a stored device (issue 22.6). The node's device list names only the
 * device, its site ID and status (MN-40); organization, serial, group and location come from the
 * device's own record (MN-41, *Refresh from node*), and the last task from the console itself. A
 * refresh keeps those while the listed record is the one they were read from: the same last change
 * on the node, or — when the console never saw a change time — the same site ID. A record changed
 * since (a replace from another desk) loses them: stale fields are worse than unknown ones.
 */
import type { DeviceView } from '../../../shared/model/inventory';

export function listedDevice(listed: DeviceView, stored: DeviceView | undefined): DeviceView {
  if (!stored) return listed;
  const lastTaskId = listed.lastTaskId ?? stored.lastTaskId;
  const sameRecord =
    listed.lastModifiedAt !== null && stored.lastModifiedAt !== null
      ? listed.lastModifiedAt === stored.lastModifiedAt
      : listed.siteId !== null && listed.siteId === stored.siteId;
  if (!sameRecord) return { ...listed, lastTaskId };
  return {
    ...listed,
    orgName: listed.orgName ?? stored.orgName,
    serialNumber: listed.serialNumber ?? stored.serialNumber,
    deviceGroup: listed.deviceGroup ?? stored.deviceGroup,
    locationInfo: listed.locationInfo ?? stored.locationInfo,
    lastTaskId,
  };
}
