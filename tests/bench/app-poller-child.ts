/**
 * Bench child (tests/bench/app-poller.bench-part.ts): the app's own poller in plain Node, as the
 * app runs it — `createApp` on node adapters over a new temporary data folder, one connector
 * registered through the registry (CA = the simulator's certificate), and one cycle of the real
 * EdrScheduler with the real connector runtime and EdrStore (edr.db in that folder) against the
 * simulator, which lives in the parent. Nothing else runs (no demo workspace, no web host).
 * Input: NB_BENCH_APP_POLL (JSON: connector entry without the secret; `cycle: false` loads and
 * registers only, the baseline), NB_BENCH_SECRET; NB_BENCH_TRACE=1 writes heap and RSS at each
 * progress event on stderr. Output: one JSON line on stdout.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createNodeAdapters } from '../../electron/app/node-platform';
import { createApp } from '../../electron/app/services';
import type { CycleProgress } from '../../shared/contract';
import { createStreamLogger } from '../../electron/log';
import { edrDb } from '../support/edr-fixtures';
import { watchStalls, type StallReport } from './loop-stall';

const input = JSON.parse(process.env.NB_BENCH_APP_POLL ?? '{}') as { cycle: boolean; entry: Record<string, unknown> };
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'nb-bench-app-'));
const size = (f: string) => {
  try {
    return statSync(f).size;
  } catch {
    return 0;
  }
};

try {
  const logger = createStreamLogger(process.stderr, 'warn');
  const adapters = await createNodeAdapters({ dataDir, logger, mode: 'browser', demoPorts: { basic: 0, oauth: 0 } });
  // The scheduler's own first pull and publication are an hour away: the bench starts the cycle with runNow.
  const app = await createApp(adapters, { openDemo: false, demoEdr: false, edr: { firstPullDelayMs: 3_600_000, publishDelayMs: 3_600_000 } });
  try {
    const { connector } = await app.edr.registry.register({ ...input.entry, clientSecret: process.env.NB_BENCH_SECRET, pollIntervalMinutes: 60 });
    if (!input.cycle) {
      process.stdout.write(`${JSON.stringify({ loaded: true })}\n`);
    } else {
      let started = performance.now();
      let maxStaged = 0;
      let storingAt = 0;
      let commitMs = 0;
      // Main's event loop over the whole cycle, and over the commit alone (from 'storing' to 'completed').
      let commitStall: StallReport | undefined;
      let commitProbe: ReturnType<typeof watchStalls> | undefined;
      const phases = new Set<string>();
      const onProgress = (event: string, p: unknown) => {
        if (event !== 'edr.progress') return;
        const progress = p as CycleProgress;
        phases.add(progress.phase);
        if (process.env.NB_BENCH_TRACE) process.stderr.write(`${Math.round(performance.now() - started)} ms ${progress.phase} ${progress.done}/${progress.total} heap ${Math.round(process.memoryUsage().heapUsed / 2 ** 20)} rss ${Math.round(process.memoryUsage().rss / 2 ** 20)}\n`);
        if (progress.phase === 'scoring') maxStaged = Math.max(maxStaged, progress.done);
        // The commit runs between these two events (synchronous, on this thread).
        if (progress.phase === 'storing') {
          storingAt = performance.now();
          commitProbe = watchStalls();
        }
        if (progress.phase === 'completed') {
          commitMs = Math.round(performance.now() - storingAt);
          commitStall = commitProbe?.stop();
        }
      };
      app.events.subscribe(onProgress);
      // Where the resident set goes (V8 heap vs. the rest), sampled while the cycle runs.
      const peak = { heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0, rss: 0 };
      const sampler = setInterval(() => {
        const m = process.memoryUsage();
        for (const k of Object.keys(peak) as Array<keyof typeof peak>) peak[k] = Math.max(peak[k], m[k] / 2 ** 20);
      }, 50);
      const stalls = watchStalls();
      started = performance.now();
      const cycleId = await app.edr.scheduler.runNow(connector.id);
      const ms = Math.round(performance.now() - started);
      const stall = stalls.stop();
      clearInterval(sampler);
      const store = edrDb(app.edr.store);
      const cycle = store.cycle(cycleId);
      const summary = store.cycleSummary(cycleId);
      const db = path.join(dataDir, 'edr.db');
      process.stdout.write(
        `${JSON.stringify({ cycle: { status: cycle?.status, hosts: cycle?.hosts, visible: summary.hosts, staged: store.stagedCount(), scoredProgress: maxStaged, phases: [...phases], ms, commitMs, stall, commitStall, memoryMb: peak, dbMb: (size(db) + size(`${db}-wal`)) / 2 ** 20 } })}\n`,
      );
    }
  } finally {
    await app.shutdown();
  }
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
