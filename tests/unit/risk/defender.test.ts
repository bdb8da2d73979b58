import { describe, expect, it } from 'vitest';
import type { DefenderFacts } from '../../../shared/model/edr';
import { DEFENDER_INDICATORS, countCriticalCves, defaultRiskConfig, defenderSubScores, scoreDefenderHost, tenantRiskConfigOrThrow } from '../../../shared/risk/index';
import { DAY, NOW, cleanFacts, iso } from './fixtures';

/** Scores `facts` with the defaults and checks that `indicator` alone carries `points` and `share`. */
function expectAlone(overrides: Partial<DefenderFacts>, indicator: string, points: number, share: number, detail?: string) {
  const r = scoreDefenderHost(cleanFacts(overrides), defaultRiskConfig, NOW);
  const own = r.contributions.find((c) => c.indicator === indicator);
  expect(own).toMatchObject({ points, scoreShare: expect.closeTo(share, 10) });
  if (detail !== undefined) expect(own?.detail).toBe(detail);
  for (const other of r.contributions.filter((c) => c.indicator !== indicator)) expect(other.scoreShare).toBe(0);
  expect(r.score).toBeCloseTo(share, 10);
  return r;
}

describe('Defender score: each indicator alone (default points, weights 60/40, group maxima 100/100)', () => {
  it('a clean device scores 0, Trustworthy, with one contribution per indicator in a fixed order', () => {
    const r = scoreDefenderHost(cleanFacts(), defaultRiskConfig, NOW);
    expect(r.score).toBe(0);
    expect(r.band).toBe('Trustworthy');
    expect(r.contributions.map((c) => [c.indicator, c.group])).toEqual(DEFENDER_INDICATORS.map((i) => [i.indicator, i.group]));
  });

  it.each([
    ['None', 0, 0],
    ['Informational', 0, 0],
    ['Low', 10, 6],
    ['Medium', 25, 15],
    ['High', 40, 24],
    [null, 0, 0],
  ] as const)('risk score %s: %d points, %d of the score', (riskScore, points, share) => {
    expectAlone({ riskScore }, 'riskScore', points, share);
  });

  it.each([
    ['None', 0, 0],
    ['Low', 0, 0],
    ['Medium', 10, 6],
    ['High', 20, 12],
  ] as const)('exposure level %s: %d points, %d of the score', (exposureLevel, points, share) => {
    expectAlone({ exposureLevel }, 'exposureLevel', points, share);
  });

  it.each([
    ['Disabled', 25, 15, 'AV status Disabled'],
    ['NotReporting', 15, 9, 'AV status Not Reporting'],
    ['NotUpdated', 0, 0, 'AV status Not Updated'],
    ['Unknown', 0, 0, 'AV status Unknown'],
    [null, 0, 0, 'AV status not reported'],
  ] as const)('AV status %s: %d points, %d of the score', (avStatus, points, share, detail) => {
    expectAlone({ avStatus }, 'avStatus', points, share, detail);
  });

  it.each([
    ['CanBeOnboarded', 15, 9],
    ['Unsupported', 15, 9],
    ['InsufficientInfo', 15, 9],
    ['Onboarded', 0, 0],
    [null, 0, 0],
  ] as const)('onboarding %s: %d points, %d of the score (anything but Onboarded is Not Onboarded)', (onboardingStatus, points, share) => {
    expectAlone({ onboardingStatus }, 'onboardingStatus', points, share);
  });

  it.each([
    ['Inactive', 20, 8],
    ['ImpairedCommunication', 15, 6],
    ['NoSensorDataImpairedCommunication', 15, 6],
    ['NoSensorData', 0, 0],
    ['Active', 0, 0],
  ] as const)('health status %s: %d points, %d of the score', (healthStatus, points, share) => {
    expectAlone({ healthStatus }, 'healthStatus', points, share);
  });

  it.each([
    ['0.5 days', NOW - 0.5 * DAY, 0, 0, 'Inactive less than 1 day'],
    ['1 day exactly', NOW - 1 * DAY, 5, 2, 'Inactive 1 to 3 days'],
    ['3.99 days', NOW - 3.99 * DAY, 5, 2, 'Inactive 1 to 3 days'],
    ['4 days', NOW - 4 * DAY, 10, 4, 'Inactive 4 to 7 days'],
    ['7.9 days', NOW - 7.9 * DAY, 10, 4, 'Inactive 4 to 7 days'],
    ['8 days', NOW - 8 * DAY, 20, 8, 'Inactive 8 to 14 days'],
    ['14.99 days', NOW - 14.99 * DAY, 20, 8, 'Inactive 8 to 14 days'],
    ['15 days', NOW - 15 * DAY, 30, 12, 'Inactive more than 14 days'],
    ['400 days', NOW - 400 * DAY, 30, 12, 'Inactive more than 14 days'],
    ['in the future (clock skew)', NOW + DAY, 0, 0, 'Inactive less than 1 day'],
  ])('inactive %s', (_label, seen, points, share, detail) => {
    expectAlone({ lastSeen: iso(seen) }, 'inactivity', points, share, detail);
  });

  it('no lastSeen, or an unreadable one, counts as more than 14 days', () => {
    const text = 'Never seen or last-seen time unreadable (counted as inactive more than 14 days)';
    expectAlone({ lastSeen: null }, 'inactivity', 30, 12, text);
    expectAlone({ lastSeen: 'yesterday-ish' }, 'inactivity', 30, 12, text);
  });

  it('accepts the cycle time as a Date or as epoch milliseconds', () => {
    const f = cleanFacts({ lastSeen: iso(NOW - 5 * DAY) });
    expect(scoreDefenderHost(f, defaultRiskConfig, new Date(NOW))).toEqual(scoreDefenderHost(f, defaultRiskConfig, NOW));
  });

  it.each([
    [1, 10, 4, '1 critical CVE (CVSS >= 9.0)'],
    [3, 30, 12, '3 critical CVEs (CVSS >= 9.0)'],
    [5, 50, 20, '5 critical CVEs (CVSS >= 9.0)'],
    [6, 50, 20, '6 critical CVEs (CVSS >= 9.0), points capped at 5'],
    [1000, 50, 20, '1000 critical CVEs (CVSS >= 9.0), points capped at 5'],
  ])('%d critical CVEs: %d points, %d of the score', (criticalCveCount, points, share, detail) => {
    expectAlone({ criticalCveCount }, 'criticalCves', points, share, detail);
  });

  it('counts CVEs at or above the tenant threshold (9.0 by default)', () => {
    const scores = [9.0, 8.9, 10, null, 9.8, undefined, 7.5];
    expect(countCriticalCves(scores, defaultRiskConfig)).toBe(3);
    expect(countCriticalCves(scores, tenantRiskConfigOrThrow({ thresholds: { criticalCvss: 7.5 } }))).toBe(5);
  });
});

