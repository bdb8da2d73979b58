/**
 * The alarm store's contract (issue 24.1, 24.4), run against both backends: alarms.db (SQLite in a
 * temp folder) and the fleet's PostgreSQL (a private cluster, a fresh database per test). The same
 * calls give the same answers: a change stored once whichever path and however often it came (and
 * its message ID filled in), an alarm's state from its newest change by the node's time whatever the
 * arrival order, handlings, the window's and the Overview's reads, cursors, backfill records and
 * message IDs, dead letters, the notifier's reads, retention with its cap, the repair of future
 * times, forgetting a source, a failed batch rolled back whole. Row ids and sequences are each
 * backend's own: the answers are compared by what they name, and sequences by their order.
 * PostgreSQL only: two collectors writing overlapping batches at once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AlarmItem } from '../../../shared/model/alarms';
import { alarmExportPieces } from '../../../electron/alarms/export';
import type { AlarmStore } from '../../../electron/alarms/store/alarm-store';
import { openPgAlarmStore } from '../../../electron/alarms/store/pg-alarm-store';
import { ALARM_PG_STEPS } from '../../../electron/alarms/store/pg-alarm-schema';
import { migratePg } from '../../../electron/store/postgres';
import { openAlarmStore } from '../../../electron/alarms/store/sqlite-alarm-store';
import { usePostgres } from '../../support/postgres';

const pg = usePostgres();
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const backends: Array<[string, () => Promise<AlarmStore>]> = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-alarm-contract-'));
      dirs.push(dir);
      return openAlarmStore(path.join(dir, 'alarms.db'));
    },
  ],
  ['PostgreSQL', async () => openPgAlarmStore((await pg.freshDatabase('alarms')).pool)],
];

const T = Date.UTC(2026, 4, 1, 12);
const DAY = 86_400_000;
function item(o: { object?: string; device?: string; org?: string; changes: Array<[number, string, string?]>; messageId?: number | null; handlings?: AlarmItem['handlings']; head?: Partial<AlarmItem['head']> }): AlarmItem {
  const changes = o.changes.map(([eventMs, severity, text]) => ({ eventMs, severity: severity as never, text: text ?? `${severity} at ${eventMs}` }));
  const last = changes.reduce((a, b) => (b.eventMs > a.eventMs ? b : a));
  return {
    head: { device: o.device ?? 'dev-1', deviceName: o.device ?? 'dev-1', org: o.org ?? 'Contoso', object: o.object ?? 'vni-0/0', type: 'interface-down', specificProblem: 'link-down', severity: last.severity, cleared: last.severity === 'cleared', text: last.text, lastChangeMs: last.eventMs, ...o.head },
    changes,
    handlings: o.handlings ?? [],
    messageId: o.messageId ?? null,
  };
}
const all = { cleared: 'all' } as const;
const objects = async (s: AlarmStore, f: Parameters<AlarmStore['list']>[1] = all) => (await s.list('p1', f, 0, 100)).rows.map((r) => r.object);
const idOf = async (s: AlarmStore, object: string) => (await s.list('p1', all, 0, 100)).rows.find((r) => r.object === object)!.id;
const messageIds = async (s: AlarmStore, object = 'vni-0/0') => (await s.detail('p1', await idOf(s, object)))!.statusChanges.map((c) => [c.at, c.messageId]);

describe.each(backends)('alarm store contract: %s', (_name, open) => {
  it('stores a change once whichever path brought it first and however often, and fills in the message ID a REST copy lacked', async () => {
    const s = await open();
    expect(await s.ingest('p1', [item({ changes: [[T, 'major'], [T + 1000, 'cleared']] })], { storedMs: T + 5000 })).toMatchObject({ newChanges: 2, duplicates: 0, newAlarms: 1 });
    const viaBroker = await s.ingest('p1', [item({ changes: [[T + 1000, 'cleared']], messageId: 7 })], { storedMs: T + 6000 });
    expect(viaBroker).toMatchObject({ newChanges: 0, newHandlings: 0, duplicates: 1, newAlarms: 0, aids: [], lagMs: null });
    expect(await s.ingest('p1', [item({ changes: [[T + 1000, 'cleared']], messageId: 7 }), item({ changes: [[T + 1000, 'cleared']], messageId: 7 })], { storedMs: T + 7000 })).toMatchObject({ newChanges: 0, duplicates: 2 });
    expect(await messageIds(s)).toEqual([
      [new Date(T).toISOString(), null],
      [new Date(T + 1000).toISOString(), 7],
    ]);
    expect(await s.counts('p1')).toEqual({ alarms: 1, changes: 2 });
    // The same new change twice in one batch: once.
    const twice = await s.ingest('p1', [item({ changes: [[T + 2000, 'major']], messageId: 8 }), item({ changes: [[T + 2000, 'major']], messageId: 8 })], { storedMs: T + 2500 });
    expect(twice).toMatchObject({ newChanges: 1, duplicates: 1, lagMs: 500 });
    expect(twice.aids).toEqual([await idOf(s, 'vni-0/0')]);
    await s.close();
  });

  it('keeps the state of the newest change by the node’s time, whatever order changes arrive in, and the late one in the history', async () => {
    const s = await open();
    await s.ingest('p1', [item({ changes: [[T + 2000, 'cleared', 'up']], messageId: 3 })], { storedMs: T + 3000 });
    const late = await s.ingest('p1', [item({ changes: [[T + 1000, 'critical', 'down']], messageId: 2 })], { storedMs: T + 3000 });
    expect(late).toMatchObject({ newChanges: 1, newAlarms: 0 });
    expect((await s.list('p1', all, 0, 10)).rows[0]).toMatchObject({ severity: 'cleared', cleared: true, text: 'up', lastChangeAt: new Date(T + 2000).toISOString(), changes: 2 });
    // Within one batch too: the newest wins, not the last.
    await s.ingest('p1', [item({ changes: [[T + 5000, 'major', 'down again']] }), item({ changes: [[T + 4000, 'minor', 'older']] })], { storedMs: T + 6000 });
    expect((await s.list('p1', {}, 0, 10)).rows[0]).toMatchObject({ severity: 'major', cleared: false, text: 'down again', changes: 4 });
    expect((await s.detail('p1', await idOf(s, 'vni-0/0')))!.statusChanges.map((c) => c.text)).toEqual(['down', 'up', 'older', 'down again']);
    await s.close();
  });

  it('stores texts as sent: quotes, backslashes, line breaks and other scripts; a lone surrogate replaced, not refused', async () => {
    const s = await open();
    const odd = 'a "quoted" \\ back\\slash\nnew line\t{x,y} NULL é 😀 ';
    await s.ingest('p1', [item({ changes: [[T + 1000, 'major', odd]], messageId: 1, head: { org: 'Org "1", \\x' } }), item({ object: 'vni-0/1', changes: [[T + 1000, 'minor', 'half \ud800 pair']], messageId: 2 })], { storedMs: T + 2000 });
    const rows = (await s.list('p1', all, 0, 10)).rows;
    expect(rows.find((r) => r.object === 'vni-0/0')).toMatchObject({ text: odd, org: 'Org "1", \\x' });
    // Not refused (PostgreSQL's json would refuse the escape JSON.stringify writes for it): replaced, as UTF-8 replaces it.
    expect(rows.find((r) => r.object === 'vni-0/1')!.text).toMatch(/^half \ufffd+ pair$/);
    expect((await s.detail('p1', await idOf(s, 'vni-0/0')))!.statusChanges.map((c) => c.text)).toEqual([odd]);
    await s.close();
  });

  it('stores a handling once and shows the latest', async () => {
    const s = await open();
    const h = { atMs: T + 10, state: 'ack' as const, user: 'ops', description: 'mine' };
    await s.ingest('p1', [item({ changes: [[T, 'major']], handlings: [h] })], { storedMs: T + 20 });
    expect(await s.ingest('p1', [item({ changes: [[T, 'major']], handlings: [h], messageId: 9 })], { storedMs: T + 30 })).toMatchObject({ newHandlings: 0, duplicates: 2 });
    await s.ingest('p1', [item({ changes: [[T, 'major']], handlings: [{ atMs: T + 5, state: 'investigation', user: 'old', description: '' }] })], { storedMs: T + 40 });
    const d = (await s.detail('p1', await idOf(s, 'vni-0/0')))!;
    expect(d.handlings.map((x) => x.state)).toEqual(['investigation', 'ack']);
    expect(d.handling).toMatchObject({ state: 'ack', user: 'ops', at: new Date(T + 10).toISOString() });
    expect(await s.criticalUnacknowledged('p1')).toBe(0);
    await s.close();
  });

  it('reads: the window newest first with filters and a literal text search, detail, keys, counters, rate, Overview, export', async () => {
    const s = await open();
    await s.ingest(
      'p1',
      [
        item({ object: 'vni-0/0', org: 'A', changes: [[T, 'critical', 'link 100% down']] }),
        item({ object: 'vni-0/1', org: 'A', changes: [[T + 1, 'major']] }),
        item({ object: 'cpu', org: 'B', device: 'dev-2', changes: [[T + 2, 'warning', '=HYPERLINK("x")']] }),
        item({ object: 'vni-0/2', org: 'B', changes: [[T + 3, 'major'], [T + 4, 'cleared']] }),
      ],
      { storedMs: T + 10 },
    );
    expect(await objects(s, {})).toEqual(['cpu', 'vni-0/1', 'vni-0/0']);
    const window = await s.list('p1', all, 1, 2);
    expect({ total: window.total, more: window.more, rows: window.rows.map((r) => r.object) }).toEqual({ total: 4, more: false, rows: ['cpu', 'vni-0/1'] });
    expect(await objects(s, { severity: ['major', 'critical'], org: 'A' })).toEqual(['vni-0/1', 'vni-0/0']);
    expect(await objects(s, { text: '100%' })).toEqual(['vni-0/0']);
    expect(await objects(s, { text: 'hyperLINK' })).toEqual(['cpu']);
    expect((await s.list('p1', { text: '0_0' }, 0, 10)).total).toBe(0);
    expect(await objects(s, { device: 'dev-2', type: 'interface-down' })).toEqual(['cpu']);
    expect(await objects(s, { cleared: 'cleared' })).toEqual(['vni-0/2']);
    const cpu = await idOf(s, 'cpu');
    expect(await s.keys('p1', [cpu, 999_999])).toEqual([{ aid: cpu, device: 'dev-2', deviceName: 'dev-2', object: 'cpu', type: 'interface-down', specificProblem: 'link-down' }]);
    expect(await s.detail('p2', cpu)).toBeUndefined();
    expect(await s.summary('p1')).toEqual({
      organizations: [
        { org: 'A', critical: 1, major: 1, minor: 0, warning: 0, indeterminate: 0, total: 2 },
        { org: 'B', critical: 0, major: 0, minor: 0, warning: 1, indeterminate: 0, total: 1 },
      ],
      totals: { critical: 1, major: 1, minor: 0, warning: 1, indeterminate: 0, total: 3 },
    });
    const rate = await s.rate('p1', 3, T + 60_000);
    expect(rate.buckets.map((b) => b.count)).toEqual([0, 5, 0]);
    expect(rate.buckets[1]).toMatchObject({ at: new Date(T).toISOString(), critical: 1, major: 2, cleared: 1 });
    const o = await s.overview('p1');
    expect(o.active).toEqual({ critical: 1, major: 1, minor: 0, warning: 1, indeterminate: 0, total: 3 });
    expect(o.organizations.map((x) => [x.org, x.total, x.unacknowledged])).toEqual([['A', 2, 2], ['B', 1, 1]]);
    expect(await s.criticalUnacknowledged('p1')).toBe(1);
    expect([await s.collected('p1'), await s.collected('p2')]).toEqual([true, false]);
    expect(await s.newestChangeMs('p1')).toBe(T + 4);
    let csv = '';
    for await (const p of alarmExportPieces(s, 'csv')) csv += p.text;
    expect(csv.split('\r\n')).toHaveLength(6);
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    const since: string[] = [];
    for await (const r of s.exportAlarms(T + 2)) since.push(`${r.source} ${r.object}`);
    expect(since).toEqual(['p1 vni-0/2', 'p1 cpu']);
    await s.close();
  });

  it('keeps sources apart, cursors never backwards, message IDs, backfill records, dead letters (the newest 1,000)', async () => {
    const s = await open();
    await s.ingest('p1', [item({ changes: [[T, 'major']], messageId: 1 })], { storedMs: T, messageIds: new Map([['node-1', 1]]), cursorMs: T });
    await s.ingest('p2', [item({ changes: [[T, 'major']] })], { storedMs: T });
    expect([await s.counts('p1'), await s.counts('p2')]).toEqual([
      { alarms: 1, changes: 1 },
      { alarms: 1, changes: 1 },
    ]);
    await s.advanceCursor('p1', T - 5000);
    await s.recordBackfill('p1', T + 100, 3);
    expect(await s.sourceState('p1')).toEqual({ cursorMs: T, lastBackfillMs: T + 100, lastBackfillNew: 3, lastStoredMs: T, lastLagMs: 0, messageIds: new Map([['node-1', 1]]) });
    expect(await s.sourceState('p3')).toEqual({ cursorMs: 0, lastBackfillMs: null, lastBackfillNew: null, lastStoredMs: null, lastLagMs: null, messageIds: new Map() });
    await s.advanceCursor('p3', T + 9);
    expect((await s.sourceState('p3')).cursorMs).toBe(T + 9);
    expect(await s.collected('p3')).toBe(false);
    await s.recordBackfill('p3', T, 0);
    expect(await s.collected('p3')).toBe(true);
    const dead = Array.from({ length: 1005 }, (_, i) => ({ reason: `r${i}`, routingKey: 'k', excerpt: 'x'.repeat(3000) }));
    await s.ingest('p1', [], { storedMs: T, deadLetters: dead });
    const kept = await s.deadLetters('p1', 2000);
    expect(kept).toHaveLength(1000);
    expect(kept[0]).toMatchObject({ reason: 'r1004', atMs: T, routingKey: 'k' });
    expect(kept[0]!.excerpt).toHaveLength(2048);
    const { counts, seq } = await s.countsAt('p1');
    expect(counts).toEqual({ alarms: 1, changes: 1 });
    expect(seq).toBeGreaterThan(0);
    expect(seq).toBeLessThanOrEqual(await s.headSeq());
    expect(typeof (await s.installId())).toBe('string');
    expect(await s.installId()).toBe(await s.installId());
    await s.close();
  });

  it('hands the notifier the changes stored between two sequences, and the window what changed after one', async () => {
    const s = await open();
    await s.ingest('p1', [item({ object: 'a', changes: [[T, 'major']] })], { storedMs: T });
    const from = await s.changeSeq();
    const head = await s.headSeq();
    await s.ingest('p1', [item({ object: 'b', changes: [[T + 1, 'critical', 'b down']] }), item({ object: 'c', changes: [[T + 2, 'critical', 'c down'], [T - DAY, 'major']] })], { storedMs: T + 5 });
    const to = await s.changeSeq();
    expect(to).toBeGreaterThan(from);
    expect((await s.changeCounts('p1', { fromSeq: from, toSeq: to, sinceMs: T - 1000 })).sort((x, y) => x.severity.localeCompare(y.severity))).toEqual([{ severity: 'critical', n: 2 }]);
    expect(await s.newestChange('p1', { fromSeq: from, toSeq: to, sinceMs: 0 }, 'critical')).toMatchObject({ severity: 'critical', text: 'c down', device_name: 'dev-1', org: 'Contoso', object: 'c' });
    expect(await s.newestChange('p2', { fromSeq: from, toSeq: to, sinceMs: 0 }, 'critical')).toBeUndefined();
    expect(await objects(s, { afterSeq: head })).toEqual(['c', 'b']);
    await s.close();
  });

  it('retention drops old changes and old cleared alarms, an active alarm keeps its newest change; the cap goes oldest first', async () => {
    const s = await open();
    const now = T + 40 * DAY;
    await s.ingest('p1', [item({ object: 'old-cleared', changes: [[T, 'major'], [T + 1, 'cleared']] }), item({ object: 'old-active', changes: [[T, 'minor'], [T + 2, 'major']] }), item({ object: 'recent', changes: [[now - DAY, 'warning']] })], { storedMs: now });
    expect(await s.applyRetention({ nowMs: now, days: 30 })).toEqual({ changes: 1, handlings: 0, alarms: 1 });
    expect((await s.list('p1', all, 0, 10)).rows.map((x) => [x.object, x.changes])).toEqual([['recent', 1], ['old-active', 1]]);
    const changes = Array.from({ length: 50 }, (_, i): [number, string] => [now + i, i % 2 ? 'cleared' : 'major']);
    await s.ingest('p1', [item({ object: 'flapping', changes })], { storedMs: now });
    expect(await s.applyRetention({ nowMs: now + 100, days: 30, maxChanges: 20 })).toMatchObject({ changes: 32 });
    const d = (await s.detail('p1', await idOf(s, 'flapping')))!;
    expect(d.statusChanges).toHaveLength(20);
    expect(d.statusChanges[0]!.at).toBe(new Date(now + 30).toISOString());
    await s.close();
  });

  it('sets aside times past now plus the clock skew, and moves such a cursor back', async () => {
    const s = await open();
    const now = T;
    await s.ingest('p1', [item({ object: 'ok', changes: [[T - 1000, 'major']] }), item({ object: 'future', changes: [[T - 2000, 'minor'], [T + 5 * DAY, 'critical']] })], { storedMs: now, cursorMs: T + 5 * DAY });
    expect(await s.repairTimes(now, DAY)).toEqual({ cursors: 1, changes: 1, handlings: 0, alarms: 1 });
    expect((await s.list('p1', all, 0, 10)).rows.map((r) => [r.object, r.severity, r.lastChangeAt])).toEqual([
      ['ok', 'major', new Date(T - 1000).toISOString()],
      ['future', 'minor', new Date(T - 2000).toISOString()],
    ]);
    expect((await s.sourceState('p1')).cursorMs).toBe(now);
    expect((await s.deadLetters('p1')).map((d) => d.routingKey)).toEqual(['store repair', 'store repair', 'store repair']);
    expect(await s.repairTimes(now, DAY)).toEqual({ cursors: 0, changes: 0, handlings: 0, alarms: 0 });
    await s.close();
  });

  it('forgets everything of a source and keeps the others; rolls a failed batch back whole', async () => {
    const s = await open();
    await s.ingest('p1', [item({ changes: [[T, 'major']], messageId: 1 })], { storedMs: T, messageIds: new Map([['n', 1]]), cursorMs: T, deadLetters: [{ reason: 'x', routingKey: 'k', excerpt: '' }] });
    await s.ingest('p2', [item({ changes: [[T, 'major']] })], { storedMs: T });
    await s.forgetSource('p1');
    expect(await s.counts('p1')).toEqual({ alarms: 0, changes: 0 });
    expect(await s.sourceState('p1')).toMatchObject({ cursorMs: 0, messageIds: new Map() });
    expect(await s.deadLetters('p1')).toEqual([]);
    expect(await s.counts('p2')).toEqual({ alarms: 1, changes: 1 });
    const bad = item({ object: 'bad', changes: [[T, 'major']] });
    (bad.head as { org: unknown }).org = null; // NOT NULL
    await expect(s.ingest('p3', [item({ object: 'fine', changes: [[T, 'major']] }), bad], { storedMs: T })).rejects.toThrow();
    expect(await s.counts('p3')).toEqual({ alarms: 0, changes: 0 });
    await s.close();
  });
});

/** A source's alarms and changes as the list shows them (its total, and each row's own count of changes): not the kept counts. */
async function listed(s: AlarmStore, source: string): Promise<{ alarms: number; changes: number }> {
  const page = await s.list(source, all, 0, 1000);
  return { alarms: page.total, changes: page.rows.reduce((a, r) => a + r.changes, 0) };
}

