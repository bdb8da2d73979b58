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
import { parseEnvelope, type FalconEnvelope } from './read';
import { ParserStopped } from './falcon-parser';
import { isTransient, retriesSpent, withRetries, type RetryPolicy } from '../../net/retry';

export type { FalconEnvelope };

export interface FalconCall<E extends Omit<FalconEnvelope, 'resources'> = FalconEnvelope> {
  method: 'GET' | 'POST';
  path: string;
  query?: [string, string][];
  json?: unknown;
  /** Entity lookups answer 404 when none of the ids has a record; that is data, not an error. */
  allow404?: boolean;
  /**
   * Reads the answer's bytes instead of parsing it here (the details answers, on the parser
   * thread: falcon-parser.ts); undefined is an unreadable answer, a throw (the thread stopped) asks again.
   */
  read?: (bytes: Uint8Array) => Promise<E | undefined>;
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

export class FalconApi {
  readonly stats: FalconApiStats = { calls: 0, r429: 0, retries: 0, unauthorized: 0 };

  constructor(private readonly o: FalconApiOptions) {}

  async call<E extends Omit<FalconEnvelope, 'resources'> = FalconEnvelope>(req: FalconCall<E>, signal?: AbortSignal): Promise<{ status: number; envelope: E }> {
    const qs = req.query && req.query.length > 0 ? `?${new URLSearchParams(req.query).toString()}` : '';
    const unavailable = (why: string) => (tries: number) => unavailableError(req.path, tries, why);
    let waits = 0;
    return withRetries<{ status: number; envelope: E }>(
      async () => {
        const ticket = await this.o.pacer.acquire(signal);
        // The token fetch has retried on its own: its failure ends this call too.
        const tok = await this.o.auth.token(signal).catch((e: unknown) => {
          throw retriesSpent(e);
        });
        let res: HttpResponse;
        try {
          this.stats.calls += 1;
          res = await this.o.http.request({
            method: req.method,
            url: `${tok.baseUrl}${req.path}${qs}`,
            headers: { authorization: `Bearer ${tok.token}` },
            ...(req.json !== undefined ? { json: req.json } : {}),
            ...(req.read ? { bytes: true } : {}),
            signal,
          });
        } catch (e) {
          if (!isTransient(e)) throw e;
          const why = isAppError(e) ? e.message : String(e);
          return { kind: 'retry', why, exhausted: unavailable(why) };
        }
        this.o.pacer.observe(res.headers, ticket);
        const s = res.status;
        if (s === 401) {
          this.stats.unauthorized += 1;
          this.o.auth.invalidate(tok.token);
          return { kind: 'refresh', rejected: () => tokenRejectedError(tok.region, tok.baseUrl) };
        }
        if (s === 429) {
          this.stats.r429 += 1;
          waits += 1;
          // The pacer holds every caller until the vendor's reset time; this call waits there too.
          const wait = this.o.pacer.rateLimited(res.headers['x-ratelimit-retryafter'], waits);
          this.o.logger.info('falcon rate limited', { path: req.path, waitMs: wait });
          return { kind: 'throttled', waitMs: 0, exhausted: (n) => rateLimitedError(req.path, n) };
        }
        if (s >= 500) return { kind: 'retry', why: `HTTP ${s}`, exhausted: unavailable(`HTTP ${s}`) };
        if (s === 403) throw forbiddenError(req.path, vendorMessage(res.body));
        if ((s >= 200 && s < 300) || (s === 404 && req.allow404)) {
          let envelope: E | undefined;
          if (req.read) {
            try {
              envelope = await req.read(res.bytes!);
            } catch (e) {
              // Only a reader that stopped with the answer on it asks again; anything else is our fault, not Falcon's.
              if (!(e instanceof ParserStopped)) throw e;
              return { kind: 'retry', why: e.message, exhausted: () => e };
            }
          } else envelope = parseEnvelope(res.body) as E | undefined;
          if (envelope) return { kind: 'done', value: { status: s, envelope } };
          return { kind: 'retry', why: 'an unreadable JSON answer', exhausted: unavailable('an unreadable JSON answer') };
        }
        throw requestRejectedError(req.path, s, vendorMessage(res.body));
      },
      {
        policy: this.o.retry,
        signal,
        sleep: this.o.sleep,
        onRetry: (why, attempt) => {
          this.stats.retries += 1;
          this.o.logger.debug('falcon retry', { path: req.path, attempt, why });
        },
      },
    );
  }
}
