/**
 * The EDR store's contract for the ZTA table's windows (issue 25.3), on both backends
 * (tests/support/edr-backends.ts): `hostWindow` and `hostCounts` over the latest snapshot, filtered,
 * searched and sorted in the store, answer as the renderer does in memory on the snapshot the same
 * store gives (`makeRowFilter`, `rowsInOrder`, the table's `sortOrder`), and both backends answer one
 * script of windows alike.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { ZtaFilter } from '../../../shared/model/zta';
import { ZTA_SORT_KEYS, type ZtaSort } from '../../../shared/model/zta-window';
import type { EdrStore } from '../../../electron/edr/store/edr-store';
import { openPgEdrStore } from '../../../electron/edr/store/edr-pg';
import { windowRow, windowSql } from '../../../electron/edr/store/edr-window-sql';
import { pgWindow } from '../../../electron/edr/store/edr-window-pg';
import { withTransaction } from '../../../electron/store/postgres';
import { at, edrBackends } from '../../support/edr-backends';
import { usePostgres } from '../../support/postgres';
import { bandTotal, pageThrough, rendererCounts, rendererCustomerOrder, rendererRows, rendererSnapshot, windowHost, writeWindowSnapshot } from '../../support/zta-window-fixtures';

const pg = usePostgres();
const backends = edrBackends(pg);

/** Every sort key both ways, and the default order. */
const SORTS: Array<ZtaSort | undefined> = [undefined, ...ZTA_SORT_KEYS.flatMap((key) => [{ key, desc: false }, { key, desc: true }])];

const FILTERS: ZtaFilter[] = [
  {},
  { customer: 'cust-b' },
  { customer: 'no-such-customer' },
  { platform: 'Mac' },
  { vendor: 'falcon' },
  { vendor: 'defender', band: 'Not assessed' },
  { connector: 'conn-c' },
  { band: 'High Risk' },
  { band: 'Not assessed' },
  { q: 'FINANCE' },
  { q: '  shared-1 ' },
  { q: '_1%' },
  { q: '%' },
  { q: 'f00' },
  { q: 'zzz-nothing' },
  { customer: 'Cust-Upper', platform: 'Linux', q: 'e' },
  { vendor: 'defender', connector: 'conn-b' },
];

