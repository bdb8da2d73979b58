/**
 * Falcon OAuth2 client credentials (EDR-F2): POST /oauth2/token with the form fields client_id,
 * client_secret and optionally member_cid answers 201 {access_token, token_type, expires_in}
 * plus X-Cs-Region, the cloud the API client lives in. The token is cached until shortly before
 * it expires; concurrent callers share one request (single flight). The region header is how a
 * wrong Cloud Region is diagnosed and how autodiscovery finds the tenant (EDR-F3).
 *
 * Autodiscovery follows X-Cs-Region to another cloud's host only while it talks to the clouds'
 * own hosts (the public ones, or the per-cloud stand-ins of `cloudBaseUrls`). A custom API address
 * (a proxy, a gateway, the simulator given as --api-url) is kept: the region it answers is
 * recorded, and every later token request, a re-login after a revoked token included, goes there.
 */
import { isAppError } from '../../../shared/model/errors';
import { registerSecret, type Logger } from '../../log';
import type { HttpClient, HttpResponse } from '../../net';
import { authFailedError, badResponseError, requestRejectedError, unavailableError, vendorMessage, wrongRegionError } from './errors';
import type { RatePacer } from './pacer';
import { FALCON_CLOUD_BASE_URLS, FALCON_CLOUDS, parseFalconCloud, type FalconCloud, type FalconCloudSetting } from './regions';
import { isTransient, withRetries, type RetryPolicy } from '../../net/retry';

/** Refresh this long before the token's expiry (EDR-F2). */
export const TOKEN_REFRESH_MARGIN_MS = 120_000;

export interface FalconToken {
  token: string;
  expiresAt: number;
  /** When the cache stops handing it out: the margin before expiry, at most a quarter of its life. */
  refreshAt: number;
  region: FalconCloud;
  baseUrl: string;
}

export interface FalconAuthOptions {
  http: HttpClient;
  clientId: string;
  clientSecret: () => Promise<string> | string;
  memberCid?: string;
  setting: FalconCloudSetting;
  baseUrl?: string;
  cloudBaseUrls?: Partial<Record<FalconCloud, string>>;
  now: () => number;
  sleep: (ms: number, signal?: AbortSignal) => Promise<void>;
  retry: RetryPolicy;
  pacer: RatePacer;
  logger: Logger;
}

const trim = (url: string) => url.replace(/\/+$/, '');

export class FalconAuth {
  private current: FalconToken | undefined;
  private pending: Promise<FalconToken> | undefined;
  private discovered: FalconCloud | undefined;
  /** Where the discovered cloud answered: its host, or the custom address that was kept. */
  private discoveredUrl: string | undefined;
  /** Token requests sent (for tests and the poll summary). */
  requests = 0;

  constructor(private readonly o: FalconAuthOptions) {}

  urlFor(cloud: FalconCloud): string {
    return (this.o.cloudBaseUrls?.[cloud] ?? FALCON_CLOUD_BASE_URLS[cloud]).replace(/\/+$/, '');
  }

  /** Whether `url` is one of the clouds' own hosts, so X-Cs-Region may send us to another one. */
  isCloudHost(url: string): boolean {
    const same = (a: string) => trim(a).toLowerCase() === trim(url).toLowerCase();
    return FALCON_CLOUDS.some((c) => same(FALCON_CLOUD_BASE_URLS[c]) || same(this.urlFor(c)));
  }

  /** The cloud in use: the configured one, or the discovered one after the first token. */
  region(): FalconCloud | undefined {
    return this.o.setting === 'autodiscover' ? this.discovered : this.o.setting;
  }

