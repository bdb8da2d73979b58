/**
 * The what-if (issue 11.4, EDR-Z2): one tenant's hosts scored again in the window under risk
 * settings that are not saved, with the same scoring as main (`scoreHost`), from the facts the
 * snapshot carries (`defenderFactsOf` / `falconFactsOf`), as of the connector's "as of" — the
 * time main's Save scores them at, so the preview is what Save will store. The answer is a copy
 * of the snapshot whose score and band columns hold the what-if's values: the table, its filters,
 * its sort and the charts read it as they read the stored one.
 *
 * The hosts' records are rebuilt once per snapshot and connector (again only when the critical
 * CVSS threshold moves, which changes how many CVEs count as critical). A Defender tenant's hosts
 * are read once into the batch form of its scoring (`prepareDefenderHosts`), which a step of the
 * slider scores in a few milliseconds, with the same result as `scoreHost`.
 */
import type { HostRecord } from '../../../shared/model/edr';
import { BANDS, ENUMS, PLATFORMS, emptyBandCounts, type BandCounts, type ZtaSnapshot } from '../../../shared/model/zta';
import { defenderFactsOf, falconFactsOf, type HostAttributes } from '../../../shared/model/zta-columns';
import { compileRiskConfig, prepareDefenderHosts, scoreHost, scorePreparedDefender, type PreparedDefenderHosts, type RiskConfig } from '../../../shared/risk';

const pick = <T extends string>(options: readonly T[], i: number | null | undefined): T | null => (i === null || i === undefined ? null : (options[i] ?? null));
const flag = (v: number | null | undefined): boolean | null => (v === null || v === undefined ? null : v === 1);

/** The attributes of row `i`, as main stored them (zta-columns.ts). */
export function attributesAt(s: ZtaSnapshot, i: number): HostAttributes {
  const r = s.rows;
  return {
    osAssessment: r.osAssessment[i] ?? null,
    sensorAssessment: r.sensorAssessment[i] ?? null,
    overallAssessment: r.overallAssessment[i] ?? null,
    sensorRunning: flag(r.sensorRunning[i]),
    reducedFunctionality: flag(r.reducedFunctionality[i]),
    riskLevel: pick(ENUMS.riskLevel, r.riskLevel[i]),
    exposure: pick(ENUMS.exposure, r.exposure[i]),
    health: pick(ENUMS.health, r.health[i]),
    avStatus: pick(ENUMS.avStatus, r.avStatus[i]),
    onboarding: pick(ENUMS.onboarding, r.onboarding[i]),
    criticalCves: r.criticalCves[i] ?? null,
    cveCount: r.cveCount[i] ?? null,
    maxCvss: r.maxCvss[i] ?? null,
    cvss: r.cvss[i] ?? null,
  };
}

/** Row `i` as a host record scoring can read. */
export function recordAt(s: ZtaSnapshot, i: number, criticalCvss: number): HostRecord {
  const r = s.rows;
  const c = s.connectors[r.connector[i]!]!;
  const a = attributesAt(s, i);
  const lastSeen = r.lastSeen[i] ?? null;
  return {
    vendor: c.vendor,
    tenantId: c.tenantId,
    hostId: r.hostId[i]!,
    hostname: r.hostname[i]!,
    customerId: s.customers[r.customer[i]!] ?? '',
    platform: PLATFORMS[r.platform[i]!] ?? 'Other',
    osVersion: null,
    lastSeen,
    ...(c.vendor === 'defender' ? { defender: defenderFactsOf(a, lastSeen, criticalCvss) } : { falcon: falconFactsOf(a, lastSeen) }),
  };
}

interface TenantRows {
  rows: Int32Array;
  /** A Falcon tenant's hosts as records; a Defender tenant's prepared for its batch scoring. */
  records: HostRecord[];
  defender: PreparedDefenderHosts | undefined;
  criticalCvss: number;
}

const cache = new WeakMap<ZtaSnapshot, Map<number, TenantRows>>();

