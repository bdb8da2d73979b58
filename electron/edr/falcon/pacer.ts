/**
 * Pacing from Falcon's rate headers (EDR-F6, EDR-F7). Every answer carries X-RateLimit-Limit
 * (requests per minute for the API client) and X-RateLimit-Remaining. Like gofalcon, the pacer
 * slows down when Remaining runs low; instead of a flat 500 ms pause it keeps a copy of the
 * vendor's budget: the last Remaining, plus what came back since at limit/window, minus the
 * requests started since. Below the low-water mark a request starts only when that estimate stays
 * above a reserve of 2 × the calls in flight (what the estimate cannot see), so a cycle that
 * outgrows the budget runs at the rate the budget comes back, catches up after time spent
 * parsing, and does not run into 429. A 429 closes a shared gate until X-RateLimit-RetryAfter
 * (epoch seconds) for every request of the connector.
 */
import { backoffMs } from '../../net/retry';

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
  /** net/retry's jitter of the backoff without X-RateLimit-RetryAfter (tests inject it). */
  random?: () => number;
}

/** A 429 without X-RateLimit-RetryAfter: net/retry's capped backoff from 1 s, at most 32 s, with equal jitter. */
export const RATE_LIMIT_BACKOFF = { baseDelayMs: 1_000, maxDelayMs: 32_000 };

/** Bounds of one 429 wait. */
export const RETRY_AFTER_MIN_MS = 200;
export const RETRY_AFTER_MAX_MS = 60_000;

/** When a request started and how many had started by then (itself included). */
export interface PacerTicket {
  at: number;
  seq: number;
}

export class RatePacer {
  limit: number | undefined;
  remaining: number | undefined;
  /** No request starts before this time (after a 429). */
  gateUntil = 0;
  /** Requests that had to wait for the budget to come back. */
  slowed = 0;
  /** Requests started so far. */
  private starts = 0;
  /** The basis of the estimate: `remaining` held when the answered request started (its ticket). */
  private basis: PacerTicket = { at: 0, seq: 0 };
  private readonly windowMs: number;
  private readonly fraction: number;
  private readonly enabled: boolean;

  constructor(private readonly o: PacerOptions) {
    this.windowMs = o.windowMs ?? 60_000;
    this.fraction = o.lowWaterFraction ?? 0.1;
    this.enabled = o.enabled ?? true;
  }

  /**
   * Reads X-RateLimit-Limit / X-RateLimit-Remaining of an answer (lower-case header names). With
   * the request's ticket the budget is counted from when that request started, so an answer read
   * late (the event loop was busy) does not make the budget look smaller than it is.
   */
  observe(headers: Record<string, string | undefined>, ticket?: PacerTicket): void {
    const limit = Number(headers['x-ratelimit-limit']);
    const remaining = Number(headers['x-ratelimit-remaining']);
    if (Number.isFinite(limit) && limit > 0) this.limit = limit;
    if (headers['x-ratelimit-remaining'] !== undefined && Number.isFinite(remaining) && remaining >= 0) {
      this.remaining = remaining;
      // Requests started after the answered one are counted again, even those the vendor had already counted (on the safe side).
      this.basis = ticket ?? { at: this.o.now(), seq: this.starts };
    }
  }

  lowWater(): number {
    if (this.limit === undefined) return 0;
    return Math.max(Math.ceil(this.limit * this.fraction), 2 * this.o.maxInFlight);
  }

  /** Requests kept back from the estimated budget: the calls in flight it cannot see, twice. */
  reserve(): number {
    return 2 * this.o.maxInFlight;
  }

  /** The vendor's budget now, as far as the answers tell: Remaining + refill since − starts since. */
  estimate(now = this.o.now()): number | undefined {
    if (this.limit === undefined || this.remaining === undefined) return undefined;
    const refilled = (Math.max(0, now - this.basis.at) * this.limit) / this.windowMs;
    return Math.min(this.limit, this.remaining + refilled) - (this.starts - this.basis.seq);
  }

  /** How long the next request has to wait now: 0 while the budget is comfortable. */
  waitMs(now = this.o.now()): number {
    const est = this.estimate(now);
    if (!this.enabled || est === undefined || this.limit === undefined || this.remaining! > this.lowWater()) return 0;
    const short = this.reserve() + 1 - est;
    return short <= 0 ? 0 : (short * this.windowMs) / this.limit;
  }

  /**
   * A 429 arrived: close the gate until X-RateLimit-RetryAfter (epoch seconds), bounded; without
   * the header, back off exponentially (net/retry's backoffMs: half to all of 1 s·2^attempt, at
   * most 32 s). Returns the wait in ms.
   */
  rateLimited(retryAfter: string | undefined, attempt: number): number {
    const now = this.o.now();
    const at = Number(retryAfter);
    const wait = retryAfter !== undefined && Number.isFinite(at) && at > 0 ? at * 1000 - now : backoffMs(attempt + 1, RATE_LIMIT_BACKOFF, this.o.random);
    const bounded = Math.min(RETRY_AFTER_MAX_MS, Math.max(RETRY_AFTER_MIN_MS, wait));
    this.gateUntil = Math.max(this.gateUntil, now + bounded);
    this.remaining = 0;
    this.basis = { at: now, seq: this.starts };
    return bounded;
  }

  /** Waits until a request may start: past the 429 gate and, when the budget is low, until it has come back. */
  async acquire(signal?: AbortSignal): Promise<PacerTicket> {
    for (;;) {
      const now = this.o.now();
      if (this.gateUntil > now) {
        await this.o.sleep(this.gateUntil - now, signal);
        continue;
      }
      const wait = this.waitMs(now);
      if (wait <= 0) {
        this.starts += 1;
        return { at: now, seq: this.starts };
      }
      this.slowed += 1;
      await this.o.sleep(Math.max(1, wait), signal);
    }
  }
}
