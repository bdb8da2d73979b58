import { describe, expect, it } from 'vitest';
import { RISK_CONFIG_INVALID, RiskConfigError, compileRiskConfig, defaultRiskConfig, isValidatedRiskConfig, parseRiskConfig, tenantRiskConfig, tenantRiskConfigOrThrow, type RiskConfig } from '../../../shared/risk/index';

const refused = (overrides: unknown) => {
  const r = tenantRiskConfig(overrides);
  if (r.ok) throw new Error('expected the configuration to be refused');
  return r.error;
};

describe('risk configuration', () => {
  it('defaults are valid, documented and frozen', () => {
    const r = parseRiskConfig(structuredClone(defaultRiskConfig));
    expect(r.ok).toBe(true);
    expect(defaultRiskConfig.weights).toEqual({ critical: 60, operational: 40 });
    expect(defaultRiskConfig.thresholds).toEqual({ inactivityDayEdges: [1, 4, 8, 15], criticalCvss: 9, criticalCveCap: 5 });
    expect(defaultRiskConfig.bands).toEqual([20, 40, 60, 80]);
    expect(Object.isFrozen(defaultRiskConfig.points.riskScore)).toBe(true);
    // Both groups add up to 100 points at most.
    const c = compileRiskConfig(defaultRiskConfig);
    expect([c.maxCritical, c.maxOperational]).toEqual([100, 100]);
  });

  it.each([
    [{ critical: 60, operational: 30 }, 'Weights must total 100 %; critical 60 + operational 30 = 90.'],
    [{ critical: 70, operational: 40 }, 'Weights must total 100 %; critical 70 + operational 40 = 110.'],
    [{ critical: 0, operational: 0 }, 'Weights must total 100 %; critical 0 + operational 0 = 0.'],
  ])('refuses weights %j not totalling 100, naming the numbers', (weights, message) => {
    const e = refused({ weights });
    expect(e).toBeInstanceOf(RiskConfigError);
    expect(e.code).toBe(RISK_CONFIG_INVALID);
    expect(e.issues).toEqual([{ path: 'weights', message }]);
    expect(e.message).toContain(message);
    expect(e.toShape().details).toEqual({ issues: [{ path: 'weights', message }] });
  });

  it('refuses weights that are not whole percentages, or out of range', () => {
    expect(refused({ weights: { critical: 60.5, operational: 39.5 } }).issues).toEqual([
      { path: 'weights.critical', message: 'Weight critical must be a whole percentage (got 60.5).' },
      { path: 'weights.operational', message: 'Weight operational must be a whole percentage (got 39.5).' },
    ]);
    expect(refused({ weights: { critical: 120, operational: -20 } }).issues.map((i) => i.path)).toEqual(['weights.critical', 'weights.operational']);
    expect(refused({ weights: { critical: '60', operational: 40 } }).issues[0]?.path).toBe('weights.critical');
  });

  it('accepts any split totalling 100, including 100/0', () => {
    for (const critical of [0, 1, 50, 99, 100]) {
      const r = tenantRiskConfig({ weights: { critical, operational: 100 - critical } });
      expect(r.ok).toBe(true);
    }
  });

  it('deep-merges tenant overrides over the defaults', () => {
    const c = tenantRiskConfigOrThrow({ points: { riskScore: { High: 50 } }, thresholds: { criticalCveCap: 10 } });
    expect(c.points.riskScore).toEqual({ Low: 10, Medium: 25, High: 50 });
    expect(c.points.exposureLevel).toEqual(defaultRiskConfig.points.exposureLevel);
    expect(c.thresholds).toEqual({ inactivityDayEdges: [1, 4, 8, 15], criticalCvss: 9, criticalCveCap: 10 });
    expect(tenantRiskConfigOrThrow({ thresholds: { inactivityDayEdges: [2, 5, 10, 30] } }).thresholds.inactivityDayEdges).toEqual([2, 5, 10, 30]);
    expect(tenantRiskConfigOrThrow(undefined)).toEqual(defaultRiskConfig);
    expect(isValidatedRiskConfig(c)).toBe(true);
    expect(defaultRiskConfig.points.riskScore.High).toBe(40);
  });

  it('refuses a worse value earning fewer points', () => {
    expect(refused({ points: { riskScore: { Medium: 50 } } }).issues).toEqual([
      { path: 'points.riskScore.High', message: 'Risk score High (40) must be at least Risk score Medium (50): a worse value cannot earn fewer points.' },
    ]);
    expect(refused({ points: { inactivity: { days8To14: 40 } } }).issues[0]?.path).toBe('points.inactivity.moreThan14Days');
    expect(refused({ points: { exposureLevel: { Medium: 30 } } }).issues[0]?.path).toBe('points.exposureLevel.High');
  });

  it('refuses negative or non-numeric points, bad thresholds, bad band edges, unknown settings', () => {
    expect(refused({ points: { avStatus: { Disabled: -1 } } }).issues).toEqual([{ path: 'points.avStatus.Disabled', message: 'AV status Disabled: points cannot be negative.' }]);
    expect(refused({ points: { onboarding: { NotOnboarded: 'many' } } }).issues[0]?.message).toBe('Onboarding Not Onboarded: enter a number of points.');
    expect(refused({ thresholds: { criticalCvss: 11 } }).issues[0]?.message).toBe('Critical CVSS threshold must be within 0 to 10.');
    expect(refused({ thresholds: { criticalCveCap: 0 } }).issues[0]?.message).toBe('Critical CVE cap must be at least 1.');
    expect(refused({ thresholds: { inactivityDayEdges: [1, 4, 4, 15] } }).issues[0]?.message).toBe('Inactivity day edges must increase: 1, 4, 4, 15.');
    expect(refused({ thresholds: { inactivityDayEdges: [0, 4, 8, 15] } }).issues[0]?.path).toBe('thresholds.inactivityDayEdges.0');
    expect(refused({ bands: [20, 40, 40, 80] }).issues[0]?.message).toBe('Band edges must increase strictly within 0 to 99: 20, 40, 40, 80.');
    expect(refused({ bands: [20, 40, 60, 100] }).issues[0]?.path).toBe('bands');
    expect(refused({ weights: { critcal: 60 } }).issues).toContainEqual({ path: 'weights', message: 'Unknown setting "weights.critcal".' });
    expect(refused({ falcon: { postureMinOverall: 101 } }).issues[0]?.path).toBe('falcon.postureMinOverall');
    expect(refused('60/40').issues[0]?.message).toBe('Tenant risk settings must be an object.');
  });

  it('reports every problem at once', () => {
    const e = refused({ weights: { critical: 60, operational: 30 }, points: { healthStatus: { Inactive: -5 } } });
    expect(e.issues.map((i) => i.path)).toEqual(['weights', 'points.healthStatus.Inactive']);
    expect(e.message).toMatch(/\(and 1 more\)$/);
  });

  it('does not let a __proto__ key through the merge', () => {
    const e = refused(JSON.parse('{"__proto__": {"polluted": true}}'));
    expect(e.issues[0]?.message).toBe('Unknown setting "__proto__".');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('validates a hand-built configuration before scoring with it', () => {
    const bad = { ...defaultRiskConfig, weights: { critical: 50, operational: 20 } } as RiskConfig;
    expect(() => compileRiskConfig(bad)).toThrow(RiskConfigError);
    const good = structuredClone(defaultRiskConfig) as RiskConfig;
    expect(compileRiskConfig(good)).toBe(compileRiskConfig(good));
  });
});