describe.each(backends)('alarm store windows with a search (C-82): %s', (_name, open) => {
  it('pages a searched list as the whole list filtered: the same rows in the same order, the same total, past the end and with nothing found', async () => {
    const s = await open();
    // Ties in time (ordered by id), cleared and open, matches in every searched field.
    const items = Array.from({ length: 23 }, (_, i) =>
      item({ object: i % 3 === 0 ? `tun-${i}` : `vni-${i}`, device: i % 5 === 0 ? 'edge-TUN' : 'dev-1', changes: [[T + Math.floor(i / 2), i % 4 === 3 ? 'cleared' : 'major', i % 7 === 0 ? 'Tunnel down' : 'link down']] }),
    );
    await s.ingest('p1', items, { storedMs: T + 100 });
    await s.ingest('p2', [item({ object: 'tun-other', changes: [[T, 'major']] })], { storedMs: T + 100 });
    for (const f of [{ text: 'tun', cleared: 'all' as const }, { text: 'TUN' }, { text: 'tun', severity: ['major' as const] }, { text: 'nothing-like-it', cleared: 'all' as const }]) {
      const { text, ...rest } = f;
      const every = (await s.list('p1', rest, 0, 1000)).rows.filter((r) => [r.text, r.object, r.deviceName, r.type, r.specificProblem].some((x) => x.toLowerCase().includes(text.toLowerCase())));
      for (const [offset, limit] of [[0, 5], [5, 5], [3, 100], [every.length - 1, 5], [every.length, 5], [every.length + 10, 5]] as const) {
        if (offset < 0) continue;
        const page = await s.list('p1', f, offset, limit);
        expect({ total: page.total, ids: page.rows.map((r) => r.id), more: page.more }).toEqual({ total: every.length, ids: every.slice(offset, offset + limit).map((r) => r.id), more: false });
        expect(page.rows).toEqual(every.slice(offset, offset + limit));
      }
    }
    await s.close();
  });
});

