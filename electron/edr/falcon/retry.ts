/** Retry policy of the Falcon connector (EDR-F8): bounded attempts, capped exponential backoff with jitter. */
import { AppError, ErrorCodes, isAppError } from '../../../shared/model/errors';

export interface RetryPolicy {
  /** Attempts per request for 5xx, resets, timeouts and unreadable JSON (first try included). */
  maxAttempts: number;
  /** 429 answers honoured per request before giving up. */
  max429: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 6, max429: 10, baseDelayMs: 250, maxDelayMs: 8_000 };

/** Delay before retry number `attempt` (1-based): base·2^(attempt-1), capped, with ±25 % jitter. */
export function backoffMs(attempt: number, p: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const raw = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(raw * (0.75 + random() * 0.5));
}

/** Transport failures worth another attempt: connection refused/reset/closed, timeouts. TLS trust failures are not. */
export function isTransient(e: unknown): boolean {
  return isAppError(e) && (e.code === ErrorCodes.network || e.code === ErrorCodes.timeout);
}

export function cancelledError(): AppError {
  return new AppError(ErrorCodes.cancelled, 'The Falcon poll was cancelled.', 'Start it again when you are ready.');
}

/** setTimeout that rejects with `cancelled` when the signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(cancelledError());
  return new Promise((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelledError());
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, Math.max(0, ms));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
