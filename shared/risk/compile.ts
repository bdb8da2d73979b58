/**
 * Turns a validated `RiskConfig` into lookup tables once, so scoring a host is a handful of
 * property reads and additions: every indicator value maps to its points, its share of the final
 * score and its explanation, all precomputed.
 *
 * Normalisation (EDR-S2): a sub-score is the sum of the points of its indicators divided by the
 * group's maximum, i.e. the sum over indicators of the highest points any one value can earn
 * (values of one indicator exclude each other: a device has one risk score, one inactivity
 * bucket...; critical CVEs count up to the cap). Points are never negative, so every sub-score is
 * within [0, 1]. score = critical_norm x wCritical + operational_norm x wOperational (weights in
 * percent, so the score is within 0..100), and one indicator's share of the score is
 * points x weight / groupMax, so the shares add up to the score.
 *
 * The contributions themselves are precomputed too: one frozen `Contribution` per indicator value
 * (per critical CVE count, filled as counts are met), shared by every result that has that value.
 * Scoring a host allocates only its result and the array of its seven contributions.
 */
import type { Contribution } from '../model/edr';
import { DefenderAvStatus, DefenderExposureLevel, DefenderHealthStatus, DefenderOnboardingStatus, DefenderRiskScore } from '../model/edr';
import { isValidatedRiskConfig, parseRiskConfig, type FalconRiskConfig, type RiskBandEdges, type RiskConfig } from './config';

/** A precomputed, frozen contribution; shared between results, so copy it before changing anything. */
export type IndicatorEntry = Readonly<Contribution>;

export interface IndicatorTable {
  /** The vendor's values (enum options) and, at the same index, their entries. A short linear scan beats a keyed lookup here. */
  readonly options: readonly string[];
  readonly entries: readonly IndicatorEntry[];
  /** The field is null (not reported, e.g. under a plan 1 licence). */
  readonly missing: IndicatorEntry;
  /** Label for a value the vendor added after this code was written (scored 0). */
  readonly label: string;
}

export interface CompiledRiskConfig {
  readonly compiled: true;
  readonly config: RiskConfig;
  readonly maxCritical: number;
  readonly maxOperational: number;
  readonly riskScore: IndicatorTable;
  readonly exposureLevel: IndicatorTable;
  readonly avStatus: IndicatorTable;
  readonly onboardingStatus: IndicatorTable;
  readonly healthStatus: IndicatorTable;
  /** First whole day of buckets 1..4 (bucket 0 is below the first edge). */
  readonly inactivityEdges: readonly [number, number, number, number];
  readonly inactivity: readonly [IndicatorEntry, IndicatorEntry, IndicatorEntry, IndicatorEntry, IndicatorEntry];
  /** No lastSeen, or one that does not parse: scored as the last bucket (EDR-S5). */
  readonly inactivityUnknown: IndicatorEntry;
  readonly cvePointsEach: number;
  readonly cveShareEach: number;
  readonly cveCap: number;
  /** Contributions by critical CVE count: 0..cap precomputed, higher counts added when first met (up to 10 000). */
  readonly cveEntries: IndicatorEntry[];
  readonly criticalCvss: number;
  readonly bands: RiskBandEdges;
  readonly falcon: FalconRiskConfig;
}

const cache = new WeakMap<RiskConfig, CompiledRiskConfig>();

/** Compiles (once per config object; configs are treated as immutable) or returns an already compiled config. */
export function compileRiskConfig(config: RiskConfig | CompiledRiskConfig): CompiledRiskConfig {
  if (isCompiled(config)) return config;
  const hit = cache.get(config);
  if (hit) return hit;
  let valid = config;
  if (!isValidatedRiskConfig(config)) {
    const parsed = parseRiskConfig(config);
    if (!parsed.ok) throw parsed.error;
    valid = parsed.value;
  }
  const compiled = build(valid);
  cache.set(config, compiled);
  if (valid !== config) cache.set(valid, compiled);
  return compiled;
}

const isCompiled = (c: RiskConfig | CompiledRiskConfig): c is CompiledRiskConfig => (c as Partial<CompiledRiskConfig>).compiled === true;

const SPACED: Readonly<Record<string, string>> = {
  NotReporting: 'Not Reporting',
  NotUpdated: 'Not Updated',
  NotSupported: 'Not Supported',
  CanBeOnboarded: 'can be onboarded',
  InsufficientInfo: 'insufficient info',
  Unsupported: 'unsupported',
};

