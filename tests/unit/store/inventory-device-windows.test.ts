/**
 * The devices table's windows (issue 25.3, C-99) against the table's own order: for every sort key
 * both ways and a set of filters and searches, the store's pages put end to end are exactly what
 * the renderer's device index (the oracle, tests/support/device-order.ts) gives for the same stored
 * list; each order is read along its index (EXPLAIN QUERY PLAN); and the facets match the list.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InventoryDb, type StoredAppliance } from '../../../electron/inventory/store/inventory-db';
import { SORT_INDEX } from '../../../electron/inventory/store/device-window-sql';
import { compareFacet, DEVICE_SORT_KEYS, DeviceWindowQuery, searchQuery, type DeviceWindowFilter, type SortKey } from '../../../shared/model/device-window';
import type { DeploymentStatus, DeviceView } from '../../../shared/model/inventory';
import { buildDeviceIndex, filterDevices } from '../../support/device-order';

const P = 'p1';
const FETCHED = '2026-05-01T10:00:00.000Z';
const STATE_AT = '2026-05-01T10:00:30.000Z';
const STATUSES: DeploymentStatus[] = ['saved', 'deploying', 'deployed', 'failed'];
// Natural order traps (9 before 10, case), names beyond ASCII, unknown and shared values.
const STEMS = ['branch', 'Branch', 'edge', 'zürich', 'Ørsted', 'a', 'hub-2-spoke'];
const ORGS = [null, 'Acme', 'acme', 'Org-2', 'org-10', 'Zeta', 'Ümlaut'];
const GROUPS = [null, 'retail', 'Retail', 'dc-9', 'dc-10'];
const COUNTRIES = [null, 'DE', 'FR', 'us', 'XX', ''];
const SITES = [null, '7', '12', '007', 'abc', '', '1e3', '12'];

function device(i: number): DeviceView {
  const country = COUNTRIES[i % COUNTRIES.length]!;
  return {
    deviceName: `${STEMS[i % STEMS.length]}-${i % 50}-${Math.floor(i / 7)}`,
    siteId: i % 11 === 0 ? SITES[i % SITES.length]! : String(i * 3 % 701),
    orgName: ORGS[(i * 5) % ORGS.length]!,
    serialNumber: i % 4 === 0 ? null : `SN-${(i * 13) % 97}`,
    deviceGroup: GROUPS[(i * 3) % GROUPS.length]!,
    locationInfo: country === null ? null : { country, latitude: '1', longitude: '2' },
    deploymentStatus: STATUSES[(i * 7) % 4]!,
    workflowStatus: null,
    lastModifiedBy: null,
    lastModifiedAt: null,
    lastTaskId: null,
    appliance: null,
  };
}

const REACH = ['reachable', 'unreachable', 'unknown'] as const;
const SYNC = ['in-sync', 'out-of-sync', 'unknown'] as const;
/** Two devices of three have an appliance; its owner and serial fill a record without them. */
const appliance = (d: DeviceView, i: number): StoredAppliance => ({
  name: d.deviceName,
  reachability: REACH[i % 3]!,
  configSync: SYNC[(i >> 1) % 3]!,
  pingStatus: null,
  syncStatus: null,
  softwareVersion: null,
  ownerOrg: i % 5 === 0 ? 'Owner-Only' : 'Acme',
  model: null,
  serialNo: `APL-${i % 89}`,
  lastUpdatedAt: null,
  alarms: null,
});

