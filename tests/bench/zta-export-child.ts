/**
 * Bench child (tests/bench/zta-export.bench-part.ts): one ZTA export of a data folder's edr.db as the
 * app writes it (ZtaExports to a file, every host, CSV), its connectors those the CLI stored
 * (ZtaService as `zta export --data-dir` builds it). NB_BENCH_ZTA_EXPORT (JSON): `dir`, and `mode`:
 * `stream` (the store's exportHosts, C-86) or `snapshot` (as before it: the whole columnar snapshot
 * in memory, filtered and ordered by rowsInOrder; tests/support/zta-export-snapshot.ts). Output: one
 * JSON line on stdout: rows, wall ms, the process's peak RSS (maxRSS, kernel high-water mark) when
 * loaded and at the end; with `live`, the live heap too.
 */
import path from 'node:path';
import { ConnectorRegistry } from '../../electron/edr/registry';
import { openEdrStore } from '../../electron/edr/store/sqlite-edr-store';
import { ZtaExports } from '../../electron/edr/zta-export';
import { ZtaService } from '../../electron/edr/zta-service';
import { createStreamLogger } from '../../electron/log';
import { createMemoryVault } from '../../electron/store/vault';
import { snapshotExportSource } from '../support/zta-export-snapshot';

const input = JSON.parse(process.env.NB_BENCH_ZTA_EXPORT ?? '{}') as { dir: string; mode: 'stream' | 'snapshot'; live?: boolean };
/** `live` (run with --expose-gc): the heap still in use after a full collection every 10,000 hosts written, at most (what the export holds, not garbage V8 has yet to collect). */
const gc = (globalThis as { gc?: () => void }).gc;
let liveMb = 0;
const sampleLive = () => {
  gc?.();
  liveMb = Math.max(liveMb, process.memoryUsage().heapUsed / 1048576);
};
const logger = createStreamLogger(process.stderr, 'warn');
const store = openEdrStore(path.join(input.dir, 'edr.db'), { guest: true });
const listed = { get: () => undefined, set: () => undefined, delete: () => undefined };
const zta = new ZtaService({
  store,
  registry: new ConnectorRegistry(listed, createMemoryVault(undefined, logger)),
  scheduler: { status: () => ({ running: false }), rescore: () => Promise.reject(new Error('no rescore')) },
  logger,
  retentionDays: () => Number.NaN,
});
if (input.live) sampleLive();
const loadedLiveMb = liveMb;
const loadedKb = process.resourceUsage().maxRSS;
const t = performance.now();
const exports = new ZtaExports({
  source: input.mode === 'stream' ? zta.exportSource() : snapshotExportSource(await zta.snapshot()),
  destination: async (_id, name) => ({ file: path.join(input.dir, `out-${input.mode}.csv`), name }),
  onProgress: (job) => void (input.live && job.done % 10_000 === 0 && sampleLive()),
});
if (input.live) sampleLive();
const end = await exports.finished((await exports.start('csv', {})).jobId);
const ms = performance.now() - t;
await store.close();
process.stdout.write(`${JSON.stringify({ mode: input.mode, state: end.state, rows: end.done, ms, loadedMb: loadedKb / 1024, peakMb: process.resourceUsage().maxRSS / 1024, ...(input.live ? { loadedLiveMb, liveMb } : {}) })}\n`);
