/** Deterministic scored hosts for store tests and benches. */
import type { RiskBand, ScoredHost } from '../../shared/model/edr';
import type { EdrDb } from '../../electron/edr/store/edr-db';
import type { EdrStore } from '../../electron/edr/store/edr-store';
import { SqliteEdrStore } from '../../electron/edr/store/sqlite-edr-store';

const bands: RiskBand[] = ['Trustworthy', 'Low Risk', 'Moderate Risk', 'Suspicious', 'High Risk'];

export function makeScoredHosts(n: number, opts: { cycleSalt?: number; tenantId?: string } = {}): ScoredHost[] {
  const out: ScoredHost[] = [];
  const salt = opts.cycleSalt ?? 0;
  for (let i = 0; i < n; i++) {
    const score = (i * 37 + salt * 11) % 101;
    out.push({
      host: {
        vendor: 'defender',
        tenantId: opts.tenantId ?? 't1',
        hostId: `m${i.toString(16).padStart(8, '0')}`,
        hostname: `host-${i}.corp.example`,
        customerId: i % 3 === 0 ? 'cust-a' : 'cust-b',
        platform: i % 4 === 0 ? 'Mac' : 'Windows',
        osVersion: '10.0',
        lastSeen: '2026-11-20T10:00:00.000Z',
        defender: { riskScore: 'Low', exposureLevel: 'Medium', healthStatus: 'Active', avStatus: 'Updated', onboardingStatus: 'Onboarded', lastSeen: '2026-11-20T10:00:00.000Z', criticalCveCount: i % 5, cveCount: i % 17, maxCvss: 9.8 },
      },
      score,
      band: bands[Math.min(4, Math.max(0, Math.ceil(score / 20) - 1))]!,
      contributions: [{ indicator: 'riskScore:Low', group: 'critical', points: 10, scoreShare: score, detail: 'risk score Low' }],
      scoredAt: '2026-11-22T03:00:00.000Z',
    });
  }
  return out;
}

/**
 * A `connectors.save` request for a Defender tenant of a simulator, trusting the simulator's
 * certificate, polled hourly; `extra` adds fields (a name, risk settings) or replaces them.
 */
export function defenderConnectorSave<E extends object = object>(
  sim: { apiUrl: string; idpUrl: string; certificatePem: string },
  tenant: { tenantId: string; clientId: string; clientSecret: string },
  extra?: E,
) {
  return {
    vendor: 'defender' as const,
    tenantId: tenant.tenantId,
    clientId: tenant.clientId,
    clientSecret: tenant.clientSecret,
    apiUrl: sim.apiUrl,
    idpUrl: sim.idpUrl,
    pollIntervalMinutes: 60,
    tls: { mode: 'custom-ca' as const, caName: 'sim.pem', caPem: sim.certificatePem },
    ...(extra as E),
  };
}

/** The synchronous edr.db behind the feature's store (tests read what was stored through it). */
export function edrDb(store: EdrStore): EdrDb {
  if (!(store instanceof SqliteEdrStore)) throw new Error('not the SQLite EDR store');
  return store.db;
}

/** A Falcon connector as a team's connector list takes it (`registerBulk`, `connectors.save` of a joined console), with `patch` over it. */
export const teamFalconEntry = (patch: Record<string, unknown> = {}) => ({
  vendor: 'falcon',
  tenantId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90',
  clientId: '0123456789abcdef0123456789abcdef',
  clientSecret: 'falcon-secret-1',
  cloudRegion: 'us-1',
  apiUrl: 'https://127.0.0.1:9443',
  pollIntervalMinutes: 10,
  enabled: true,
  ...patch,
});
