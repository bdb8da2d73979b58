/** The bench parts run one full cycle and report it (the lead runs them with 100,000 hosts). */
import { describe, expect, it } from 'vitest';
import { benchFalcon, benchFalconCycle } from '../../bench/falcon.bench-part';

describe('benchFalcon', () => {
  it('polls every host in one cycle without a 429 and counts the calls', async () => {
    const r = await benchFalcon(3_000);
    expect(r).toEqual({ hosts: 3_000, ms: expect.any(Number), calls: 1 + 1 + 3 + 30, r429: 0 });
  }, 60_000);
});

describe('benchFalconCycle', () => {
  it('runs the CLI poller in a child process and reports its peak RSS and its time against the floor', async () => {
    const r = await benchFalconCycle(3_000);
    expect(r).toMatchObject({ hosts: 3_000, scored: 3_000, calls: 1 + 3 + 30, tokenCalls: 1, rateLimit: 6_000 });
    expect(r.floorMs).toBeCloseTo((34 / 6_000) * 60_000, 6);
    expect(r.ratio).toBeCloseTo(r.ms / r.floorMs, 6);
    // The child's own peak: at least what Node itself needs, and reported by the child at exit.
    expect(r.peakRssMb).toBeGreaterThan(30);
  }, 90_000);
});
