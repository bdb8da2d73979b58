/** SlidingWindowLimiter and mapPool on a virtual clock: the service never sees more than the limit in any window. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter, mapPool, type LimiterClock } from '../../../electron/edr/defender/limiter';

/** A clock whose timers fire in time order as fast as the promises settle. */
class VirtualClock implements LimiterClock {
  t = 0;
  private timers: { at: number; fire: () => void }[] = [];
  now = () => this.t;
  sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const timer = { at: this.t + Math.max(0, ms), fire: resolve };
      this.timers.push(timer);
      signal?.addEventListener('abort', () => {
        this.timers = this.timers.filter((x) => x !== timer);
        reject(new Error('aborted'));
      });
    });
  /** Runs until `done` settles, firing the earliest timer whenever everything else is idle. */
  async run<T>(done: Promise<T>): Promise<T> {
    let settled = false;
    const out = done.finally(() => (settled = true));
    for (let turns = 0; !settled; turns++) {
      if (turns > 100_000) throw new Error('the limiter never settled (100,000 timer turns)');
      for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
      if (settled) break;
      this.timers.sort((a, b) => a.at - b.at);
      const next = this.timers.shift();
      if (!next) continue;
      this.t = Math.max(this.t, next.at);
      next.fire();
    }
    return out;
  }
}

/** Arrival times must satisfy a[j] - a[j - calls] >= windowMs (the service drops t <= now - window). */
function maxInAnyWindow(arrivals: number[], windowMs: number): number {
  const a = [...arrivals].sort((x, y) => x - y);
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < a.length; hi++) {
    while (a[lo]! <= a[hi]! - windowMs) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

async function simulate(windows: { calls: number; windowMs: number }[], workers: number, latencies: number[], arrivalShare: number[]) {
  const clock = new VirtualClock();
  const limiter = new SlidingWindowLimiter(windows, clock);
  const arrivals: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < latencies.length) {
      const i = next++;
      const release = await limiter.acquire();
      const lat = latencies[i]!;
      // The request reaches the service somewhere between the grant and the answer.
      arrivals.push(clock.now() + lat * arrivalShare[i % arrivalShare.length]!);
      await clock.sleep(lat);
      release();
    }
  };
  await clock.run(Promise.all(Array.from({ length: workers }, worker)));
  return { arrivals, elapsed: clock.t };
}

describe('SlidingWindowLimiter', () => {
  it('never lets the service see more than the limit in any window, whatever the latencies', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.integer({ min: 0, max: 400 }), { minLength: 1, maxLength: 120 }),
        fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 10 }),
        async (calls, workers, latencies, share) => {
          const windows = [
            { calls, windowMs: 1_000 },
            { calls: calls * 3, windowMs: 5_000 },
          ];
          const { arrivals } = await simulate(windows, workers, latencies, share);
          expect(arrivals).toHaveLength(latencies.length);
          for (const w of windows) expect(maxInAnyWindow(arrivals, w.windowMs)).toBeLessThanOrEqual(w.calls);
        },
      ),
      { numRuns: 60 },
    );
  });

  it('is not needlessly slow: 150 instant calls at 50 per minute take two more minutes', async () => {
    const { elapsed } = await simulate([{ calls: 50, windowMs: 60_000 }], 10, new Array(150).fill(0), [0]);
    expect(elapsed).toBe(120_000);
  });

  it('pause() holds every grant until the given time', async () => {
    const clock = new VirtualClock();
    const limiter = new SlidingWindowLimiter([{ calls: 100, windowMs: 1_000 }], clock);
    limiter.pause(5_000);
    const granted = clock.run(limiter.acquire().then(() => clock.now()));
    expect(await granted).toBe(5_000);
  });

  it('calls in flight alone can fill a window: the next grant waits for a release', async () => {
    const clock = new VirtualClock();
    const limiter = new SlidingWindowLimiter([{ calls: 2, windowMs: 100 }], clock);
    const r1 = await limiter.acquire();
    await limiter.acquire();
    expect(limiter.inFlight).toBe(2);
    let third = false;
    const p = limiter.acquire().then((r) => ((third = true), r));
    await new Promise((r) => setImmediate(r));
    expect(third).toBe(false);
    clock.t = 1_000;
    r1();
    await clock.run(p);
    expect(clock.now()).toBe(1_100);
  });

  it('rejects on abort while waiting', async () => {
    const clock = new VirtualClock();
    const limiter = new SlidingWindowLimiter([{ calls: 1, windowMs: 1_000 }], clock);
    await limiter.acquire();
    const ctrl = new AbortController();
    const p = limiter.acquire(ctrl.signal);
    ctrl.abort();
    await expect(p).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('refuses nonsense windows', () => {
    expect(() => new SlidingWindowLimiter([], new VirtualClock())).toThrow(RangeError);
    expect(() => new SlidingWindowLimiter([{ calls: 0, windowMs: 1 }], new VirtualClock())).toThrow(RangeError);
  });
});

describe('mapPool', () => {
  it('keeps at most `limit` in flight and keeps the order of results', async () => {
    let inFlight = 0;
    let max = 0;
    const out = await mapPool(Array.from({ length: 40 }, (_, i) => i), 10, async (x) => {
      max = Math.max(max, ++inFlight);
      await new Promise((r) => setTimeout(r, 1 + (x % 3)));
      inFlight -= 1;
      return x * 2;
    });
    expect(max).toBe(10);
    expect(out).toEqual(Array.from({ length: 40 }, (_, i) => i * 2));
  });

  it('stops at the first failure and aborts the others', async () => {
    const started: number[] = [];
    let abortedSeen = 0;
    const err = await mapPool(Array.from({ length: 50 }, (_, i) => i), 5, async (x, _i, signal) => {
      started.push(x);
      if (x === 3) throw new Error('boom');
      await new Promise((r) => setTimeout(r, 5));
      if (signal.aborted) abortedSeen += 1;
      return x;
    }).catch((e: Error) => e);
    expect((err as Error).message).toBe('boom');
    expect(started.length).toBeLessThan(50);
    expect(abortedSeen).toBeGreaterThan(0);
  });

  it('an aborted outer signal is reported as cancelled', async () => {
    await expect(mapPool([1, 2], 2, async (x) => x, AbortSignal.abort())).rejects.toMatchObject({ code: 'cancelled' });
  });
});
