/**
 * The EDR store on PostgreSQL (issue 24.1): one cycle of 100,000 Defender hosts written through the
 * store's interface (staged in the scheduler's batches of 5,000, then committed), beside the same
 * cycles into SQLite (EdrDb) in the same run; then the 7-day history's size.
 *
 * The cluster is a private one (tests/support/pg-cluster.ts) with PostgreSQL's defaults for fsync
 * and commits (`durable`), on the same machine as the bench: no network between them.
 *
 * The history: 7 days of 10-minute cycles (1,008) at `historyHosts` hosts, `changeRate` of them
 * moving to another variant each cycle (a different slice each time) and every host's last-seen
 * time moving. The bench writes a cycle every fraction of a second where a server has 10 minutes
 * between two, in which autovacuum (its naptime is a minute) frees what the cycle left dead; so a
 * plain VACUUM of the edr tables runs after each cycle in its place (not timed). Then each table's
 * pg_total_relation_size. For
 * 100,000 hosts the tables whose rows are per host (hosts, host_seen, host_details, score_changes,
 * the staging tables) scale with the hosts; cycles and cycle_bands do not (a cycle's band counts
 * are per customer, platform and band). `perHostCheck` compares the per-host tables after the
 * 100,000-host cycles with the small store's after as many cycles, scaled up: a check of that
 * extrapolation.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ScoredHost } from '../../shared/model/edr';
import { EdrDb } from '../../electron/edr/store/edr-db';
import { openPgEdrStore, type PgEdrStore } from '../../electron/edr/store/edr-pg';
import { openPostgres, type PgPool } from '../../electron/store/postgres';
import { startPostgres } from '../support/pg-cluster';
import { benchHost } from './zta-store.bench-part';

const BATCH = 5_000;
const TABLES = ['hosts', 'host_seen', 'host_details', 'score_changes', 'cycle_bands', 'cycles', 'publications', 'connector_writes', 'staged_scores'] as const;
const PER_HOST: ReadonlySet<string> = new Set(['hosts', 'host_seen', 'host_details', 'score_changes', 'staged_scores']);

export interface CycleTimes {
  stageMs: number;
  commitMs: number;
}

export interface EdrPgBench {
  hosts: number;
  changedPerCycle: number;
  /** The first cycle (every host new), then the steady cycles, each store. */
  pg: CycleTimes[];
  sqlite: CycleTimes[];
  history: {
    hosts: number;
    cycles: number;
    minutes: number;
    /** History rows a cycle added, on average (hosts whose score or band moved). */
    changeRowsPerCycle: number;
    tablesMb: Record<string, number>;
    totalMb: number;
    /** The same store at 100,000 hosts: per-host tables scaled, the rest as measured. */
    extrapolatedMb: number;
  };
  /** Per-host tables (hosts, host_seen, host_details) after the 100,000-host cycles, and the small store's after as many cycles, scaled to 100,000. */
  perHostCheck: { measuredMb: number; scaledMb: number };
}

/** Writes `cycles` cycles of `hosts` hosts, changing `changeRate` of them a cycle, through `write`; answers each cycle's times. */
async function cycles(hosts: number, count: number, changeRate: number, write: (id: number, at: Date, batches: () => Generator<ScoredHost[]>) => Promise<CycleTimes>): Promise<CycleTimes[]> {
  const variants = new Uint8Array(hosts);
  const changed = Math.round(hosts * changeRate);
  const start = Date.UTC(2026, 10, 1);
  const out: CycleTimes[] = [];
  for (let c = 0; c < count; c++) {
    const at = new Date(start + c * 600_000);
    const iso = at.toISOString();
    if (c > 0) {
      for (let k = 0; k < changed; k++) {
        const i = (c * changed + k) % hosts;
        variants[i] = (variants[i]! + 1) % 3;
      }
    }
    function* batches(): Generator<ScoredHost[]> {
      for (let i = 0; i < hosts; i += BATCH) {
        const batch: ScoredHost[] = [];
        for (let j = i; j < Math.min(hosts, i + BATCH); j++) batch.push(benchHost(j, variants[j]!, iso));
        yield batch;
      }
    }
    out.push(await write(c, at, batches));
  }
  return out;
}

