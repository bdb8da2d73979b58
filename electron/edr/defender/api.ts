/**
 * Calls to the Defender API with everything a long cycle needs: the bearer token (a 401 refreshes
 * it once and retries), pacing per endpoint class, Retry-After on 429, capped exponential backoff
 * for 5xx / connection failures / unreadable JSON, and OData paging through @odata.nextLink (only
 * ever to the configured API origin, so the token never leaves it).
 */
import { AppError } from '../../../shared/model/errors';
import type { Logger } from '../../log';
import type { HttpClient, HttpResponse } from '../../net/http-client';
import { DefenderErrorCodes, apiError, unexpectedResponse, type ApiErrorBody } from './errors';
import type { LimiterClock, SlidingWindowLimiter } from './limiter';
import { backoffMs, isTransientStatus, retriesSpent, withRetries } from '../../net/retry';
import { parseRetryAfter } from './retry';
import type { TokenProvider } from './token';
import type { EndpointClass, RetryPolicy } from './types';

export interface CallCounters {
  calls: Record<EndpointClass, number>;
  retries: number;
  throttled: number;
  pages: Record<EndpointClass, number>;
}

export const newCounters = (): CallCounters => ({ calls: { machines: 0, vulnerabilities: 0, bulk: 0 }, retries: 0, throttled: 0, pages: { machines: 0, vulnerabilities: 0, bulk: 0 } });

export interface DefenderApiOptions {
  http: HttpClient;
  apiUrl: string;
  tokens: TokenProvider;
  limiters: Record<EndpointClass, SlidingWindowLimiter>;
  clock: LimiterClock;
  retry: RetryPolicy;
  rateScale: number;
  logger: Logger;
}

interface ODataPage {
  value: unknown[];
  next: string | undefined;
}

export class DefenderApi {
  counters = newCounters();
  private readonly origin: string;

  constructor(private readonly o: DefenderApiOptions) {
    this.origin = new URL(o.apiUrl).origin;
  }

  url(pathAndQuery: string): string {
    return `${this.o.apiUrl.replace(/\/+$/, '')}${pathAndQuery}`;
  }

  /** One GET answered with JSON, after refresh / pacing / retries. `what` completes "while it …". */
  async getJson(cls: EndpointClass, url: string, what: string, signal?: AbortSignal): Promise<unknown> {
    const { retry, clock } = this.o;
    let throttles = 0;
    return withRetries<unknown>(
      async () => {
        // The token fetch has retried on its own: its failure ends this call too.
        const token = await this.o.tokens.get(signal).catch((e: unknown) => {
          throw retriesSpent(e);
        });
        const release = await this.o.limiters[cls].acquire(signal);
        this.counters.calls[cls] += 1;
        let res: HttpResponse;
        try {
          res = await this.o.http.request({ method: 'GET', url, headers: { authorization: `Bearer ${token}` }, ...(signal ? { signal } : {}) });
        } finally {
          release();
        }
        if (res.status === 401) {
          this.o.tokens.invalidate(token);
          return { kind: 'refresh', rejected: () => apiError(401, errorBody(res), what) };
        }
        if (res.status === 429) {
          throttles += 1;
          this.counters.throttled += 1;
          const exhausted = () => apiError(429, errorBody(res), what);
          if (throttles > retry.maxThrottleRetries) return { kind: 'throttled', waitMs: 0, exhausted };
          const retryAfter = parseRetryAfter(res.headers['retry-after'], clock.now());
          if (retryAfter !== undefined && retryAfter > retry.maxRetryAfterSec) {
            throw new AppError(DefenderErrorCodes.throttled, `Defender asked the connector to wait ${Math.round(retryAfter)} s (Retry-After) while it ${what}; the cycle stops here.`, 'The hourly API budget is used up (another tool may share the app registration). The next poll continues; lengthen the poll interval if this repeats.', {
              details: { retryAfterSec: retryAfter },
              status: 429,
            });
          }
          // Without Retry-After: the backoff step of this wait.
          const waitMs = retryAfter !== undefined ? (retryAfter * 1000) / this.o.rateScale : backoffMs(throttles, retry);
          this.o.limiters[cls].pause(clock.now() + waitMs);
          this.o.logger.info('defender throttled, waiting', { cls, waitMs: Math.round(waitMs) });
          return { kind: 'throttled', waitMs, exhausted };
        }
        if (isTransientStatus(res.status)) return { kind: 'retry', why: `HTTP ${res.status}`, exhausted: () => apiError(res.status, errorBody(res), what) };
        if (res.status !== 200) throw apiError(res.status, errorBody(res), what);
        try {
          return { kind: 'done', value: JSON.parse(res.body) as unknown };
        } catch {
          return { kind: 'retry', why: 'malformed-json', exhausted: () => unexpectedResponse(what, 'the JSON is incomplete or malformed, also after retries', res.status) };
        }
      },
      {
        policy: { ...retry, max429: retry.maxThrottleRetries },
        signal,
        sleep: (ms, s) => clock.sleep(ms, s),
        onRetry: (why, attempt) => {
          this.counters.retries += 1;
          this.o.logger.debug('defender call retried', { cls, why, attempt });
        },
      },
    );
  }

  /** One OData page: `value` and the next link (checked to stay on the API origin). */
  async page(cls: EndpointClass, url: string, what: string, signal?: AbortSignal): Promise<ODataPage> {
    const body = await this.getJson(cls, url, what, signal);
    const obj = typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : undefined;
    if (!obj || !Array.isArray(obj.value)) throw unexpectedResponse(what, 'no "value" list in the answer');
    this.counters.pages[cls] += 1;
    const nextRaw = obj['@odata.nextLink'];
    let next: string | undefined;
    if (typeof nextRaw === 'string' && nextRaw) {
      const abs = new URL(nextRaw, url);
      if (abs.origin !== this.origin) {
        throw new AppError(DefenderErrorCodes.foreignNextLink, `Defender pointed the next page to ${abs.origin}, outside the configured API ${this.origin}; the connector does not send its token there.`, 'Check the API address of the connector; if it is right, report the answer to Microsoft support.', {
          details: { origin: abs.origin, expected: this.origin },
        });
      }
      next = abs.toString();
    }
    return { value: obj.value, next };
  }

  /** Every page from `first`, following @odata.nextLink. */
  async *pages(cls: EndpointClass, first: string, what: string, signal?: AbortSignal): AsyncGenerator<unknown[]> {
    const seen = new Set<string>();
    let url: string | undefined = first;
    while (url) {
      if (seen.has(url)) throw unexpectedResponse(what, 'the next page link repeats an earlier page');
      seen.add(url);
      const p = await this.page(cls, url, what, signal);
      yield p.value;
      url = p.next;
    }
  }
}

function errorBody(res: HttpResponse): ApiErrorBody | undefined {
  try {
    const parsed = JSON.parse(res.body) as unknown;
    return typeof parsed === 'object' && parsed !== null ? (parsed as ApiErrorBody) : undefined;
  } catch {
    return undefined;
  }
}
