/**
 * The ZTA export of every host (issue 25.3, C-86): 100,000 Defender hosts in SQLite (4 tenants the
 * CLI stored, through the store's staging and commit, benchHost's hosts), exported to CSV as the app
 * does (ZtaExports) in a child process each time, streamed from the store (`stream`) and as before
 * (`snapshot`: the columnar snapshot in memory, rowsInOrder), interleaved, `rounds` times each.
 * Each run: wall time of the export (from reading the connectors to the file renamed) and the child's
 * peak RSS (maxRSS), beside its peak when loaded (modules, the store open) before the export. Then
 * one run of each apart (`live`: collected every 10,000 hosts, so not timed) for the heap the export
 * holds, which V8's lazy collection hides in the RSS at this size.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ScoredHost } from '../../shared/model/edr';
import { cliConnectorId } from '../../electron/edr/connector-ids';
import { openEdrStore } from '../../electron/edr/store/sqlite-edr-store';
import { benchHost } from './zta-store.bench-part';

export interface ExportRun {
  mode: 'stream' | 'snapshot';
  state: string;
  rows: number;
  ms: number;
  loadedMb: number;
  peakMb: number;
  /** Runs apart, with --expose-gc: the V8 heap in use after a full collection, loaded and at most while exporting. */
  loadedLiveMb?: number;
  liveMb?: number;
}

function child(dir: string, mode: ExportRun['mode'], live: boolean): ExportRun {
  const args = [...(live ? ['--expose-gc'] : []), '--import', 'tsx', path.resolve('tests/bench/zta-export-child.ts')];
  const r = spawnSync(process.execPath, args, { env: { ...process.env, NB_BENCH_ZTA_EXPORT: JSON.stringify({ dir, mode, live }) }, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`the export child (${mode}) failed: ${r.stderr}`);
  const run = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as ExportRun;
  if (run.state !== 'done') throw new Error(`the export child (${mode}) ended ${run.state}`);
  return run;
}

export async function benchZtaExport(hosts: number, rounds = 3): Promise<{ hosts: number; loadMs: number; runs: ExportRun[]; live: ExportRun[]; load: number[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-bench-zta-export-'));
  try {
    const t = performance.now();
    const store = openEdrStore(path.join(dir, 'edr.db'));
    const tenants = 4;
    const per = Math.ceil(hosts / tenants);
    const at = new Date(Date.UTC(2026, 10, 24, 8));
    for (let c = 0; c < tenants; c++) {
      const connector = cliConnectorId('defender', `0000000${c}-0000-4000-8000-000000000000`);
      const id = await store.beginCycle(connector, 'defender', `0000000${c}-0000-4000-8000-000000000000`, at);
      for (let i = c * per; i < Math.min(hosts, (c + 1) * per); i += 2_000) {
        const batch: ScoredHost[] = [];
        for (let j = i; j < Math.min(hosts, (c + 1) * per, i + 2_000); j++) batch.push(benchHost(j, 0, at.toISOString()));
        await store.stageScores(id, connector, batch);
      }
      await store.commitCycle(id, new Date(at.getTime() + 60_000));
    }
    await store.close();
    const loadMs = performance.now() - t;
    const runs: ExportRun[] = [];
    const load: number[] = [os.loadavg()[0]!];
    for (let r = 0; r < rounds; r++) {
      for (const mode of r % 2 ? (['stream', 'snapshot'] as const) : (['snapshot', 'stream'] as const)) {
        runs.push(child(dir, mode, false));
      }
      load.push(os.loadavg()[0]!);
    }
    const live = [child(dir, 'snapshot', true), child(dir, 'stream', true)];
    return { hosts, loadMs, runs, live, load };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
