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
 */
import { DefenderAvStatus, DefenderExposureLevel, DefenderHealthStatus, DefenderOnboardingStatus, DefenderRiskScore } from '../model/edr';
import { isValidatedRiskConfig, parseRiskConfig, type FalconRiskConfig, type RiskBandEdges, type RiskConfig } from './config';

export interface IndicatorEntry {
  readonly points: number;
  readonly share: number;
  readonly detail: string;
}

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
  /** Details by critical CVE count: 0..cap precomputed, higher counts added when first met (up to 10 000). */
  readonly cveDetails: string[];
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
  const crit = (points: number, detail: string): IndicatorEntry => Object.freeze({ points, share: points * critFactor, detail });
  const op = (points: number, detail: string): IndicatorEntry => Object.freeze({ points, share: points * opFactor, detail });

  const table = (label: string, missing: string, values: readonly string[], entry: (v: string) => IndicatorEntry): IndicatorTable => {
    return Object.freeze({ options: Object.freeze([...values]), entries: Object.freeze(values.map(entry)), missing: Object.freeze({ points: 0, share: 0, detail: missing }), label });
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
  const cveDetails: string[] = [];
  for (let n = 0; n <= cap; n++) cveDetails.push(criticalCveDetail(n, cvss, cap));

  return Object.freeze({
    compiled: true as const,
    config: c,
    maxCritical,
    maxOperational,
    riskScore: table('Risk score', 'Risk score not reported', DefenderRiskScore.options, (v) => crit(riskPoints[v] ?? 0, `Risk score ${v}`)),
    exposureLevel: table('Exposure level', 'Exposure level not reported', DefenderExposureLevel.options, (v) => crit(exposurePoints[v] ?? 0, `Exposure level ${v}`)),
    avStatus: table('AV status', 'AV status not reported', DefenderAvStatus.options, (v) => crit(avPoints[v] ?? 0, `AV status ${SPACED[v] ?? v}`)),
    onboardingStatus: table('Onboarding status', 'Onboarding status not reported', DefenderOnboardingStatus.options, (v) =>
      v === 'Onboarded' ? crit(0, 'Onboarded') : crit(p.onboarding.NotOnboarded, `Not onboarded (${SPACED[v] ?? v})`),
    ),
    healthStatus: table('Health status', 'Health status not reported', DefenderHealthStatus.options, (v) => {
      if (v === 'Inactive') return op(p.healthStatus.Inactive, 'Health status Inactive');
      if (v === 'ImpairedCommunication') return op(p.healthStatus.ImpairedCommunication, 'Health status ImpairedCommunication');
      if (v === 'NoSensorDataImpairedCommunication') return op(p.healthStatus.ImpairedCommunication, `Health status ${v} (counted as ImpairedCommunication)`);
      return op(0, `Health status ${v}`);
    }),
    inactivityEdges: Object.freeze([e[0], e[1], e[2], e[3]] as const),
    inactivity: Object.freeze([
      op(i.lessThan1Day, bucketLabels[0]),
      op(i.days1To3, bucketLabels[1]),
      op(i.days4To7, bucketLabels[2]),
      op(i.days8To14, bucketLabels[3]),
      op(i.moreThan14Days, bucketLabels[4]),
    ] as const),
    inactivityUnknown: op(i.moreThan14Days, `Never seen or last-seen time unreadable (counted as ${bucketLabels[4].toLowerCase()})`),
    cvePointsEach: p.criticalCves.perCve,
    cveShareEach: p.criticalCves.perCve * opFactor,
    cveCap: cap,
    cveDetails,
    criticalCvss: cvss,
    bands: c.bands,
    falcon: c.falcon,
  });
}

/** Explanation of `n` critical CVEs; beyond the cap the extra CVEs add no points. */
export function criticalCveDetail(n: number, cvss: number, cap: number): string {
  const base = `${n} critical CVE${n === 1 ? '' : 's'} (CVSS >= ${Number.isInteger(cvss) ? cvss.toFixed(1) : String(cvss)})`;
  return n > cap ? `${base}, points capped at ${cap}` : base;
}
