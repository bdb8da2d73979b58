/**
 * The simulator's rate limits: per app and endpoint class, sliding windows on the SimClock
 * (documented: machines 100/min and 1 500/h, per-machine vulnerabilities 50/min and 1 500/h,
 * bulk export 30/min and 1 000/h). Only admitted calls count; a refused call is not recorded.
 */
import type { EndpointClass, RateLimits, RateWindow } from './types';

export const DOCUMENTED_LIMITS: RateLimits = {
  machines: [
    { calls: 100, windowMs: 60_000 },
    { calls: 1_500, windowMs: 3_600_000 },
  ],
  vulnerabilities: [
    { calls: 50, windowMs: 60_000 },
    { calls: 1_500, windowMs: 3_600_000 },
  ],
  bulk: [
    { calls: 30, windowMs: 60_000 },
    { calls: 1_000, windowMs: 3_600_000 },
  ],
};

export class SimRateLimiter {
  /** Admission times per `${app}|${class}`, oldest first. */
  private readonly log = new Map<string, number[]>();

  constructor(
    private readonly limits: RateLimits,
    private readonly rateScale: number,
    private readonly now: () => number,
  ) {}

  private windows(cls: EndpointClass): RateWindow[] {
    return this.limits[cls];
  }

  /** Admits the call (and records it) or answers how many vendor seconds to wait. */
  admit(app: string, cls: EndpointClass): { ok: true } | { ok: false; retryAfterSec: number } {
    const key = `${app}|${cls}`;
    const now = this.now();
    const times = this.log.get(key) ?? [];
    const longest = Math.max(...this.windows(cls).map((w) => w.windowMs / this.rateScale));
    let drop = 0;
    while (drop < times.length && times[drop]! <= now - longest) drop++;
    if (drop) times.splice(0, drop);
    let waitMs = 0;
    for (const w of this.windows(cls)) {
      const span = w.windowMs / this.rateScale;
      const inWindow = times.filter((t) => t > now - span);
      if (inWindow.length >= w.calls) {
        // The call becomes possible when the oldest call that keeps the window full leaves it.
        const oldest = inWindow[inWindow.length - w.calls]!;
        waitMs = Math.max(waitMs, oldest + span - now);
      }
    }
    if (waitMs > 0) return { ok: false, retryAfterSec: Math.max(1, Math.ceil((waitMs * this.rateScale) / 1000)) };
    times.push(now);
    this.log.set(key, times);
    return { ok: true };
  }
}
