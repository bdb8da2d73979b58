/**
 * Vendor B (Microsoft Defender for Endpoint) risk score, spec 2.3:
 *   score = critical_norm x CriticalRiskWeight + operational_norm x OperationalWeight
 * with the indicators of the table, the points and thresholds of the tenant's `RiskConfig` and the
 * normalisation described in `compile.ts`. Every indicator yields one contribution, in a fixed
 * order (`DEFENDER_INDICATORS`), also when it earns no points, so the UI can explain any score.
 *
 * Rules the spec leaves open (docs/spec-decisions.md, EDR-S*):
 * - only the values the table names earn points; the others (risk score None, AV Updated, ...) 0;
 * - a null field is "not reported" (plan 1 licence lacks several) and earns 0;
 * - onboarding: every status other than Onboarded is "Not Onboarded";
 * - health NoSensorDataImpairedCommunication counts as ImpairedCommunication;
 * - inactivity: whole days elapsed between lastSeen and the cycle time (floored; a lastSeen in the
 *   future counts as 0 days); a null or unreadable lastSeen counts as "more than 14 days".
 */
import { DefenderAvStatus, DefenderExposureLevel, DefenderHealthStatus, DefenderOnboardingStatus, DefenderRiskScore, NOT_ASSESSED, NOT_ASSESSED_INDEX, type Contribution, type DefenderFacts, type RiskBand } from '../model/edr';
import { NOT_ASSESSED_SCORE, bandFor, bandIndexFor, roundScore } from './bands';
import { compileRiskConfig, criticalCveEntry, type CompiledRiskConfig, type IndicatorEntry, type IndicatorTable } from './compile';
import type { RiskConfig } from './config';
import { parseTimestamp } from './time';

export const DEFENDER_INDICATORS = Object.freeze([
  { indicator: 'riskScore', group: 'critical' },
  { indicator: 'exposureLevel', group: 'critical' },
  { indicator: 'avStatus', group: 'critical' },
  { indicator: 'onboardingStatus', group: 'critical' },
  { indicator: 'healthStatus', group: 'operational' },
  { indicator: 'inactivity', group: 'operational' },
  { indicator: 'criticalCves', group: 'operational' },
] as const);
export type DefenderIndicator = (typeof DEFENDER_INDICATORS)[number]['indicator'];

export interface RiskResult {
  /** 0..100, two decimals, higher is riskier. */
  score: number;
  band: RiskBand;
  contributions: Contribution[];
  /** Falcon only: predefined profiles of spec 2.4, by identifier. */
  profiles?: Record<string, boolean>;
}

const DAY_MS = 86_400_000;

/** Epoch milliseconds of a `Date | number` cycle time. */
export const toEpochMs = (now: Date | number): number => (typeof now === 'number' ? now : now.getTime());

/**
 * Inactivity bucket 0..4 of `lastSeen` at `nowMs` (-1: no or unreadable lastSeen).
 * Bucket 0 = less than edges[0] whole days, bucket 4 = edges[3] days or more.
 */
export function inactivityBucket(lastSeen: string | null, nowMs: number, edges: readonly [number, number, number, number]): number {
  return lastSeen === null ? -1 : bucketOfSeen(parseTimestamp(lastSeen), nowMs, edges);
}

/** `inactivityBucket` of a last-seen time already parsed (NaN: none or unreadable). */
function bucketOfSeen(seen: number, nowMs: number, edges: readonly [number, number, number, number]): number {
  if (Number.isNaN(seen)) return -1;
  const days = Math.floor((nowMs - seen) / DAY_MS);
  if (days < edges[0]) return 0;
  if (days < edges[1]) return 1;
  if (days < edges[2]) return 2;
  if (days < edges[3]) return 3;
  return 4;
}

/**
 * Number of CVEs whose CVSS reaches the tenant's critical threshold (spec: >= 9.0). Connectors
 * use it to fill `DefenderFacts.criticalCveCount` from a device's vulnerability list.
 */
export function countCriticalCves(cvssScores: Iterable<number | null | undefined>, config: RiskConfig | CompiledRiskConfig): number {
  const threshold = compileRiskConfig(config).criticalCvss;
  let n = 0;
  for (const s of cvssScores) if (typeof s === 'number' && s >= threshold) n++;
  return n;
}

function countAtLeast(list: NonNullable<DefenderFacts['vulnerabilities']>, threshold: number): number {
  let n = 0;
  for (const v of list) if (v.cvss !== null && v.cvss >= threshold) n++;
  return n;
}

