import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { DefenderFacts } from '../../../shared/model/edr';
import { bandFor, defaultRiskConfig, defenderNotAssessed, defenderSubScores, scoreDefenderHost } from '../../../shared/risk/index';
import { NOW, arbAge, arbAv, arbConfig, arbCves, arbExposure, arbFacts, arbHealth, arbOnboarding, arbRiskScore, iso, referenceScore } from './fixtures';

const anyConfig = fc.oneof(fc.constant(defaultRiskConfig), arbConfig);
const runs = { numRuns: 300 };

type Pair = readonly [Partial<DefenderFacts>, Partial<DefenderFacts>];

/** `worse(a, b)`: b is at least as bad as a. Total orders by rank, partial ones where the table names two unrelated values. */
const byRank =
  <T>(rank: (v: T) => number) =>
  (a: T, b: T) =>
    rank(a) <= rank(b);
const byTier =
  <T>(tier: (v: T) => string) =>
  (a: T, b: T) =>
    tier(a) === '' || tier(a) === tier(b);

function pairOf<K extends keyof DefenderFacts>(key: K, values: fc.Arbitrary<DefenderFacts[K]>, worse: (a: DefenderFacts[K], b: DefenderFacts[K]) => boolean): fc.Arbitrary<Pair> {
  return fc
    .tuple(values, values)
    .filter(([a, b]) => worse(a, b))
    .map(([a, b]) => [{ [key]: a }, { [key]: b }] as Pair);
}

const RISK_RANK: Readonly<Record<string, number>> = { Low: 1, Medium: 2, High: 3 };
const EXPOSURE_RANK: Readonly<Record<string, number>> = { Medium: 1, High: 2 };

/** One order per indicator of the table (none < ... < worst). */
const orders: Record<string, fc.Arbitrary<Pair>> = {
  'risk score (None = Informational = null < Low < Medium < High)': pairOf('riskScore', arbRiskScore, byRank((v) => RISK_RANK[v ?? ''] ?? 0)),
  'exposure level (None = Low = null < Medium < High)': pairOf('exposureLevel', arbExposure, byRank((v) => EXPOSURE_RANK[v ?? ''] ?? 0)),
  'AV status (others < Disabled, others < NotReporting)': pairOf('avStatus', arbAv, byTier((v) => (v === 'Disabled' || v === 'NotReporting' ? v : ''))),
  'onboarding (Onboarded = null < not onboarded)': pairOf('onboardingStatus', arbOnboarding, byRank((v) => (v === null || v === 'Onboarded' ? 0 : 1))),
  'health status (others < Inactive, others < ImpairedCommunication)': pairOf(
    'healthStatus',
    arbHealth,
    byTier((v) => (v === 'Inactive' ? 'I' : v === 'ImpairedCommunication' || v === 'NoSensorDataImpairedCommunication' ? 'C' : '')),
  ),
  'inactivity (seen more recently < seen longer ago < never seen)': fc.oneof(
    fc.tuple(arbAge, arbAge).map(([x, y]) => [{ lastSeen: iso(NOW - Math.min(x, y)) }, { lastSeen: iso(NOW - Math.max(x, y)) }] as Pair),
    arbAge.map((x) => [{ lastSeen: iso(NOW - x) }, { lastSeen: null }] as Pair),
  ),
  'critical CVEs (fewer < more)': fc.tuple(arbCves, arbCves).map(([x, y]) => [{ criticalCveCount: Math.min(x, y) }, { criticalCveCount: Math.max(x, y) }] as Pair),
};

/** The properties of a score are of devices Defender assessed: one it did not has no score (EDR-N1, tested below). */
function scoreAssessed(...args: Parameters<typeof scoreDefenderHost>): ReturnType<typeof scoreDefenderHost> {
  fc.pre(!defenderNotAssessed(args[0]));
  return scoreDefenderHost(...args);
}

