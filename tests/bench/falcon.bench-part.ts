/**
 * Falcon bench part. `benchFalcon`: one full poll cycle of the connector in this process against
 * the simulator with `hosts` hosts over real HTTPS on loopback (the simulator in a worker thread
 * when the runtime can load it there, tsx can). `benchFalconCycle` (what `npm run bench` prints):
 * the CLI poller in a child process, its peak RSS, and its time against the rate-limit floor.
 */
import { FalconConnector } from '../../electron/edr/falcon';
import { startFalconSimulator } from '@northbound/simulators/testing/falcon';
import { startFalconSimulatorInWorker, type FalconWorkerSimulator } from '@northbound/simulators/internal/falcon/worker';
import { benchDir, runPollerProcess } from './poller-process';

async function startSim(hosts: number): Promise<FalconWorkerSimulator> {
  try {
    return await startFalconSimulatorInWorker({ hosts, regions: ['us-1'] });
  } catch {
    const sim = await startFalconSimulator({ hosts, regions: ['us-1'] });
    return {
      baseUrls: sim.baseUrls(),
      fingerprint256: sim.fingerprint256,
      certificatePem: sim.certificatePem,
      clients: sim.clients,
      stats: async () => ({ total: sim.stats.total(), r429: sim.stats.r429, calls: { ...sim.stats.calls }, maxInFlight: sim.stats.maxInFlight }),
      close: () => sim.close(),
    };
  }
}

export async function benchFalcon(hosts: number): Promise<{ hosts: number; ms: number; calls: number; r429: number }> {
  const sim = await startSim(hosts);
  const client = sim.clients[0]!;
  const connector = new FalconConnector({
    tenantId: 'bench',
    clientId: client.clientId,
    clientSecret: () => client.clientSecret,
    cloudRegion: 'us-1',
    cloudBaseUrls: sim.baseUrls,
    tls: { mode: 'pinned', fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem },
  });
  try {
    const started = performance.now();
    const records = await connector.poll();
    const ms = Math.round(performance.now() - started);
    if (records.length !== hosts) throw new Error(`Falcon bench: ${records.length} of ${hosts} hosts polled.`);
    const stats = await sim.stats();
    return { hosts: records.length, ms, calls: stats.total, r429: stats.r429 };
  } finally {
    await connector.close();
    await sim.close();
  }
}

export interface FalconCycleBench {
  hosts: number;
  scored: number;
  /** The cycle as the CLI times it: token, listing, details, assessments, scoring, output. */
  ms: number;
  /** Data calls the rate budget counted (429 answers are not counted by the budget). */
  calls: number;
  tokenCalls: number;
  r429: number;
  rateLimit: number;
  /** Least time the documented limit allows for `calls` from an empty budget: calls ÷ rateLimit per minute. */
  floorMs: number;
  ratio: number;
  peakRssMb: number;
  sampledHwmMb: number;
}

/**
 * The 100,000-host cycle as an operator runs it: `northbound edr poll --once --vendor falcon`
 * in a child process (so only the poller's memory is measured) against the simulator in this
 * process, at the documented limit in real time (6,000 calls per minute, no time scaling). The
 * simulator's budget starts empty, so the limit binds from the first call and the floor is
 * exactly calls ÷ 6,000 per minute; with a full budget the ~1,040 calls of 100,000 hosts would fit
 * in one burst and no floor would apply.
 */
export async function benchFalconCycle(hosts: number, rateLimit = 6_000): Promise<FalconCycleBench> {
  const sim = await startFalconSimulator({ hosts, regions: ['us-1'], rateLimit, rateWindowMs: 60_000, rateBudgetAtStart: 0 });
  const tmp = benchDir();
  try {
    const client = sim.clients[0]!;
    const ca = tmp.write('falcon-ca.pem', sim.certificatePem);
    const run = await runPollerProcess(
      ['edr', 'poll', '--once', '--vendor', 'falcon', '--tenant-id', client.cid, '--client-id', client.clientId, '--client-secret-env', 'NB_BENCH_SECRET', '--cloud-region', 'us-1', '--api-url', sim.baseUrl('us-1'), '--ca-file', ca],
      { NB_BENCH_SECRET: client.clientSecret },
    );
    if (run.code !== 0 || !run.summary) throw new Error(`Falcon bench: the poller failed (${run.code}): ${run.stderr.trim()}`);
    if (run.summary.hosts !== hosts || run.hostLines !== run.summary.scored) throw new Error(`Falcon bench: ${run.summary.hosts} of ${hosts} hosts, ${run.hostLines} lines for ${run.summary.scored} scored.`);
    const tokenCalls = sim.stats.calls['/oauth2/token'] ?? 0;
    const r429 = sim.stats.r429;
    const calls = sim.stats.total() - tokenCalls - r429;
    const floorMs = (calls / rateLimit) * 60_000;
    return { hosts, scored: run.summary.scored, ms: run.summary.ms, calls, tokenCalls, r429, rateLimit, floorMs, ratio: run.summary.ms / floorMs, peakRssMb: run.peakRssMb, sampledHwmMb: run.sampledHwmMb };
  } finally {
    tmp.dispose();
    await sim.close();
  }
}
