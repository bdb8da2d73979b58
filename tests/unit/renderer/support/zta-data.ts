/**
 * Synthetic ZTA snapshots for the dashboard's pure code (index, what-if) and its timings: a
 * Falcon and a Defender tenant, several customers each, every platform, Defender's enums and CVE
 * lists, Falcon's assessments (some missing), from a seed. Scores are the ones `scoreHost` gives
 * under the default settings, so a what-if with the defaults changes nothing.
 */
import { BANDS, COLUMN_KEYS, ENUMS, type ZtaColumns, type ZtaConnector, type ZtaSnapshot } from '../../../../shared/model/zta';
import { encodeCvss } from '../../../../shared/model/zta-columns';
import { defaultRiskConfig, scoreHost } from '../../../../shared/risk';
import { recordAt } from '../../../../renderer/features/zta/whatif';

const AS_OF = '2026-11-25T08:10:00.000Z';

/** Mulberry32: a small seeded generator. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const connector = (connectorId: string, name: string, vendor: ZtaConnector['vendor'], hosts: number): ZtaConnector => ({
  connectorId,
  name,
  vendor,
  tenantId: `${vendor}-tenant`,
  cycleId: 1,
  asOf: AS_OF,
  kind: 'poll',
  hosts,
  health: 'online',
  lastAttemptAt: null,
  lastError: null,
});

export interface SnapshotOptions {
  hosts?: number;
  seed?: number;
  /** Customers per tenant. */
  customers?: number;
}

/** `hosts` hosts, the first half Falcon, the rest Defender. */
export function ztaSnapshot({ hosts = 1000, seed = 7, customers = 3 }: SnapshotOptions = {}): ZtaSnapshot {
  const next = rng(seed);
  const pickIndex = (n: number) => Math.floor(next() * n);
  const rows = Object.fromEntries(COLUMN_KEYS.map((k) => [k, []])) as unknown as ZtaColumns;
  const falconHosts = Math.ceil(hosts / 2);
  const s: ZtaSnapshot = {
    asOf: AS_OF,
    connectors: [connector('c-falcon', 'Falcon tenant', 'falcon', falconHosts), connector('c-defender', 'Defender tenant', 'defender', hosts - falconHosts)],
    customers: [...Array.from({ length: customers }, (_, k) => `cid-${k}`), ...Array.from({ length: customers }, (_, k) => `tenant-${k}.onmicrosoft.com`)],
    rows,
  };
  const asOf = Date.parse(AS_OF);
  for (let i = 0; i < hosts; i++) {
    const falcon = i < falconHosts;
    const r = next();
    rows.connector.push(falcon ? 0 : 1);
    rows.hostId.push(`${falcon ? 'aid' : 'mid'}-${(i * 2654435761) >>> 0}`.padEnd(20, '0'));
    rows.hostname.push(`${['WS', 'LAPTOP', 'srv', 'mac'][pickIndex(4)]}-${String(pickIndex(5000)).padStart(4, '0')}`);
    rows.customer.push((falcon ? 0 : customers) + pickIndex(customers));
    rows.platform.push(r < 0.6 ? 0 : r < 0.85 ? 1 : r < 0.97 ? 2 : 3);
    rows.lastSeen.push(next() < 0.02 ? null : new Date(asOf - Math.floor(next() * next() * 30 * 86_400_000)).toISOString());
    const assessed = falcon && next() > 0.07;
    const overall = assessed ? 1 + pickIndex(100) : null;
    rows.osAssessment.push(assessed ? 1 + pickIndex(100) : null);
    rows.sensorAssessment.push(assessed ? 1 + pickIndex(100) : null);
    rows.overallAssessment.push(overall);
    rows.sensorRunning.push(falcon ? (next() < 0.9 ? 1 : 0) : null);
    rows.reducedFunctionality.push(falcon ? (next() < 0.03 ? 1 : 0) : null);
    const e = (k: keyof typeof ENUMS) => (falcon ? null : pickIndex(ENUMS[k].length));
    rows.riskLevel.push(e('riskLevel'));
    rows.exposure.push(e('exposure'));
    rows.health.push(e('health'));
    rows.avStatus.push(e('avStatus'));
    rows.onboarding.push(falcon ? null : next() < 0.9 ? 0 : 1 + pickIndex(3));
    const cves = falcon ? [] : Array.from({ length: pickIndex(next() < 0.3 ? 12 : 3) }, () => ({ cvss: Math.round(next() * 100) / 10 }));
    rows.criticalCves.push(falcon ? null : cves.filter((c) => c.cvss >= 9).length);
    rows.cveCount.push(falcon ? null : cves.length);
    rows.maxCvss.push(falcon || cves.length === 0 ? null : Math.max(...cves.map((c) => c.cvss)));
    rows.cvss.push(falcon ? null : encodeCvss(cves));
    rows.score.push(0);
    rows.band.push(0);
  }
  // Scored as main scores them, under the defaults.
  for (let i = 0; i < hosts; i++) {
    const scored = scoreHost(recordAt(s, i, defaultRiskConfig.thresholds.criticalCvss), defaultRiskConfig, asOf);
    rows.score[i] = scored.score;
    rows.band[i] = BANDS.indexOf(scored.band);
  }
  return s;
}