const lookup = (table: IndicatorTable, value: string | null): IndicatorEntry => {
  if (value === null) return table.missing;
  const options = table.options;
  for (let i = 0; i < options.length; i++) if (options[i] === value) return table.entries[i] as IndicatorEntry;
  const missing = table.missing;
  return { indicator: missing.indicator, group: missing.group, points: 0, scoreShare: 0, detail: `${table.label} ${value} (not scored)` };
};

const CVE_CACHE_LIMIT = 10_000;

function cveEntry(c: CompiledRiskConfig, count: number): IndicatorEntry {
  const cached = c.cveEntries[count];
  if (cached !== undefined) return cached;
  const entry = criticalCveEntry(count, c.criticalCvss, c.cveCap, c.cvePointsEach, c.cveShareEach);
  if (count <= CVE_CACHE_LIMIT) c.cveEntries[count] = entry;
  return entry;
}

/**
 * A device Defender has not assessed (EDR-N1): it reported none of risk score, exposure level, AV
 * status and health status, the device state the critical and health indicators read (Defender for
 * Endpoint Plan 2 provides them). Scored from its inactivity and CVEs alone it would look
 * trustworthy for want of data; it is Not assessed instead. Onboarding status alone is not an
 * assessment (Defender lists devices it only discovered).
 */
export const defenderNotAssessed = (f: DefenderFacts): boolean => f.riskScore === null && f.exposureLevel === null && f.avStatus === null && f.healthStatus === null;

/** Why a Defender device is Not assessed: its only contribution (shared, frozen). */
export const DEFENDER_NOT_ASSESSED: Contribution = Object.freeze({
  indicator: 'assessment',
  group: 'critical',
  points: 0,
  scoreShare: 0,
  detail: 'Not assessed: Defender reported no risk score, exposure level, AV status or health status for this device (they come with Defender for Endpoint Plan 2)',
});

/**
 * Scores one Defender device at the cycle time `now`. The contributions are shared, frozen
 * objects (see compile.ts); the array holding them is the result's own.
 */
export function scoreDefenderHost(facts: DefenderFacts, config: RiskConfig | CompiledRiskConfig, now: Date | number): RiskResult {
  const c = compileRiskConfig(config);
  if (defenderNotAssessed(facts)) return { score: NOT_ASSESSED_SCORE, band: NOT_ASSESSED, contributions: [DEFENDER_NOT_ASSESSED] };
  const risk = lookup(c.riskScore, facts.riskScore);
  const exposure = lookup(c.exposureLevel, facts.exposureLevel);
  const av = lookup(c.avStatus, facts.avStatus);
  const onboarding = lookup(c.onboardingStatus, facts.onboardingStatus);
  const health = lookup(c.healthStatus, facts.healthStatus);
  const bucket = inactivityBucket(facts.lastSeen, toEpochMs(now), c.inactivityEdges);
  const inactivity = bucket < 0 ? c.inactivityUnknown : (c.inactivity[bucket] as IndicatorEntry);
  // With the device's CVE list the tenant's own threshold decides (EDR-H5); older records carry only the count at 9.0.
  const critical = facts.vulnerabilities ? countAtLeast(facts.vulnerabilities, c.criticalCvss) : facts.criticalCveCount;
  const cves = cveEntry(c, critical > 0 ? Math.floor(critical) : 0);

  const raw = risk.scoreShare + exposure.scoreShare + av.scoreShare + onboarding.scoreShare + health.scoreShare + inactivity.scoreShare + cves.scoreShare;
  const score = roundScore(raw);
  return { score, band: bandFor(score, c.bands), contributions: [risk, exposure, av, onboarding, health, inactivity, cves] };
}

/** Sub-scores of a device normalised to [0, 1] (for the UI and the tests). */
export function defenderSubScores(facts: DefenderFacts, config: RiskConfig | CompiledRiskConfig, now: Date | number): { critical: number; operational: number } {
  const c = compileRiskConfig(config);
  const { contributions } = scoreDefenderHost(facts, c, now);
  let crit = 0;
  let op = 0;
  for (const x of contributions) {
    if (x.group === 'critical') crit += x.points;
    else op += x.points;
  }
  return { critical: c.maxCritical > 0 ? Math.min(1, crit / c.maxCritical) : 0, operational: c.maxOperational > 0 ? Math.min(1, op / c.maxOperational) : 0 };
}

/** The indicator tables of a Defender score, in the order `scoreDefenderHost` adds them (the facts' fields of the same names). */
const TABLES = ['riskScore', 'exposureLevel', 'avStatus', 'onboardingStatus', 'healthStatus'] as const;
/** Each table's options: the vendor's enumerations, as compile.ts lists them in every configuration. */
const OPTIONS: readonly (readonly string[])[] = [DefenderRiskScore.options, DefenderExposureLevel.options, DefenderAvStatus.options, DefenderOnboardingStatus.options, DefenderHealthStatus.options];
const MISSING = -1;
const UNLISTED = -2;

