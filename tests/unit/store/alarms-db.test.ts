/**
 * alarms.db: every change stored once whichever path brings it (MN-AL6), the alarm's state from
 * its newest change, cursors and message IDs across a restart, retention with its row cap
 * (MN-AL11), the window's reads.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlarmItem } from '../../../shared/model/alarms';
import { AlarmDb } from '../../../electron/alarms/store/alarms-db';
import { applyAlarmRetention } from '../../../electron/alarms/store/alarms-retention';
import { alarmDetail, alarmRate, alarmSummary, listAlarms } from '../../../electron/alarms/store/alarms-views';
import { SqliteAlarmStore } from '../../../electron/alarms/store/sqlite-alarm-store';
import { alarmExportPieces } from '../../../electron/alarms/export';

let dir: string;
let store: AlarmDb;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-alarmdb-'));
  store = new AlarmDb(path.join(dir, 'alarms.db'));
});
afterEach(() => {
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

const T = Date.UTC(2026, 4, 1, 12);
function item(o: { object?: string; device?: string; org?: string; changes: Array<[number, string, string?]>; messageId?: number | null; handlings?: AlarmItem['handlings'] }): AlarmItem {
  const changes = o.changes.map(([eventMs, severity, text]) => ({ eventMs, severity: severity as never, text: text ?? `${severity} at ${eventMs}` }));
  const last = changes.reduce((a, b) => (b.eventMs > a.eventMs ? b : a));
  return {
    head: { device: o.device ?? 'dev-1', deviceName: o.device ?? 'dev-1', org: o.org ?? 'Contoso', object: o.object ?? 'vni-0/0', type: 'interface-down', specificProblem: 'link-down', severity: last.severity, cleared: last.severity === 'cleared', text: last.text, lastChangeMs: last.eventMs },
    changes,
    handlings: o.handlings ?? [],
    messageId: o.messageId ?? null,
  };
}
const ids = () => store.db.prepare('SELECT event_ms, message_id FROM changes ORDER BY event_ms').all();

describe('alarms.db', () => {
  it('is created private (0600) and knows its install id across a reopen', () => {
    expect(statSync(store.file).mode & 0o777).toBe(0o600);
    const id = store.installId();
    store.close();
    store = new AlarmDb(store.file);
    expect(store.installId()).toBe(id);
  });

  it('stores a change once whichever path brought it first, and fills in the message ID a REST copy lacked', () => {
    const rest = store.ingest('p1', [item({ changes: [[T, 'major'], [T + 1000, 'cleared']] })], { storedMs: T + 5000 });
    expect(rest).toMatchObject({ newChanges: 2, duplicates: 0, newAlarms: 1 });
    const viaBroker = store.ingest('p1', [item({ changes: [[T + 1000, 'cleared']], messageId: 7 })], { storedMs: T + 6000 });
    expect(viaBroker).toMatchObject({ newChanges: 0, duplicates: 1, newAlarms: 0, aids: [] });
    expect(ids()).toEqual([{ event_ms: T, message_id: null }, { event_ms: T + 1000, message_id: 7 }]);
    // The same message again (a redelivery) changes nothing.
    expect(store.ingest('p1', [item({ changes: [[T + 1000, 'cleared']], messageId: 7 })], { storedMs: T + 7000 })).toMatchObject({ newChanges: 0, duplicates: 1 });
    expect(store.counts('p1')).toEqual({ alarms: 1, changes: 2 });
  });

  it('keeps the state of the newest change when changes arrive out of order', () => {
    store.ingest('p1', [item({ changes: [[T + 2000, 'cleared', 'up']], messageId: 3 })], { storedMs: T + 3000 });
    store.ingest('p1', [item({ changes: [[T + 1000, 'critical', 'down']], messageId: 2 })], { storedMs: T + 3000 });
    const row = listAlarms(store.db, 'p1', { cleared: 'all' }, 0, 10).rows[0]!;
    expect(row).toMatchObject({ severity: 'cleared', cleared: true, text: 'up', lastChangeAt: new Date(T + 2000).toISOString(), changes: 2 });
    store.ingest('p1', [item({ changes: [[T + 3000, 'major', 'down again']] })], { storedMs: T + 4000 });
    expect(listAlarms(store.db, 'p1', {}, 0, 10).rows[0]).toMatchObject({ severity: 'major', cleared: false, text: 'down again' });
  });

  it('stores a handling once and shows the latest', () => {
    const h = { atMs: T + 10, state: 'ack' as const, user: 'ops', description: 'mine' };
    store.ingest('p1', [item({ changes: [[T, 'major']], handlings: [h] })], { storedMs: T + 20 });
    store.ingest('p1', [item({ changes: [[T, 'major']], handlings: [h], messageId: 9 })], { storedMs: T + 30 });
    const d = alarmDetail(store.db, 'p1', listAlarms(store.db, 'p1', {}, 0, 1).rows[0]!.id)!;
    expect(d.handlings).toEqual([{ at: new Date(T + 10).toISOString(), state: 'ack', user: 'ops', description: 'mine' }]);
    expect(d.handling).toMatchObject({ state: 'ack', user: 'ops' });
    expect(store.db.prepare('SELECT message_id FROM handlings').all()).toEqual([{ message_id: 9 }]);
  });

  it('keeps sources apart, and cursors and message IDs across a reopen', () => {
    store.ingest('p1', [item({ changes: [[T, 'major']], messageId: 1 })], { storedMs: T, messageIds: new Map([['node-1', 1]]), cursorMs: T });
    store.ingest('p2', [item({ changes: [[T, 'major']] })], { storedMs: T });
    expect(store.counts('p1')).toEqual({ alarms: 1, changes: 1 });
    expect(store.counts('p2')).toEqual({ alarms: 1, changes: 1 });
    store.advanceCursor('p1', T - 5000); // never backwards
    store.close();
    store = new AlarmDb(path.join(dir, 'alarms.db'));
    const s = store.sourceState('p1');
    expect(s.cursorMs).toBe(T);
    expect(s.messageIds).toEqual(new Map([['node-1', 1]]));
    store.forgetSource('p2');
    expect(store.counts('p2')).toEqual({ alarms: 0, changes: 0 });
    expect(store.counts('p1')).toEqual({ alarms: 1, changes: 1 });
  });

  it('keeps the newest dead letters only', () => {
    const dead = Array.from({ length: 1005 }, (_, i) => ({ reason: `r${i}`, routingKey: 'k', excerpt: 'x'.repeat(3000) }));
    store.ingest('p1', [], { storedMs: T, deadLetters: dead });
    expect((store.db.prepare('SELECT COUNT(*) AS n FROM dead_letters').get() as { n: number }).n).toBe(1000);
    expect(store.deadLetters('p1', 1)[0]).toMatchObject({ reason: 'r1004' });
    expect(store.deadLetters('p1', 1)[0]!.excerpt).toHaveLength(2048);
  });

  it('rolls a failed batch back whole', () => {
    const bad = item({ changes: [[T, 'major']] });
    (bad.head as { org: unknown }).org = null; // NOT NULL
    expect(() => store.ingest('p1', [item({ object: 'vni-0/1', changes: [[T, 'major']] }), bad], { storedMs: T })).toThrow();
    expect(store.counts('p1')).toEqual({ alarms: 0, changes: 0 });
    expect(store.headSeq).toBe(0);
  });
});

describe('retention', () => {
  const DAY = 86_400_000;
  it('drops changes and cleared alarms older than the setting; an active alarm keeps its newest change', () => {
    const now = T + 40 * DAY;
    store.ingest('p1', [item({ object: 'old-cleared', changes: [[T, 'major'], [T + 1, 'cleared']] }), item({ object: 'old-active', changes: [[T, 'minor'], [T + 2, 'major']] }), item({ object: 'recent', changes: [[now - DAY, 'warning']] })], { storedMs: now });
    const r = applyAlarmRetention(store.db, { nowMs: now, days: 30 });
    expect(r.alarms).toBe(1);
    const rows = listAlarms(store.db, 'p1', { cleared: 'all' }, 0, 10).rows;
    expect(rows.map((x) => [x.object, x.changes])).toEqual([['recent', 1], ['old-active', 1]]);
  });

  it('caps the stored changes, oldest first', () => {
    const changes = Array.from({ length: 50 }, (_, i): [number, string] => [T + i, i % 2 ? 'cleared' : 'major']);
    store.ingest('p1', [item({ changes })], { storedMs: T });
    applyAlarmRetention(store.db, { nowMs: T + 100, days: 30, maxChanges: 20 });
    const left = store.db.prepare('SELECT event_ms FROM changes ORDER BY event_ms').all() as Array<{ event_ms: number }>;
    expect(left).toHaveLength(20);
    expect(left[0]!.event_ms).toBe(T + 30);
  });
});

describe('reads', () => {
  beforeEach(() => {
    store.ingest(
      'p1',
      [
        item({ object: 'vni-0/0', org: 'A', changes: [[T, 'critical', 'link 100% down']] }),
        item({ object: 'vni-0/1', org: 'A', changes: [[T + 1, 'major']] }),
        item({ object: 'cpu', org: 'B', device: 'dev-2', changes: [[T + 2, 'warning', '=HYPERLINK("x")']] }),
        item({ object: 'vni-0/2', org: 'B', changes: [[T + 3, 'major'], [T + 4, 'cleared']] }),
      ],
      { storedMs: T + 10 },
    );
  });

  it('filter, count and window newest first; text search treats % and _ as text', () => {
    expect(listAlarms(store.db, 'p1', {}, 0, 10).rows.map((r) => r.object)).toEqual(['cpu', 'vni-0/1', 'vni-0/0']);
    expect(listAlarms(store.db, 'p1', { cleared: 'all' }, 1, 2)).toMatchObject({ total: 4, rows: [{ object: 'cpu' }, { object: 'vni-0/1' }] });
    expect(listAlarms(store.db, 'p1', { severity: ['major', 'critical'], org: 'A' }, 0, 10).rows.map((r) => r.object)).toEqual(['vni-0/1', 'vni-0/0']);
    expect(listAlarms(store.db, 'p1', { text: '100%' }, 0, 10).rows.map((r) => r.object)).toEqual(['vni-0/0']);
    expect(listAlarms(store.db, 'p1', { text: '0_0' }, 0, 10).total).toBe(0);
    expect(listAlarms(store.db, 'p1', { device: 'dev-2', type: 'interface-down' }, 0, 10).rows.map((r) => r.object)).toEqual(['cpu']);
  });

  it('count active alarms per organization and severity, and changes per minute', () => {
    expect(alarmSummary(store.db, 'p1')).toEqual({
      organizations: [
        { org: 'A', critical: 1, major: 1, minor: 0, warning: 0, indeterminate: 0, total: 2 },
        { org: 'B', critical: 0, major: 0, minor: 0, warning: 1, indeterminate: 0, total: 1 },
      ],
      totals: { critical: 1, major: 1, minor: 0, warning: 1, indeterminate: 0, total: 3 },
    });
    const rate = alarmRate(store.db, 'p1', 3, T + 60_000);
    expect(rate.buckets.map((b) => b.count)).toEqual([0, 5, 0]);
    expect(rate.buckets[1]).toMatchObject({ at: new Date(T).toISOString(), critical: 1, major: 2, cleared: 1 });
  });

  it('export as CSV with formulas escaped, and as JSON Lines', async () => {
    const text = async (pieces: AsyncIterable<{ text: string }>) => {
      let out = '';
      for await (const p of pieces) out += p.text;
      return out;
    };
    const csv = await text(alarmExportPieces(new SqliteAlarmStore(store), 'csv'));
    const lines = csv.split('\r\n');
    expect(lines[0]).toBe('source,sourceName,id,device,deviceName,org,object,type,specificProblem,severity,cleared,text,lastChangeAt,changes,handlingState,handlingUser,handlingAt,handlingDescription');
    expect(lines).toHaveLength(6); // header, 4 alarms, the final line break
    expect(csv).toContain(`"'=HYPERLINK(""x"")"`);
    const jsonl = await text(alarmExportPieces(new SqliteAlarmStore(store), 'jsonl', T + 2));
    expect(jsonl.trim().split('\n').map((l) => (JSON.parse(l) as { object: string }).object)).toEqual(['vni-0/2', 'cpu']);
  });
});
