import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RISK_BANDS, bandFor, bandRange, roundScore } from '../../../shared/risk/index';

describe('risk bands (spec 2.3, fractional scores rounded half up, EDR-S4)', () => {
  it.each([
    [0, 'Trustworthy'],
    [0.4, 'Trustworthy'],
    [20, 'Trustworthy'],
    [20.0001, 'Trustworthy'],
    [20.49, 'Trustworthy'],
    [20.5, 'Low Risk'],
    [21, 'Low Risk'],
    [40, 'Low Risk'],
    [40.49, 'Low Risk'],
    [40.5, 'Moderate Risk'],
    [41, 'Moderate Risk'],
    [60, 'Moderate Risk'],
    [60.5, 'Suspicious'],
    [61, 'Suspicious'],
    [80, 'Suspicious'],
    [80.49, 'Suspicious'],
    [80.5, 'High Risk'],
    [81, 'High Risk'],
    [99.99, 'High Risk'],
    [100, 'High Risk'],
  ] as const)('%s is %s', (score, band) => {
    expect(bandFor(score)).toBe(band);
  });

  it('lists the five bands in order with the ranges of the table', () => {
    expect(RISK_BANDS).toEqual(['Trustworthy', 'Low Risk', 'Moderate Risk', 'Suspicious', 'High Risk']);
    expect(RISK_BANDS.map((b) => bandRange(b))).toEqual([
      { min: 0, max: 20 },
      { min: 21, max: 40 },
      { min: 41, max: 60 },
      { min: 61, max: 80 },
      { min: 81, max: 100 },
    ]);
  });

  it('is total and consistent: every score in [0, 100] has exactly one band, the one whose range holds its rounded value', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), (score) => {
        const band = bandFor(score);
        const holding = RISK_BANDS.filter((b) => {
          const r = bandRange(b);
          return Math.round(score) >= r.min && Math.round(score) <= r.max;
        });
        expect(holding).toEqual([band]);
      }),
    );
  });

  it('never moves to a lower band as the score rises', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 100, noNaN: true }), fc.double({ min: 0, max: 100, noNaN: true }), (a, b) => {
        const [lo, hi] = a <= b ? [a, b] : [b, a];
        expect(RISK_BANDS.indexOf(bandFor(lo))).toBeLessThanOrEqual(RISK_BANDS.indexOf(bandFor(hi)));
      }),
    );
  });

  it('honours custom band edges', () => {
    const edges = [10, 30, 50, 90] as [number, number, number, number];
    expect(bandFor(10.4, edges)).toBe('Trustworthy');
    expect(bandFor(10.5, edges)).toBe('Low Risk');
    expect(bandFor(90, edges)).toBe('Suspicious');
    expect(bandFor(91, edges)).toBe('High Risk');
    expect(bandRange('High Risk', edges)).toEqual({ min: 91, max: 100 });
  });

  it('refuses NaN and bands out-of-range values at the ends', () => {
    expect(() => bandFor(Number.NaN)).toThrow(RangeError);
    expect(bandFor(-3)).toBe('Trustworthy');
    expect(bandFor(250)).toBe('High Risk');
  });

  it('stores scores clamped to [0, 100] with two decimals', () => {
    expect(roundScore(-1)).toBe(0);
    expect(roundScore(Number.NaN)).toBe(0);
    expect(roundScore(100.2)).toBe(100);
    expect(roundScore(33.33333)).toBe(33.33);
    expect(roundScore(20.499999)).toBe(20.5);
  });
});