/**
 * Defender hosts read once, to be scored again and again under configurations that change (the
 * what-if's slider): each indicator's value as its place in the table, the last-seen time parsed,
 * the critical CVE count (or the CVSS list it is counted from). `scorePreparedDefender` gives each
 * host the score and band `scoreDefenderHost` gives (the same shares, added in the same order)
 * without building its contributions: a few milliseconds for 50,000 hosts rather than thirty, and
 * nothing left for the collector.
 */
export interface PreparedDefenderHosts {
  readonly count: number;
  /** Per table of TABLES: the value's index in its options, MISSING (null) or UNLISTED (a value the table lacks, scored 0). */
  readonly values: readonly Int8Array[];
  /** Last seen, epoch ms; NaN when none or unreadable. */
  readonly seen: Float64Array;
  /** The stored critical CVE count, for hosts without a CVE list. */
  readonly critical: Float64Array;
  /** The CVE lists of the hosts that have one: counted against each configuration's threshold. */
  readonly vulnerabilities: ReadonlyMap<number, NonNullable<DefenderFacts['vulnerabilities']>>;
}

export function prepareDefenderHosts(facts: readonly DefenderFacts[]): PreparedDefenderHosts {
  const n = facts.length;
  const values = TABLES.map(() => new Int8Array(n));
  const seen = new Float64Array(n);
  const critical = new Float64Array(n);
  const vulnerabilities = new Map<number, NonNullable<DefenderFacts['vulnerabilities']>>();
  for (let i = 0; i < n; i++) {
    const f = facts[i]!;
    for (let t = 0; t < TABLES.length; t++) {
      const v = f[TABLES[t]!];
      const at = v === null ? MISSING : OPTIONS[t]!.indexOf(v);
      values[t]![i] = at === -1 && v !== null ? UNLISTED : at;
    }
    seen[i] = f.lastSeen === null ? Number.NaN : parseTimestamp(f.lastSeen);
    critical[i] = f.criticalCveCount;
    if (f.vulnerabilities) vulnerabilities.set(i, f.vulnerabilities);
  }
  return { count: n, values, seen, critical, vulnerabilities };
}

/** Score and band (its index in RISK_BANDS) of every prepared host under `config` at the cycle time `now`. */
export function scorePreparedDefender(p: PreparedDefenderHosts, config: RiskConfig | CompiledRiskConfig, now: Date | number): { score: Float64Array; band: Uint8Array } {
  const c = compileRiskConfig(config);
  const nowMs = toEpochMs(now);
  // Per table, the share of each value: [UNLISTED, MISSING, ...options].
  const shares = TABLES.map((t) => {
    const table = c[t];
    return Float64Array.from([0, table.missing.scoreShare, ...table.entries.map((e) => e.scoreShare)]);
  });
  const [risk, exposure, av, onboarding, health] = shares as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
  const [vRisk, vExposure, vAv, vOnboarding, vHealth] = p.values as [Int8Array, Int8Array, Int8Array, Int8Array, Int8Array];
  const inactivity = c.inactivity.map((e) => e.scoreShare);
  const unknown = c.inactivityUnknown.scoreShare;
  const score = new Float64Array(p.count);
  const band = new Uint8Array(p.count);
  for (let i = 0; i < p.count; i++) {
    if (vRisk[i] === MISSING && vExposure[i] === MISSING && vAv[i] === MISSING && vHealth[i] === MISSING) {
      score[i] = NOT_ASSESSED_SCORE;
      band[i] = NOT_ASSESSED_INDEX;
      continue;
    }
    const bucket = bucketOfSeen(p.seen[i]!, nowMs, c.inactivityEdges);
    const list = p.vulnerabilities.size > 0 ? p.vulnerabilities.get(i) : undefined;
    const critical = list ? countAtLeast(list, c.criticalCvss) : p.critical[i]!;
    const raw =
      risk[vRisk[i]! + 2]! +
      exposure[vExposure[i]! + 2]! +
      av[vAv[i]! + 2]! +
      onboarding[vOnboarding[i]! + 2]! +
      health[vHealth[i]! + 2]! +
      (bucket < 0 ? unknown : inactivity[bucket]!) +
      cveEntry(c, critical > 0 ? Math.floor(critical) : 0).scoreShare;
    const s = roundScore(raw);
    score[i] = s;
    band[i] = bandIndexFor(s, c.bands);
  }
  return { score, band };
}
