/**
 * A Defender tenant under the documented rate limits (machines 100/min, per-machine
 * vulnerabilities 50/min, bulk export 30/min): one full cycle on the bulk path and one on the
 * per-device path, side by side. Vendor time is compressed by `rateScale` on both sides so the
 * per-device path (one call per host) finishes in the bench; "vendor minutes" is what the same
 * cycle takes against the real service.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { DefenderConnector } from '../../electron/edr/defender';
import { startDefenderSimulator } from '../../electron/simulator/defender';

export interface DefenderBenchRow {
  path: 'bulk' | 'per-machine';
  hosts: number;
  wallMs: number;
  vendorMinutes: number;
  calls: number;
  r429: number;
}

export async function benchDefender(hosts: number, rateScale = 1_000): Promise<DefenderBenchRow[]> {
  const tenant = {
    tenantId: randomUUID(),
    clientId: randomUUID(),
    clientSecret: `Q8~${randomBytes(18).toString('base64url')}`,
    consent: true,
    permissionType: 'Application' as const,
    permissions: ['Machine.Read.All', 'Vulnerability.Read.All', 'Alert.Read.All', 'discovery.manage', 'discovery.read'],
    hosts,
    seed: 11,
  };
  const sim = await startDefenderSimulator({ tenants: [tenant], rateScale });
  const rows: DefenderBenchRow[] = [];
  try {
    for (const source of ['bulk', 'per-machine'] as const) {
      const before429 = sim.stats.throttled;
      const c = new DefenderConnector({
        tenantId: tenant.tenantId,
        clientId: tenant.clientId,
        secrets: { getClientSecret: async () => tenant.clientSecret },
        idpUrl: sim.idpUrl,
        apiUrl: sim.apiUrl,
        tls: { mode: 'pinned', fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem },
        rateScale,
        vulnerabilitySource: source,
      });
      const t0 = performance.now();
      const records = await c.poll({ signal: AbortSignal.timeout(10 * 60_000) });
      const wallMs = performance.now() - t0;
      const report = c.lastReport;
      await c.close();
      if (records.length !== hosts) throw new Error(`expected ${hosts} hosts, got ${records.length}`);
      const calls = Object.values(report?.calls ?? {}).reduce((a, b) => a + b, 0);
      rows.push({ path: source, hosts, wallMs, vendorMinutes: (wallMs * rateScale) / 60_000, calls, r429: sim.stats.throttled - before429 });
    }
  } finally {
    await sim.close();
  }
  return rows;
}
