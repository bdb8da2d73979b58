/**
 * Child process for tests/integration/store/edr-crash.test.ts: runs two poll cycles with the real
 * scheduler and SQLite store. The first completes (25 hosts); the second hands its 25 hosts out in
 * two batches (10 + 15) and freezes after telling the parent on stdout, so the parent can kill it
 * with SIGKILL there: `while-staging` after the first batch is staged, `before-commit` in the
 * storing phase (all staged, not committed).
 * `off-main`: the store stages and commits on its worker thread, as in the app (edr-writer.ts).
 * Usage: node --import tsx edr-crash-child.ts <edr.db> <while-staging|before-commit> [off-main]
 */
import { writeSync } from 'node:fs';
import { ConnectorRegistry } from '../../electron/edr/registry';
import { EdrScheduler, realTimers } from '../../electron/edr/scheduler';
import { createMemoryLogger } from '../../electron/log';
import { EdrDb } from '../../electron/edr/store/edr-db';
import { SqliteEdrStore } from '../../electron/edr/store/sqlite-edr-store';
import { makeScoredHosts } from './edr-fixtures';
import { memorySettings, memoryVault } from './memory-ports';

const [file, when, mode] = process.argv.slice(2);
if (!file || (when !== 'while-staging' && when !== 'before-commit')) throw new Error('usage: edr-crash-child.ts <edr.db> <while-staging|before-commit>');

/** Says where it stopped (a synchronous write, so the line is out before the freeze), then blocks for good. */
function freeze(cycleId: number, completedCycleId: number): never {
  writeSync(1, `${JSON.stringify({ frozen: when, cycleId, completedCycleId })}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  throw new Error('unreachable');
}

const store = new EdrDb(file, { offMain: mode === 'off-main' });
const registry = new ConnectorRegistry(memorySettings(), memoryVault());
const { connector } = await registry.register({ vendor: 'falcon', tenantId: 'cf5600af585f4af1430d5a17f3742616', clientId: '2e7d2c03a9507ae265ecf5b5356885a5', clientSecret: 'Secret-Value-123', pollIntervalMinutes: 10 });
let cycles = 0;
let completed = 0;
const scheduler = new EdrScheduler({
  registry,
  store: new SqliteEdrStore(store),
  runtimeFor: () => ({
    poll: async ({ onHosts }) => {
      cycles += 1;
      const hosts = makeScoredHosts(25, { cycleSalt: cycles }).map((s) => s.host);
      if (cycles === 1 || !onHosts) return hosts;
      await onHosts(hosts.slice(0, 10));
      if (when === 'while-staging') freeze(store.lastCycle(connector.id)!.id, completed);
      await onHosts(hosts.slice(10));
      return [];
    },
  }),
  score: (h) => ({ score: h.hostname.length, band: 'Trustworthy', contributions: [] }),
  publish: async () => undefined,
  onProgress: (p) => {
    if (p.phase === 'storing' && cycles === 2 && when === 'before-commit') freeze(p.cycleId, completed);
  },
  logger: createMemoryLogger(),
  timers: realTimers,
});
completed = await scheduler.runNow(connector.id);
await scheduler.runNow(connector.id);
// Reaching here means the freeze never happened: the parent sees the exit and fails.
process.exit(3);