function build(c: RiskConfig): CompiledRiskConfig {
  const p = c.points;
  const cap = c.thresholds.criticalCveCap;
  const maxCritical =
    Math.max(p.riskScore.Low, p.riskScore.Medium, p.riskScore.High) +
    Math.max(p.exposureLevel.Medium, p.exposureLevel.High) +
    Math.max(p.avStatus.Disabled, p.avStatus.NotReporting) +
    p.onboarding.NotOnboarded;
  const maxOperational =
    Math.max(p.healthStatus.Inactive, p.healthStatus.ImpairedCommunication) +
    Math.max(p.inactivity.lessThan1Day, p.inactivity.days1To3, p.inactivity.days4To7, p.inactivity.days8To14, p.inactivity.moreThan14Days) +
    p.criticalCves.perCve * cap;
  const critFactor = maxCritical > 0 ? c.weights.critical / maxCritical : 0;
  const opFactor = maxOperational > 0 ? c.weights.operational / maxOperational : 0;
  type Indicator = 'riskScore' | 'exposureLevel' | 'avStatus' | 'onboardingStatus' | 'healthStatus' | 'inactivity' | 'criticalCves';
  const crit = (indicator: Indicator, points: number, detail: string): IndicatorEntry => Object.freeze({ indicator, group: 'critical', points, scoreShare: points * critFactor, detail });
  const op = (indicator: Indicator, points: number, detail: string): IndicatorEntry => Object.freeze({ indicator, group: 'operational', points, scoreShare: points * opFactor, detail });

  const table = (indicator: Indicator, label: string, missing: string, values: readonly string[], entry: (v: string) => IndicatorEntry): IndicatorTable => {
    const mk = indicator === 'healthStatus' ? op : crit;
    return Object.freeze({ options: Object.freeze([...values]), entries: Object.freeze(values.map(entry)), missing: mk(indicator, 0, missing), label });
  };

  const riskPoints: Readonly<Record<string, number>> = p.riskScore;
  const exposurePoints: Readonly<Record<string, number>> = p.exposureLevel;
  const avPoints: Readonly<Record<string, number>> = p.avStatus;

  const e = c.thresholds.inactivityDayEdges;
  const range = (from: number, to: number) => (from === to ? `${from} day${from === 1 ? '' : 's'}` : `${from} to ${to} days`);
  const bucketLabels = [
    `Inactive less than ${e[0]} day${e[0] === 1 ? '' : 's'}`,
    `Inactive ${range(e[0], e[1] - 1)}`,
    `Inactive ${range(e[1], e[2] - 1)}`,
    `Inactive ${range(e[2], e[3] - 1)}`,
    `Inactive more than ${e[3] - 1} day${e[3] - 1 === 1 ? '' : 's'}`,
  ] as const;
  const i = p.inactivity;
  const cvss = c.thresholds.criticalCvss;
  const cveShareEach = p.criticalCves.perCve * opFactor;
  const cveEntries: IndicatorEntry[] = [];
  for (let n = 0; n <= cap; n++) cveEntries.push(criticalCveEntry(n, cvss, cap, p.criticalCves.perCve, cveShareEach));

  return Object.freeze({
    compiled: true as const,
    config: c,
    maxCritical,
    maxOperational,
    riskScore: table('riskScore', 'Risk score', 'Risk score not reported', DefenderRiskScore.options, (v) => crit('riskScore', riskPoints[v] ?? 0, `Risk score ${v}`)),
    exposureLevel: table('exposureLevel', 'Exposure level', 'Exposure level not reported', DefenderExposureLevel.options, (v) =>
      crit('exposureLevel', exposurePoints[v] ?? 0, `Exposure level ${v}`),
    ),
    avStatus: table('avStatus', 'AV status', 'AV status not reported', DefenderAvStatus.options, (v) => crit('avStatus', avPoints[v] ?? 0, `AV status ${SPACED[v] ?? v}`)),
    onboardingStatus: table('onboardingStatus', 'Onboarding status', 'Onboarding status not reported', DefenderOnboardingStatus.options, (v) =>
      v === 'Onboarded' ? crit('onboardingStatus', 0, 'Onboarded') : crit('onboardingStatus', p.onboarding.NotOnboarded, `Not onboarded (${SPACED[v] ?? v})`),
    ),
    healthStatus: table('healthStatus', 'Health status', 'Health status not reported', DefenderHealthStatus.options, (v) => {
      const h = p.healthStatus;
      if (v === 'Inactive') return op('healthStatus', h.Inactive, 'Health status Inactive');
      if (v === 'ImpairedCommunication') return op('healthStatus', h.ImpairedCommunication, 'Health status ImpairedCommunication');
      if (v === 'NoSensorDataImpairedCommunication') return op('healthStatus', h.ImpairedCommunication, `Health status ${v} (counted as ImpairedCommunication)`);
      return op('healthStatus', 0, `Health status ${v}`);
    }),
    inactivityEdges: Object.freeze([e[0], e[1], e[2], e[3]] as const),
    inactivity: Object.freeze([
      op('inactivity', i.lessThan1Day, bucketLabels[0]),
      op('inactivity', i.days1To3, bucketLabels[1]),
      op('inactivity', i.days4To7, bucketLabels[2]),
      op('inactivity', i.days8To14, bucketLabels[3]),
      op('inactivity', i.moreThan14Days, bucketLabels[4]),
    ] as const),
    inactivityUnknown: op('inactivity', i.moreThan14Days, `Never seen or last-seen time unreadable (counted as ${bucketLabels[4].toLowerCase()})`),
    cvePointsEach: p.criticalCves.perCve,
    cveShareEach,
    cveCap: cap,
    cveEntries,
    criticalCvss: cvss,
    bands: c.bands,
    falcon: c.falcon,
  });
}

/** Contribution of `n` critical CVEs; beyond the cap the extra CVEs add no points. */
export function criticalCveEntry(n: number, cvss: number, cap: number, pointsEach: number, shareEach: number): IndicatorEntry {
  const counted = n < cap ? n : cap;
  const base = `${n} critical CVE${n === 1 ? '' : 's'} (CVSS >= ${Number.isInteger(cvss) ? cvss.toFixed(1) : String(cvss)})`;
  const detail = n > cap ? `${base}, points capped at ${cap}` : base;
  return Object.freeze({ indicator: 'criticalCves', group: 'operational', points: counted * pointsEach, scoreShare: counted * shareEach, detail });
}
