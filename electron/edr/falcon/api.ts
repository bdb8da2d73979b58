/**
 * One Falcon API call with everything around it: pacing, the bearer token (a 401 drops it and
 * retries once with a fresh one, shared by all callers), 429 waits, bounded retries of 5xx,
 * resets, timeouts and unreadable JSON (EDR-F8), and operator-facing errors for the rest.
 */
import { isAppError } from '../../../shared/model/errors';
import type { Logger } from '../../log';
import type { HttpClient, HttpResponse } from '../../net';
import type { FalconAuth } from './auth';
import { forbiddenError, rateLimitedError, requestRejectedError, tokenRejectedError, unavailableError, vendorMessage } from './errors';
import type { RatePacer } from './pacer';
import { backoffMs, isTransient, type RetryPolicy } from './retry';

export interface FalconEnvelope {
  meta?: { pagination?: { offset?: unknown; total?: unknown; expires_at?: unknown; limit?: unknown } };
  resources?: unknown[] | null;
  errors?: { code?: number; message?: string; id?: string }[] | null;
}

export interface FalconCall {
  method: 'GET' | 'POST';
  path: string;
  query?: [string, string][];
  json?: unknown;
  /** Entity lookups answer 404 when none of the ids has a record; that is data, not an error. */
  allow404?: boolean;
}

export interface FalconApiStats {
  calls: number;
  r429: number;
  retries: number;
  unauthorized: number;
}

export interface FalconApiOptions {
  http: HttpClient;
  auth: FalconAuth;
  pacer: RatePacer;
  retry: RetryPolicy;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  logger: Logger;
}

function parseEnvelope(body: string): FalconEnvelope | undefined {
  try {
    const j = JSON.parse(body) as unknown;
    if (!j || typeof j !== 'object' || Array.isArray(j)) return undefined;
    const r = (j as FalconEnvelope).resources;
    return r === undefined || r === null || Array.isArray(r) ? (j as FalconEnvelope) : undefined;
  } catch {
    return undefined;
  }
}

export class FalconApi {
  readonly stats: FalconApiStats = { calls: 0, r429: 0, retries: 0, unauthorized: 0 };

  constructor(private readonly o: FalconApiOptions) {}

  async call(req: FalconCall, signal?: AbortSignal): Promise<{ status: number; envelope: FalconEnvelope }> {
    const qs = req.query && req.query.length > 0 ? `?${new URLSearchParams(req.query).toString()}` : '';
    let attempt = 0;
    let waits = 0;
    let refreshed = false;
    const retry = async (why: string) => {
      attempt += 1;
      if (attempt >= this.o.retry.maxAttempts) throw unavailableError(req.path, attempt, why);
      this.stats.retries += 1;
      this.o.logger.debug('falcon retry', { path: req.path, attempt, why });
      await this.o.sleep(backoffMs(attempt, this.o.retry), signal);
    };
    for (;;) {
      const ticket = await this.o.pacer.acquire(signal);
      const tok = await this.o.auth.token(signal);
      let res: HttpResponse;
      try {
        this.stats.calls += 1;
        res = await this.o.http.request({
          method: req.method,
          url: `${tok.baseUrl}${req.path}${qs}`,
          headers: { authorization: `Bearer ${tok.token}` },
          ...(req.json !== undefined ? { json: req.json } : {}),
          signal,
        });
      } catch (e) {
        if (!isTransient(e)) throw e;
        await retry(isAppError(e) ? e.message : String(e));
        continue;
      }
      this.o.pacer.observe(res.headers, ticket);
      const s = res.status;
      if (s === 401) {
        this.stats.unauthorized += 1;
        if (refreshed) throw tokenRejectedError(tok.region, tok.baseUrl);
        refreshed = true;
        this.o.auth.invalidate(tok.token);
        continue;
      }
      if (s === 429) {
        this.stats.r429 += 1;
        waits += 1;
        if (waits > this.o.retry.max429) throw rateLimitedError(req.path, waits - 1);
        const wait = this.o.pacer.rateLimited(res.headers['x-ratelimit-retryafter'], waits);
        this.o.logger.info('falcon rate limited', { path: req.path, waitMs: wait });
        continue;
      }
      if (s >= 500) {
        await retry(`HTTP ${s}`);
        continue;
      }
      if (s === 403) throw forbiddenError(req.path, vendorMessage(res.body));
      if ((s >= 200 && s < 300) || (s === 404 && req.allow404)) {
        const envelope = parseEnvelope(res.body);
        if (envelope) return { status: s, envelope };
        await retry('an unreadable JSON answer');
        continue;
      }
      throw requestRejectedError(req.path, s, vendorMessage(res.body));
    }
  }
}