describe.each(backends)('alarm store counts (C-82): %s', (_name, open) => {
  it('keeps each source’s counts as batches store and retention, repair and forgetting remove: always what its rows say', async () => {
    const s = await open();
    const same = async () => {
      for (const source of ['p1', 'p2', 'p3']) expect(await s.counts(source)).toEqual(await listed(s, source));
      expect((await s.countsAt('p1')).counts).toEqual(await listed(s, 'p1'));
    };
    const now = T + 40 * DAY;
    await s.ingest('p1', [item({ object: 'old-cleared', changes: [[T, 'major'], [T + 1, 'cleared']] }), item({ object: 'old-active', changes: [[T, 'minor'], [T + 2, 'major']] }), item({ object: 'recent', changes: [[now - DAY, 'warning']] })], { storedMs: now });
    await s.ingest('p2', [item({ object: 'other', changes: [[T, 'major'], [now - 5, 'critical']] })], { storedMs: now });
    // Duplicates, a new change of a known alarm, a handling alone: only what is new counts.
    await s.ingest('p1', [item({ object: 'recent', changes: [[now - DAY, 'warning'], [now - 10, 'major']], handlings: [{ atMs: now - 9, state: 'ack', user: 'u', description: '' }] })], { storedMs: now });
    await s.ingest('p1', [item({ object: 'recent', changes: [[now - 10, 'major']] })], { storedMs: now, cursorMs: now });
    await same();
    expect(await s.counts('p1')).toEqual({ alarms: 3, changes: 6 });
    // Retention by age: an old change of an active alarm, a cleared alarm with its changes, across sources.
    expect(await s.applyRetention({ nowMs: now, days: 30 })).toEqual({ changes: 2, handlings: 0, alarms: 1 });
    await same();
    expect(await s.counts('p1')).toEqual({ alarms: 2, changes: 3 });
    // The cap: the oldest changes go, and a cleared alarm left without any.
    const flapping = Array.from({ length: 30 }, (_, i): [number, string] => [now + i, i === 29 ? 'cleared' : i % 2 ? 'cleared' : 'major']);
    await s.ingest('p3', [item({ object: 'flapping', changes: flapping })], { storedMs: now + 30 });
    await s.ingest('p1', [item({ object: 'late', changes: [[now + 40, 'critical']] })], { storedMs: now + 40 });
    await same();
    expect((await s.applyRetention({ nowMs: now + 50, days: 30, maxChanges: 10 })).changes).toBeGreaterThan(0);
    await same();
    // Times past now plus the skew set aside: a change goes, an alarm left with none goes.
    await s.ingest('p1', [item({ object: 'future', changes: [[now + 5 * DAY, 'critical']] }), item({ object: 'late', changes: [[now + 6 * DAY, 'major']] })], { storedMs: now + 60 });
    await same();
    expect(await s.repairTimes(now + 60, DAY)).toMatchObject({ changes: 2 });
    await same();
    // A failed batch counts nothing; a forgotten source counts nothing.
    const bad = item({ object: 'bad', changes: [[now + 70, 'major']] });
    (bad.head as { org: unknown }).org = null;
    await expect(s.ingest('p1', [item({ object: 'fine', changes: [[now + 70, 'major']] }), bad], { storedMs: now + 70 })).rejects.toThrow();
    await same();
    await s.forgetSource('p2');
    expect(await s.counts('p2')).toEqual({ alarms: 0, changes: 0 });
    await same();
    await s.close();
  });
});

