/**
 * The alarm store's batches on its worker thread (AlarmStore `offMain`, electron/alarms/store/alarms-writer.ts;
 * issue 21 item 5): `ingestBatch` answers what `ingest` answers on the owner's thread and the owner
 * reads what it stored, its change sequence follows; the owner's loop turns while a batch is
 * written; a SQL error comes back as the call's rejection; a worker that crashes fails the batch in
 * flight (nothing of it stored: the broker would deliver it again) and later batches are written on
 * the owner's connection, the sequence going on; closing waits for the batches asked before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AlarmDb } from '../../../electron/alarms/store/alarms-db';
import { SqlWorkerStopped } from '../../../electron/store/sql-worker';
import type { AlarmItem } from '../../../shared/model/alarms';
import { countTurns } from '../../support/loop-turns';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function openStore(offMain: boolean): AlarmDb {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-alarm-writer-'));
  const store = new AlarmDb(path.join(dir, 'alarms.db'), { offMain });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  return store;
}

const T = Date.UTC(2026, 4, 1, 12);
/** `n` alarms on as many devices, each with a change at `T + k` (k = 0..changes-1); message ids from `firstId`. */
function batch(n: number, changes: number, firstId = 1): AlarmItem[] {
  return Array.from({ length: n }, (_, i) => {
    const list = Array.from({ length: changes }, (_, k) => ({ eventMs: T + k * 1000, severity: (k % 2 ? 'cleared' : 'major') as never, text: `change ${k}` }));
    const last = list[list.length - 1]!;
    return {
      head: { device: `dev-${i}`, deviceName: `dev-${i}`, org: 'Contoso', object: 'vni-0/0', type: 'interface-down', specificProblem: 'link-down', severity: last.severity, cleared: last.severity === 'cleared', text: last.text, lastChangeMs: last.eventMs },
      changes: list,
      handlings: [],
      messageId: firstId + i,
    };
  });
}

const stored = (s: AlarmDb) => s.db.prepare('SELECT a.device, a.severity, a.last_seq, c.event_ms, c.message_id FROM alarms a JOIN changes c USING (aid) ORDER BY a.device, c.event_ms').all();

describe('the alarm store’s batches on a worker thread', () => {
  it('answer and store what the same batches store on the owner’s thread; the change sequence follows', async () => {
    const off = openStore(true);
    const on = openStore(false);
    const opts = { storedMs: T + 60_000, messageIds: new Map([['director-1', 500]]), cursorMs: T };
    const first = batch(300, 3);
    const again = [...batch(50, 4), ...batch(10, 1, 900)];
    const results = { off: [await off.ingestBatch('p1', first, opts), await off.ingestBatch('p1', again, opts)], on: [on.ingest('p1', first, opts), on.ingest('p1', again, opts)] };
    expect(results.off).toEqual(results.on);
    expect(results.off[0]).toMatchObject({ newChanges: 900, newAlarms: 300 });
    expect(off.headSeq).toBe(on.headSeq);
    expect(stored(off)).toEqual(stored(on));
    expect(off.sourceState('p1')).toEqual(on.sourceState('p1'));
  });

  it('the owner’s event loop turns while a batch is written', async () => {
    const store = openStore(true);
    await store.ingestBatch('p1', batch(1, 1), { storedMs: T });
    const loop = countTurns();
    const writing = store.ingestBatch('p1', batch(500, 5, 10), { storedMs: T + 1 });
    const before = loop.turns;
    await writing;
    loop.stop();
    expect(loop.turns).toBeGreaterThan(before);
    expect(store.counts('p1')).toEqual({ alarms: 500, changes: 2_500 });
  });

  it('a failed write comes back as the call’s rejection, and nothing of its batch is stored', async () => {
    const store = openStore(true);
    const bad = batch(3, 1);
    (bad[2]!.head as { org: string | null }).org = null;
    await expect(store.ingestBatch('p1', bad, { storedMs: T })).rejects.toThrow(/NOT NULL constraint failed: alarms\.org/);
    expect(store.counts('p1')).toEqual({ alarms: 0, changes: 0 });
    await expect(store.ingestBatch('p1', batch(2, 1), { storedMs: T })).resolves.toMatchObject({ newChanges: 2 });
  });

  it('a worker that crashes fails its batch; later batches are written on the owner’s connection, the sequence going on', async () => {
    const store = openStore(true);
    const r = await store.ingestBatch('p1', batch(20, 2), { storedMs: T });
    await store.writes.crash();
    expect(store.writes.ingest('p1', batch(5, 1, 100), { storedMs: T })).toBeUndefined();
    const later = await store.ingestBatch('p1', batch(30, 3), { storedMs: T + 1 });
    // 20 known alarms with one new change each, 10 new ones with three.
    expect(later).toMatchObject({ newChanges: 50, newAlarms: 10 });
    expect(later.headSeq).toBe(r.headSeq + 30);
    expect(store.counts('p1')).toEqual({ alarms: 30, changes: 90 });
    // The batch in flight when it crashed is refused, not half stored.
    const store2 = openStore(true);
    await store2.ingestBatch('p1', batch(1, 1), { storedMs: T });
    const inFlight = store2.ingestBatch('p1', batch(400, 5, 10), { storedMs: T });
    await store2.writes.crash();
    await inFlight.then(
      () => expect(store2.counts('p1').changes).toBe(2_000),
      (e: unknown) => {
        expect(e).toBeInstanceOf(SqlWorkerStopped);
        expect(store2.counts('p1')).toEqual({ alarms: 1, changes: 1 });
      },
    );
  });

  it('closing waits for the batches asked before it: nothing acknowledged is lost on quit', async () => {
    const store = openStore(true);
    const asked = Array.from({ length: 10 }, (_, i) => store.ingestBatch('p1', batch(50, 1, 1 + i * 50).map((x) => ({ ...x, head: { ...x.head, device: `d${i}-${x.head.device}` } })), { storedMs: T }));
    const file = store.file;
    await store.close();
    await expect(Promise.all(asked)).resolves.toHaveLength(10);
    const again = new AlarmDb(file);
    try {
      expect(again.counts('p1')).toEqual({ alarms: 500, changes: 500 });
    } finally {
      await again.close();
    }
  });
});
