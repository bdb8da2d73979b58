/**
 * The memory of the app's own poller (EdrScheduler + EdrStore + the vendor runtime, as `createApp`
 * wires them) through one full cycle, in a child process (app-poller-child.ts) so only the poller's
 * memory is measured, against the simulator in this process: the 50,000-host Defender tenant (bulk
 * path, documented limits, real time) and the 100,000-host Falcon tenant (6,000 calls per minute,
 * budget empty at start, as in falcon.bench-part.ts). The same child without a cycle is the baseline.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { defenderTenant, startDefenderSimulator } from '@northbound/simulators/testing/defender';
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
  // NB_BENCH_CHILD_NODE_ARGS: node options for the child, e.g. --cpu-prof --cpu-prof-dir=/tmp/prof.
  const nodeArgs = process.env.NB_BENCH_CHILD_NODE_ARGS?.split(' ').filter(Boolean) ?? [];
  const run = await runMeasuredProcess([...nodeArgs, '--import', 'tsx', child], { NB_BENCH_APP_POLL: JSON.stringify({ cycle, entry }), NB_BENCH_SECRET: secret }, timeoutMs);
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
  // What the child traced (NB_BENCH_TRACE, NB_BENCH_STALLS): its last 8 KB of stderr.
  if (process.env.NB_BENCH_TRACE || process.env.NB_BENCH_STALLS) process.stderr.write(run.stderr);
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

/** Niceness of the simulator's own process in the Falcon cycle: the vendor's work is not the app's. */
const SIMULATOR_NICE = 10;

/**
 * The simulator in a process of its own at niceness SIMULATOR_NICE (falcon-sim-process.ts): in the
 * bench's process it took the CPU main was waiting for, which a real tenant does not (on 2 cores the
 * longest stall was 94 ms with 29 ms of main's own run in it).
 */
async function startNicedFalconSimulator(options: Record<string, unknown>): Promise<{ baseUrl: string; certificatePem: string; client: { cid: string; clientId: string; clientSecret: string }; close(): Promise<void> }> {
  const child = spawn('nice', ['-n', String(SIMULATOR_NICE), process.execPath, '--import', 'tsx', path.resolve('tests/bench/falcon-sim-process.ts')], {
    env: { ...process.env, NB_BENCH_FALCON_SIM: JSON.stringify(options) },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(() => reject(new Error('the Falcon simulator process did not start in 60 s')), 60_000);
    child.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const nl = buf.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolve(buf.slice(0, nl));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the Falcon simulator process exited with ${code} before it started`));
    });
  });
  return {
    ...(JSON.parse(line) as { baseUrl: string; certificatePem: string; client: { cid: string; clientId: string; clientSecret: string } }),
    async close() {
      child.stdin.end();
      await exited;
    },
  };
}

export async function benchFalconAppCycle(hosts: number, rateLimit = 6_000): Promise<AppCycleBench> {
  const sim = await startNicedFalconSimulator({ hosts, regions: ['us-1'], rateLimit, rateWindowMs: 60_000, rateBudgetAtStart: 0 });
  try {
    const client = sim.client;
    const entry = { vendor: 'falcon', tenantId: client.cid, clientId: client.clientId, cloudRegion: 'us-1', apiUrl: sim.baseUrl, tls: { mode: 'custom-ca', caName: 'bench', caPem: sim.certificatePem } };
    return await measure(entry, client.clientSecret, hosts);
  } finally {
    await sim.close();
  }
}

/** Peak RSS of the app poller child that loads the app and registers a connector, without a cycle. */
export async function appPollerBaselineRssMb(): Promise<number> {
  const { run } = await runApp({ vendor: 'falcon', tenantId: 'b'.repeat(32), clientId: 'f'.repeat(32), cloudRegion: 'us-1', apiUrl: 'https://127.0.0.1:9', tls: { mode: 'system' } }, 'Baseline-Secret-123', false);
  return run.peakRssMb;
}
