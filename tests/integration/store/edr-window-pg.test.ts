/**
 * PostgreSQL's top-first window plans (C-104, edr-window-pg.ts): a sort no index holds reads the
 * window's first hosts apart, and the general statement when they cannot tell. Read small (the
 * fewest hosts read first: 1, so each read takes twice the window's end), every such sort both ways
 * under filters and searches pages through the renderer's order on the same snapshot, both plans
 * answering: the read first where it holds enough of the order, the general one where a filter
 * leaves few of the first hosts, hosts not in the newest cycles crowd them, or more hosts were seen
 * at one time than the read took.
 */
import { describe, expect, it } from 'vitest';
import type { ZtaFilter } from '../../../shared/model/zta';
import { ZTA_SORT_KEYS, type ZtaSort } from '../../../shared/model/zta-window';
import { openPgEdrStore } from '../../../electron/edr/store/edr-pg';
import { pgWindow, type PgWindowPlan } from '../../../electron/edr/store/edr-window-pg';
import { withTransaction } from '../../../electron/store/postgres';
import { at } from '../../support/edr-backends';
import { usePostgres } from '../../support/postgres';
import { pageThrough, rendererRows, rendererSnapshot, windowHost, writeWindowSnapshot } from '../../support/zta-window-fixtures';

const pg = usePostgres();

/** The sorts read first apart: every key but those an index holds (default, hostname, Host ID, score, band) and the customer's walk. */
const TOP_SORTS: ZtaSort[] = ZTA_SORT_KEYS.filter((k) => !['hostname', 'hostId', 'score', 'band', 'customer'].includes(k)).flatMap((key) => [
  { key, desc: false },
  { key, desc: true },
]);

const FILTERS: ZtaFilter[] = [{}, { platform: 'Mac' }, { customer: 'cust-b' }, { band: 'High Risk' }, { vendor: 'falcon' }, { q: 'finance' }, { q: 'e', connector: 'conn-a' }, { q: 'zzz-nothing' }];

/** A store on a fresh database holding the fixture's snapshot, read small (the fewest hosts read first: 1), each window's plan noted in `seen`. */
async function observedStore() {
  const db = await pg.freshDatabase('edr');
  const seen: Array<{ kind: PgWindowPlan['kind']; served: boolean }> = [];
  const store = await openPgEdrStore(db.pool, { windows: { topMin: 1, observe: (kind, served) => seen.push({ kind, served }) } });
  await writeWindowSnapshot(store);
  return { db, seen, store, snap: await rendererSnapshot(store) };
}