describe.each(backends)('EDR store contract, windows: %s', (_name, open) => {
  it('pages through every sort key both ways, and the default order, as the renderer orders the same snapshot', async () => {
    const { store: s } = await open();
    await writeWindowSnapshot(s);
    const snap = await rendererSnapshot(s);
    // 3 connectors, each 8 hosts fewer in its newest cycle: 142 + 82 + 32.
    expect(snap.rows.hostId).toHaveLength(256);
    const customerOrder = rendererCustomerOrder(snap);
    for (const sort of SORTS) {
      const want = rendererRows(snap, {}, sort);
      const got = await pageThrough(s, { filter: {}, sort, customerOrder: sort?.key === 'customer' ? customerOrder : undefined }, 45);
      expect(got.keys, JSON.stringify(sort)).toEqual(want);
      expect(new Set(got.totals)).toEqual(new Set([256]));
    }
    await s.close();
  });

  it('filters and searches as makeRowFilter, with the total and the counts by band and customer → platform the renderer counts', async () => {
    const { store: s } = await open();
    await writeWindowSnapshot(s);
    const snap = await rendererSnapshot(s);
    for (const filter of FILTERS) {
      for (const sort of [undefined, { key: 'hostname', desc: true }, { key: 'lastSeen', desc: false }, { key: 'osAssessment', desc: true }] as const) {
        const want = rendererRows(snap, filter, sort);
        const w = await s.hostWindow({ filter, sort, offset: 3, limit: 20 });
        expect(w.rows.map((r) => `${r.connectorId}/${r.hostId}`), JSON.stringify([filter, sort])).toEqual(want.slice(3, 23));
        expect(w.total).toBe(want.length);
      }
      const counts = await s.hostCounts({ filter });
      expect(counts, JSON.stringify(filter)).toEqual(rendererCounts(snap, filter));
      expect(bandTotal(counts)).toBe(counts.total);
    }
    // Meaningful filters: the search finds some rows but not all, LIKE's wildcards are literal.
    expect((await s.hostWindow({ filter: { q: 'finance' }, offset: 0, limit: 1 })).total).toBeGreaterThan(10);
    expect((await s.hostWindow({ filter: { q: '%' }, offset: 0, limit: 1 })).total).toBe(rendererRows(snap, { q: 'db_' }, undefined).length);
    expect((await s.hostCounts({ filter: { band: 'Not assessed' } })).total).toBeGreaterThan(5);
    await s.close();
  });

  it('answers counts and totals of the newest cycles after a commit, also for a question asked before it', async () => {
    const { store: s } = await open();
    await writeWindowSnapshot(s);
    const filter: ZtaFilter = { q: 'kiosk' };
    const before = await s.hostCounts({ filter });
    expect((await s.hostWindow({ filter, offset: 0, limit: 5 })).total).toBe(before.total);
    // conn-c's next cycle: its first 10 hosts only.
    const id = await s.beginCycle('conn-c', 'defender', 't3', at(100));
    await s.stageScores(id, 'conn-c', Array.from({ length: 10 }, (_, i) => windowHost('defender', 't3', i)));
    await s.commitCycle(id, at(101));
    const snap = await rendererSnapshot(s);
    // Asked at once, as the table asks them (PostgreSQL counts once for both): the same answers.
    const [atOnce, atOnceCounts] = await Promise.all([s.hostWindow({ filter, offset: 0, limit: 5 }), s.hostCounts({ filter })]);
    expect(atOnceCounts).toEqual(rendererCounts(snap, filter));
    expect(atOnce).toMatchObject({ total: atOnceCounts.total, exact: true });
    const after = await s.hostCounts({ filter });
    expect(after).toEqual(rendererCounts(snap, filter));
    expect(after.total).toBeLessThan(before.total);
    expect((await s.hostWindow({ filter, offset: 0, limit: 5 })).total).toBe(after.total);
    await s.close();
  });

  it('answers a window row with the stored attributes, a host not assessed without a score, and the customer sort by ID without an order', async () => {
    const { store: s } = await open();
    await writeWindowSnapshot(s);
    const snap = await rendererSnapshot(s);
    const w = await s.hostWindow({ filter: { connector: 'conn-b' }, sort: { key: 'hostId', desc: false }, offset: 0, limit: 1000 });
    const i = snap.rows.hostId.indexOf(w.rows[0]!.hostId);
    expect(w.rows[0]).toMatchObject({ connectorId: 'conn-b', vendor: 'falcon', hostname: snap.rows.hostname[i], osAssessment: snap.rows.osAssessment[i], lastSeen: snap.rows.lastSeen[i] });
    const na = w.rows.filter((r) => r.band === 'Not assessed');
    expect(na.length).toBeGreaterThan(0);
    expect(na.every((r) => r.score === null)).toBe(true);
    const byId = await s.hostWindow({ filter: {}, sort: { key: 'customer', desc: false }, offset: 0, limit: 1000 });
    const ids = byId.rows.map((r) => r.customerId);
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
    expect(ids[0]).toBe('Cust-Upper');
    await s.close();
  });
  it('counts a search only up to the cap: past it every number is a lower bound (exact false), at or under it the renderer\'s counts', async () => {
    const cap = 20;
    const { store: s } = await open({ countCap: cap });
    await writeWindowSnapshot(s);
    const snap = await rendererSnapshot(s);
    const searches: ZtaFilter[] = [...FILTERS.filter((f) => f.q !== undefined), { q: 'e' }, { q: 'web' }, { q: 'kiosk', platform: 'Mac' }, { q: 'F0', vendor: 'falcon' }];
    let over = 0;
    let under = 0;
    for (const filter of searches) {
      const want = rendererRows(snap, filter, undefined);
      const wantCounts = rendererCounts(snap, filter);
      const counts = await s.hostCounts({ filter });
      const w = await s.hostWindow({ filter, offset: 0, limit: 5 });
      // The rows are never bounded: the same window whatever the count.
      expect(w.rows.map((r) => `${r.connectorId}/${r.hostId}`), JSON.stringify(filter)).toEqual(want.slice(0, 5));
      if (want.length <= cap) {
        under += 1;
        expect(counts, JSON.stringify(filter)).toEqual(wantCounts);
        expect(w).toMatchObject({ total: want.length, exact: true });
        continue;
      }
      over += 1;
      expect(counts.exact, JSON.stringify(filter)).toBe(false);
      expect(counts.total).toBe(cap);
      expect(bandTotal(counts)).toBe(cap);
      // Each number counts some of the matching hosts: never more than the renderer counts.
      for (const [band, n] of Object.entries(counts.bands)) expect(n).toBeLessThanOrEqual(wantCounts.bands[band as keyof typeof counts.bands]);
      expect(counts.customers.reduce((a, c) => a + c.hosts, 0)).toBe(cap);
      for (const c of counts.customers) {
        const full = wantCounts.customers.find((x) => x.customerId === c.customerId)!;
        expect(c.hosts).toBeLessThanOrEqual(full.hosts);
        expect(c.platforms.reduce((a, p) => a + p.hosts, 0)).toBe(c.hosts);
        for (const p of c.platforms) expect(p.hosts).toBeLessThanOrEqual(full.platforms.find((x) => x.platform === p.platform)!.hosts);
      }
      expect(w).toMatchObject({ total: cap, exact: false });
      // A window past the cap shows at least what it holds; one that reaches the end knows the total.
      const mid = await s.hostWindow({ filter, offset: cap + 1, limit: 2 });
      if (want.length >= cap + 4) expect(mid).toMatchObject({ total: cap + 3, exact: false });
      const end = await s.hostWindow({ filter, offset: want.length - 3, limit: 10 });
      expect(end.rows.map((r) => `${r.connectorId}/${r.hostId}`)).toEqual(want.slice(-3));
      expect(end).toMatchObject({ total: want.length, exact: true });
      expect(await s.hostWindow({ filter, offset: want.length + 5, limit: 10 })).toMatchObject({ rows: [], total: cap, exact: false });
    }
    expect([over > 2, under > 2]).toEqual([true, true]);
    // Without a search the counts come from the cycles' band counts: exact past the cap.
    expect(await s.hostCounts({ filter: { vendor: 'defender' } })).toEqual(rendererCounts(snap, { vendor: 'defender' }));
    expect(await s.hostWindow({ filter: {}, offset: 0, limit: 1 })).toMatchObject({ total: 256, exact: true });
    await s.close();
  });

  it('counts a search matching exactly the cap as exact, and one more as at least the cap', async () => {
    const filter: ZtaFilter = { q: 'finance' };
    let matches = 0;
    for (const cap of [undefined, 0, -1]) {
      const probe = await open(cap === undefined ? {} : { countCap: matches + cap });
      await writeWindowSnapshot(probe.store);
      const counts = await probe.store.hostCounts({ filter });
      if (cap === undefined) {
        expect(counts.exact).toBe(true);
        matches = counts.total;
        expect(matches).toBeGreaterThan(10);
      } else if (cap === 0) {
        expect(counts).toMatchObject({ total: matches, exact: true });
        expect((await probe.store.hostWindow({ filter, offset: 0, limit: 1 })).exact).toBe(true);
      } else {
        expect(counts).toMatchObject({ total: matches - 1, exact: false });
        expect(await probe.store.hostWindow({ filter, offset: 0, limit: 1 })).toMatchObject({ total: matches - 1, exact: false });
      }
      await probe.store.close();
    }
  });
});