let dir: string;
let db: InventoryDb;
let items: DeviceView[];
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-devwin-'));
  db = new InventoryDb(path.join(dir, 'inventory.db'));
  const list = Array.from({ length: 700 }, (_, i) => device(i));
  db.replaceDevices(P, list, FETCHED);
  db.replaceAppliances(
    P,
    list.flatMap((d, i) => (i % 3 === 2 ? [] : [appliance(d, i)])),
    STATE_AT,
  );
  // Another connection's devices never show.
  db.replaceDevices('p2', [device(1), device(2)], FETCHED);
  items = db.devices(P).items;
});
afterAll(() => {
  db?.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The renderer's answer for a filter, as device names in order. */
function oracle(filter: DeviceWindowFilter, key: SortKey, desc: boolean): string[] {
  const index = buildDeviceIndex(items);
  const rows = filterDevices(index, key, desc, { query: searchQuery(filter.q ?? ''), org: filter.org ?? '', group: filter.group ?? '', status: filter.status ?? '', reach: filter.reach ?? '', sync: filter.sync ?? '' });
  return Array.from(rows, (i) => index.devices[i]!.deviceName);
}

/** The store's pages of `limit` put end to end, and every page's total. */
function paged(filter: DeviceWindowFilter, key: SortKey, desc: boolean, limit = 97): { names: string[]; totals: Set<number> } {
  const names: string[] = [];
  const totals = new Set<number>();
  for (let offset = 0; ; offset += limit) {
    const w = db.deviceWindow(P, filter, { key, desc }, offset, limit);
    totals.add(w.total);
    names.push(...w.rows.map((d) => d.deviceName));
    if (w.rows.length < limit) break;
    // A deadline on the loop: never more pages than devices.
    if (offset > items.length) throw new Error('paged past the end');
  }
  return { names, totals };
}

const FILTERS: DeviceWindowFilter[] = [
  {},
  { q: 'branch-1' },
  { q: '  SN-1 ' },
  { q: 'apl-8' },
  { q: 'ZÜR' },
  { q: '12' },
  { org: 'Acme' },
  { org: 'acme' },
  { org: 'Owner-Only' },
  { org: 'No such org' },
  { group: 'Retail' },
  { status: 'failed', q: 'e' },
  { reach: 'unknown' },
  { sync: 'out-of-sync', org: 'Acme' },
  { group: 'dc-10', reach: 'reachable', q: '-' },
];

describe('devices windows (SQLite) against the devices table', () => {
  it('the test list has what the orders must handle', () => {
    expect(items).toHaveLength(700);
    expect(new Set(items.map((d) => d.siteId)).has(null)).toBe(true);
    expect(items.some((d) => d.serialNumber === null && d.appliance?.serialNo)).toBe(true);
    expect(items.some((d) => d.orgName === 'Owner-Only')).toBe(true);
  });

  for (const key of DEVICE_SORT_KEYS) {
    for (const desc of [false, true]) {
      it(`sorts by ${key} ${desc ? 'descending' : 'ascending'} as the table does, under every filter, page by page`, () => {
        for (const filter of FILTERS) {
          const want = oracle(filter, key, desc);
          const got = paged(filter, key, desc);
          const label = JSON.stringify({ key, desc, filter });
          expect(got.names, label).toEqual(want);
          expect([...got.totals], label).toEqual([want.length]);
        }
      });
    }
  }

  it('a filter of no devices, pages past the end, and the default order', () => {
    expect(oracle({ org: 'No such org' }, 'deviceName', false)).toEqual([]);
    expect(db.deviceWindow(P, { org: 'No such org' }, undefined, 0, 100)).toEqual({ fetchedAt: FETCHED, rows: [], total: 0 });
    expect(db.deviceWindow(P, {}, undefined, 5000, 100)).toEqual({ fetchedAt: FETCHED, rows: [], total: 700 });
    expect(db.deviceWindow(P, {}, undefined, 0, 10).rows.map((d) => d.deviceName)).toEqual(oracle({}, 'deviceName', false).slice(0, 10));
    // The rows are the devices as the stored list shows them, appliance included.
    const byName = new Map(items.map((d) => [d.deviceName, d]));
    for (const d of db.deviceWindow(P, {}, { key: 'country', desc: true }, 100, 50).rows) expect(d).toEqual(byName.get(d.deviceName));
  });

  it('looks a device up by name, and who holds a site ID by number', () => {
    const some = items[123]!;
    expect(db.deviceWindow(P, { name: some.deviceName }, undefined, 0, 1).rows).toEqual([some]);
    expect(db.deviceWindow(P, { name: some.deviceName.toUpperCase() }, undefined, 0, 1).total).toBe(some.deviceName === some.deviceName.toUpperCase() ? 1 : 0);
    const holders = items.filter((d) => d.siteId !== null && Number(d.siteId) === 12).map((d) => d.deviceName);
    expect(holders.length).toBeGreaterThan(1); // '12' and '012'-like IDs
    expect(db.deviceWindow(P, { site: 12 }, undefined, 0, 100).rows.map((d) => d.deviceName).sort()).toEqual(holders.sort());
    // An unknown site ID sorts last but is nobody's number.
    expect(items.some((d) => d.siteId === null) && items.some((d) => d.siteId === 'abc')).toBe(true);
    expect(db.deviceWindow(P, { site: Number.MAX_SAFE_INTEGER }, undefined, 0, 100).total).toBe(0);
  });

  it('keeps the order after a device is written alone, its status moved, and the appliances replaced', () => {
    const d = items[40]!;
    db.upsertDevice(P, { ...d, orgName: 'org-3', deviceGroup: 'dc-9', serialNumber: null });
    db.setDeploymentStatus(P, items[41]!.deviceName, 'failed', 't-1');
    db.replaceAppliances(P, items.slice(0, 300).map((x, i) => appliance(x, i + 1)), STATE_AT);
    items = db.devices(P).items;
    for (const key of ['orgName', 'deviceGroup', 'serialNumber', 'deploymentStatus', 'reachability'] as const) {
      expect(paged({}, key, false).names, key).toEqual(oracle({}, key, false));
      expect(paged({ q: 'apl' }, key, true).names, key).toEqual(oracle({ q: 'apl' }, key, true));
    }
  });

  it('reads each order along its own index, both ways, with no sort of its own', () => {
    for (const key of DEVICE_SORT_KEYS) {
      for (const desc of [false, true]) {
        const plan = db.explainWindow(P, {}, { key, desc }).join(' | ');
        expect(plan, `${key} ${desc}`).toMatch(new RegExp(`(SCAN|SEARCH) d USING (COVERING )?INDEX ${SORT_INDEX[key]}\\b`));
        expect(plan, `${key} ${desc}`).not.toMatch(/TEMP B-TREE/);
        // A search or filter reads the same index (the matches come in order; no sort).
        expect(db.explainWindow(P, { q: 'x', status: 'saved' }, { key, desc }).join(' | ')).not.toMatch(/TEMP B-TREE/);
      }
    }
  });

  it('answers the facets the filters offer, from the same list', () => {
    const f = db.deviceFacets(P);
    const known = (v: string | null): v is string => v !== null && v !== '';
    expect(f).toMatchObject({ fetchedAt: FETCHED, unreadable: 0, total: items.length, stateAt: STATE_AT });
    expect(f.orgs).toEqual([...new Set(items.map((d) => d.orgName).filter(known))].sort(compareFacet));
    expect(f.orgs).toContain('Owner-Only');
    expect(f.groups).toEqual([...new Set(items.map((d) => d.deviceGroup).filter(known))].sort(compareFacet));
    const pairs = new Set(items.filter((d) => known(d.orgName) && known(d.deviceGroup)).map((d) => `${d.orgName}/${d.deviceGroup}`));
    expect(new Set(f.orgGroups.map(([o, g]) => `${f.orgs[o]}/${f.groups[g]}`))).toEqual(pairs);
    expect(db.deviceFacets('nobody')).toEqual({ fetchedAt: null, unreadable: 0, total: 0, stateAt: null, orgs: [], groups: [], orgGroups: [] });
  });

  it('refuses what the renderer may not ask, with a clear message', () => {
    const ok = { profileId: P, filter: {}, offset: 0, limit: 100 };
    expect(DeviceWindowQuery.safeParse(ok).success).toBe(true);
    const message = (q: unknown) => DeviceWindowQuery.safeParse(q).error?.issues[0]?.message;
    expect(message({ ...ok, limit: 1001 })).toBe('A window is at most 1,000 rows.');
    expect(message({ ...ok, limit: 0 })).toBe('A limit is at least 1.');
    expect(message({ ...ok, offset: -1 })).toBe('An offset is 0 or more.');
    expect(message({ ...ok, offset: 1.5 })).toBe('An offset is a whole number.');
    expect(message({ ...ok, filter: { q: 'x'.repeat(201) } })).toBe('A search is at most 200 characters.');
    expect(message({ ...ok, filter: { org: 'x'.repeat(501) } })).toBe('That organization is too long (at most 500 characters).');
    expect(DeviceWindowQuery.safeParse({ ...ok, sort: { key: 'password', desc: false } }).success).toBe(false);
    expect(DeviceWindowQuery.safeParse({ ...ok, filter: { where: '1=1' } }).success).toBe(false);
  });
});