describe('alarm store counts (C-82): a store made before them is counted when it migrates', () => {
  const batches = async (s: AlarmStore) => {
    await s.ingest('p1', [item({ object: 'a', changes: [[T, 'major'], [T + 1, 'cleared']] }), item({ object: 'b', changes: [[T + 2, 'minor']] })], { storedMs: T + 5 });
    await s.ingest('p2', [item({ object: 'c', changes: [[T, 'critical']] })], { storedMs: T + 5 });
  };
  it('SQLite (step 3)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-alarm-counts-'));
    dirs.push(dir);
    const file = path.join(dir, 'alarms.db');
    const before = openAlarmStore(file);
    await batches(before);
    // As step 2 left it: no counts.
    before.db.db.exec('ALTER TABLE sources DROP COLUMN alarm_count; ALTER TABLE sources DROP COLUMN change_count; DELETE FROM sources; PRAGMA user_version = 2');
    await before.close();
    const s = openAlarmStore(file);
    expect([await s.counts('p1'), await s.counts('p2')]).toEqual([
      { alarms: 2, changes: 3 },
      { alarms: 1, changes: 1 },
    ]);
    await s.close();
  });
  it('PostgreSQL (step 3)', async () => {
    const db = await pg.freshDatabase('alarms_counts');
    await batches(await openPgAlarmStore(db.pool));
    await db.pool.query("ALTER TABLE alarm_sources DROP COLUMN alarm_count, DROP COLUMN change_count; DELETE FROM alarm_sources; UPDATE northbound_migrations SET version = 2 WHERE store = 'alarms'");
    const s = await openPgAlarmStore(db.pool);
    expect([await s.counts('p1'), await s.counts('p2')]).toEqual([
      { alarms: 2, changes: 3 },
      { alarms: 1, changes: 1 },
    ]);
  });
});

