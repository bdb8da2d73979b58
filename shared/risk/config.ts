/**
 * Per-tenant risk scoring configuration (spec 2.3, 2.4, 8). The spec gives the formula, the
 * indicators and the bands but no point values and no normalisation rule; the defaults below and
 * the rules in `defender.ts` / `falcon.ts` are Northbound's (docs/spec-decisions.md, EDR-S*).
 *
 * A tenant's configuration is `defaultRiskConfig` deep-merged with the tenant's overrides
 * (`tenantRiskConfig`), then validated as a whole; every rule the scoring relies on (weights
 * totalling 100, ordered scales, increasing day edges) is checked here, once, so that scoring a
 * host never has to.
 */
import { z } from 'zod';
import '../validation/install';
import { AppError } from '../model/errors';

export const RISK_CONFIG_INVALID = 'risk.config_invalid';

const points = (label: string) =>
  z
    .number({ error: `${label}: enter a number of points.` })
    .min(0, { error: `${label}: points cannot be negative.` })
    .max(1000, { error: `${label}: at most 1000 points.` });

const weight = (label: string) =>
  z
    .number({ error: `Weight ${label}: enter a whole percentage.` })
    .int({ error: (iss) => `Weight ${label} must be a whole percentage (got ${String(iss.input)}).` })
    .min(0, { error: `Weight ${label} cannot be below 0 %.` })
    .max(100, { error: `Weight ${label} cannot be above 100 %.` });

/** Both weights are integer percentages that must total 100 (spec 2.3, 8). */
export const RiskWeights = z
  .strictObject({ critical: weight('critical'), operational: weight('operational') })
  .superRefine((w, ctx) => {
    const sum = w.critical + w.operational;
    if (sum !== 100) {
      ctx.addIssue({ code: 'custom', message: `Weights must total 100 %; critical ${w.critical} + operational ${w.operational} = ${sum}.` });
    }
  });

/** Requires `values` (in the order given) never to decrease, so a worse value never earns fewer points. */
function nonDecreasing(ctx: z.RefinementCtx, scale: string, values: ReadonlyArray<readonly [string, number]>): void {
  for (let i = 1; i < values.length; i++) {
    const [prevName, prev] = values[i - 1] as readonly [string, number];
    const [name, value] = values[i] as readonly [string, number];
    if (value < prev) {
      ctx.addIssue({ code: 'custom', path: [name], message: `${scale} ${name} (${value}) must be at least ${scale} ${prevName} (${prev}): a worse value cannot earn fewer points.` });
    }
  }
}

export const RiskPoints = z.strictObject({
  /** Defender `riskScore`; None and Informational earn 0. */
  riskScore: z
    .strictObject({ Low: points('Risk score Low'), Medium: points('Risk score Medium'), High: points('Risk score High') })
    .superRefine((p, ctx) => nonDecreasing(ctx, 'Risk score', [['Low', p.Low], ['Medium', p.Medium], ['High', p.High]])),
  /** Defender `exposureLevel`; None and Low earn 0. */
  exposureLevel: z
    .strictObject({ Medium: points('Exposure level Medium'), High: points('Exposure level High') })
    .superRefine((p, ctx) => nonDecreasing(ctx, 'Exposure level', [['Medium', p.Medium], ['High', p.High]])),
  /** Defender antivirus status; the other values earn 0. */
  avStatus: z.strictObject({ Disabled: points('AV status Disabled'), NotReporting: points('AV status Not Reporting') }),
  /** Any onboarding status other than Onboarded is "Not Onboarded". */
  onboarding: z.strictObject({ NotOnboarded: points('Onboarding Not Onboarded') }),
  /** Defender `healthStatus`; NoSensorDataImpairedCommunication counts as ImpairedCommunication. */
  healthStatus: z.strictObject({ Inactive: points('Health status Inactive'), ImpairedCommunication: points('Health status ImpairedCommunication') }),
  /** Days since last seen, one bucket applies (edges in `thresholds.inactivityDayEdges`). */
  inactivity: z
    .strictObject({
      lessThan1Day: points('Inactive less than 1 day'),
      days1To3: points('Inactive 1 to 3 days'),
      days4To7: points('Inactive 4 to 7 days'),
      days8To14: points('Inactive 8 to 14 days'),
      moreThan14Days: points('Inactive more than 14 days'),
    })
    .superRefine((p, ctx) =>
      nonDecreasing(ctx, 'Inactivity bucket', [
        ['lessThan1Day', p.lessThan1Day],
        ['days1To3', p.days1To3],
        ['days4To7', p.days4To7],
        ['days8To14', p.days8To14],
        ['moreThan14Days', p.moreThan14Days],
      ]),
    ),
  /** Points per CVE with a critical CVSS, up to `thresholds.criticalCveCap` CVEs. */
  criticalCves: z.strictObject({ perCve: points('Points per critical CVE') }),
});
export type RiskPoints = z.infer<typeof RiskPoints>;

