/**
 * Child process for tests/integration/store/edr-crash.test.ts: runs one poll cycle with the real
 * scheduler and SQLite store, and freezes in the storing phase (before or after the scores are
 * written) after telling the parent on stdout, so the parent can kill it with SIGKILL there.
 * Usage: node --import tsx edr-crash-child.ts <edr.db> <before-write|after-write>
 */
import { writeSync } from 'node:fs';
import { ConnectorRegistry } from '../../electron/edr/registry';
import { EdrScheduler, realTimers } from '../../electron/edr/scheduler';
import { createMemoryLogger } from '../../electron/log';
import { EdrStore } from '../../electron/store/edr-db';
import { makeScoredHosts } from './edr-fixtures';
import { memorySettings, memoryVault } from './memory-ports';

const [file, when] = process.argv.slice(2);
if (!file || (when !== 'before-write' && when !== 'after-write')) throw new Error('usage: edr-crash-child.ts <edr.db> <before-write|after-write>');

/** Says where it stopped (a synchronous write, so the line is out before the freeze), then blocks for good. */
function freeze(cycleId: number): never {
  writeSync(1, `${JSON.stringify({ frozen: when, cycleId })}\n`);
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
  throw new Error('unreachable');
}

const store = new EdrStore(file);
const registry = new ConnectorRegistry(memorySettings(), memoryVault());
const { connector } = await registry.register({ vendor: 'falcon', tenantId: 'cid-crash', clientId: 'c', clientSecret: 'Secret-Value-123', pollIntervalMinutes: 10 });
if (when === 'after-write') {
  const write = store.writeScores.bind(store);
  store.writeScores = (cycleId, connectorId, scored) => {
    write(cycleId, connectorId, scored);
    freeze(cycleId);
  };
}
const scheduler = new EdrScheduler({
  registry,
  store,
  runtimeFor: () => ({ poll: async () => makeScoredHosts(25).map((s) => s.host) }),
  score: (h) => ({ score: h.hostname.length, band: 'Trustworthy', contributions: [] }),
  publish: async () => undefined,
  onProgress: (p) => {
    if (p.phase === 'storing' && when === 'before-write') freeze(p.cycleId);
  },
  logger: createMemoryLogger(),
  timers: realTimers,
});
await scheduler.runNow(connector.id);
// Reaching here means the freeze never happened: the parent sees the exit and fails.
process.exit(3);
