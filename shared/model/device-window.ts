/**
 * The devices table's windows (issue 25.3, C-99): a node's stored devices filtered, searched and
 * sorted in the inventory store, a page at a time, and the facets the filters offer. The sort
 * keys, their orders and the search text are defined here once: the store writes them beside each
 * device (inventory-db.ts) from these functions, so its order is the table's order by construction.
 */
import { z } from 'zod';
import { countryName } from './countries';
import { DeploymentStatus, DeviceView, type ApplianceState } from './inventory';

export const DEVICE_SORT_KEYS = ['deviceName', 'siteId', 'orgName', 'deviceGroup', 'country', 'serialNumber', 'deploymentStatus', 'reachability', 'configSync'] as const;
export const DeviceSortKey = z.enum(DEVICE_SORT_KEYS);
export type SortKey = z.infer<typeof DeviceSortKey>;
export interface DeviceSort {
  key: SortKey;
  desc: boolean;
}
export const STATUSES: readonly DeploymentStatus[] = ['saved', 'deploying', 'deployed', 'failed'];
export type Reachability = ApplianceState['reachability'];
export type ConfigSync = ApplianceState['configSync'];
/** Ordered worst first, so a sort puts the devices that need a look on top. */
export const REACHABILITIES: readonly Reachability[] = ['unreachable', 'unknown', 'reachable'];
export const SYNCS: readonly ConfigSync[] = ['out-of-sync', 'unknown', 'in-sync'];
/** The serial number shown: the record's, else the appliance's. */
export const serialOf = (d: DeviceView) => d.serialNumber ?? d.appliance?.serialNo ?? null;

const countryCache = new Map<string, string>();
/** "Germany (DE)" for "DE"; "" for none. */
export function countryLabel(code: string): string {
  if (!code) return '';
  let label = countryCache.get(code);
  if (label === undefined) {
    const name = countryName(code);
    label = name === code ? code : `${name} (${code})`;
    countryCache.set(code, label);
  }
  return label;
}

/** "Branch-10" sorts after "branch-9": digit runs padded, letters lower case. */
export const naturalKey = (s: string): string => s.toLowerCase().replace(/\d+/g, (d) => d.padStart(12, '0'));

/** A value's facet order: natural key, then (the same key) the value itself in code units. */
export const compareFacet = (a: string, b: string): number => {
  const ka = naturalKey(a);
  const kb = naturalKey(b);
  return ka < kb ? -1 : ka > kb ? 1 : a < b ? -1 : a > b ? 1 : 0;
};

/** What the search matches: name, site ID and serial, lower case, apart (a match never spans two). */
export const SEARCH_SEPARATOR = '\u0001';
export const searchText = (d: DeviceView): string => `${d.deviceName}${SEARCH_SEPARATOR}${d.siteId ?? ''}${SEARCH_SEPARATOR}${serialOf(d) ?? ''}`.toLowerCase();
/** A search as typed, as matched (trimmed, lower case). */
export const searchQuery = (q: string): string => q.trim().toLowerCase();

/** An unknown or non-numeric site ID sorts last. */
export const siteNumber = (siteId: string | null): number => (siteId === null || Number.isNaN(Number(siteId)) ? Number.MAX_SAFE_INTEGER : Number(siteId));

/**
 * The sort keys of one device, as the store keeps them (C-99). Text keys compare in code units;
 * a facet's key is its natural key, SEARCH_SEPARATOR, then the value, so equal natural keys of
 * different values keep apart in `compareFacet`'s order. Ties: the natural name key, then the name.
 */
const facetKeys = new Map<string, string>();
/** A facet value's key; organizations, groups and countries repeat across a list, so each is built once (at most 10,000 kept). */
function facetKey(v: string): string {
  let key = facetKeys.get(v);
  if (key === undefined) {
    key = `${naturalKey(v)}${SEARCH_SEPARATOR}${v}`;
    if (facetKeys.size >= 10_000) facetKeys.clear();
    facetKeys.set(v, key);
  }
  return key;
}

