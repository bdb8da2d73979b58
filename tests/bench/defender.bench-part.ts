/**
 * A Defender tenant under the documented rate limits (machines 100/min and 1 500/h, per-machine
 * vulnerabilities 50/min and 1 500/h, bulk export 30/min and 1 000/h): one full cycle on the bulk
 * path and one on the per-device path, side by side.
 *
 * The bulk path runs against the real limits in real time: its handful of calls never wait on a
 * limit, so its wall time is what the cycle costs (data generation, transfer and parsing). The
 * per-device path needs one call per onboarded host and would take more than a day, so vendor
 * time is compressed by `rateScale` on both sides (the connector's limiter and the simulator's);
 * its vendor time is the wall time × `rateScale`, an upper bound (the unscaled processing is
 * counted `rateScale` times too), printed next to the floor the limits alone impose.
 */
import { DefenderConnector } from '../../electron/edr/defender';
import { DOCUMENTED_LIMITS, defenderTenant, startDefenderSimulator } from '@northbound/simulators/testing/defender';
import { benchDir, runPollerProcess } from './poller-process';

export interface DefenderBenchRow {
  path: 'bulk' | 'per-machine';
  hosts: number;
  wallMs: number;
  /** Time of the cycle against the real service at the documented limits. */
  vendorMinutes: number;
  /** The least time the documented limits allow for the calls made (per-device path). */
  floorMinutes: number;
  rateScale: number;
  calls: number;
  r429: number;
}

/** Least time k calls of one class take under sliding windows: the (k-1)th call after the first waits for whole windows. */
export function limitFloorMs(k: number, windows: ReadonlyArray<{ calls: number; windowMs: number }>): number {
  if (k <= 0) return 0;
  return Math.max(...windows.map((w) => Math.floor((k - 1) / w.calls) * w.windowMs));
}

export async function benchDefender(hosts: number, rateScale = 1_000): Promise<DefenderBenchRow[]> {
  const rows: DefenderBenchRow[] = [];
  for (const source of ['bulk', 'per-machine'] as const) {
    const scale = source === 'bulk' ? 1 : rateScale;
    const tenant = defenderTenant({ hosts, seed: 11 });
    const sim = await startDefenderSimulator({ tenants: [tenant], rateScale: scale });
    try {
      const c = new DefenderConnector({
        tenantId: tenant.tenantId,
        clientId: tenant.clientId,
        secrets: { getClientSecret: async () => tenant.clientSecret },
        idpUrl: sim.idpUrl,
        apiUrl: sim.apiUrl,
        tls: { mode: 'pinned', fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem },
        rateScale: scale,
        vulnerabilitySource: source,
      });
      const t0 = performance.now();
      const records = await c.poll({ signal: AbortSignal.timeout(10 * 60_000) });
      const wallMs = performance.now() - t0;
      const report = c.lastReport;
      await c.close();
      if (records.length !== hosts) throw new Error(`expected ${hosts} hosts, got ${records.length}`);
      const perClass = report?.calls ?? { machines: 0, vulnerabilities: 0, bulk: 0 };
      const calls = perClass.machines + perClass.vulnerabilities + perClass.bulk;
      const perDevice = perClass.vulnerabilities;
      rows.push({
        path: source,
        hosts,
        wallMs,
        vendorMinutes: (wallMs * scale) / 60_000,
        floorMinutes: limitFloorMs(perDevice, DOCUMENTED_LIMITS.vulnerabilities) / 60_000,
        rateScale: scale,
        calls,
        r429: sim.stats.throttled,
      });
    } finally {
      await sim.close();
    }
  }
  return rows;
}

export interface DefenderCycleBench {
  hosts: number;
  scored: number;
  /** The cycle as the CLI times it (token, machines, bulk export, scoring, output). */
  ms: number;
  peakRssMb: number;
  sampledHwmMb: number;
}

/**
 * The memory of a cycle: `northbound edr poll --once --vendor defender` (bulk path, documented
 * limits, real time) in a child process against the simulator in this process, so the peak RSS
 * is the poller's alone.
 */
export async function benchDefenderCycle(hosts: number): Promise<DefenderCycleBench> {
  const tenant = defenderTenant({ hosts, seed: 11 });
  const sim = await startDefenderSimulator({ tenants: [tenant] });
  const tmp = benchDir();
  try {
    const ca = tmp.write('defender-ca.pem', sim.certificatePem);
    const run = await runPollerProcess(
      ['edr', 'poll', '--once', '--vendor', 'defender', '--tenant-id', tenant.tenantId, '--client-id', tenant.clientId, '--client-secret-env', 'NB_BENCH_SECRET', '--api-url', sim.apiUrl, '--idp-url', sim.idpUrl, '--ca-file', ca],
      { NB_BENCH_SECRET: tenant.clientSecret },
    );
    if (run.code !== 0 || !run.summary) throw new Error(`Defender bench: the poller failed (${run.code}): ${run.stderr.trim()}`);
    if (run.summary.hosts !== hosts || run.hostLines !== run.summary.scored) throw new Error(`Defender bench: ${run.summary.hosts} of ${hosts} hosts, ${run.hostLines} lines for ${run.summary.scored} scored.`);
    return { hosts, scored: run.summary.scored, ms: run.summary.ms, peakRssMb: run.peakRssMb, sampledHwmMb: run.sampledHwmMb };
  } finally {
    tmp.dispose();
    await sim.close();
  }
}
