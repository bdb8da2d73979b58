/** Shared fixtures of the risk tests: facts, a reference implementation of spec 2.3, arbitraries. */
import fc from 'fast-check';
import { DefenderAvStatus, DefenderExposureLevel, DefenderHealthStatus, DefenderOnboardingStatus, DefenderRiskScore, type DefenderFacts } from '../../../shared/model/edr';
import { parseRiskConfig, type RiskConfig } from '../../../shared/risk/index';

export const NOW = Date.parse('2025-06-01T12:00:00Z');
export const DAY = 86_400_000;
export const iso = (ms: number) => new Date(ms).toISOString();

/** A device with no indicator set: scores 0. */
export function cleanFacts(overrides: Partial<DefenderFacts> = {}): DefenderFacts {
  return {
    riskScore: 'None',
    exposureLevel: 'None',
    healthStatus: 'Active',
    avStatus: 'Updated',
    onboardingStatus: 'Onboarded',
    lastSeen: iso(NOW - 3_600_000),
    criticalCveCount: 0,
    cveCount: 0,
    maxCvss: null,
    ...overrides,
  };
}

/**
 * Spec 2.3 written out plainly (independent of the lookup tables of shared/risk): the test oracle.
 * Returns the unrounded score and the two normalised sub-scores.
 */
export function referenceScore(f: DefenderFacts, c: RiskConfig, now: number): { score: number; critical: number; operational: number } {
  const p = c.points;
  let crit = 0;
  if (f.riskScore === 'Low' || f.riskScore === 'Medium' || f.riskScore === 'High') crit += p.riskScore[f.riskScore];
  if (f.exposureLevel === 'Medium' || f.exposureLevel === 'High') crit += p.exposureLevel[f.exposureLevel];
  if (f.avStatus === 'Disabled') crit += p.avStatus.Disabled;
  if (f.avStatus === 'NotReporting') crit += p.avStatus.NotReporting;
  if (f.onboardingStatus !== null && f.onboardingStatus !== 'Onboarded') crit += p.onboarding.NotOnboarded;
  let op = 0;
  if (f.healthStatus === 'Inactive') op += p.healthStatus.Inactive;
  if (f.healthStatus === 'ImpairedCommunication' || f.healthStatus === 'NoSensorDataImpairedCommunication') op += p.healthStatus.ImpairedCommunication;
  const seen = f.lastSeen === null ? NaN : Date.parse(f.lastSeen);
  const days = Number.isNaN(seen) ? Infinity : Math.floor((now - seen) / DAY);
  const [e1, e4, e8, e15] = c.thresholds.inactivityDayEdges;
  const b = p.inactivity;
  op += days < e1 ? b.lessThan1Day : days < e4 ? b.days1To3 : days < e8 ? b.days4To7 : days < e15 ? b.days8To14 : b.moreThan14Days;
  op += Math.min(f.criticalCveCount, c.thresholds.criticalCveCap) * p.criticalCves.perCve;
  const maxCrit = Math.max(p.riskScore.Low, p.riskScore.Medium, p.riskScore.High) + Math.max(p.exposureLevel.Medium, p.exposureLevel.High) + Math.max(p.avStatus.Disabled, p.avStatus.NotReporting) + p.onboarding.NotOnboarded;
  const maxOp = Math.max(p.healthStatus.Inactive, p.healthStatus.ImpairedCommunication) + Math.max(...Object.values(b)) + p.criticalCves.perCve * c.thresholds.criticalCveCap;
  const critical = maxCrit === 0 ? 0 : crit / maxCrit;
  const operational = maxOp === 0 ? 0 : op / maxOp;
  return { score: 100 * ((critical * c.weights.critical) / 100 + (operational * c.weights.operational) / 100), critical, operational };
}

const nullable = <T>(values: readonly T[]) => fc.constantFrom<T | null>(null, ...values);

export const arbRiskScore = nullable(DefenderRiskScore.options);
export const arbExposure = nullable(DefenderExposureLevel.options);
export const arbHealth = nullable(DefenderHealthStatus.options);
export const arbAv = nullable(DefenderAvStatus.options);
export const arbOnboarding = nullable(DefenderOnboardingStatus.options);
/** Age of lastSeen in ms: from 1 day in the future (clock skew) to 60 days ago. */
export const arbAge = fc.integer({ min: -DAY, max: 60 * DAY });
export const arbLastSeen = fc.oneof(
  { weight: 8, arbitrary: arbAge.map((age) => iso(NOW - age)) },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant('not a date') },
);
export const arbCves = fc.integer({ min: 0, max: 200 });

export const arbFacts: fc.Arbitrary<DefenderFacts> = fc.record({
  riskScore: arbRiskScore,
  exposureLevel: arbExposure,
  healthStatus: arbHealth,
  avStatus: arbAv,
  onboardingStatus: arbOnboarding,
  lastSeen: arbLastSeen,
  criticalCveCount: arbCves,
  cveCount: fc.integer({ min: 0, max: 500 }),
  maxCvss: fc.option(fc.double({ min: 0, max: 10, noNaN: true }), { nil: null }),
});

const pts = fc.integer({ min: 0, max: 100 });
const sorted = (n: number) => fc.array(pts, { minLength: n, maxLength: n }).map((a) => [...a].sort((x, y) => x - y));

/** Any valid tenant configuration (weights totalling 100, ordered scales, increasing edges). */
export const arbConfig: fc.Arbitrary<RiskConfig> = fc
  .record({
    w: fc.integer({ min: 0, max: 100 }),
    risk: sorted(3),
    exposure: sorted(2),
    av: fc.tuple(pts, pts),
    notOnboarded: pts,
    health: fc.tuple(pts, pts),
    inactivity: sorted(5),
    perCve: pts,
    cap: fc.integer({ min: 1, max: 20 }),
    edges: fc.uniqueArray(fc.integer({ min: 1, max: 60 }), { minLength: 4, maxLength: 4 }).map((a) => [...a].sort((x, y) => x - y)),
  })
  .map((r) => {
    const parsed = parseRiskConfig({
      weights: { critical: r.w, operational: 100 - r.w },
      points: {
        riskScore: { Low: r.risk[0], Medium: r.risk[1], High: r.risk[2] },
        exposureLevel: { Medium: r.exposure[0], High: r.exposure[1] },
        avStatus: { Disabled: r.av[0], NotReporting: r.av[1] },
        onboarding: { NotOnboarded: r.notOnboarded },
        healthStatus: { Inactive: r.health[0], ImpairedCommunication: r.health[1] },
        inactivity: { lessThan1Day: r.inactivity[0], days1To3: r.inactivity[1], days4To7: r.inactivity[2], days8To14: r.inactivity[3], moreThan14Days: r.inactivity[4] },
        criticalCves: { perCve: r.perCve },
      },
      thresholds: { inactivityDayEdges: r.edges, criticalCvss: 9, criticalCveCap: r.cap },
      bands: [20, 40, 60, 80],
      falcon: { postureMinOverall: 70, postureMinSensorConfig: 70, postureMinOs: 0, noAssessmentScore: 100 },
    });
    if (!parsed.ok) throw parsed.error;
    return parsed.value;
  });