describe('alarm store on PostgreSQL: two collectors at once', () => {
  it('stores each change of overlapping batches written side by side once, and the newest state wins', async () => {
    const db = await pg.freshDatabase('alarms_race');
    const a = await openPgAlarmStore(db.pool);
    const b = await openPgAlarmStore(pg.pool(db.name));
    // 40 alarms × 30 changes, every change in both collectors' batches, in opposite orders.
    const changes = Array.from({ length: 40 }, (_, k) => Array.from({ length: 30 }, (_, i) => item({ object: `o${k}`, changes: [[T + i * 1000 + k, i === 29 ? 'cleared' : 'major', `o${k} #${i}`]], messageId: k * 30 + i + 1 })));
    const flat = changes.flat();
    const batches = (list: AlarmItem[]) => Array.from({ length: Math.ceil(list.length / 100) }, (_, i) => list.slice(i * 100, i * 100 + 100));
    const write = async (s: AlarmStore, list: AlarmItem[]) => {
      let added = 0;
      for (const batch of batches(list)) added += (await s.ingest('p1', batch, { storedMs: T + 60_000 })).newChanges;
      return added;
    };
    const [x, y] = await Promise.all([write(a, flat), write(b, [...flat].reverse())]);
    expect(x + y).toBe(1200);
    expect(await a.counts('p1')).toEqual({ alarms: 40, changes: 1200 });
    const rows = (await a.list('p1', all, 0, 100)).rows;
    expect(rows.every((r) => r.severity === 'cleared' && r.text.endsWith('#29'))).toBe(true);
    const ids = await db.pool.query<{ n: string; d: string }>('SELECT COUNT(*) AS n, COUNT(DISTINCT message_id) AS d FROM alarm_changes');
    expect(ids.rows[0]).toEqual({ n: '1200', d: '1200' });
  }, 60_000);
});

