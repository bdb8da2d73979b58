/**
 * The one way main calls a remote API again (ARCHITECTURE: retry, 429 and rate limits live in
 * net/): bounded attempts for transient failures with capped exponential backoff, a bounded
 * number of 429 waits, one token refresh on 401, and an abortable sleep that rejects with the
 * cancelled error. The callers (the Falcon and Defender connectors, the management node client)
 * keep only what differs: how they send, their rate headers, their token source and their
 * operator-facing errors, given to `withRetries` as the outcome of each try.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { AppError, ErrorCodes, isAppError } from '../../shared/model/errors';

export interface RetryPolicy {
  /** Tries per call for transient failures (the first included). */
  maxAttempts: number;
  /** 429 answers honoured per call before giving up. */
  max429: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

/** What one try came to, as the caller reads its answer. */
export type TryOutcome<T> =
  | { kind: 'done'; value: T }
  /** Transient (5xx, reset, timeout, unreadable body): back off and try again, up to maxAttempts. */
  | { kind: 'retry'; why: string; exhausted: (tries: number) => Error }
  /** 429: wait `waitMs` (0 when the caller's own pacer waits) and try again, up to max429 times. */
  | { kind: 'throttled'; waitMs: number; exhausted: (waits: number) => Error }
  /** 401: the caller has dropped its token; try once more with a fresh one, else `rejected`. */
  | { kind: 'refresh'; rejected: () => Error };

export interface RetryOptions {
  policy: RetryPolicy;
  signal?: AbortSignal | undefined;
  /** Injected by tests with a fake clock; default `sleep` below. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Called before each backoff (counters, logs). */
  onRetry?: (why: string, failures: number) => void;
  random?: () => number;
}

/** The cancelled error every abortable wait and call rejects with. */
export function cancelledError(what = 'The request'): AppError {
  return new AppError(ErrorCodes.cancelled, `${what} was cancelled.`, 'Start it again when you are ready.');
}

/** Waits `ms`; rejects with the cancelled error at once when `signal` aborts (before or during). */
export async function sleep(ms: number, signal?: AbortSignal, what?: string): Promise<void> {
  if (signal?.aborted) throw cancelledError(what);
  try {
    await delay(Math.max(0, ms), undefined, signal ? { signal } : undefined);
  } catch {
    throw cancelledError(what);
  }
}

/** Rejects as soon as the signal aborts, whether or not the call itself can be aborted. */
export function abortable<T>(work: Promise<T>, signal: AbortSignal | undefined, what?: string): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => undefined);
    return Promise.reject(cancelledError(what));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(cancelledError(what));
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/**
 * Delay before retry number `attempt` (1-based): base·2^(attempt-1), capped at maxDelayMs, with
 * equal jitter (half of it fixed, half random), so retries of many callers spread out but never
 * come sooner than half the step.
 */
export function backoffMs(attempt: number, p: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const ceiling = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/** Errors a retry loop has already given up on; see `retriesSpent`. */
const spent = new WeakSet<object>();

/**
 * Marks a failure whose own retries are spent (a token fetch that gave up after its attempts), so
 * that the call around it fails too instead of starting another budget: one budget per failure,
 * not one per layer (a token endpoint that could not be reached cost 6 × 6 attempts).
 */
export function retriesSpent<E>(e: E): E {
  if (typeof e === 'object' && e !== null) spent.add(e);
  return e;
}

/**
 * Transport failures worth another try: unreachable, reset, timeout. Never TLS trust failures, nor
 * one whose retries are spent, nor a host name the DNS says does not exist (ENOTFOUND: asking again
 * gets the same answer; a DNS that did not answer is EAI_AGAIN, and is tried again).
 */
export function isTransient(e: unknown): boolean {
  if (!isAppError(e) || spent.has(e)) return false;
  if ((e.details as { reason?: unknown } | undefined)?.reason === 'ENOTFOUND') return false;
  return e.code === ErrorCodes.network || e.code === ErrorCodes.timeout;
}

/** HTTP statuses worth another try (5xx; 408 request timeout). */
export const isTransientStatus = (status: number) => status >= 500 || status === 408;

/**
 * Runs `attempt` until it is done, within the policy's budgets. A transient transport error thrown
 * by `attempt` counts as a `retry` (and, when the budget is spent, is thrown as it is); any other
 * error ends the call at once.
 */
export async function withRetries<T>(attempt: () => Promise<TryOutcome<T>>, o: RetryOptions): Promise<T> {
  const wait = o.sleep ?? sleep;
  let failures = 0;
  let throttles = 0;
  let refreshed = false;
  for (;;) {
    if (o.signal?.aborted) throw cancelledError();
    let outcome: TryOutcome<T>;
    try {
      outcome = await attempt();
    } catch (e) {
      if (!isTransient(e)) throw e;
      outcome = { kind: 'retry', why: isAppError(e) ? e.code : String(e), exhausted: () => e as Error };
    }
    switch (outcome.kind) {
      case 'done':
        return outcome.value;
      case 'refresh':
        if (refreshed) throw outcome.rejected();
        refreshed = true;
        break;
      case 'throttled':
        throttles += 1;
        if (throttles > o.policy.max429) throw outcome.exhausted(throttles - 1);
        if (outcome.waitMs > 0) await wait(outcome.waitMs, o.signal);
        break;
      case 'retry':
        failures += 1;
        if (failures >= o.policy.maxAttempts) throw outcome.exhausted(failures);
        o.onRetry?.(outcome.why, failures);
        await wait(backoffMs(failures, o.policy, o.random), o.signal);
        break;
    }
  }
}
