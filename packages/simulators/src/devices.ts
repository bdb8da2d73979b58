/**
 * The device workflow records of the simulated node (MN-40..MN-43): kept in the order real nodes
 * list them (case-insensitive by device name, issue 8), indexed by name and by site ID so 20 000
 * devices stay cheap to check and page.
 */
import { sameDevice } from './device-rules';
import type { SimDevice } from './inventory-seed';
import { taskState, type SimTask } from './tasks';
import type { SimDeploymentStatus, SimDeviceView } from './views';

export interface DeviceEntry {
  record: SimDevice;
  /** The deployment that decides the status; null = SAVED (never deployed since the last change). */
  statusTask: SimTask | null;
  /** The latest deployment of the device, whatever the record did since. */
  lastTask: SimTask | null;
  /** Who last changed the record (`lastModifiedBy`) and when (clock ms, `lastModifiedTime`). */
  modifiedBy: string;
  modifiedAt: number;
}

/** The list order of real nodes: case-insensitive by name (exact name breaks ties). */
export function compareNames(a: string, b: string): number {
  const la = a.toLowerCase();
  const lb = b.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  return a === b ? 0 : a < b ? -1 : 1;
}

const STATUS_OF_TASK = { PENDING: 'DEPLOYING', IN_PROGRESS: 'DEPLOYING', COMPLETED: 'DEPLOYED', FAILED: 'FAILED' } as const;

export class SimDevices {
  private readonly entries: DeviceEntry[] = [];
  private readonly byName = new Map<string, DeviceEntry>();
  /** siteId → device name */
  private readonly bySite = new Map<string, string>();

  get count(): number {
    return this.entries.length;
  }

  get(name: string): DeviceEntry | undefined {
    return this.byName.get(name);
  }

  /** The name of the device other than `except` that uses the site ID. */
  siteHolder(siteId: string, except: string): string | undefined {
    const holder = this.bySite.get(siteId);
    return holder === except ? undefined : holder;
  }

  /**
   * Creates or replaces the record; a changed record goes back to SAVED, an identical one keeps its
   * status and its modification stamp (MN-40).
   */
  put(record: SimDevice, by: string, at: number): DeviceEntry {
    const existing = this.byName.get(record.deviceName);
    if (!existing) {
      const entry: DeviceEntry = { record, statusTask: null, lastTask: null, modifiedBy: by, modifiedAt: at };
      this.entries.splice(this.insertionPoint(record.deviceName), 0, entry);
      this.byName.set(record.deviceName, entry);
      this.bySite.set(record.siteId, record.deviceName);
      return entry;
    }
    if (!sameDevice(existing.record, record)) {
      this.bySite.delete(existing.record.siteId);
      this.bySite.set(record.siteId, record.deviceName);
      existing.record = record;
      existing.statusTask = null;
      existing.modifiedBy = by;
      existing.modifiedAt = at;
    }
    return existing;
  }

  private insertionPoint(name: string): number {
    let lo = 0;
    let hi = this.entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (compareNames((this.entries[mid] as DeviceEntry).record.deviceName, name) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Every entry, in list order. */
  all(): readonly DeviceEntry[] {
    return this.entries;
  }

  page(offset: number, size: number): DeviceEntry[] {
    return this.entries.slice(offset, offset + size);
  }

  /** MN-43: the lowest whole number ≥ 1 no device uses as its site ID. */
  availableId(): number {
    let n = 1;
    while (this.bySite.has(String(n))) n += 1;
    return n;
  }
}

export function deploymentStatus(entry: DeviceEntry, now: number): SimDeploymentStatus {
  return entry.statusTask ? STATUS_OF_TASK[taskState(entry.statusTask, now).status] : 'SAVED';
}

export function deviceView(entry: DeviceEntry, now: number): SimDeviceView {
  const r = entry.record;
  return {
    deviceName: r.deviceName,
    siteId: r.siteId,
    orgName: r.orgName,
    serialNumber: r.serialNumber,
    deviceGroup: r.deviceGroup,
    locationInfo: { ...r.locationInfo },
    deploymentStatus: deploymentStatus(entry, now),
    lastTaskId: entry.lastTask?.id ?? null,
  };
}
