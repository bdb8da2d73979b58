/**
 * Pacing for the Defender API.
 *
 * SlidingWindowLimiter: at most `calls` calls in any `windowMs`, for every window of an endpoint
 * class. A call holds its slot from the grant until its answer arrives and then for a whole window
 * after it. The service counts a call when it arrives, which is between the two, so the service
 * can never see more calls in a window than the limit, whatever the latency: a healthy cycle gets
 * no 429. `pause()` stops all grants until a time (a Retry-After).
 *
 * mapPool: runs a function over items with at most `limit` in flight; the first failure stops
 * the rest (and is the one thrown).
 */
import { cancelledError, sleep } from '../../net/retry';
import { forEachLimited } from '../../pool';
import type { RateWindow } from './types';

export interface LimiterClock {
  now(): number;
  /** Waits `ms`; rejects (with the cancelled AppError) when `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

const cancelled = () => cancelledError('The Defender poll');

export const realClock = (now: () => number = Date.now): LimiterClock => ({ now, sleep: (ms, signal) => sleep(ms, signal, 'The Defender poll') });

/** Index of the first element > x in an ascending array. */
function upperBound(a: number[], x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid]! <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export class SlidingWindowLimiter {
  /** Release times of finished calls, ascending. */
  private readonly released: number[] = [];
  private pending = 0;
  private pausedUntil = 0;
  private waiters: (() => void)[] = [];
  private readonly longest: number;

  /** `windows` in real ms (already scaled). */
  constructor(
    readonly windows: readonly RateWindow[],
    private readonly clock: LimiterClock,
  ) {
    if (windows.length === 0 || windows.some((w) => !(w.calls >= 1) || !(w.windowMs > 0))) throw new RangeError('Every rate window needs calls >= 1 and windowMs > 0.');
    this.longest = Math.max(...windows.map((w) => w.windowMs));
  }

  /** Calls in flight (granted, not released). */
  get inFlight(): number {
    return this.pending;
  }

  /** No grant before `untilMs` (clock time). */
  pause(untilMs: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, untilMs);
  }

  /**
   * How long to wait before a grant is possible: 0 = now, a number of ms, or 'release' when calls
   * in flight alone fill a window (only a release can help).
   */
  private waitTime(now: number): number | 'release' {
    const drop = upperBound(this.released, now - this.longest);
    if (drop) this.released.splice(0, drop);
    let wait = Math.max(0, this.pausedUntil - now);
    for (const w of this.windows) {
      const first = upperBound(this.released, now - w.windowMs);
      const inWindow = this.released.length - first;
      const excess = this.pending + inWindow - w.calls + 1;
      if (excess <= 0) continue;
      if (excess > inWindow) return 'release';
      wait = Math.max(wait, this.released[first + excess - 1]! + w.windowMs - now);
    }
    return wait;
  }

  /** Waits for a slot; returns the function to call once the answer (or failure) is in. */
  async acquire(signal?: AbortSignal): Promise<() => void> {
    for (;;) {
      if (signal?.aborted) throw cancelled();
      const wait = this.waitTime(this.clock.now());
      if (wait === 0) break;
      if (wait === 'release') await this.nextRelease(signal);
      else await this.clock.sleep(wait, signal);
    }
    this.pending += 1;
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.pending -= 1;
      const t = this.clock.now();
      this.released.splice(upperBound(this.released, t), 0, t);
      const waiters = this.waiters;
      this.waiters = [];
      for (const w of waiters) w();
    };
  }

  private nextRelease(signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = () => reject(cancelled());
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      });
    });
  }
}

/** Scales vendor-time windows to real ms. */
export const scaleWindows = (windows: readonly RateWindow[], rateScale: number): RateWindow[] => windows.map((w) => ({ calls: w.calls, windowMs: w.windowMs / rateScale }));

export async function mapPool<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number, signal: AbortSignal) => Promise<R>, signal?: AbortSignal): Promise<R[]> {
  if (signal?.aborted) throw cancelled();
  // One failure (or the caller's abort) aborts the calls still in flight.
  const ctrl = new AbortController();
  const onAbort = () => ctrl.abort();
  signal?.addEventListener('abort', onAbort, { once: true });
  const out = new Array<R>(items.length);
  try {
    await forEachLimited(items, limit, async (item, i) => {
      try {
        out[i] = await fn(item, i, ctrl.signal);
      } catch (e) {
        ctrl.abort();
        throw signal?.aborted ? cancelled() : e;
      }
    });
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  return out;
}