describe('alarm store on PostgreSQL: what a fleet of collectors shares (C-66)', () => {
  it('lets one collector at a time hold a node’s lock; another is told no at once, and may have it after', async () => {
    const db = await pg.freshDatabase('alarms_lock');
    const a = await openPgAlarmStore(db.pool);
    const b = await openPgAlarmStore(pg.pool(db.name));
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const inside = new Promise<void>((r) => (entered = r));
    const first = a.exclusive('p1', async () => {
      entered();
      await held;
      return 'a';
    });
    await inside;
    expect(await b.exclusive('p1', async () => 'b')).toEqual({ ran: false });
    expect(await b.exclusive('p2', async () => 'another node')).toEqual({ ran: true, value: 'another node' });
    release();
    expect(await first).toEqual({ ran: true, value: 'a' });
    expect(await b.exclusive('p1', async () => 'b')).toEqual({ ran: true, value: 'b' });
  });

  it('finds a gap over every collector’s messages only after the grace time, and closes it after a backfill', async () => {
    const s = await openPgAlarmStore((await pg.freshDatabase('alarms_marks')).pool);
    const mark = (id: number) => ({ director: 'd1', messageId: id, newestEventMs: T + id });
    // Two collectors' shares of the stream: 1, 3 and 2, 5 (4 is missing).
    await s.ingest('p1', [item({ object: 'a', changes: [[T + 1, 'major']], messageId: 1 }), item({ object: 'a', changes: [[T + 3, 'major']], messageId: 3 })], { storedMs: T, marks: [mark(1), mark(3)] });
    await s.ingest('p1', [item({ object: 'a', changes: [[T + 2, 'minor']], messageId: 2 }), item({ object: 'a', changes: [[T + 5, 'major']], messageId: 5 })], { storedMs: T, marks: [mark(2), mark(5)] });
    const soon = await s.checkStream('p1', { nowMs: T + 1000, graceMs: 5000 });
    expect(soon.holes).toEqual([]);
    expect(await s.sourceState('p1')).toMatchObject({ cursorMs: T + 3, messageIds: new Map([['d1', 3]]) });
    const later = await s.checkStream('p1', { nowMs: T + 6000, graceMs: 5000 });
    expect(later.holes).toEqual([{ director: 'd1', from: 4, to: 4, kind: 'gap' }]);
    await s.closeHoles('p1', later);
    expect((await s.sourceState('p1')).messageIds).toEqual(new Map([['d1', 5]]));
    // The node counted from 1 again: followed, not a hole.
    await s.ingest('p1', [item({ object: 'a', changes: [[T + 9, 'major']], messageId: 1 })], { storedMs: T + 9000, marks: [{ director: 'd1', messageId: 1, newestEventMs: T + 9 }] });
    expect((await s.checkStream('p1', { nowMs: T + 20_000, graceMs: 5000 })).holes).toEqual([]);
    expect(await s.sourceState('p1')).toMatchObject({ cursorMs: T + 9, messageIds: new Map([['d1', 1]]) });
  });

  it('keeps a batch’s marks as one set (C-73): a message marked twice counts once, and a set reaching past the watermark keeps only its IDs above it', async () => {
    const db = await pg.freshDatabase('alarms_mark_sets');
    const s = await openPgAlarmStore(db.pool);
    const mark = (id: number) => ({ director: 'd1', messageId: id, newestEventMs: T + id });
    const one = (id: number) => item({ object: 'a', changes: [[T + id, 'major']], messageId: id });
    // A batch of 4, 1, 2 (3 is on its way in another batch), and a redelivery of 2.
    await s.ingest('p1', [one(4), one(1), one(2)], { storedMs: T, marks: [mark(4), mark(1), mark(2)] });
    await s.ingest('p1', [one(2)], { storedMs: T + 10, marks: [mark(2)] });
    expect((await s.checkStream('p1', { nowMs: T + 1000, graceMs: 5000 })).holes).toEqual([]);
    expect(await s.sourceState('p1')).toMatchObject({ cursorMs: T + 2, messageIds: new Map([['d1', 2]]) });
    const sets = async () => (await db.pool.query<{ ids: string[] }>('SELECT ids FROM alarm_mark_sets ORDER BY min_id')).rows.map((r) => r.ids.map(Number));
    // 1 would look like the node counting from 1 again had it stayed beside the watermark.
    expect(await sets()).toEqual([[4]]);
    await s.ingest('p1', [one(3)], { storedMs: T + 20, marks: [mark(3)] });
    expect((await s.checkStream('p1', { nowMs: T + 10_000, graceMs: 5000 })).holes).toEqual([]);
    expect(await s.sourceState('p1')).toMatchObject({ cursorMs: T + 4, messageIds: new Map([['d1', 4]]) });
    expect(await sets()).toEqual([]);
  });

  it('carries the marks of a store made before C-73 over into sets when it migrates', async () => {
    const db = await pg.freshDatabase('alarms_mark_migration');
    await migratePg(db.pool, 'alarms', ALARM_PG_STEPS.slice(0, 1));
    await db.pool.query(`INSERT INTO alarm_marks (source, director, message_id, event_ms, stored_ms) VALUES ('p1', 'd1', 2, ${T + 2}, ${T}), ('p1', 'd1', 1, ${T + 1}, ${T}), ('p1', 'd1', 5, NULL, ${T + 5})`);
    const s = await openPgAlarmStore(db.pool);
    expect((await db.pool.query('SELECT director, stored_ms, min_id, max_id, ids, event_ms FROM alarm_mark_sets ORDER BY min_id')).rows).toEqual([
      { director: 'd1', stored_ms: String(T), min_id: '1', max_id: '2', ids: ['1', '2'], event_ms: [String(T + 1), String(T + 2)] },
      { director: 'd1', stored_ms: String(T + 5), min_id: '5', max_id: '5', ids: ['5'], event_ms: [null] },
    ]);
    expect(await db.pool.query("SELECT to_regclass('alarm_marks') AS t").then((r) => r.rows[0].t)).toBeNull();
    expect((await s.checkStream('p1', { nowMs: T + 1000, graceMs: 5000 })).upTo).toEqual(new Map([['d1', 5]]));
  });
});