describe('EDR store windows on PostgreSQL: sorts no index holds (C-104)', () => {
  it('page through every such sort both ways, filtered and searched, as the renderer orders them, read first where that holds and the general way where not', async () => {
    const { seen, store, snap } = await observedStore();
    expect(TOP_SORTS).toHaveLength(24);
    const byKey = new Map<string, { served: number; general: number }>();
    for (const sort of TOP_SORTS) {
      for (const filter of FILTERS) {
        for (const limit of [7, 45]) {
          seen.length = 0;
          const want = rendererRows(snap, filter, sort);
          const got = await pageThrough(store, { filter, sort }, limit);
          const label = JSON.stringify({ sort, filter, limit });
          expect(got.keys, label).toEqual(want);
          expect(new Set(got.totals), label).toEqual(new Set([want.length]));
          // The fixture's searches match few hosts, all counted: with the last-seen sort, the general way at once.
          const planned = sort.key === 'lastSeen' && filter.q !== undefined ? 'general' : 'top';
          expect(seen.length, label).toBeGreaterThan(0);
          expect(seen.every((s) => s.kind === planned), label).toBe(true);
          const k = byKey.get(sort.key) ?? { served: 0, general: 0 };
          for (const s of seen) k[s.kind === 'top' && s.served ? 'served' : 'general'] += 1;
          byKey.set(sort.key, k);
        }
      }
    }
    // The read first served each key's windows (the last-seen time's ties and its counted searches went the general way).
    for (const [key, k] of byKey) expect([key, k.served > 0]).toEqual([key, true]);
    expect(byKey.get('lastSeen')!.general).toBeGreaterThan(0);
    await store.close();
  });

  it('read the general way where hosts not in the newest cycles crowd the first ones, and still page through the renderer\'s order', async () => {
    const { seen, store } = await observedStore();
    // conn-c's next cycle lists its first 2 hosts only: its other 30 stay stored, in no newest cycle.
    const id = await store.beginCycle('conn-c', 'defender', 't3', at(100));
    await store.stageScores(id, 'conn-c', [0, 1].map((i) => windowHost('defender', 't3', i)));
    await store.commitCycle(id, at(101));
    const snap = await rendererSnapshot(store);
    let general = 0;
    for (const sort of TOP_SORTS.filter((x) => x.key !== 'lastSeen')) {
      for (const filter of [{}, { connector: 'conn-c' }, { vendor: 'defender' }] as ZtaFilter[]) {
        seen.length = 0;
        const want = rendererRows(snap, filter, sort);
        const label = JSON.stringify({ sort, filter });
        expect((await pageThrough(store, { filter, sort }, 5)).keys, label).toEqual(want);
        expect(seen.every((x) => x.kind === 'top'), label).toBe(true);
        general += seen.filter((x) => !x.served).length;
      }
    }
    expect(general).toBeGreaterThan(0);
    await store.close();
  });

  it('read a band\'s hosts in the score\'s orders (the default, score, band) apart, not along the order\'s index, and page through them as the renderer orders them', async () => {
    const { db, seen, store, snap } = await observedStore();
    const sorts: Array<ZtaSort | undefined> = [undefined, { key: 'score', desc: true }, { key: 'score', desc: false }, { key: 'band', desc: true }, { key: 'band', desc: false }];
    const filters: ZtaFilter[] = [{ band: 'High Risk' }, { band: 'Not assessed' }, { band: 'Trustworthy', platform: 'Mac' }, { band: 'Low Risk', q: 'e' }];
    for (const sort of sorts) {
      for (const filter of filters) {
        seen.length = 0;
        const want = rendererRows(snap, filter, sort);
        const label = JSON.stringify({ sort, filter });
        expect((await pageThrough(store, { filter, sort }, 6)).keys, label).toEqual(want);
        expect(seen.length, label).toBeGreaterThan(0);
        expect(seen.every((x) => x.kind === 'top'), label).toBe(true);
        // The read first orders by a key no index holds: the order's index is not walked (its start may hold none of the band's hosts).
        const st = pgWindow({ filter, sort, offset: 0, limit: 6 }).st;
        const plan = await withTransaction(db.pool, async (c) => {
          await c.query('SET LOCAL enable_seqscan = off');
          return (await c.query<{ 'QUERY PLAN': unknown[] }>({ text: `EXPLAIN (FORMAT JSON) ${st.text}`, values: st.args })).rows[0]!['QUERY PLAN'];
        });
        expect(JSON.stringify(plan), label).not.toMatch(/"Index Name": ?"hosts_(default_order|by_score|by_band|by_band_desc)"/);
      }
    }
    // Without a band filter the same orders go along their indexes, the general way.
    for (const sort of sorts) expect(pgWindow({ filter: { platform: 'Mac' }, sort, offset: 0, limit: 6 }).kind).toBe('general');
    await store.close();
  });

  it('read the general way when the hosts seen at the last read one\'s time go on past the read, and a search that matches few hosts with the last-seen sort', async () => {
    const { seen, store, snap } = await observedStore();
    // The hosts never seen come first ascending (one "time", every ninth host): a read of 2 x 5 holds only them.
    const neverSeen = snap.rows.lastSeen.filter((t) => t === null).length;
    expect(neverSeen).toBeGreaterThan(20);
    const sort: ZtaSort = { key: 'lastSeen', desc: false };
    const w = await store.hostWindow({ filter: {}, sort, offset: 0, limit: 5 });
    expect(w.rows.map((r) => `${r.connectorId}/${r.hostId}`)).toEqual(rendererRows(snap, {}, sort).slice(0, 5));
    expect(seen).toEqual([{ kind: 'top', served: false }]);
    // Descending, the hosts seen last are each at a time of their own or few: the read first serves.
    seen.length = 0;
    const desc: ZtaSort = { key: 'lastSeen', desc: true };
    expect((await store.hostWindow({ filter: {}, sort: desc, offset: 0, limit: 5 })).rows.map((r) => `${r.connectorId}/${r.hostId}`)).toEqual(rendererRows(snap, {}, desc).slice(0, 5));
    expect(seen).toEqual([{ kind: 'top', served: true }]);
    // A search all counted (few matches): the general statement at once; one counted only in part (a cap of 20): read first.
    expect(pgWindow({ filter: { q: 'finance' }, sort, offset: 0, limit: 5 }, {}, { exact: true, total: 40 }).kind).toBe('general');
    expect(pgWindow({ filter: { q: 'finance' }, sort, offset: 0, limit: 5 }, {}, { exact: false, total: 20 }).kind).toBe('top');
    expect(pgWindow({ filter: { q: 'finance' }, sort: { key: 'riskLevel', desc: false }, offset: 0, limit: 5 }, {}, { exact: true, total: 40 }).kind).toBe('top');
    // An empty answer where the exact counts put the window past the end is the window: nothing read again.
    for (const [filter, offset, total] of [[{}, 300, 256], [{ customer: 'no-such-customer' }, 0, 0]] as const) {
      seen.length = 0;
      expect(await store.hostWindow({ filter, sort: { key: 'riskLevel', desc: false }, offset, limit: 10 })).toMatchObject({ rows: [], total, exact: true });
      expect(seen).toEqual([{ kind: 'top', served: true }]);
    }
    // Past the first 10,000 rows, and for the orders an index holds: the general statement.
    expect(pgWindow({ filter: {}, sort: { key: 'riskLevel', desc: false }, offset: 9_950, limit: 100 }).kind).toBe('general');
    for (const key of ['hostname', 'hostId', 'score', 'band'] as const) expect(pgWindow({ filter: {}, sort: { key, desc: false }, offset: 0, limit: 100 }).kind).toBe('general');
    expect(pgWindow({ filter: {}, offset: 0, limit: 100 }).kind).toBe('general');
    expect(pgWindow({ filter: {}, sort: { key: 'customer', desc: false }, offset: 0, limit: 100 }).kind).toBe('customer walk');
    await store.close();
  });
});