/** One script of windows and counts; its answers, in order. */
async function windowScript(s: EdrStore): Promise<unknown[]> {
  await writeWindowSnapshot(s);
  const out: unknown[] = [];
  for (const sort of SORTS) out.push(await s.hostWindow({ filter: {}, sort, offset: 17, limit: 30, customerOrder: ['cust-b', 'tenant-t2'] }));
  for (const filter of FILTERS) out.push(await s.hostWindow({ filter, sort: { key: 'score', desc: true }, offset: 0, limit: 25 }), await s.hostCounts({ filter }));
  out.push(await s.hostWindow({ filter: {}, offset: 250, limit: 50 }), await s.hostWindow({ filter: {}, offset: 0, limit: 0 }));
  return out;
}

describe('EDR store contract, windows: both backends', () => {
  it('answer the same script of windows and counts alike', async () => {
    const answers: unknown[][] = [];
    for (const [, open] of backends) {
      const { store } = await open();
      answers.push(await windowScript(store));
      await store.close();
    }
    expect((answers[0]![0] as { rows: unknown[]; total: number }).rows).toHaveLength(30);
    expect(answers[1]).toEqual(answers[0]);
  });
});

describe('EDR store windows on PostgreSQL: the sort indexes (C-80)', () => {
  /** Each indexed order, what must read it, and the renderer's order it must give. */
  const INDEXED: Array<{ sort: ZtaSort | undefined; index: string; customerOrder?: boolean; filter?: ZtaFilter }> = [
    { sort: undefined, index: 'hosts_default_order' },
    { sort: { key: 'hostname', desc: false }, index: 'hosts_by_name' },
    { sort: { key: 'hostname', desc: true }, index: 'hosts_by_name' },
    { sort: { key: 'hostId', desc: false }, index: 'hosts_by_host_id' },
    { sort: { key: 'hostId', desc: true }, index: 'hosts_by_host_id' },
    { sort: { key: 'score', desc: false }, index: 'hosts_by_score' },
    { sort: { key: 'score', desc: true }, index: 'hosts_by_score' },
    { sort: { key: 'band', desc: false }, index: 'hosts_by_band' },
    { sort: { key: 'band', desc: true }, index: 'hosts_by_band_desc' },
    { sort: { key: 'customer', desc: false }, index: 'hosts_by_customer' },
    { sort: { key: 'customer', desc: true }, index: 'hosts_by_customer' },
    { sort: { key: 'customer', desc: false }, index: 'hosts_by_customer', customerOrder: true },
    { sort: { key: 'customer', desc: true }, index: 'hosts_by_customer', customerOrder: true, filter: { connector: 'conn-a' } },
  ];

  it('reads every indexed order along its index, with sorting and whole-table reads made dear, and it is the renderer\'s order', async () => {
    const db = await pg.freshDatabase('edr');
    const store = await openPgEdrStore(db.pool);
    await writeWindowSnapshot(store);
    const snap = await rendererSnapshot(store);
    const customerOrder = rendererCustomerOrder(snap);
    for (const { sort, index, filter = {}, ...o } of INDEXED) {
      const q = { filter, sort, offset: 0, limit: 1000, customerOrder: o.customerOrder ? customerOrder : undefined };
      const st = pgWindow(q).st;
      const { plan, rows } = await withTransaction(db.pool, async (c) => {
        for (const off of ['enable_sort', 'enable_seqscan', 'enable_bitmapscan']) await c.query(`SET LOCAL ${off} = off`);
        const plan = (await c.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>({ text: `EXPLAIN (FORMAT JSON) ${st.text}`, values: st.args })).rows[0]!['QUERY PLAN'][0]!.Plan;
        const rows = (await c.query<unknown[]>({ text: st.text, values: st.args, rowMode: 'array' })).rows.map(windowRow);
        return { plan, rows };
      });
      const label = JSON.stringify({ sort, index, filter });
      // Every read of hosts goes along the index, and no Sort lies between it and the LIMIT it feeds
      // (an Incremental Sort of ties may): the index gives the order. Were its key not the builder's,
      // the planner would have to sort what it read.
      const reads = hostReads(plan);
      expect(reads.length, label).toBeGreaterThan(0);
      for (const r of reads) expect(r, label).toEqual({ type: 'Index Scan', index, sortedAfterLimit: false });
      const want = rendererRows(snap, filter, sort);
      expect(want.length).toBeGreaterThan(50);
      expect(rows.map((r) => `${r.connectorId}/${r.hostId}`), label).toEqual(want);
    }
    await store.close();
  });
});

