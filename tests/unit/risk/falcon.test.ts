import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FalconFacts, HostRecord } from '../../../shared/model/edr';
import { AppError } from '../../../shared/model/errors';
import {
  FALCON_POSTURE_OBJECT_ID,
  FALCON_POSTURE_PROFILE_ID,
  FALCON_PROFILES,
  FALCON_SOFTWARE_OBJECT_ID,
  FALCON_SOFTWARE_PROFILE_ID,
  RISK_MISSING_FACTS,
  bandFor,
  defaultRiskConfig,
  evaluateFalconProfiles,
  falconRiskFromOverall,
  scoreDefenderHost,
  scoreFalconHost,
  scoreHost,
  tenantRiskConfigOrThrow,
} from '../../../shared/risk/index';
import { NOW, cleanFacts } from './fixtures';

const assessment = (overall: number, os = 80, sensor_config = 80) => ({ os, sensor_config, overall, os_signals: [], sensor_signals: [] });
const falcon = (overrides: Partial<FalconFacts> = {}): FalconFacts => ({
  assessment: assessment(85),
  sensorRunning: true,
  agentVersion: '7.14.18408',
  lastSeen: new Date(NOW).toISOString(),
  reducedFunctionalityMode: false,
  ...overrides,
});

describe('Falcon risk (vendor A)', () => {
  it('derives risk = 100 - overall ZTA, keeps the vendor assessments and explains the score', () => {
    const r = scoreFalconHost(falcon({ assessment: assessment(85, 72, 91) }), defaultRiskConfig);
    expect(r.score).toBe(15);
    expect(r.band).toBe('Trustworthy');
    expect(r.contributions).toEqual([
      { indicator: 'overall', group: 'falcon', points: 85, scoreShare: 15, detail: 'Falcon overall ZTA 85 of 100 (higher is better): risk 100 - 85 = 15' },
      { indicator: 'os', group: 'falcon', points: 72, scoreShare: 0, detail: "Falcon OS assessment 72 (part of the vendor's overall)" },
      { indicator: 'sensor_config', group: 'falcon', points: 91, scoreShare: 0, detail: "Falcon sensor assessment 91 (part of the vendor's overall)" },
    ]);
  });

  it.each([
    [100, 0, 'Trustworthy'],
    [80, 20, 'Trustworthy'],
    [79, 21, 'Low Risk'],
    [60, 40, 'Low Risk'],
    [59, 41, 'Moderate Risk'],
    [40, 60, 'Moderate Risk'],
    [39, 61, 'Suspicious'],
    [20, 80, 'Suspicious'],
    [19, 81, 'High Risk'],
    [1, 99, 'High Risk'],
  ])('overall %d maps to risk %d, %s', (overall, risk, band) => {
    expect(scoreFalconHost(falcon({ assessment: assessment(overall) }), defaultRiskConfig)).toMatchObject({ score: risk, band });
  });

  it('calls a host without an assessment Not assessed, says why, and still evaluates its profiles; a stored noAssessmentScore changes nothing', () => {
    const r = scoreFalconHost(falcon({ assessment: null }), defaultRiskConfig);
    expect(r.band).toBe('Not assessed');
    expect(r.contributions).toEqual([{ indicator: 'assessment', group: 'falcon', points: 0, scoreShare: 0, detail: expect.stringMatching(/^Not assessed: Falcon has no Zero Trust Assessment/) }]);
    expect(r.profiles).toEqual({ [FALCON_SOFTWARE_PROFILE_ID]: true, [FALCON_POSTURE_PROFILE_ID]: false });
    // Configurations stored before EDR-N2 still load; the old setting no longer turns "not assessed" into a score.
    expect(scoreFalconHost(falcon({ assessment: null }), tenantRiskConfigOrThrow({ falcon: { noAssessmentScore: 50 } }))).toMatchObject({ band: 'Not assessed', score: r.score });
  });

  it('is monotone: a higher overall never gives a higher risk; within 0..100 and banded consistently', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), fc.double({ min: 0, max: 100, noNaN: true }), (x, y) => {
        const [lo, hi] = x <= y ? [x, y] : [y, x];
        const a = scoreFalconHost(falcon({ assessment: assessment(lo) }), defaultRiskConfig);
        const b = scoreFalconHost(falcon({ assessment: assessment(hi) }), defaultRiskConfig);
        expect(b.score).toBeLessThanOrEqual(a.score);
        for (const r of [a, b]) {
          expect(r.score).toBeGreaterThanOrEqual(0);
          expect(r.score).toBeLessThanOrEqual(100);
          expect(r.band).toBe(bandFor(r.score));
          expect(r.contributions.reduce((s, c) => s + c.scoreShare, 0)).toBeCloseTo(r.score, 2);
        }
      }),
    );
    expect(falconRiskFromOverall(0)).toBe(100);
  });
});

