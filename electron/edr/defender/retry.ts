/** Retry policy helpers: which failures are worth another try, backoff delays, Retry-After. */
import { ErrorCodes, isAppError } from '../../../shared/model/errors';
import type { RetryPolicy } from './types';

/** Capped exponential backoff with equal jitter: half fixed, half random. `attempt` starts at 1. */
export function backoffMs(attempt: number, policy: Pick<RetryPolicy, 'baseDelayMs' | 'maxDelayMs'>, random: () => number = Math.random): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return ceiling / 2 + random() * (ceiling / 2);
}

/**
 * Retry-After as vendor seconds: delta-seconds or an HTTP date (RFC 9110 §10.2.3). Undefined when
 * absent or unreadable.
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Number(v);
  const date = Date.parse(v);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, (date - nowMs) / 1000);
}

/** Transport failures worth another try: unreachable, reset, timeout. Never TLS trust failures. */
export function isTransientTransport(e: unknown): boolean {
  return isAppError(e) && (e.code === ErrorCodes.network || e.code === ErrorCodes.timeout);
}

/** HTTP statuses worth another try (5xx; 408 request timeout). */
export const isTransientStatus = (status: number) => status >= 500 || status === 408;