function tenantRows(s: ZtaSnapshot, connector: number, criticalCvss: number): TenantRows {
  let bySnapshot = cache.get(s);
  if (!bySnapshot) cache.set(s, (bySnapshot = new Map()));
  const known = bySnapshot.get(connector);
  if (known && known.criticalCvss === criticalCvss) return known;
  const rows = known?.rows ?? rowsOf(s, connector);
  const records = Array.from(rows, (i) => recordAt(s, i, criticalCvss));
  // recordAt gives every host of a Defender connector its Defender facts.
  const defender = s.connectors[connector]?.vendor === 'defender' ? prepareDefenderHosts(records.map((r) => r.defender!)) : undefined;
  const t = { rows, records: defender ? [] : records, defender, criticalCvss };
  bySnapshot.set(connector, t);
  return t;
}

function rowsOf(s: ZtaSnapshot, connector: number): Int32Array {
  const col = s.rows.connector;
  let n = 0;
  for (let i = 0; i < col.length; i++) if (col[i] === connector) n += 1;
  const out = new Int32Array(n);
  for (let i = 0, k = 0; i < col.length; i++) if (col[i] === connector) out[k++] = i;
  return out;
}

export interface WhatIfResult {
  /** The snapshot with the tenant's scores and bands replaced by the what-if's. */
  snapshot: ZtaSnapshot;
  connector: number;
  /** The tenant's band counts, stored and under the what-if. */
  stored: BandCounts;
  whatIf: BandCounts;
  /** Hosts of the tenant whose band (score) the what-if changes. */
  bandChanged: number;
  scoreChanged: number;
}

const BAND_INDEX = new Map(BANDS.map((b, i) => [b, i]));

/** Scores the hosts of connector `connector` (an index into `s.connectors`) under `config`. */
export function rescoreSnapshot(s: ZtaSnapshot, connector: number, config: RiskConfig): WhatIfResult {
  const c = s.connectors[connector];
  const compiled = compileRiskConfig(config);
  const { rows, records, defender } = tenantRows(s, connector, compiled.criticalCvss);
  const at = c?.asOf ? Date.parse(c.asOf) : 0;
  const score = s.rows.score.slice();
  const band = s.rows.band.slice();
  // Counted by band number (a keyed increment of 'Low Risk' per host cost more than the scoring).
  const storedBy = new Int32Array(BANDS.length);
  const whatIfBy = new Int32Array(BANDS.length);
  let bandChanged = 0;
  let scoreChanged = 0;
  // The batch's band numbers are BANDS' (the snapshot's): RISK_BANDS, then Not assessed (NOT_ASSESSED_INDEX).
  const batch = defender ? scorePreparedDefender(defender, compiled, at) : undefined;
  for (let k = 0; k < rows.length; k++) {
    const i = rows[k]!;
    storedBy[band[i]!]! += 1;
    let nextScore = score[i]!;
    let nextBand = band[i]!;
    if (batch) {
      nextScore = batch.score[k]!;
      nextBand = batch.band[k]!;
    } else {
      try {
        const r = scoreHost(records[k]!, compiled, at);
        nextScore = r.score;
        nextBand = BAND_INDEX.get(r.band)!;
      } catch {
        // A row without its vendor's facts keeps its stored score (main skips such a host too).
      }
    }
    if (nextScore !== score[i]) scoreChanged += 1;
    if (nextBand !== band[i]) bandChanged += 1;
    score[i] = nextScore;
    band[i] = nextBand;
    whatIfBy[nextBand]! += 1;
  }
  const stored = emptyBandCounts();
  const whatIf = emptyBandCounts();
  BANDS.forEach((b, n) => {
    stored[b] = storedBy[n]!;
    whatIf[b] = whatIfBy[n]!;
  });
  return { snapshot: { ...s, rows: { ...s.rows, score, band } }, connector, stored, whatIf, bandChanged, scoreChanged };
}