describe('Defender score: normalisation and weights', () => {
  const worst = cleanFacts({ riskScore: 'High', exposureLevel: 'High', avStatus: 'Disabled', onboardingStatus: 'CanBeOnboarded', healthStatus: 'Inactive', lastSeen: null, criticalCveCount: 5 });

  it('every indicator at its maximum scores 100, High Risk; none scores 0', () => {
    const r = scoreDefenderHost(worst, defaultRiskConfig, NOW);
    expect(r.score).toBe(100);
    expect(r.band).toBe('High Risk');
    expect(defenderSubScores(worst, defaultRiskConfig, NOW)).toEqual({ critical: 1, operational: 1 });
    expect(defenderSubScores(cleanFacts(), defaultRiskConfig, NOW)).toEqual({ critical: 0, operational: 0 });
  });

  it('a sub-score never exceeds 1, however many critical CVEs', () => {
    const many = { ...worst, criticalCveCount: 100_000 };
    expect(defenderSubScores(many, defaultRiskConfig, NOW).operational).toBe(1);
    expect(scoreDefenderHost(many, defaultRiskConfig, NOW).score).toBe(100);
    expect(scoreDefenderHost(cleanFacts({ criticalCveCount: 100_000 }), defaultRiskConfig, NOW).score).toBe(20);
  });

  it('a group uses the highest value of each indicator as its maximum', () => {
    // AV: NotReporting (15) counts against max(Disabled 25, NotReporting 15) = 25.
    expect(defenderSubScores(cleanFacts({ avStatus: 'NotReporting' }), defaultRiskConfig, NOW).critical).toBeCloseTo(0.15, 12);
    // Operational: health Impaired 15 + 8-14 days 20 + 2 CVEs 20 = 55 of 100.
    const f = cleanFacts({ healthStatus: 'ImpairedCommunication', lastSeen: iso(NOW - 10 * DAY), criticalCveCount: 2 });
    expect(defenderSubScores(f, defaultRiskConfig, NOW).operational).toBeCloseTo(0.55, 12);
    expect(scoreDefenderHost(f, defaultRiskConfig, NOW)).toMatchObject({ score: 22, band: 'Low Risk' });
  });

  it('applies the tenant weights: score = critical_norm x wCritical + operational_norm x wOperational', () => {
    const f = cleanFacts({ riskScore: 'High', criticalCveCount: 5 }); // critical 0.4, operational 0.5
    const at = (critical: number) => scoreDefenderHost(f, tenantRiskConfigOrThrow({ weights: { critical, operational: 100 - critical } }), NOW).score;
    expect(at(60)).toBe(44);
    expect(at(100)).toBe(40);
    expect(at(0)).toBe(50);
    expect(at(33)).toBe(46.7);
  });

  it('applies tenant points, day edges and CVE cap, and keeps the score with two decimals', () => {
    const c = tenantRiskConfigOrThrow({
      points: { riskScore: { Low: 1, Medium: 2, High: 3 }, criticalCves: { perCve: 7 } },
      thresholds: { inactivityDayEdges: [2, 5, 10, 30], criticalCveCap: 3 },
    });
    const r = scoreDefenderHost(cleanFacts({ riskScore: 'Low', lastSeen: iso(NOW - 29 * DAY), criticalCveCount: 9 }), c, NOW);
    // critical 1 / (3+20+25+15) x 60; operational (20 + 21) / (20 + 30 + 21) x 40
    expect(r.score).toBe(Math.round(((1 / 63) * 60 + (41 / 71) * 40) * 100) / 100);
    expect(r.contributions.find((x) => x.indicator === 'inactivity')?.detail).toBe('Inactive 10 to 29 days');
    expect(r.contributions.find((x) => x.indicator === 'criticalCves')).toMatchObject({ points: 21, detail: '9 critical CVEs (CVSS >= 9.0), points capped at 3' });
  });

  it('a group whose points are all 0 adds nothing (no division by zero)', () => {
    const zero = { Low: 0, Medium: 0, High: 0 };
    const c = tenantRiskConfigOrThrow({ points: { riskScore: zero, exposureLevel: { Medium: 0, High: 0 }, avStatus: { Disabled: 0, NotReporting: 0 }, onboarding: { NotOnboarded: 0 } } });
    expect(scoreDefenderHost(worst, c, NOW).score).toBe(40);
  });

  it('scores an enum value the vendor adds later as 0 rather than failing', () => {
    const r = scoreDefenderHost(cleanFacts({ avStatus: 'Quarantined' as never }), defaultRiskConfig, NOW);
    expect(r.score).toBe(0);
    expect(r.contributions[2]?.detail).toBe('AV status Quarantined (not scored)');
  });
});
