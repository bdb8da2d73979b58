/**
 * The test oracle of the devices table's order (C-99): the renderer's own search, filters and
 * sorting over a whole device list, as the Devices page ran them before the store served them in
 * windows. The store's windows are checked against it (tests/unit/store/inventory-device-windows.test.ts).
 *
 * Search, filters and sorting over tens of thousands of devices, cheap enough per keystroke.
 * Everything that costs is done once per devices list (`buildDeviceIndex`): lower-cased search
 * text, facet numbers for organization, group and status, natural sort keys. A sort order is an
 * Int32Array computed once per column (and cached on the index); a search is then one pass over
 * that order writing matching row numbers into a reused buffer, copied once at the end: no
 * per-row allocation.
 */
import { compareFacet, countryLabel, naturalKey, REACHABILITIES, serialOf, siteNumber, STATUSES, SYNCS, type ConfigSync, type Reachability, type SortKey } from '../../shared/model/device-window';
import type { DeploymentStatus, DeviceView } from '../../shared/model/inventory';

export interface DeviceIndex {
  readonly devices: readonly DeviceView[];
  /** name \0 site ID \0 serial, lower case. */
  readonly hay: readonly string[];
  readonly orgs: readonly string[];
  readonly groups: readonly string[];
  readonly orgOf: Int32Array;
  readonly groupOf: Int32Array;
  readonly statusOf: Int8Array;
  /** Index into REACHABILITIES / SYNCS ("unknown" when the node lists no appliance for the device). */
  readonly reachOf: Int8Array;
  readonly syncOf: Int8Array;
  /** "Germany (DE)" per row, from a per-code cache. */
  readonly countryLabel: readonly string[];
  readonly orders: Map<SortKey, Int32Array>;
  /** Scratch buffer of `filterDevices`. */
  readonly buffer: Int32Array;
}

export interface DeviceCriteria {
  /** Already trimmed and lower-cased. */
  query: string;
  org: string;
  group: string;
  status: DeploymentStatus | '';
  reach?: Reachability | '';
  sync?: ConfigSync | '';
}

const facet = (values: readonly string[]) => {
  const ids = new Map<string, number>();
  for (const v of values) if (!ids.has(v)) ids.set(v, 0);
  const sorted = [...ids.keys()].sort(compareFacet);
  sorted.forEach((v, i) => ids.set(v, i));
  const of = new Int32Array(values.length);
  values.forEach((v, i) => (of[i] = ids.get(v)!));
  return { sorted, of };
};

export function buildDeviceIndex(devices: readonly DeviceView[]): DeviceIndex {
  const n = devices.length;
  const hay = new Array<string>(n);
  const statusOf = new Int8Array(n);
  const reachOf = new Int8Array(n);
  const syncOf = new Int8Array(n);
  const countries = new Array<string>(n);
  for (let i = 0; i < n; i++) {
    const d = devices[i]!;
    hay[i] = `${d.deviceName}\u0000${d.siteId ?? ''}\u0000${serialOf(d) ?? ''}`.toLowerCase();
    statusOf[i] = STATUSES.indexOf(d.deploymentStatus);
    reachOf[i] = REACHABILITIES.indexOf(d.appliance?.reachability ?? 'unknown');
    syncOf[i] = SYNCS.indexOf(d.appliance?.configSync ?? 'unknown');
    countries[i] = countryLabel(d.locationInfo?.country ?? '');
  }
  // Unknown (null) sorts first as "" and is never offered as a filter value.
  const org = facet(devices.map((d) => d.orgName ?? ''));
  const group = facet(devices.map((d) => d.deviceGroup ?? ''));
  return { devices, hay, orgs: org.sorted, groups: group.sorted, orgOf: org.of, groupOf: group.of, statusOf, reachOf, syncOf, countryLabel: countries, orders: new Map(), buffer: new Int32Array(n) };
}

const identity = (n: number) => {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
};

/** Row numbers in ascending order of `key` (ties by device name); computed once per key. */
export function sortOrder(index: DeviceIndex, key: SortKey): Int32Array {
  const cached = index.orders.get(key);
  if (cached) return cached;
  const { devices } = index;
  const n = devices.length;
  let order: Int32Array;
  if (key === 'deviceName' || key === 'serialNumber') {
    const keys = devices.map((d) => naturalKey(key === 'deviceName' ? d.deviceName : (serialOf(d) ?? '')));
    order = identity(n).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : a - b));
  } else {
    const byName = sortOrder(index, 'deviceName');
    const nameRank = new Int32Array(n);
    for (let p = 0; p < n; p++) nameRank[byName[p]!] = p;
    let primary: ArrayLike<number>;
    // An unknown site ID sorts last.
    if (key === 'siteId') primary = Float64Array.from(devices, (d) => siteNumber(d.siteId));
    else if (key === 'orgName') primary = index.orgOf;
    else if (key === 'deviceGroup') primary = index.groupOf;
    else if (key === 'deploymentStatus') primary = index.statusOf;
    else if (key === 'reachability') primary = index.reachOf;
    else if (key === 'configSync') primary = index.syncOf;
    else {
      const labels = facet(index.countryLabel);
      primary = labels.of;
    }
    order = identity(n).sort((a, b) => primary[a]! - primary[b]! || nameRank[a]! - nameRank[b]!);
  }
  index.orders.set(key, order);
  return order;
}

/**
 * The rows matching `c`, in the order of `key` (reversed when `desc`), as row numbers into
 * `index.devices` (a copy of the matching part of the scratch buffer: one allocation per call).
 */
export function filterDevices(index: DeviceIndex, key: SortKey, desc: boolean, c: DeviceCriteria): Int32Array {
  const order = sortOrder(index, key);
  const n = order.length;
  const out = index.buffer;
  const org = c.org ? index.orgs.indexOf(c.org) : -1;
  const group = c.group ? index.groups.indexOf(c.group) : -1;
  const status = c.status ? STATUSES.indexOf(c.status) : -1;
  const reach = c.reach ? REACHABILITIES.indexOf(c.reach) : -1;
  const sync = c.sync ? SYNCS.indexOf(c.sync) : -1;
  if ((c.org && org < 0) || (c.group && group < 0)) return new Int32Array(0);
  const { hay, orgOf, groupOf, statusOf, reachOf, syncOf } = index;
  const q = c.query;
  let count = 0;
  for (let p = 0; p < n; p++) {
    const i = order[desc ? n - 1 - p : p]!;
    if (org >= 0 && orgOf[i] !== org) continue;
    if (group >= 0 && groupOf[i] !== group) continue;
    if (status >= 0 && statusOf[i] !== status) continue;
    if (reach >= 0 && reachOf[i] !== reach) continue;
    if (sync >= 0 && syncOf[i] !== sync) continue;
    if (q && !hay[i]!.includes(q)) continue;
    out[count++] = i;
  }
  return out.slice(0, count);
}
