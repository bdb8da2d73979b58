/**
 * The backfill cursor (MN-AL9) against a fake node list with the node's semantics (changed after a
 * time, oldest first, offset and limit): alarms that change while it pages are not skipped, a whole
 * page in one millisecond is stepped over, and it ends.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backfill } from '../../../electron/alarms/backfill';
import type { AlarmPageQuery, AlarmPageResult, NodeAlarmApi } from '../../../electron/alarms/node-api';
import type { AlarmItem } from '../../../shared/model/alarms';
import type { AlarmStore } from '../../../electron/alarms/store/alarm-store';
import { alarmDb, openAlarmStore } from '../../support/alarm-fixtures';

interface FakeAlarm {
  object: string;
  changes: Array<{ eventMs: number; severity: 'major' | 'cleared' }>;
}

/** The node's list: `after` exclusive, oldest change first, ties by creation. `onPage` runs before each answer. */
function fakeNode(alarms: FakeAlarm[], onPage: (n: number) => void = () => undefined) {
  const calls: AlarmPageQuery[] = [];
  const toItem = (a: FakeAlarm): AlarmItem => {
    const last = a.changes[a.changes.length - 1]!;
    return {
      head: { device: 'd', deviceName: 'd', org: 'o', object: a.object, type: 't', specificProblem: 's', severity: last.severity, cleared: last.severity === 'cleared', text: '', lastChangeMs: last.eventMs },
      changes: a.changes.map((c) => ({ ...c, text: '' })),
      handlings: [],
      messageId: null,
    };
  };
  const api = {
    async page(q: AlarmPageQuery): Promise<AlarmPageResult> {
      calls.push(q);
      onPage(calls.length);
      const selected = alarms
        .map((a, i) => ({ a, i, t: a.changes[a.changes.length - 1]!.eventMs }))
        .filter((x) => q.lastChangeAfter === undefined || x.t > q.lastChangeAfter)
        .sort((x, y) => x.t - y.t || x.i - y.i)
        .slice(q.offset, q.offset + q.limit)
        .map((x) => toItem(x.a));
      return { items: selected, records: selected.length, total: undefined, unreadable: 0, reasons: [] };
    },
  } as unknown as NodeAlarmApi;
  return { api, calls };
}

let dir: string;
let store: AlarmStore;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-backfill-'));
  store = openAlarmStore(path.join(dir, 'alarms.db'));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});
const changesStored = () => (alarmDb(store).db.prepare('SELECT COUNT(*) AS n FROM changes').get() as { n: number }).n;

describe('backfill', () => {
  it('reads every alarm changed since the cursor, page by page, until the node sends an empty page', async () => {
    const alarms = Array.from({ length: 25 }, (_, i) => ({ object: `o${i}`, changes: [{ eventMs: 1000 + i * 10, severity: 'major' as const }] }));
    const { api, calls } = fakeNode(alarms);
    const r = await backfill(api, store, 'p', { fromMs: 1100, pageSize: 4 });
    expect(r).toMatchObject({ added: 15, newestMs: 1240 });
    expect(changesStored()).toBe(15);
    expect(calls[0]).toMatchObject({ lastChangeAfter: 1099, offset: 0, order: 'asc' });
    // Each next page asks from the last time seen (and reads that millisecond again).
    expect(calls[1]).toMatchObject({ lastChangeAfter: 1129, offset: 0 });
  });

  it('skips nothing when alarms change while it pages (they move to the end of the list)', async () => {
    const alarms: FakeAlarm[] = Array.from({ length: 30 }, (_, i) => ({ object: `o${i}`, changes: [{ eventMs: 1000 + i, severity: 'major' }] }));
    let clock = 5000;
    // Before each of the first ten pages, the three oldest alarms change again: offset paging would skip three of the rest each time.
    const { api } = fakeNode(alarms, (n) => {
      if (n > 10) return;
      const oldest = [...alarms].sort((a, b) => a.changes.at(-1)!.eventMs - b.changes.at(-1)!.eventMs).slice(0, 3);
      for (const a of oldest) a.changes.push({ eventMs: (clock += 1), severity: 'cleared' });
    });
    await backfill(api, store, 'p', { fromMs: 0, pageSize: 5 });
    const expected = alarms.reduce((n, a) => n + a.changes.length, 0);
    // Every change that existed when the walk ended is stored (the last page was read after the last move).
    expect(changesStored()).toBe(expected);
    expect(expected).toBeGreaterThan(30); // the list did move
    const stored = new Set((alarmDb(store).db.prepare('SELECT a.object FROM alarms a').all() as Array<{ object: string }>).map((r) => r.object));
    expect(stored.size).toBe(30);
  });

  it('steps over a page whose alarms all changed in one millisecond', async () => {
    const alarms = Array.from({ length: 12 }, (_, i) => ({ object: `o${i}`, changes: [{ eventMs: 2000, severity: 'major' as const }] }));
    alarms.push({ object: 'later', changes: [{ eventMs: 2001, severity: 'major' }] });
    const { api, calls } = fakeNode(alarms);
    const r = await backfill(api, store, 'p', { fromMs: 0, pageSize: 5 });
    expect(r.added).toBe(13);
    expect(calls.map((c) => [c.lastChangeAfter, c.offset])).toEqual([
      [-1, 0],
      [1999, 0],
      [1999, 5],
      [1999, 10],
      // The list is done when the node says so (an empty page), not at a short one.
      [2000, 0],
      [2000, 1],
    ]);
  });

  it('stores only what happened since the cursor of a record that carries its whole history', async () => {
    const { api } = fakeNode([{ object: 'x', changes: [{ eventMs: 100, severity: 'major' }, { eventMs: 200, severity: 'cleared' }, { eventMs: 300, severity: 'major' }] }]);
    await backfill(api, store, 'p', { fromMs: 250 });
    expect(alarmDb(store).db.prepare('SELECT event_ms FROM changes').all()).toEqual([{ event_ms: 300 }]);
  });

  it('gives up after its page budget (the caller retries)', async () => {
    const alarms = Array.from({ length: 50 }, (_, i) => ({ object: `o${i}`, changes: [{ eventMs: 1000 + i, severity: 'major' as const }] }));
    const { api } = fakeNode(alarms);
    await expect(backfill(api, store, 'p', { fromMs: 0, pageSize: 5, maxPages: 3 })).rejects.toThrow(/after 3 pages/);
  });
});
