/** Shared helpers of the Defender tests: the simulator on loopback, connectors trusting only its pinned certificate. */
import { DefenderConnector, type DefenderConnectorOptions } from '../../../electron/edr/defender';
import { REQUIRED_PERMISSIONS, defenderTenant, machineAt, machineCves, startDefenderSimulator, type DefenderSimulator, type DefenderSimulatorOptions, type DefenderTenantConfig } from '@northbound/simulators/testing/defender';

export const ALL_PERMISSIONS = [...REQUIRED_PERMISSIONS];

/** A fully permitted tenant (packages/simulators/src/defender/tenant-config.ts); `over` wins. */
export const tenant = (over: Partial<DefenderTenantConfig> = {}): DefenderTenantConfig => defenderTenant(over);

export const startSim = (opts: DefenderSimulatorOptions): Promise<DefenderSimulator> => startDefenderSimulator(opts);

/** Fast retries for tests: same policy shape, milliseconds instead of seconds. */
export const FAST_RETRY = { baseDelayMs: 5, maxDelayMs: 40 };

export function connectorFor(sim: DefenderSimulator, t: Pick<DefenderTenantConfig, 'tenantId' | 'clientId' | 'clientSecret'>, over: Partial<DefenderConnectorOptions> = {}): DefenderConnector {
  return new DefenderConnector({
    tenantId: t.tenantId,
    clientId: t.clientId,
    secrets: { getClientSecret: async () => t.clientSecret },
    idpUrl: sim.idpUrl,
    apiUrl: sim.apiUrl,
    tls: { mode: 'pinned', fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem },
    now: () => sim.clock.now(),
    retry: FAST_RETRY,
    ...over,
  });
}

/** What the simulator's data says machine i's CVE facts are (the truth the connector must reach). */
export function expectedFacts(t: DefenderTenantConfig, i: number, anchorMs: number) {
  const m = machineAt(t.seed, i, anchorMs);
  const cves = machineCves(t.seed, i, m.onboarded);
  const max = cves.length ? Math.max(...cves.map((c) => c.cvss)) : null;
  return { id: m.record.id as string, cveCount: cves.length, criticalCveCount: cves.filter((c) => c.cvss >= 9).length, maxCvss: max };
}

export const calls = (sim: DefenderSimulator, key: string) => sim.stats.calls[key] ?? 0;
export const MACHINES = 'GET /api/machines';
export const PER_MACHINE = 'GET /api/machines/{id}/vulnerabilities';
export const BULK = 'GET /api/machines/SoftwareVulnerabilitiesByMachine';
