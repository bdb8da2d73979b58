/**
 * The simulator's state that outlives a request: tokens (expiring on the sim clock), one rate
 * bucket per API client, the envelope every Falcon answer shares, and its error bodies.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { Reply } from '../http';
import type { FalconCloud } from './types';

export interface SimToken {
  token: string;
  clientId: string;
  /** The client's home cloud: the token works there only. */
  home: FalconCloud;
  /** Tenant the token reads (the client's own, or a Flight Control member). */
  cid: string;
  expiresAt: number;
}

export class TokenStore {
  private readonly tokens = new Map<string, SimToken>();

  issue(t: Omit<SimToken, 'token'>): SimToken {
    if (this.tokens.size > 2_000) this.prune(Date.now() - 86_400_000);
    const token: SimToken = { ...t, token: randomBytes(48).toString('base64url') };
    this.tokens.set(token.token, token);
    return token;
  }

  /** A token that exists and has not expired at `now`. */
  live(token: string, now: number): SimToken | undefined {
    const t = this.tokens.get(token);
    return t && t.expiresAt > now ? t : undefined;
  }

  expireAll(now: number): void {
    for (const t of this.tokens.values()) t.expiresAt = Math.min(t.expiresAt, now);
  }

  /** Forget every token issued so far (revoked by the vendor). */
  revokeAll(): void {
    this.tokens.clear();
  }

  private prune(before: number): void {
    for (const [k, t] of this.tokens) if (t.expiresAt < before) this.tokens.delete(k);
  }
}

/**
 * A token bucket: `limit` requests per `windowMs`, refilled continuously (EDR-F6). Remaining is
 * what X-RateLimit-Remaining shows; an empty bucket answers when the next request fits.
 */
export class RateBucket {
  private tokens: number;
  private last: number;
  /** Refill counts from the first request (see `startOnFirstUse`). */
  private started: boolean;

  constructor(
    readonly limit: number,
    private readonly windowMs: number,
    now: number,
    atStart = limit,
    startOnFirstUse = false,
  ) {
    this.tokens = Math.max(0, Math.min(limit, atStart));
    this.last = now;
    this.started = !startOnFirstUse;
  }

  private refill(now: number): void {
    if (!this.started) {
      this.started = true;
      this.last = now;
    }
    const rate = this.limit / this.windowMs;
    this.tokens = Math.min(this.limit, this.tokens + Math.max(0, now - this.last) * rate);
    this.last = now;
  }

  take(now: number): { ok: true; remaining: number } | { ok: false; retryAtMs: number } {
    this.refill(now);
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return { ok: true, remaining: Math.floor(this.tokens) };
    }
    return { ok: false, retryAtMs: now + ((1 - this.tokens) * this.windowMs) / this.limit };
  }

  remaining(now: number): number {
    this.refill(now);
    return Math.floor(this.tokens);
  }

  reset(now: number): void {
    this.tokens = this.limit;
    this.last = now;
  }
}

export const POWERED_BY = { token: 'csam', gateway: 'crowdstrike-api-gateway', devices: 'device-api', zta: 'zta-api' } as const;

export interface ApiError {
  code: number;
  message: string;
  id?: string;
}

/** The `meta` of every Falcon JSON answer. */
export function meta(poweredBy: string, started: number, pagination?: Record<string, unknown>): Record<string, unknown> {
  return {
    query_time: Math.max(0.000001, (performance.now() - started) / 1000),
    ...(pagination ? { pagination } : {}),
    powered_by: poweredBy,
    trace_id: randomUUID(),
  };
}

export function envelope(status: number, poweredBy: string, started: number, resources: unknown[] | null, errors: ApiError[] = [], pagination?: Record<string, unknown>): Reply {
  return { status, body: { meta: meta(poweredBy, started, pagination), resources, errors } };
}

/** An error answer in Falcon's style: `{meta, errors: [{code, message}], resources: null}`. */
export function errorReply(status: number, message: string, started: number, poweredBy: string = POWERED_BY.gateway, headers: Record<string, string> = {}): Reply {
  return { status, headers, body: { meta: meta(poweredBy, started), errors: [{ code: status, message }], resources: null } };
}

/** Real vendor messages (see docs/spec-decisions.edr-falcon.md). */
export const MSG = {
  invalidBearer: 'access denied, invalid bearer token',
  forbidden: 'access denied, authorization failed',
  rateLimited: 'API rate limit exceeded.',
  badClient: 'Failed to issue access token - Client authentication failed (e.g., unknown client, no client authentication included, or unsupported authentication method)',
  offsetLimit: (offset: number, limit: number) => `offset ${offset} and limit ${limit} are invalid; offset + limit must be less than or equal to 10000`,
} as const;
