/**
 * The devices table's windows in SQL (issue 25.3, C-99): a page of a node's stored devices
 * filtered, searched and sorted by the keys stored beside each device (schema step 4), read along
 * the sort key's index; the count of the same filter; and the facets the filters offer.
 */
import type Database from 'better-sqlite3';
import { compareFacet, REACHABILITIES, searchQuery, SYNCS, type DeviceFacets, type DeviceSort, type DeviceWindowFilter, type SortKey } from '../../../shared/model/device-window';

/** Each sort key's columns, as its index lists them after the profile (ascending; descending reverses all). */
export const SORT_COLUMNS: Record<SortKey, readonly string[]> = {
  deviceName: ['name_key', 'device_name'],
  serialNumber: ['serial_key', 'device_name'],
  siteId: ['site_num', 'name_key', 'device_name'],
  orgName: ['org_key', 'name_key', 'device_name'],
  deviceGroup: ['group_key', 'name_key', 'device_name'],
  country: ['country_key', 'name_key', 'device_name'],
  deploymentStatus: ['status_rank', 'name_key', 'device_name'],
  reachability: ['reach_rank', 'name_key', 'device_name'],
  configSync: ['sync_rank', 'name_key', 'device_name'],
};
/** The index each order is read along (the index-use test names them). */
export const SORT_INDEX: Record<SortKey, string> = {
  deviceName: 'devices_by_name',
  serialNumber: 'devices_by_serial',
  siteId: 'devices_by_site',
  orgName: 'devices_by_org',
  deviceGroup: 'devices_by_group',
  country: 'devices_by_country',
  deploymentStatus: 'devices_by_status',
  reachability: 'devices_by_reach',
  configSync: 'devices_by_sync',
};

export const DEFAULT_SORT: DeviceSort = { key: 'deviceName', desc: false };

/** The WHERE clause of a filter (on `d`) and its parameters. */
export function whereOf(profileId: string, f: DeviceWindowFilter): { sql: string; params: Record<string, string | number> } {
  const parts = ['d.profile_id = @profileId'];
  const params: Record<string, string | number> = { profileId };
  const add = (sql: string, name: string, value: string | number) => {
    parts.push(sql);
    params[name] = value;
  };
  if (f.org) add('d.org_eff = @org', 'org', f.org);
  if (f.group) add('d.device_group = @group', 'group', f.group);
  if (f.status) add('d.deployment_status = @status', 'status', f.status);
  if (f.reach) add('d.reach_rank = @reach', 'reach', REACHABILITIES.indexOf(f.reach));
  if (f.sync) add('d.sync_rank = @sync', 'sync', SYNCS.indexOf(f.sync));
  if (f.name !== undefined) add('d.device_name = @name', 'name', f.name);
  // An unknown or non-numeric site ID is stored as MAX_SAFE_INTEGER (it sorts last): nobody's number.
  if (f.site !== undefined) add(`d.site_num = @site AND d.site_num < ${Number.MAX_SAFE_INTEGER}`, 'site', f.site);
  const q = searchQuery(f.q ?? '');
  // instr: a substring in the stored lower-case text, no wildcard (what String.includes does).
  if (q) add('instr(d.hay, @q) > 0', 'q', q);
  return { sql: parts.join(' AND '), params };
}

export function orderOf(sort: DeviceSort): string {
  const dir = sort.desc ? 'DESC' : 'ASC';
  return SORT_COLUMNS[sort.key].map((c) => `d.${c} ${dir}`).join(', ');
}

export const WINDOW_SELECT = 'SELECT d.*, a.state AS appliance FROM devices d LEFT JOIN appliances a ON a.profile_id = d.profile_id AND a.name = d.device_name';

/** Prepared statements per filter shape and order (a few dozen at most), built on first use. */
export class DeviceWindowSql {
  private readonly cache = new Map<string, Database.Statement>();
  constructor(private readonly db: Database.Database) {}

  private prepared(sql: string): Database.Statement {
    let s = this.cache.get(sql);
    if (!s) {
      s = this.db.prepare(sql);
      if (this.cache.size > 200) this.cache.clear();
      this.cache.set(sql, s);
    }
    return s;
  }

  /** The statement a window runs (the index-use test explains it). */
  windowSql(profileId: string, filter: DeviceWindowFilter, sort: DeviceSort): { sql: string; params: Record<string, string | number> } {
    const w = whereOf(profileId, filter);
    return { sql: `${WINDOW_SELECT} WHERE ${w.sql} ORDER BY ${orderOf(sort)} LIMIT @limit OFFSET @offset`, params: w.params };
  }

  rows<T>(profileId: string, filter: DeviceWindowFilter, sort: DeviceSort, offset: number, limit: number): T[] {
    const { sql, params } = this.windowSql(profileId, filter, sort);
    return this.prepared(sql).all({ ...params, limit, offset }) as T[];
  }

  count(profileId: string, filter: DeviceWindowFilter): number {
    const w = whereOf(profileId, filter);
    return (this.prepared(`SELECT COUNT(*) AS n FROM devices d WHERE ${w.sql}`).get(w.params) as { n: number }).n;
  }

  /** The organizations and groups in use (unknown "" left out), their pairs, the count, and whether any device has its appliance. */
  facets(profileId: string): Pick<DeviceFacets, 'orgs' | 'groups' | 'orgGroups' | 'total'> & { withAppliance: boolean } {
    const pairs = this.prepared('SELECT org_eff AS org, COALESCE(device_group, \'\') AS grp, COUNT(*) AS n FROM devices WHERE profile_id = ? GROUP BY 1, 2').all(profileId) as Array<{
      org: string | null;
      grp: string;
      n: number;
    }>;
    const orgs = new Set<string>();
    const groups = new Set<string>();
    let total = 0;
    for (const p of pairs) {
      total += p.n;
      if (p.org) orgs.add(p.org);
      if (p.grp) groups.add(p.grp);
    }
    const orgList = [...orgs].sort(compareFacet);
    const groupList = [...groups].sort(compareFacet);
    const orgAt = new Map(orgList.map((o, i) => [o, i]));
    const groupAt = new Map(groupList.map((g, i) => [g, i]));
    const orgGroups: Array<[number, number]> = [];
    for (const p of pairs) if (p.org && p.grp) orgGroups.push([orgAt.get(p.org)!, groupAt.get(p.grp)!]);
    const withAppliance = this.prepared('SELECT EXISTS (SELECT 1 FROM devices d JOIN appliances a ON a.profile_id = d.profile_id AND a.name = d.device_name WHERE d.profile_id = ?) AS x').get(profileId) as {
      x: number;
    };
    return { orgs: orgList, groups: groupList, orgGroups, total, withAppliance: withAppliance.x === 1 };
  }
}