export const RiskThresholds = z.strictObject({
  /**
   * First whole day of the buckets "1 to 3", "4 to 7", "8 to 14" and "more than 14" days:
   * [1, 4, 8, 15] by default. Strictly increasing positive integers.
   */
  inactivityDayEdges: z
    .tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()], { error: 'Inactivity day edges: enter four whole numbers of days.' })
    .superRefine((e, ctx) => {
      if (e[0] < 1) ctx.addIssue({ code: 'custom', path: [0], message: `Inactivity day edges: the first edge must be at least 1 day (got ${e[0]}).` });
      for (let i = 1; i < e.length; i++) {
        if ((e[i] as number) <= (e[i - 1] as number)) {
          ctx.addIssue({ code: 'custom', path: [i], message: `Inactivity day edges must increase: ${e.join(', ')}.` });
          break;
        }
      }
    }),
  /** A CVE is critical when its CVSS is at least this (spec 2.3: 9.0). */
  criticalCvss: z.number({ error: 'Critical CVSS threshold: enter a number.' }).min(0, { error: 'Critical CVSS threshold must be within 0 to 10.' }).max(10, { error: 'Critical CVSS threshold must be within 0 to 10.' }),
  /** Critical CVEs beyond this count add no points (the operational sub-score stays within [0, 1]). */
  criticalCveCap: z
    .number({ error: 'Critical CVE cap: enter a whole number of CVEs.' })
    .int({ error: 'Critical CVE cap must be a whole number of CVEs.' })
    .min(1, { error: 'Critical CVE cap must be at least 1.' })
    .max(1000, { error: 'Critical CVE cap must be at most 1000.' }),
});
export type RiskThresholds = z.infer<typeof RiskThresholds>;

/** Inclusive upper bounds of Trustworthy, Low Risk, Moderate Risk and Suspicious; High Risk is above the last. */
export const RiskBandEdges = z
  .tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()], { error: 'Band edges: enter four whole scores.' })
  .superRefine((e, ctx) => {
    const ok = e[0] >= 0 && e[3] < 100 && e[0] < e[1] && e[1] < e[2] && e[2] < e[3];
    if (!ok) ctx.addIssue({ code: 'custom', message: `Band edges must increase strictly within 0 to 99: ${e.join(', ')}.` });
  });
export type RiskBandEdges = z.infer<typeof RiskBandEdges>;

const zta = (label: string) =>
  z.number({ error: `${label}: enter a score from 0 to 100.` }).min(0, { error: `${label} must be within 0 to 100.` }).max(100, { error: `${label} must be within 0 to 100.` });

/** Vendor A (Falcon ZTA, 1..100, higher is better). */
export const FalconRiskConfig = z.strictObject({
  /** Posture profile passes when overall >= this ... */
  postureMinOverall: zta('Falcon posture: minimum overall ZTA'),
  /** ... and sensor_config >= this ... */
  postureMinSensorConfig: zta('Falcon posture: minimum sensor ZTA'),
  /** ... and os >= this (0 = not checked). */
  postureMinOs: zta('Falcon posture: minimum OS ZTA'),
  /**
   * Superseded (EDR-N1, N2): a host Falcon has not assessed is Not assessed, and what is published for
   * it is the connector's choice. Still accepted so that configurations stored before load; not used.
   */
  noAssessmentScore: zta('Falcon: score without assessment').optional(),
});
export type FalconRiskConfig = z.infer<typeof FalconRiskConfig>;

export const RiskConfig = z.strictObject({
  weights: RiskWeights,
  points: RiskPoints,
  thresholds: RiskThresholds,
  bands: RiskBandEdges,
  falcon: FalconRiskConfig,
});
export type RiskConfig = z.infer<typeof RiskConfig>;

/**
 * Documented defaults (docs/spec-decisions.md, EDR-S1..S3). Each group's maximum is 100 points:
 * critical = 40 (risk High) + 20 (exposure High) + 25 (AV Disabled) + 15 (not onboarded);
 * operational = 20 (health Inactive) + 30 (more than 14 days) + 5 x 10 (critical CVEs, cap 5).
 */
