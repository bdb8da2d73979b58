/** The Falcon connector's retry budgets (EDR-F8); the loop, backoff and abortable sleep are net/retry.ts. */
import type { RetryPolicy } from '../../net/retry';

export type { RetryPolicy };

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 6, max429: 10, baseDelayMs: 250, maxDelayMs: 8_000 };
