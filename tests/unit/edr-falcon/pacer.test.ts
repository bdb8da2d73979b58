/** Pacing from X-RateLimit headers, the 429 gate and the retry backoff, on a fake clock. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RatePacer, RETRY_AFTER_MAX_MS, RETRY_AFTER_MIN_MS } from '../../../electron/edr/falcon/pacer';
import { backoffMs } from '../../../electron/edr/falcon/retry';
import { RateBucket } from '../../../electron/simulator/falcon/state';

function fakeClock(start = 1_700_000_000_000) {
  const clock = { t: start, slept: [] as number[] };
  return {
    clock,
    now: () => clock.t,
    sleep: async (ms: number) => {
      clock.slept.push(ms);
      clock.t += ms;
    },
  };
}

const headers = (limit: number, remaining: number) => ({ 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(remaining) });

describe('RatePacer', () => {
  it('does not wait while the budget is comfortable', async () => {
    const f = fakeClock();
    const p = new RatePacer({ maxInFlight: 8, now: f.now, sleep: f.sleep });
    p.observe(headers(6000, 5000));
    expect(p.spacingMs()).toBe(0);
    await p.acquire();
    expect(f.clock.slept).toEqual([]);
  });

  it('spaces requests by window/limit once Remaining reaches the low-water mark, twice that when nearly empty', () => {
    const f = fakeClock();
    const p = new RatePacer({ maxInFlight: 8, now: f.now, sleep: f.sleep });
    p.observe(headers(6000, 601));
    expect(p.lowWater()).toBe(600);
    expect(p.spacingMs()).toBe(0);
    p.observe(headers(6000, 600));
    expect(p.spacingMs()).toBe(10);
    p.observe(headers(6000, 150));
    expect(p.spacingMs()).toBe(20);
  });

  it('keeps the low-water mark at least twice the calls in flight for small budgets', () => {
    const f = fakeClock();
    const p = new RatePacer({ maxInFlight: 8, windowMs: 2_000, now: f.now, sleep: f.sleep });
    p.observe(headers(40, 16));
    expect(p.lowWater()).toBe(16);
    expect(p.spacingMs()).toBe(50);
  });

  it('hands concurrent callers distinct slots when the budget is low', async () => {
    const f = fakeClock();
    const p = new RatePacer({ maxInFlight: 4, now: f.now, sleep: async () => undefined });
    p.observe(headers(600, 30));
    const t0 = f.clock.t;
    await Promise.all([p.acquire(), p.acquire(), p.acquire()]);
    expect((p as unknown as { nextSlot: number }).nextSlot - t0).toBe(3 * 100);
    expect(p.slowed).toBe(2);
  });

  it('closes the gate until X-RateLimit-RetryAfter (epoch seconds) for every caller', async () => {
    const f = fakeClock(1_700_000_000_250);
    const p = new RatePacer({ maxInFlight: 4, now: f.now, sleep: f.sleep });
    expect(p.rateLimited('1700000002', 1)).toBe(1_750);
    await p.acquire();
    expect(f.clock.t).toBe(1_700_000_002_000);
  });

  it('bounds a 429 wait and backs off exponentially without the header', () => {
    const f = fakeClock(1_700_000_000_000);
    const p = new RatePacer({ maxInFlight: 4, now: f.now, sleep: f.sleep });
    expect(p.rateLimited('1600000000', 1)).toBe(RETRY_AFTER_MIN_MS);
    expect(p.rateLimited('1800000000', 1)).toBe(RETRY_AFTER_MAX_MS);
    const q = new RatePacer({ maxInFlight: 4, now: f.now, sleep: f.sleep });
    expect([1, 2, 3, 9].map((a) => q.rateLimited(undefined, a))).toEqual([2_000, 4_000, 8_000, 32_000]);
  });

  it('can be turned off (429s are still honoured)', () => {
    const f = fakeClock();
    const p = new RatePacer({ maxInFlight: 4, enabled: false, now: f.now, sleep: f.sleep });
    p.observe(headers(100, 0));
    expect(p.spacingMs()).toBe(0);
    expect(p.rateLimited('1', 1)).toBe(RETRY_AFTER_MIN_MS);
  });

  it('never runs a token-bucket budget dry, however long the cycle (property)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 5, max: 6000 }), fc.integer({ min: 1_000, max: 60_000 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 40 }), async (limit, windowMs, factor, callMs) => {
        const f = fakeClock();
        const bucket = new RateBucket(limit, windowMs, f.now());
        const p = new RatePacer({ maxInFlight: 1, windowMs, now: f.now, sleep: f.sleep });
        const calls = Math.min(limit * factor + 10, 2_000);
        for (let i = 0; i < calls; i++) {
          await p.acquire();
          const taken = bucket.take(f.now());
          if (!taken.ok) return false;
          f.clock.t += callMs;
          p.observe(headers(limit, taken.remaining));
        }
        return true;
      }),
      { numRuns: 60 },
    );
  });
});

describe('backoffMs', () => {
  it('doubles from the base up to the cap, with ±25 % jitter', () => {
    const p = { baseDelayMs: 250, maxDelayMs: 8_000 };
    expect([1, 2, 3, 4, 5, 6, 7].map((a) => backoffMs(a, p, () => 0.5))).toEqual([250, 500, 1000, 2000, 4000, 8000, 8000]);
    expect(backoffMs(1, p, () => 0)).toBe(188);
    expect(backoffMs(1, p, () => 0.999999)).toBe(312);
  });
});