export const defaultRiskConfig: RiskConfig = deepFreeze({
  weights: { critical: 60, operational: 40 },
  points: {
    riskScore: { Low: 10, Medium: 25, High: 40 },
    exposureLevel: { Medium: 10, High: 20 },
    avStatus: { Disabled: 25, NotReporting: 15 },
    onboarding: { NotOnboarded: 15 },
    healthStatus: { Inactive: 20, ImpairedCommunication: 15 },
    inactivity: { lessThan1Day: 0, days1To3: 5, days4To7: 10, days8To14: 20, moreThan14Days: 30 },
    criticalCves: { perCve: 10 },
  },
  thresholds: { inactivityDayEdges: [1, 4, 8, 15], criticalCvss: 9.0, criticalCveCap: 5 },
  bands: [20, 40, 60, 80],
  falcon: { postureMinOverall: 70, postureMinSensorConfig: 70, postureMinOs: 0 },
});

/** Configurations known to be valid (returned by `parseRiskConfig`, or the defaults). They are frozen. */
const validated = new WeakSet<RiskConfig>([defaultRiskConfig]);

/** True when `config` came out of `parseRiskConfig` (or is the defaults), so it needs no second validation. */
export const isValidatedRiskConfig = (config: RiskConfig): boolean => validated.has(config);

export interface RiskConfigIssue {
  /** Dotted path of the field, e.g. `weights` or `points.riskScore.High`. */
  path: string;
  message: string;
}

/** A refused configuration: every problem with the field it concerns, in words an operator understands. */
export class RiskConfigError extends AppError {
  readonly issues: readonly RiskConfigIssue[];

  constructor(issues: readonly RiskConfigIssue[]) {
    const first = issues[0];
    const summary = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : 'Invalid risk configuration.';
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : '';
    super(RISK_CONFIG_INVALID, `Risk configuration refused: ${summary}${more}`, 'Correct the fields listed and save again.', { details: { issues: issues.map((i) => ({ ...i })) } });
    this.name = 'RiskConfigError';
    this.issues = issues;
  }
}

export type RiskConfigResult = { ok: true; value: RiskConfig } | { ok: false; error: RiskConfigError };

/** Validates a complete configuration. */
export function parseRiskConfig(input: unknown): RiskConfigResult {
  const parsed = RiskConfig.safeParse(input);
  if (parsed.success) {
    const value = deepFreeze(parsed.data);
    validated.add(value);
    return { ok: true, value };
  }
  const issues = parsed.error.issues.map((i): RiskConfigIssue => {
    const path = i.path.map(String).join('.');
    if (i.code === 'unrecognized_keys') {
      const names = i.keys.map((k) => (path ? `${path}.${k}` : k));
      return { path, message: `Unknown setting${names.length > 1 ? 's' : ''} ${names.map((n) => `"${n}"`).join(', ')}.` };
    }
    return { path, message: i.message };
  });
  return { ok: false, error: new RiskConfigError(issues) };
}

/** Deep-partial overrides of a tenant; arrays (edges) are replaced whole. */
export type RiskConfigOverrides = { [K in keyof RiskConfig]?: DeepPartial<RiskConfig[K]> };
type DeepPartial<T> = T extends readonly unknown[] ? T : T extends object ? { [K in keyof T]?: DeepPartial<T[K]> } : T;

/**
 * A tenant's configuration: defaults (or `base`) deep-merged with the tenant's overrides
 * (shaped as `RiskConfigOverrides`; typed `unknown` because they come from stored settings),
 * then validated. `undefined`/`null` overrides give the defaults.
 */
export function tenantRiskConfig(overrides: unknown, base: RiskConfig = defaultRiskConfig): RiskConfigResult {
  if (overrides === undefined || overrides === null) return parseRiskConfig(base);
  if (!isPlainObject(overrides)) return { ok: false, error: new RiskConfigError([{ path: '', message: 'Tenant risk settings must be an object.' }]) };
  return parseRiskConfig(deepMerge(base, overrides));
}

/** Like `tenantRiskConfig`, throwing the `RiskConfigError`. */
export function tenantRiskConfigOrThrow(overrides: unknown, base: RiskConfig = defaultRiskConfig): RiskConfig {
  const r = tenantRiskConfig(overrides, base);
  if (!r.ok) throw r.error;
  return r.value;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto: unknown = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
}

/** Merges own enumerable keys; keys such as `__proto__` become plain own keys, which the strict schema then refuses. */
function deepMerge(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over === undefined ? base : over;
  const out: Record<string, unknown> = {};
  const set = (k: string, v: unknown) => Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
  for (const k of Object.keys(base)) set(k, base[k]);
  for (const k of Object.keys(over)) set(k, Object.prototype.hasOwnProperty.call(base, k) ? deepMerge(base[k], over[k]) : over[k]);
  return out;
}

function deepFreeze<T>(v: T): T {
  if (typeof v === 'object' && v !== null && !Object.isFrozen(v)) {
    for (const k of Object.keys(v)) deepFreeze((v as Record<string, unknown>)[k]);
    Object.freeze(v);
  }
  return v;
}
