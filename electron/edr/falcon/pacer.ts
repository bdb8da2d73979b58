/**
 * Pacing from Falcon's rate headers (EDR-F6, EDR-F7). Every answer carries X-RateLimit-Limit
 * (requests per minute for the API client) and X-RateLimit-Remaining. Like gofalcon, the pacer
 * slows down when Remaining runs low; instead of a flat 500 ms pause it spaces request starts by
 * window/limit, the rate at which the budget comes back, so a cycle that outgrows the budget
 * settles at the sustainable rate rather than running into 429. A 429 closes a shared gate until
 * X-RateLimit-RetryAfter (epoch seconds) for every request of the connector.
 */

export interface PacerOptions {
  /** Requests that can be in flight at once; the low-water mark is never below twice this. */
  maxInFlight: number;
  /** The window X-RateLimit-Limit refers to; default 60,000 ms (per minute). */
  windowMs?: number;
  /** Slow down when Remaining ≤ this share of Limit; default 0.1. */
  lowWaterFraction?: number;
  /** false turns pacing off (429s are still honoured). */
  enabled?: boolean;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** Bounds of one 429 wait. */
export const RETRY_AFTER_MIN_MS = 200;
export const RETRY_AFTER_MAX_MS = 60_000;

export class RatePacer {
  limit: number | undefined;
  remaining: number | undefined;
  /** No request starts before this time (after a 429). */
  gateUntil = 0;
  /** Requests that had to wait for the low-budget spacing. */
  slowed = 0;
  private nextSlot = 0;
  private readonly windowMs: number;
  private readonly fraction: number;
  private readonly enabled: boolean;

  constructor(private readonly o: PacerOptions) {
    this.windowMs = o.windowMs ?? 60_000;
    this.fraction = o.lowWaterFraction ?? 0.1;
    this.enabled = o.enabled ?? true;
  }

  /** Reads X-RateLimit-Limit / X-RateLimit-Remaining of an answer (lower-case header names). */
  observe(headers: Record<string, string | undefined>): void {
    const limit = Number(headers['x-ratelimit-limit']);
    const remaining = Number(headers['x-ratelimit-remaining']);
    if (Number.isFinite(limit) && limit > 0) this.limit = limit;
    if (headers['x-ratelimit-remaining'] !== undefined && Number.isFinite(remaining) && remaining >= 0) this.remaining = remaining;
  }

  lowWater(): number {
    if (this.limit === undefined) return 0;
    return Math.max(Math.ceil(this.limit * this.fraction), 2 * this.o.maxInFlight);
  }

  /** Minimum time between request starts now: 0 while the budget is comfortable. */
  spacingMs(): number {
    if (!this.enabled || this.limit === undefined || this.remaining === undefined) return 0;
    const low = this.lowWater();
    if (this.remaining > low) return 0;
    const base = this.windowMs / this.limit;
    // Nearly empty: start below the refill rate so the budget climbs back above zero.
    return this.remaining <= low / 4 ? base * 2 : base;
  }

  /**
   * A 429 arrived: close the gate until X-RateLimit-RetryAfter (epoch seconds), bounded; without
   * the header, back off exponentially. Returns the wait in ms.
   */
  rateLimited(retryAfter: string | undefined, attempt: number): number {
    const now = this.o.now();
    const at = Number(retryAfter);
    const wait = retryAfter !== undefined && Number.isFinite(at) && at > 0 ? at * 1000 - now : 1000 * 2 ** Math.min(attempt, 5);
    const bounded = Math.min(RETRY_AFTER_MAX_MS, Math.max(RETRY_AFTER_MIN_MS, wait));
    this.gateUntil = Math.max(this.gateUntil, now + bounded);
    this.remaining = 0;
    return bounded;
  }

  /** Waits until a request may start: past the 429 gate and, when the budget is low, its own slot. */
  async acquire(signal?: AbortSignal): Promise<void> {
    for (;;) {
      const now = this.o.now();
      if (this.gateUntil > now) {
        await this.o.sleep(this.gateUntil - now, signal);
        continue;
      }
      const spacing = this.spacingMs();
      if (spacing <= 0) return;
      const slot = Math.max(now, this.nextSlot);
      this.nextSlot = slot + spacing;
      if (slot <= now) return;
      this.slowed += 1;
      await this.o.sleep(slot - now, signal);
      if (this.gateUntil <= this.o.now()) return;
    }
  }
}