describe('Falcon predefined profiles (spec 2.4)', () => {
  it('exports the profile and object identifiers', () => {
    expect(FALCON_PROFILES.map((p) => [p.profile, p.object])).toEqual([
      ['eip-profile-endpoint_security-software-crowdstrike', 'eip-object-endpoint_security-software-crowdstrike'],
      ['eip-profile-endpoint_security-crowdstrike', 'eip-object-endpoint_security-crowdstrike'],
    ]);
    expect([FALCON_SOFTWARE_PROFILE_ID, FALCON_SOFTWARE_OBJECT_ID, FALCON_POSTURE_PROFILE_ID, FALCON_POSTURE_OBJECT_ID]).toEqual([
      'eip-profile-endpoint_security-software-crowdstrike',
      'eip-object-endpoint_security-software-crowdstrike',
      'eip-profile-endpoint_security-crowdstrike',
      'eip-object-endpoint_security-crowdstrike',
    ]);
  });

  it.each([
    ['running', { sensorRunning: true, reducedFunctionalityMode: false }, true],
    ['not running', { sensorRunning: false, reducedFunctionalityMode: false }, false],
    ['in reduced functionality mode', { sensorRunning: true, reducedFunctionalityMode: true }, false],
  ])('software profile: sensor %s -> %s', (_l, facts, pass) => {
    expect(evaluateFalconProfiles(falcon(facts), defaultRiskConfig)[FALCON_SOFTWARE_PROFILE_ID]).toBe(pass);
  });

  it.each([
    ['at the thresholds (70 / 70)', assessment(70, 10, 70), true],
    ['overall below 70', assessment(69, 90, 90), false],
    ['sensor below 70', assessment(90, 90, 69), false],
    ['a low OS score (OS not checked by default)', assessment(90, 0, 90), true],
    ['no assessment', null, false],
  ])('posture profile: %s', (_l, a, pass) => {
    expect(evaluateFalconProfiles(falcon({ assessment: a }), defaultRiskConfig)[FALCON_POSTURE_PROFILE_ID]).toBe(pass);
  });

  it('posture thresholds are per tenant', () => {
    const strict = tenantRiskConfigOrThrow({ falcon: { postureMinOverall: 90, postureMinSensorConfig: 50, postureMinOs: 60 } });
    const at = (a: ReturnType<typeof assessment>) => evaluateFalconProfiles(falcon({ assessment: a }), strict)[FALCON_POSTURE_PROFILE_ID];
    expect(at(assessment(90, 60, 50))).toBe(true);
    expect(at(assessment(89, 60, 50))).toBe(false);
    expect(at(assessment(95, 59, 50))).toBe(false);
  });

  it('scoreFalconHost carries both profiles', () => {
    expect(scoreFalconHost(falcon({ sensorRunning: false }), defaultRiskConfig).profiles).toEqual({
      [FALCON_SOFTWARE_PROFILE_ID]: false,
      [FALCON_POSTURE_PROFILE_ID]: true,
    });
  });
});

describe('scoreHost', () => {
  const host = (over: Partial<HostRecord>): HostRecord => ({
    vendor: 'defender',
    tenantId: 't1',
    hostId: 'h1',
    hostname: 'desk-01',
    customerId: 'c1',
    platform: 'Windows',
    osVersion: null,
    lastSeen: null,
    ...over,
  });

  it('dispatches by vendor', () => {
    const d = cleanFacts({ riskScore: 'High' });
    expect(scoreHost(host({ defender: d }), defaultRiskConfig, NOW)).toEqual(scoreDefenderHost(d, defaultRiskConfig, NOW));
    const f = falcon();
    expect(scoreHost(host({ vendor: 'falcon', falcon: f }), defaultRiskConfig, NOW)).toEqual(scoreFalconHost(f, defaultRiskConfig));
  });

  it('refuses a host without its vendor facts with a typed error', () => {
    const e = (() => {
      try {
        scoreHost(host({ vendor: 'falcon' }), defaultRiskConfig, NOW);
      } catch (err) {
        return err;
      }
      return null;
    })();
    expect(e).toBeInstanceOf(AppError);
    expect(e).toMatchObject({ code: RISK_MISSING_FACTS, message: 'Host desk-01 (h1) has no Falcon data to score.' });
    expect(() => scoreHost(host({}), defaultRiskConfig, NOW)).toThrow('has no Defender data');
  });
});