export function deviceKeys(d: DeviceView) {
  return {
    nameKey: naturalKey(d.deviceName),
    siteNum: siteNumber(d.siteId),
    org: d.orgName ?? '',
    orgKey: facetKey(d.orgName ?? ''),
    groupKey: facetKey(d.deviceGroup ?? ''),
    countryKey: facetKey(countryLabel(d.locationInfo?.country ?? '')),
    serialKey: naturalKey(serialOf(d) ?? ''),
    statusRank: STATUSES.indexOf(d.deploymentStatus),
    reachRank: REACHABILITIES.indexOf(d.appliance?.reachability ?? 'unknown'),
    syncRank: SYNCS.indexOf(d.appliance?.configSync ?? 'unknown'),
    hay: searchText(d),
  };
}
export type DeviceKeys = ReturnType<typeof deviceKeys>;

/** Rows a window answers at most. */
export const DEVICE_WINDOW_MAX = 1000;
/** Furthest offset asked (a list is at most a few hundred thousand devices). */
export const DEVICE_OFFSET_MAX = 10_000_000;

const name = (what: string) => z.string().max(500, `That ${what} is too long (at most 500 characters).`);
export const DeviceWindowFilter = z
  .object({
    /** Organization (the record's, else its appliance's owner); an unknown one matches nothing. */
    org: name('organization').optional(),
    group: name('device group').optional(),
    status: DeploymentStatus.optional(),
    reach: z.enum(['unreachable', 'unknown', 'reachable']).optional(),
    sync: z.enum(['out-of-sync', 'unknown', 'in-sync']).optional(),
    /** Substring of name, site ID or serial, trimmed and case-folded as `searchQuery`. */
    q: z.string().max(200, 'A search is at most 200 characters.').optional(),
    /** Exactly this device (a lookup by name). */
    name: name('device name').optional(),
    /** The devices whose site ID is this number (a lookup of who holds a site ID). */
    site: z.number().finite('A site ID is a number.').optional(),
  })
  .strict();
export type DeviceWindowFilter = z.infer<typeof DeviceWindowFilter>;

export const DeviceWindowQuery = z
  .object({
    profileId: z.string().min(1, 'Choose a connection.').max(200, 'That connection is not one of ours.'),
    filter: DeviceWindowFilter,
    /** Default: by name, ascending. */
    sort: z.object({ key: DeviceSortKey, desc: z.boolean() }).strict().optional(),
    offset: z.number().int('An offset is a whole number.').min(0, 'An offset is 0 or more.').max(DEVICE_OFFSET_MAX, `An offset is at most ${DEVICE_OFFSET_MAX.toLocaleString('en-US')}.`),
    limit: z.number().int('A limit is a whole number.').min(1, 'A limit is at least 1.').max(DEVICE_WINDOW_MAX, `A window is at most ${DEVICE_WINDOW_MAX.toLocaleString('en-US')} rows.`),
  })
  .strict();
export type DeviceWindowQuery = z.infer<typeof DeviceWindowQuery>;

/** A window: the rows in view, how many match (exact), and when the list was fetched. */
export const DeviceWindow = z.object({ profileId: z.string(), fetchedAt: z.string().nullable(), rows: z.array(DeviceView), total: z.number().int() });
export type DeviceWindow = z.infer<typeof DeviceWindow>;

/** What the page shows before any row: the count, the filters' choices, the list's and the state's age. */
export const DeviceFacets = z.object({
  profileId: z.string(),
  fetchedAt: z.string().nullable(),
  unreadable: z.number().int(),
  total: z.number().int(),
  /** When the appliance state the devices show was read; null when no device has any. */
  stateAt: z.string().nullable(),
  /** Known organizations and groups (no unknown ""), in `compareFacet`'s order. */
  orgs: z.array(z.string()),
  groups: z.array(z.string()),
  /** Which groups each organization's devices use: [index into orgs, index into groups]. */
  orgGroups: z.array(z.tuple([z.number().int(), z.number().int()])),
});
export type DeviceFacets = z.infer<typeof DeviceFacets>;
