import { describe, expect, it } from 'vitest';
import { DefenderFacts } from '../../../shared/model/edr';
import { benchScoring, generateDefenderFacts } from '../../bench/scoring.bench-part';

describe('scoring bench part', () => {
  it('generates valid, varied hosts, the same for the same seed', () => {
    const hosts = generateDefenderFacts(2000);
    expect(generateDefenderFacts(2000)).toEqual(hosts);
    expect(generateDefenderFacts(50, 7)).not.toEqual(hosts.slice(0, 50));
    for (const h of hosts) expect(DefenderFacts.safeParse(h).success).toBe(true);
    for (const key of ['riskScore', 'exposureLevel', 'healthStatus', 'avStatus', 'onboardingStatus'] as const) {
      const seen = new Set(hosts.map((h) => h[key]));
      expect(seen.has(null)).toBe(true);
      expect(seen.size).toBeGreaterThan(4);
    }
    expect(new Set(hosts.map((h) => h.criticalCveCount)).size).toBeGreaterThan(6);
  });

  it('reports hosts, milliseconds and hosts per second', async () => {
    const r = await benchScoring(5000);
    expect(r.hosts).toBe(5000);
    // The rate is the count over the time measured, rounded to a whole host.
    expect(Math.abs(r.hostsPerSecond - (5000 / Math.max(r.ms, 0.001)) * 1000)).toBeLessThanOrEqual(0.5);
  });
});