describe('Defender score properties', () => {
  it('is Not assessed exactly when Defender reported none of risk score, exposure, AV status and health, whatever else it reported', () => {
    const none = { riskScore: null, exposureLevel: null, avStatus: null, healthStatus: null };
    fc.assert(
      fc.property(arbFacts, anyConfig, fc.boolean(), (f, c, strip) => {
        const facts = strip ? { ...f, ...none } : f;
        const r = scoreDefenderHost(facts, c, NOW);
        const expected = facts.riskScore === null && facts.exposureLevel === null && facts.avStatus === null && facts.healthStatus === null;
        expect(r.band === 'Not assessed').toBe(expected);
        if (expected) expect(r.contributions).toEqual([expect.objectContaining({ indicator: 'assessment', scoreShare: 0, detail: expect.stringContaining('Not assessed') })]);
        else expect(r.band).toBe(bandFor(r.score, c.bands));
      }),
      runs,
    );
  });

  it('is always within [0, 100], with two decimals, and banded by bandFor', () => {
    fc.assert(
      fc.property(arbFacts, anyConfig, (f, c) => {
        const r = scoreAssessed(f, c, NOW);
        expect(r.score).toBeGreaterThanOrEqual(0);
        expect(r.score).toBeLessThanOrEqual(100);
        expect(Math.round(r.score * 100) / 100).toBe(r.score);
        expect(r.band).toBe(bandFor(r.score, c.bands));
      }),
      runs,
    );
  });

  it('normalises each sub-score to [0, 1]', () => {
    fc.assert(
      fc.property(arbFacts, anyConfig, (f, c) => {
        const s = defenderSubScores(f, c, NOW);
        for (const v of [s.critical, s.operational]) {
          expect(v).toBeGreaterThanOrEqual(0);
          expect(v).toBeLessThanOrEqual(1);
        }
      }),
      runs,
    );
  });

  it('agrees with a plain reading of the spec 2.3 formula (reference implementation)', () => {
    fc.assert(
      fc.property(arbFacts, anyConfig, (f, c) => {
        const ref = referenceScore(f, c, NOW);
        const s = defenderSubScores(f, c, NOW);
        // The score is rounded to 2 decimals: at most half a hundredth away (60.874999… may round to 60.88).
        expect(Math.abs(scoreAssessed(f, c, NOW).score - ref.score)).toBeLessThanOrEqual(0.005 + 1e-9);
        expect(s.critical).toBeCloseTo(ref.critical, 9);
        expect(s.operational).toBeCloseTo(ref.operational, 9);
      }),
      runs,
    );
  });

  it('keeps contributions that add up to the score (within 0.01), one per indicator', () => {
    fc.assert(
      fc.property(arbFacts, anyConfig, (f, c) => {
        const r = scoreAssessed(f, c, NOW);
        expect(r.contributions).toHaveLength(7);
        const sum = r.contributions.reduce((acc, x) => acc + x.scoreShare, 0);
        expect(Math.abs(sum - r.score)).toBeLessThanOrEqual(0.01);
        for (const x of r.contributions) {
          expect(x.points).toBeGreaterThanOrEqual(0);
          expect(x.scoreShare).toBeGreaterThanOrEqual(0);
          expect(x.detail.length).toBeGreaterThan(0);
        }
      }),
      runs,
    );
  });

  for (const [name, pairs] of Object.entries(orders)) {
    it(`is monotone in ${name}: a worse value never lowers the score or its share`, () => {
      fc.assert(
        fc.property(arbFacts, anyConfig, pairs, (f, c, [better, worse]) => {
          const a = scoreAssessed({ ...f, ...better }, c, NOW);
          const b = scoreAssessed({ ...f, ...worse }, c, NOW);
          expect(b.score).toBeGreaterThanOrEqual(a.score);
          a.contributions.forEach((x, i) => {
            const y = b.contributions[i];
            if (x.scoreShare !== y?.scoreShare) expect(y?.scoreShare).toBeGreaterThan(x.scoreShare);
          });
        }),
        runs,
      );
    });
  }

  it('is monotone when every indicator gets worse at once', () => {
    const all = fc.tuple(...Object.values(orders));
    fc.assert(
      fc.property(arbFacts, anyConfig, all, (f, c, ps) => {
        const better = Object.assign({}, f, ...ps.map((p) => p[0])) as DefenderFacts;
        const worse = Object.assign({}, f, ...ps.map((p) => p[1])) as DefenderFacts;
        expect(scoreAssessed(worse, c, NOW).score).toBeGreaterThanOrEqual(scoreAssessed(better, c, NOW).score);
      }),
      runs,
    );
  });

  it('is monotone in time: the same device scores no lower later', () => {
    fc.assert(
      fc.property(arbFacts, anyConfig, fc.nat({ max: 30 * 86_400_000 }), (f, c, later) => {
        expect(scoreAssessed(f, c, NOW + later).score).toBeGreaterThanOrEqual(scoreAssessed(f, c, NOW).score);
      }),
      runs,
    );
  });
});
