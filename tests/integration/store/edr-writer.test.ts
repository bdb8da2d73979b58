/**
 * The EDR store's cycle writes on its worker thread (EdrDb `offMain`, electron/edr/store/edr-writer.ts;
 * issue 21 item 5): the app poller's calls (`stageBatch`, `completeCycle`) store what the same calls
 * store on the owner's thread; the owner's event loop keeps turning while a commit runs; an error
 * comes back as the call's rejection; a worker that crashes fails its cycle, keeps what was
 * committed, and later cycles run on the owner's connection; closing waits for a commit asked before.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EdrDb } from '../../../electron/edr/store/edr-db';
import { SqlWorkerStopped } from '../../../electron/store/sql-worker';
import type { ScoredHost } from '../../../shared/model/edr';
import { makeScoredHosts } from '../../support/edr-fixtures';
import { countTurns } from '../../support/loop-turns';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function openStore(offMain: boolean): { store: EdrDb; file: string } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-edr-writer-'));
  const file = path.join(dir, 'edr.db');
  const store = new EdrDb(file, { offMain });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => store.close());
  return { store, file };
}

let minute = 0;
/** One cycle as the app's poller runs it: batches of 1,000 staged (on the worker, or on the owner's connection), then the commit. */
async function cycle(store: EdrDb, hosts: ScoredHost[], where: 'worker' | 'owner' = 'worker'): Promise<number> {
  minute += 10;
  const at = new Date(Date.UTC(2026, 10, 22, 0, minute));
  const id = store.beginCycle('conn-1', 'defender', 't1', at);
  for (let i = 0; i < hosts.length; i += 1_000) await store.stageBatch(id, 'conn-1', hosts.slice(i, i + 1_000));
  expect(store.writes.writer(id) ? 'worker' : 'owner').toBe(where);
  await store.completeCycle(id, new Date(at.getTime() + 30_000));
  return id;
}

/** What the views show of a store (ids aside). */
function shown(store: EdrDb, id: number) {
  return {
    cycle: { ...store.cycle(id), id: 0, startedAt: '', finishedAt: '' },
    summary: store.cycleSummary(id),
    hosts: store.cycleHosts(id),
    latest: store.latestScores({ limit: 100_000 }).map((r) => ({ ...r, cycleId: 0 })),
    history: store.history('conn-1', 'm00000007').map((h) => ({ ...h, cycleId: 0 })),
    detail: store.hostDetail('conn-1', 'm00000007'),
    staged: store.stagedCount(),
  };
}

