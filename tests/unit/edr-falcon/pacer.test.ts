/** Pacing from X-RateLimit headers, the 429 gate and the retry backoff, on a fake clock. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RatePacer, RETRY_AFTER_MAX_MS, RETRY_AFTER_MIN_MS } from '../../../electron/edr/falcon/pacer';
import { sleep as netSleep } from '../../../electron/net/retry';
import { ErrorCodes } from '../../../shared/model/errors';
import { RateBucket } from '@northbound/simulators/internal/falcon/state';

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
    expect(p.waitMs()).toBe(0);
    await p.acquire();
    expect(f.clock.slept).toEqual([]);
  });

  it('below the low-water mark waits until the estimated budget is above the reserve, counting what came back since the answer', () => {
    const f = fakeClock();
    const p = new RatePacer({ maxInFlight: 8, now: f.now, sleep: f.sleep });
    p.observe(headers(6000, 601));
    expect(p.lowWater()).toBe(600);
    expect(p.waitMs()).toBe(0);
    p.observe(headers(6000, 10));
    expect(p.reserve()).toBe(16);
    // 7 requests short of reserve + 1, one back every 10 ms at 6000/min.
    expect(p.waitMs()).toBeCloseTo(70, 6);
    f.clock.t += 30;
    expect(p.waitMs()).toBeCloseTo(40, 6);
    f.clock.t += 40;
    expect(p.waitMs()).toBe(0);
  });

  it('keeps the low-water mark at least twice the calls in flight for small budgets', () => {
    const f = fakeClock();
    const p = new RatePacer({ maxInFlight: 8, windowMs: 2_000, now: f.now, sleep: f.sleep });
    p.observe(headers(40, 16));
    expect(p.lowWater()).toBe(16);
    expect(p.waitMs()).toBeCloseTo(50, 6);
  });

  it('counts the requests started since the last answer, and catches up after time spent elsewhere', async () => {
    const f = fakeClock();
    const p = new RatePacer({ maxInFlight: 2, now: f.now, sleep: f.sleep });
    p.observe(headers(600, 7));
    // Reserve 4: estimates 7, 6 and 5 start at once; the fourth waits one refill (100 ms).
    for (let i = 0; i < 4; i++) await p.acquire();
    expect(f.clock.slept).toEqual([100]);
    expect(p.slowed).toBe(1);
    // A second parsing elsewhere brought 10 requests back: they start without waiting.
    f.clock.t += 1_000;
    for (let i = 0; i < 10; i++) await p.acquire();
    expect(f.clock.slept).toEqual([100]);
    await p.acquire();
    expect(f.clock.slept).toHaveLength(2);
  });

  it('counts the budget from when the answered request started, so an answer read late does not shrink it', async () => {
    const f = fakeClock();
    const p = new RatePacer({ maxInFlight: 2, now: f.now, sleep: f.sleep });
    p.observe(headers(600, 7));
    const ticket = await p.acquire();
    await p.acquire();
    // Read 500 ms after the request started: 5 came back since, and one request started after it.
    f.clock.t += 500;
    p.observe(headers(600, 6), ticket);
    expect(p.estimate()).toBeCloseTo(6 + 5 - 1, 6);
    // Without the ticket the answer counts from now.
    p.observe(headers(600, 6));
    expect(p.estimate()).toBe(6);
  });

  it('closes the gate until X-RateLimit-RetryAfter (epoch seconds) for every caller', async () => {
    const f = fakeClock(1_700_000_000_250);
    const p = new RatePacer({ maxInFlight: 4, now: f.now, sleep: f.sleep });
    expect(p.rateLimited('1700000002', 1)).toBe(1_750);
    await p.acquire();
    expect(f.clock.t).toBe(1_700_000_002_000);
  });

  it('bounds a 429 wait and, without the header, backs off exponentially with net/retry\'s jitter (half to all of 1 s·2^n, at most 32 s)', () => {
    const f = fakeClock(1_700_000_000_000);
    const p = new RatePacer({ maxInFlight: 4, now: f.now, sleep: f.sleep });
    expect(p.rateLimited('1600000000', 1)).toBe(RETRY_AFTER_MIN_MS);
    expect(p.rateLimited('1800000000', 1)).toBe(RETRY_AFTER_MAX_MS);
    const most = new RatePacer({ maxInFlight: 4, now: f.now, sleep: f.sleep, random: () => 1 });
    expect([1, 2, 3, 9].map((a) => most.rateLimited(undefined, a))).toEqual([2_000, 4_000, 8_000, 32_000]);
    const least = new RatePacer({ maxInFlight: 4, now: f.now, sleep: f.sleep, random: () => 0 });
    expect([1, 2, 3, 9].map((a) => least.rateLimited(undefined, a))).toEqual([1_000, 2_000, 4_000, 16_000]);
  });

  it('a wait at the 429 gate ends at once when the cycle is cancelled (net/retry sleep with the cycle\'s signal)', async () => {
    const p = new RatePacer({ maxInFlight: 4, now: Date.now, sleep: netSleep });
    // Sixty seconds closed: only the cancel ends the wait before the test's own limit.
    p.rateLimited(String(Math.ceil(Date.now() / 1000) + 120), 1);
    const cycle = new AbortController();
    const waiting = p.acquire(cycle.signal);
    waiting.catch(() => undefined);
    cycle.abort();
    await expect(waiting).rejects.toMatchObject({ code: ErrorCodes.cancelled });
    // Cancelled before it waits at all: no request starts.
    await expect(p.acquire(cycle.signal)).rejects.toMatchObject({ code: ErrorCodes.cancelled });
  });

  it('can be turned off (429s are still honoured)', () => {
    const f = fakeClock();
    const p = new RatePacer({ maxInFlight: 4, enabled: false, now: f.now, sleep: f.sleep });
    p.observe(headers(100, 0));
    expect(p.waitMs()).toBe(0);
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
