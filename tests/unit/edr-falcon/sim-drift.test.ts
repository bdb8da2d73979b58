/**
 * The demo's living fleet (issue 22.12): with a drift period, a few hosts' posture (Falcon) and
 * risk score (Defender) move for each period and come back, the same within a period; without one
 * the data never changes.
 */
import { describe, expect, it } from 'vitest';
import { assessmentRecord } from '@northbound/simulators/internal/falcon/records';
import { SimTenant } from '@northbound/simulators/internal/falcon/tenant';
import { machineAt } from '@northbound/simulators/testing/defender';

const ANCHOR = Date.parse('2026-11-22T12:00:00Z');
const EVERY = 600_000;
const overall = (t: SimTenant, i: number, at: number) => (assessmentRecord(t, t.traits(i, at))?.assessment as { overall: number } | undefined)?.overall;

describe('simulated drift', () => {
  it('Falcon: about 4 % of the assessed hosts move each period, by a real step, the same within a period, different sets across periods', () => {
    const t = new SimTenant({ hosts: 2_000, seed: 42, driftEveryMs: EVERY }, ANCHOR);
    const still = new SimTenant({ hosts: 2_000, seed: 42 }, ANCHOR);
    const moved = (at: number) => [...Array(2_000).keys()].filter((i) => overall(t, i, at) !== overall(t, i, ANCHOR));
    const p1 = moved(ANCHOR + EVERY + 1);
    const p2 = moved(ANCHOR + 2 * EVERY + 1);
    for (const m of [p1, p2]) {
      expect(m.length).toBeGreaterThan(20); // of 2,000 (7 % not assessed): around 70
      expect(m.length).toBeLessThan(150);
    }
    expect(moved(ANCHOR + EVERY + 500_000)).toEqual(p1);
    expect(p2).not.toEqual(p1);
    expect(p1.some((i) => Math.abs(overall(t, i, ANCHOR + EVERY + 1)! - overall(t, i, ANCHOR)!) >= 5)).toBe(true);
    expect([...Array(200).keys()].every((i) => overall(still, i, ANCHOR + 5 * EVERY) === overall(still, i, ANCHOR))).toBe(true);
  });

  it('Defender: about 4 % of the machines’ risk score moves a step each period', () => {
    const risk = (i: number, period?: number) => machineAt(42, i, ANCHOR, undefined, period).record.riskScore;
    const moved = (period: number) => [...Array(2_000).keys()].filter((i) => risk(i, period) !== risk(i));
    const m3 = moved(3);
    expect(m3.length).toBeGreaterThan(20);
    expect(m3.length).toBeLessThan(150);
    expect(moved(3)).toEqual(m3);
    expect(moved(4)).not.toEqual(m3);
    expect(moved(0)).toEqual([]);
  });
});
