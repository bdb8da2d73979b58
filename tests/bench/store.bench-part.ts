/**
 * The EDR store writing a cycle of scores: one transaction per cycle vs one commit per host, and
 * the app poller's path (batches of 5,000 staged, then one commit moving them into hosts/scores).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EdrDb } from '../../electron/edr/store/edr-db';
import { makeScoredHosts } from '../support/edr-fixtures';

export async function benchStore(hosts: number): Promise<{ hosts: number; ms: number; rowsPerSecond: number; perRowMsFor5k: number; batchMsFor5k: number; ratio: number; stageMs: number; commitMs: number }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-bench-store-'));
  try {
    const store = new EdrDb(path.join(dir, 'edr.db'));
    const rows = makeScoredHosts(hosts);
    const t0 = performance.now();
    const c = store.beginCycle('bench', 'defender', 't1', new Date());
    store.writeScores(c, 'bench', rows);
    store.finishCycle(c, 'completed', { hosts, at: new Date() });
    const ms = performance.now() - t0;

    // The app poller's path on the same cycle: staged batch by batch, then committed at once.
    const ts = performance.now();
    const s = store.beginCycle('bench', 'defender', 't1', new Date());
    for (let i = 0; i < rows.length; i += 5_000) store.stageScores(s, 'bench', rows.slice(i, i + 5_000));
    const tc = performance.now();
    store.commitCycle(s, new Date());
    const commitMs = performance.now() - tc;
    const stageMs = tc - ts;

    // Side by side on 5,000 hosts: one transaction vs one commit per host.
    const small = makeScoredHosts(5_000, { cycleSalt: 3 });
    const t1 = performance.now();
    const b = store.beginCycle('bench-b', 'defender', 't1', new Date());
    store.writeScores(b, 'bench-b', small);
    const batchMsFor5k = performance.now() - t1;
    const t2 = performance.now();
    const p = store.beginCycle('bench-p', 'defender', 't1', new Date());
    for (const row of small) store.writeScores(p, 'bench-p', [row]);
    const perRowMsFor5k = performance.now() - t2;
    store.close();
    return { hosts, ms, rowsPerSecond: Math.round((hosts / ms) * 1000), perRowMsFor5k, batchMsFor5k, ratio: perRowMsFor5k / batchMsFor5k, stageMs, commitMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
