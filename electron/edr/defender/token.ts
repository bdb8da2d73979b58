/**
 * Entra ID client-credentials tokens for one resource: `POST {idp}/{tenant}/oauth2/v2.0/token`
 * (form body, scope `<resource>/.default`). Cached until shortly before expiry (5 min, or a tenth
 * of a short lifetime); concurrent callers share one request (single flight); `invalidate` drops
 * a token the API refused so the next `get` fetches a new one, once for all callers.
 */
import { AppError, ErrorCodes } from '../../../shared/model/errors';
import { registerSecret, type Logger } from '../../log';
import type { HttpClient, HttpResponse } from '../../net/http-client';
import { tokenError, unexpectedResponse, type AadstsBody } from './errors';
import { isTransientStatus, withRetries } from '../../net/retry';
import type { DefenderSecrets, RetryPolicy } from './types';

export interface JwtClaims {
  aud?: string;
  tid?: string;
  appid?: string;
  exp?: number;
  roles?: string[];
  scp?: string;
  [k: string]: unknown;
}

/** The payload of a JWT, unverified (the connector only reads its own token's roles). */
export function decodeJwt(token: string): JwtClaims | undefined {
  const part = token.split('.')[1];
  if (!part) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return typeof claims === 'object' && claims !== null ? (claims as JwtClaims) : undefined;
  } catch {
    return undefined;
  }
}

export interface TokenProviderOptions {
  http: HttpClient;
  idpUrl: string;
  tenantId: string;
  clientId: string;
  secrets: DefenderSecrets;
  /** Resource identifier; the scope is `<resource>/.default`. */
  resource: string;
  now: () => number;
  logger: Logger;
  retry: RetryPolicy;
}

interface Cached {
  token: string;
  refreshAt: number;
  claims: JwtClaims;
}

const MARGIN_MS = 5 * 60_000;

export class TokenProvider {
  private cached: Cached | undefined;
  private inflight: Promise<Cached> | undefined;
  /** Tokens fetched so far. */
  fetched = 0;

  constructor(private readonly o: TokenProviderOptions) {}

  /** A valid token (cached, or fetched once for all concurrent callers). */
  async get(signal?: AbortSignal): Promise<string> {
    const c = this.cached;
    if (c && this.o.now() < c.refreshAt) return c.token;
    this.inflight ??= this.fetch(signal).finally(() => (this.inflight = undefined));
    return (await this.inflight).token;
  }

  /** The claims of the current token (fetching one when needed). */
  async claims(signal?: AbortSignal): Promise<JwtClaims> {
    await this.get(signal);
    return this.cached?.claims ?? {};
  }

  /** Forget the cached token: the next `get` asks Entra ID again (after the operator changed the app). */
  clear(): void {
    this.cached = undefined;
  }

  /** The API refused `token`: forget it (once; later callers with the same token change nothing). */
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = undefined;
  }

  private async secret(): Promise<string> {
    const secret = await this.o.secrets.getClientSecret();
    if (!secret) {
      throw new AppError(ErrorCodes.missingSecret, 'No client secret is stored for the Defender connector.', 'Enter the client secret value of the app registration in the connector settings.', { details: { secret: 'clientSecret' } });
    }
    registerSecret(secret);
    return secret;
  }

  private async fetch(signal?: AbortSignal): Promise<Cached> {
    const url = `${this.o.idpUrl.replace(/\/+$/, '')}/${encodeURIComponent(this.o.tenantId)}/oauth2/v2.0/token`;
    const form = { client_id: this.o.clientId, client_secret: await this.secret(), grant_type: 'client_credentials', scope: `${this.o.resource}/.default` };
    return withRetries<Cached>(
      async () => {
        const res = await this.o.http.request({ method: 'POST', url, form, ...(signal ? { signal } : {}) });
        // A 5xx that stays is read like any other answer (its Entra ID error body, if any).
        if (isTransientStatus(res.status)) return { kind: 'retry', why: `HTTP ${res.status}`, exhausted: () => this.readError(res) };
        return { kind: 'done', value: this.read(res) };
      },
      {
        policy: { ...this.o.retry, max429: 0 },
        signal,
        onRetry: (why, attempt) => this.o.logger.warn('token endpoint failed, retrying', { why, attempt }),
      },
    );
  }

  /** The error `read` throws for an answer that is not a token. */
  private readError(res: HttpResponse): Error {
    try {
      this.read(res);
    } catch (e) {
      return e as Error;
    }
    return unexpectedResponse('requested a token', `HTTP ${res.status}`, res.status);
  }

  private read(res: HttpResponse): Cached {
    let body: Record<string, unknown> | undefined;
    try {
      const parsed = JSON.parse(res.body) as unknown;
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) body = parsed as Record<string, unknown>;
    } catch {
      body = undefined;
    }
    if (res.status !== 200) {
      if (body && (typeof body.error === 'string' || Array.isArray(body.error_codes))) {
        throw tokenError(body as AadstsBody, { tenantId: this.o.tenantId, clientId: this.o.clientId, status: res.status });
      }
      throw unexpectedResponse('requested a token', `HTTP ${res.status} without an Entra ID error body`, res.status);
    }
    const token = body?.access_token;
    if (typeof token !== 'string' || !token) throw unexpectedResponse('requested a token', 'no access_token in the answer', res.status);
    registerSecret(token);
    const raw = body?.expires_in;
    const seconds = typeof raw === 'number' ? raw : typeof raw === 'string' ? Number(raw) : Number.NaN;
    const lifetimeMs = Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 3_599_000;
    const now = this.o.now();
    const cached: Cached = { token, refreshAt: now + lifetimeMs - Math.min(MARGIN_MS, lifetimeMs / 10), claims: decodeJwt(token) ?? {} };
    this.cached = cached;
    this.fetched += 1;
    this.o.logger.debug('defender token obtained', { resource: this.o.resource, expiresInSec: Math.round(lifetimeMs / 1000), roles: cached.claims.roles?.length ?? 0 });
    return cached;
  }
}