  /** A valid token (cached, or one request shared by every concurrent caller). */
  token(signal?: AbortSignal): Promise<FalconToken> {
    const c = this.current;
    if (c && this.o.now() < c.refreshAt) return Promise.resolve(c);
    this.pending ??= this.fetch(signal).finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  /** The API answered 401 to `token`: drop it, unless a newer one has already replaced it. */
  invalidate(token: string): void {
    if (this.current?.token === token) this.current = undefined;
  }

  private start(): { cloud: FalconCloud; url: string } {
    const s = this.o.setting;
    if (s !== 'autodiscover') return { cloud: s, url: trim(this.o.baseUrl ?? this.urlFor(s)) };
    if (this.discovered) return { cloud: this.discovered, url: this.discoveredUrl ?? this.urlFor(this.discovered) };
    // Like gofalcon, discovery asks us-1 (or the configured address); its answer names the tenant's cloud.
    return { cloud: 'us-1', url: trim(this.o.baseUrl ?? this.urlFor('us-1')) };
  }

  private async fetch(signal?: AbortSignal): Promise<FalconToken> {
    let { cloud, url } = this.start();
    const secret = await this.o.clientSecret();
    registerSecret(secret);
    const form: Record<string, string> = { client_id: this.o.clientId, client_secret: secret, ...(this.o.memberCid ? { member_cid: this.o.memberCid } : {}) };
    let hops = 0;
    let waits429 = 0;
    return withRetries<FalconToken>(
      async () => {
        // A region hop asks again at once (not a failure); everything else is one try.
        for (;;) {
          let res: HttpResponse;
          try {
            this.requests += 1;
            res = await this.o.http.request({ method: 'POST', url: `${url}/oauth2/token`, form, signal });
          } catch (e) {
            if (!isTransient(e)) throw e;
            const why = isAppError(e) ? e.message : String(e);
            return { kind: 'retry', why, exhausted: (n) => unavailableError('/oauth2/token', n, why) };
          }
          const home = parseFalconCloud(res.headers['x-cs-region']);
          if (res.status === 201 || res.status === 200 || res.status === 308) {
            if (home && home !== cloud) {
              if (this.o.setting !== 'autodiscover') throw wrongRegionError(this.o.setting, home, this.urlFor(home));
              if (++hops > 2) throw badResponseError('/oauth2/token', 'the cloud region keeps changing');
              // A custom address that issued a token answers for that cloud: keep it. A redirect
              // (308) carries no token, so it is followed to the named cloud's host either way.
              const keep = res.status !== 308 && !this.isCloudHost(url);
              this.o.logger.info('falcon cloud discovered', { asked: cloud, region: home, ...(keep ? { kept: url } : {}) });
              this.discovered = home;
              cloud = home;
              if (!keep) {
                url = this.urlFor(home);
                continue;
              }
            }
            if (res.status === 308) throw badResponseError('/oauth2/token', 'a redirect without X-Cs-Region');
            if (this.o.setting === 'autodiscover') {
              this.discovered = cloud;
              this.discoveredUrl = url;
            }
            const parsed = parseToken(res.body);
            if (!parsed) return { kind: 'retry', why: 'no token in the answer', exhausted: () => badResponseError('/oauth2/token', 'no access_token / expires_in in the token answer') };
            registerSecret(parsed.token);
            const now = this.o.now();
            const lifeMs = parsed.expiresInS * 1000;
            this.current = { token: parsed.token, expiresAt: now + lifeMs, refreshAt: now + lifeMs - Math.min(TOKEN_REFRESH_MARGIN_MS, lifeMs / 4), region: cloud, baseUrl: url };
            this.o.logger.debug('falcon token issued', { region: cloud, expiresInS: parsed.expiresInS });
            return { kind: 'done', value: this.current };
          }
          if (res.status === 400 || res.status === 401 || res.status === 403) throw authFailedError(res.status, vendorMessage(res.body), this.o.setting, url);
          if (res.status === 429) {
            waits429 += 1;
            const body = res.body;
            return { kind: 'throttled', waitMs: this.o.pacer.rateLimited(res.headers['x-ratelimit-retryafter'], waits429), exhausted: () => requestRejectedError('/oauth2/token', 429, vendorMessage(body)) };
          }
          if (res.status >= 500) {
            const why = `HTTP ${res.status}`;
            return { kind: 'retry', why, exhausted: (n) => unavailableError('/oauth2/token', n, why) };
          }
          throw requestRejectedError('/oauth2/token', res.status, vendorMessage(res.body));
        }
      },
      { policy: this.o.retry, signal, sleep: this.o.sleep },
    );
  }
}

/** access_token and expires_in (a number, or a string of digits) of a token answer. */
export function parseToken(body: string): { token: string; expiresInS: number } | undefined {
  try {
    const j = JSON.parse(body) as { access_token?: unknown; expires_in?: unknown };
    const expires = typeof j.expires_in === 'string' ? Number(j.expires_in) : j.expires_in;
    if (typeof j.access_token !== 'string' || j.access_token.length === 0 || typeof expires !== 'number' || !Number.isFinite(expires) || expires <= 0) return undefined;
    return { token: j.access_token, expiresInS: expires };
  } catch {
    return undefined;
  }
}
