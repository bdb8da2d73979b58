/** The band trend's shaping (issue 22.5): points at their times, round count ticks from 0. */
import { describe, expect, it } from 'vitest';
import { emptyBandCounts } from '../../../shared/model/zta';
import { niceTicks, timeDomain, trendData, trendMax } from '../../../renderer/components/trend';

describe('trend shaping', () => {
  it('counts in 4 round steps from 0 to at or above the largest stack', () => {
    expect(niceTicks(500)).toEqual([0, 150, 300, 450, 600]);
    expect(niceTicks(400)).toEqual([0, 100, 200, 300, 400]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    expect(niceTicks(0)).toEqual([0, 1]);
    for (const max of [1, 7, 19, 250, 999, 12_345, 100_000]) {
      const t = niceTicks(max);
      expect(t[0]).toBe(0);
      expect(t.at(-1)!).toBeGreaterThanOrEqual(max);
      expect(t.length).toBeLessThanOrEqual(5);
      const step = t[1]! - t[0]!;
      expect(t.every((v, i) => v === i * step)).toBe(true);
    }
  });

  it('places points at their times from the first with a host; a single point gets an hour around it', () => {
    const at = (min: number, hosts: number) => ({ at: new Date(Date.UTC(2026, 10, 29, 8, min)).toISOString(), bands: { ...emptyBandCounts(), Trustworthy: hosts, 'Not assessed': hosts ? 1 : 0 } });
    const data = trendData([at(0, 0), at(5, 10), at(65, 12)]);
    expect(data.map((d) => d.t)).toEqual([Date.UTC(2026, 10, 29, 8, 5), Date.UTC(2026, 10, 29, 9, 5)]);
    expect(trendMax(data)).toBe(13);
    expect(timeDomain(data)).toEqual([data[0]!.t, data[1]!.t]);
    const one = trendData([at(5, 10)]);
    expect(timeDomain(one)).toEqual([one[0]!.t - 1_800_000, one[0]!.t + 1_800_000]);
    expect(trendData([at(0, 0)])).toEqual([]);
  });
});