/** A cycle through the PostgreSQL store: staging timed per batch (the batch is made and scored outside the timing), then the commit. */
const pgWriter = (store: PgEdrStore) => async (_c: number, at: Date, batches: () => Generator<ScoredHost[]>): Promise<CycleTimes> => {
  const id = await store.beginCycle('bench', 'defender', 'bench', at);
  let stageMs = 0;
  for (const batch of batches()) {
    const t = performance.now();
    await store.stageScores(id, 'bench', batch);
    stageMs += performance.now() - t;
  }
  const t = performance.now();
  await store.commitCycle(id, new Date(at.getTime() + 30_000));
  return { stageMs, commitMs: performance.now() - t };
};

async function sizes(pool: PgPool): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = Number((await pool.query<{ n: string }>(`SELECT pg_total_relation_size('edr.${t}') AS n`)).rows[0]!.n) / 1024 / 1024;
  return out;
}

export async function benchEdrPg(
  hosts: number,
  steadyCycles: number,
  changeRate: number,
  historyHosts: number,
  onProgress: (line: string) => void,
): Promise<EdrPgBench> {
  const cluster = await startPostgres({ durable: true });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-bench-edr-pg-'));
  const admin = openPostgres({ url: cluster.url, max: 1 });
  const pools: PgPool[] = [];
  const database = async (name: string) => {
    await admin.query(`CREATE DATABASE ${name}`);
    const pool = openPostgres({ url: cluster.urlOf(name), max: 4 });
    pools.push(pool);
    return pool;
  };
  try {
    // One cycle of `hosts` hosts: the first (every host new), then the steady ones, into each store.
    const pgPool = await database('bench_cycle');
    const pgStore = await openPgEdrStore(pgPool);
    const pg = await cycles(hosts, 1 + steadyCycles, changeRate, pgWriter(pgStore));
    const pgSizes = await sizes(pgPool);
    const db = new EdrDb(path.join(dir, 'edr.db'));
    const sqlite = await cycles(hosts, 1 + steadyCycles, changeRate, async (_c, at, batches) => {
      const id = db.beginCycle('bench', 'defender', 'bench', at);
      let stageMs = 0;
      for (const batch of batches()) {
        const t = performance.now();
        db.stageScores(id, 'bench', batch);
        stageMs += performance.now() - t;
      }
      const t = performance.now();
      db.commitCycle(id, new Date(at.getTime() + 30_000));
      return { stageMs, commitMs: performance.now() - t };
    });
    await db.close();

    // 7 days of cycles at `historyHosts` hosts.
    const histPool = await database('bench_history');
    const histStore = await openPgEdrStore(histPool);
    const count = 7 * 144;
    const t0 = performance.now();
    const write = pgWriter(histStore);
    let early: Record<string, number> | undefined;
    await cycles(historyHosts, count, changeRate, async (c, at, batches) => {
      const r = await write(c, at, batches);
      await histPool.query(`VACUUM ${TABLES.map((t) => `edr.${t}`).join(', ')}`);
      if (c === steadyCycles) early = await sizes(histPool);
      if (c % 144 === 0) onProgress(`edr-pg: history day ${c / 144 + 1}, cycle ${c + 1}: staged in ${Math.round(r.stageMs)} ms, committed in ${Math.round(r.commitMs)} ms`);
      return r;
    });
    const minutes = (performance.now() - t0) / 60_000;
    const changeRows = Number((await histPool.query<{ n: string }>('SELECT COUNT(*) AS n FROM edr.score_changes WHERE cycle_id > 1')).rows[0]!.n);
    const tablesMb = await sizes(histPool);
    const scale = hosts / historyHosts;
    const perHost = (s: Record<string, number>) => s.hosts! + s.host_seen! + s.host_details!;
    return {
      hosts,
      changedPerCycle: Math.round(hosts * changeRate),
      pg,
      sqlite,
      history: {
        hosts: historyHosts,
        cycles: count,
        minutes,
        changeRowsPerCycle: changeRows / (count - 1),
        tablesMb,
        totalMb: Object.values(tablesMb).reduce((a, b) => a + b, 0),
        extrapolatedMb: Object.entries(tablesMb).reduce((a, [t, mb]) => a + (PER_HOST.has(t) ? mb * scale : mb), 0),
      },
      perHostCheck: { measuredMb: perHost(pgSizes), scaledMb: perHost(early!) * scale },
    };
  } finally {
    await Promise.all(pools.map((p) => p.end()));
    await admin.end();
    await cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
