/** Defender's Retry-After header; the retry loop, backoff and transient checks are net/retry.ts. */

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
