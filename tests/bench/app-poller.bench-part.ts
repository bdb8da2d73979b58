/**
 * The memory of the app's own poller (EdrScheduler + EdrStore + the vendor runtime, as `createApp`
 * wires them) through one full cycle, in a child process (app-poller-child.ts) so only the poller's
 * memory is measured, against the simulator in this process: the 50,000-host Defender tenant (bulk
 * path, documented limits, real time) and the 100,000-host Falcon tenant (6,000 calls per minute,
 * budget empty at start, as in falcon.bench-part.ts). The same child without a cycle is the baseline.
 */
import path from 'node:path';
import { defenderTenant, startDefenderSimulator } from '@northbound/simulators/testing/defender';
import { startFalconSimulator } from '@northbound/simulators/testing/falcon';
import type { StallReport } from './loop-stall';
import { runMeasuredProcess } from './poller-process';

export interface AppCycleBench {
  hosts: number;
  /** Hosts visible in the views after the commit (the completed cycle's scores). */
  stored: number;
  /** The cycle from runNow to completed (poll, scoring, staging, commit). */
  ms: number;
  /** The commit alone (staged rows into hosts and scores, one synchronous transaction). */
  commitMs: number;
  peakRssMb: number;
  sampledHwmMb: number;
  /** edr.db + its WAL at the end of the cycle. */
  dbMb: number;
  /** Main's longest event-loop stall over the cycle, and over its commit alone (loop-stall.ts). */
  stall?: StallReport;
  commitStall?: StallReport;
  /** Peaks of process.memoryUsage() sampled in the child, MB. */
  memoryMb?: Record<string, number>;
}

interface ChildCycle {
  status?: string;
  hosts?: number;
  visible: number;
  staged: number;
  ms: number;
  commitMs: number;
  dbMb: number;
  stall?: StallReport;
  commitStall?: StallReport;
  memoryMb?: Record<string, number>;
}

const child = path.resolve('tests/bench/app-poller-child.ts');
const timeoutMs = 5 * 60_000;

async function runApp(entry: Record<string, unknown>, secret: string, cycle: boolean) {
  const run = await runMeasuredProcess(['--import', 'tsx', child], { NB_BENCH_APP_POLL: JSON.stringify({ cycle, entry }), NB_BENCH_SECRET: secret }, timeoutMs);
  let out: { cycle?: ChildCycle; loaded?: boolean } = {};
  try {
    out = JSON.parse(run.lastLine) as typeof out;
  } catch {
    // reported below
  }
  if (run.code !== 0 || (cycle ? !out.cycle : !out.loaded)) throw new Error(`app poller bench: the child failed (${run.code}): ${run.stderr.trim()}`);
  return { run, cycle: out.cycle };
}

async function measure(entry: Record<string, unknown>, secret: string, hosts: number): Promise<AppCycleBench> {
  const { run, cycle } = await runApp(entry, secret, true);
  const c = cycle!;
  if (c.status !== 'completed' || c.hosts !== hosts || c.visible !== hosts || c.staged !== 0) {
    throw new Error(`app poller bench: cycle ${c.status}, ${c.hosts} hosts stored, ${c.visible} visible, ${c.staged} still staged, of ${hosts}.`);
  }
  return { hosts, stored: c.visible, ms: c.ms, commitMs: c.commitMs, peakRssMb: run.peakRssMb, sampledHwmMb: run.sampledHwmMb, dbMb: c.dbMb, ...(c.stall ? { stall: c.stall } : {}), ...(c.commitStall ? { commitStall: c.commitStall } : {}), ...(c.memoryMb ? { memoryMb: c.memoryMb } : {}) };
}

export async function benchDefenderAppCycle(hosts: number): Promise<AppCycleBench> {
  const tenant = defenderTenant({ hosts, seed: 11 });
  const sim = await startDefenderSimulator({ tenants: [tenant] });
  try {
    const entry = { vendor: 'defender', tenantId: tenant.tenantId, clientId: tenant.clientId, apiUrl: sim.apiUrl, idpUrl: sim.idpUrl, tls: { mode: 'custom-ca', caName: 'bench', caPem: sim.certificatePem } };
    return await measure(entry, tenant.clientSecret, hosts);
  } finally {
    await sim.close();
  }
}

export async function benchFalconAppCycle(hosts: number, rateLimit = 6_000): Promise<AppCycleBench> {
  const sim = await startFalconSimulator({ hosts, regions: ['us-1'], rateLimit, rateWindowMs: 60_000, rateBudgetAtStart: 0 });
  try {
    const client = sim.clients[0]!;
    const entry = { vendor: 'falcon', tenantId: client.cid, clientId: client.clientId, cloudRegion: 'us-1', apiUrl: sim.baseUrl('us-1'), tls: { mode: 'custom-ca', caName: 'bench', caPem: sim.certificatePem } };
    return await measure(entry, client.clientSecret, hosts);
  } finally {
    await sim.close();
  }
}

/** Peak RSS of the app poller child that loads the app and registers a connector, without a cycle. */
export async function appPollerBaselineRssMb(): Promise<number> {
  const { run } = await runApp({ vendor: 'falcon', tenantId: 'cid-baseline', clientId: 'baseline', cloudRegion: 'us-1', apiUrl: 'https://127.0.0.1:9', tls: { mode: 'system' } }, 'Baseline-Secret-123', false);
  return run.peakRssMb;
}