describe('EDR store windows on SQLite: the indexed orders', () => {
  it('reads the default order and the score sort both ways along their indexes, and the score sort descending without sorting (C-101)', async () => {
    const [, open] = backends.find(([name]) => name === 'SQLite')!;
    const { store, source } = await open();
    await writeWindowSnapshot(store);
    const raw = new Database(path.join(source[1]!, 'edr.db'), { readonly: true });
    try {
      const plan = (sort: ZtaSort | undefined) => {
        const st = windowSql('sqlite', { filter: {}, sort, offset: 0, limit: 100 });
        return raw.prepare(`EXPLAIN QUERY PLAN ${st.text}`).all(...st.args).map((r) => (r as { detail: string }).detail);
      };
      expect(plan(undefined)).toContain('SCAN h USING INDEX hosts_default_order');
      const desc = plan({ key: 'score', desc: true });
      expect(desc).toContain('SCAN h USING INDEX hosts_by_score');
      expect(desc.filter((d) => d.startsWith('USE TEMP B-TREE'))).toEqual([]);
      // Ascending: the index backwards, only each score's ties sorted (by hostname, connector, host ID).
      const asc = plan({ key: 'score', desc: false });
      expect(asc).toContain('SCAN h USING INDEX hosts_by_score');
      expect(asc.filter((d) => d.startsWith('USE TEMP B-TREE'))).toEqual(['USE TEMP B-TREE FOR LAST 3 TERMS OF ORDER BY']);
      // A connector's hosts are read by its key and sorted, as before (few of them, or the index's far end).
      const st = windowSql('sqlite', { filter: { connector: 'conn-a' }, sort: { key: 'score', desc: true }, offset: 0, limit: 100 });
      const byConnector = raw.prepare(`EXPLAIN QUERY PLAN ${st.text}`).all(...st.args).map((r) => (r as { detail: string }).detail);
      expect(byConnector.some((d) => /SEARCH h USING INDEX sqlite_autoindex_hosts_1 \(connector_id=\?/.test(d))).toBe(true);
    } finally {
      raw.close();
      await store.close();
    }
  });
});

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/** Each read of `hosts` in a plan: how, along which index, and whether a Sort lies between it and the nearest Limit above it. */
function hostReads(node: PlanNode, sorted = false): Array<{ type: string; index: string | undefined; sortedAfterLimit: boolean }> {
  const type = node['Node Type'];
  const here = type === 'Limit' ? false : sorted || type === 'Sort';
  const own = node['Relation Name'] === 'hosts' ? [{ type, index: node['Index Name'], sortedAfterLimit: here }] : [];
  return [...own, ...(node.Plans ?? []).flatMap((p) => hostReads(p, here))];
}