describe('the EDR store’s cycle writes on a worker thread', () => {
  it('store what the same cycles store on the owner’s thread (new hosts, then some changed, some as they were)', async () => {
    const off = openStore(true).store;
    const on = openStore(false).store;
    const first = makeScoredHosts(3_000);
    // The second cycle: every third host's score moved, the rest as they were, and 200 new hosts.
    const moved = makeScoredHosts(3_200, { cycleSalt: 1 });
    const second = moved.map((h, i) => (i < 3_000 && i % 3 !== 0 ? first[i]! : h));
    const ids = { off: [await cycle(off, first), await cycle(off, second)], on: [await cycle(on, first, 'owner'), await cycle(on, second, 'owner')] };
    expect(shown(off, ids.off[0]!)).toEqual(shown(on, ids.on[0]!));
    expect(shown(off, ids.off[1]!)).toEqual(shown(on, ids.on[1]!));
    expect(off.cycle(ids.off[1]!)).toMatchObject({ status: 'completed', hosts: 3_200 });
  });

  it('the owner’s event loop turns while a cycle is staged and committed', async () => {
    const { store } = openStore(true);
    const hosts = makeScoredHosts(5_000);
    const id = store.beginCycle('conn-1', 'defender', 't1', new Date());
    await store.stageBatch(id, 'conn-1', hosts);
    expect(store.stagedCount(id)).toBe(5_000);
    const loop = countTurns();
    const committing = store.completeCycle(id, new Date());
    const before = loop.turns;
    await committing;
    loop.stop();
    // On the owner's thread the commit would have held the loop from the call to its answer.
    expect(loop.turns).toBeGreaterThan(before);
    expect(store.cycleSummary(id).hosts).toBe(5_000);
    expect(store.stagedCount()).toBe(0);
  });

  it('retention runs on the worker: the owner’s loop turns while it deletes, and a host that went is new again to the next cycle', async () => {
    const { store } = openStore(true);
    const day = (d: number) => new Date(Date.UTC(2026, 9, 1 + d, 12));
    const run = async (hosts: ScoredHost[], at: Date) => {
      const id = store.beginCycle('conn-1', 'defender', 't1', at);
      await store.stageBatch(id, 'conn-1', hosts);
      await store.completeCycle(id, at);
      return id;
    };
    // 6,000 hosts; 40 days later a cycle sees only the first 3,000: the other 3,000 are past 30 days.
    await run(makeScoredHosts(6_000), day(0));
    const second = await run(makeScoredHosts(3_000, { cycleSalt: 1 }), day(40));
    expect(store.writes.writer(second)).toBeUndefined();
    const loop = countTurns();
    const pruning = store.pruneOffMain(day(41), 30);
    const before = loop.turns;
    const r = await pruning;
    loop.stop();
    // On the owner's connection the deletes would have held the loop from the call to its answer.
    expect(loop.turns).toBeGreaterThan(before);
    expect(r).toMatchObject({ cycles: 1, hosts: 3_000 });
    expect(store.latestScores({ limit: 100_000 })).toHaveLength(3_000);
    // The worker's staging forgot the hosts that went: seen again, they are stored as new hosts.
    const third = await run(makeScoredHosts(6_000, { cycleSalt: 2 }), day(42));
    expect(store.cycleSummary(third).hosts).toBe(6_000);
    expect(store.latestScores({ limit: 100_000 })).toHaveLength(6_000);
    expect(store.history('conn-1', `m${(5_999).toString(16).padStart(8, '0')}`)).toHaveLength(1);
  });

  it('a write that fails comes back as the call’s rejection, and the cycle fails as on the owner’s thread', async () => {
    const { store } = openStore(true);
    const id = store.beginCycle('conn-1', 'defender', 't1', new Date());
    const bad = makeScoredHosts(3);
    (bad[1]!.host as { hostname: string | null }).hostname = null;
    await expect(store.stageBatch(id, 'conn-1', bad)).rejects.toThrow(/NOT NULL constraint failed: staged_scores\.hostname/);
    store.finishCycle(id, 'failed', { hosts: 0, error: 'x', at: new Date() });
    expect(store.stagedCount()).toBe(0);
    // The worker goes on: the next cycle completes there.
    const next = await cycle(store, makeScoredHosts(10));
    expect(store.cycleSummary(next).hosts).toBe(10);
  });

  it('a worker that crashes fails its cycle, keeps what was committed, and later cycles run on the owner’s connection', async () => {
    const { store } = openStore(true);
    const done = await cycle(store, makeScoredHosts(500));
    const id = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 10, 23)));
    await store.stageBatch(id, 'conn-1', makeScoredHosts(500, { cycleSalt: 2 }));
    await store.writes.crash();
    await expect(store.stageBatch(id, 'conn-1', makeScoredHosts(10))).rejects.toBeInstanceOf(SqlWorkerStopped);
    await expect(store.completeCycle(id, new Date())).rejects.toThrow(/The SQL worker stopped/);
    store.finishCycle(id, 'failed', { hosts: 0, error: 'worker stopped', at: new Date() });
    expect(store.cycle(id)).toMatchObject({ status: 'failed' });
    expect(store.latestScores({ limit: 1_000 }).every((r) => r.cycleId === done)).toBe(true);
    expect(store.cycleSummary(done).hosts).toBe(500);

    const after = await cycle(store, makeScoredHosts(600, { cycleSalt: 3 }), 'owner');
    expect(store.cycle(after)).toMatchObject({ status: 'completed', hosts: 600 });
    expect(store.latestScores({ limit: 1_000 })).toHaveLength(600);
  });

  it('closing waits for a commit asked before it: nothing committed is lost on quit', async () => {
    const { store, file } = openStore(true);
    const id = store.beginCycle('conn-1', 'defender', 't1', new Date());
    await store.stageBatch(id, 'conn-1', makeScoredHosts(2_000));
    const committed = store.completeCycle(id, new Date());
    await store.close();
    await expect(committed).resolves.toBe(2_000);
    const again = new EdrDb(file);
    try {
      expect(again.interruptedAtOpen).toBe(0);
      expect(again.cycle(id)).toMatchObject({ status: 'completed', hosts: 2_000 });
      expect(again.cycleSummary(id).hosts).toBe(2_000);
    } finally {
      await again.close();
    }
  });
});
