/** Token responses of /auth/token and /auth/refresh (MN-3), read leniently. */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { registerSecret } from '../log';

export interface TokenSet {
  accessToken: string;
  refreshToken?: string;
  /** Epoch ms; null = never expires ("-1"); undefined = the node did not say. */
  accessExpiresAt: number | null | undefined;
  refreshExpiresAt: number | null | undefined;
  /** Lifetime of the access token in ms when known (for the refresh margin of C-1). */
  lifetimeMs?: number;
  obtainedAt: number;
}

/**
 * Seconds as the node sends them: a string ("3600") by default, a number with some
 * releases; "-1" (or any negative) means never. Returns null for never, undefined when absent
 * or unreadable.
 */
export function parseSeconds(v: unknown): number | null | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v.trim()) : Number.NaN;
  if (!Number.isFinite(n)) return undefined;
  return n < 0 ? null : n;
}

/** Seconds before expiry at which C-1 refreshes: 60 s or 10 % of the life, whichever is smaller. */
export function refreshMarginMs(lifetimeMs: number | undefined): number {
  return lifetimeMs === undefined ? 60_000 : Math.min(60_000, lifetimeMs / 10);
}

const TOKEN_FIELDS = new Set(['access_token', 'token_type', 'expires_in', 'refresh_token', 'refresh_expires_in', 'scope']);

export function parseTokenResponse(json: unknown, now: number): TokenSet {
  const body = (typeof json === 'object' && json !== null ? json : {}) as Record<string, unknown>;
  const accessToken = body.access_token;
  if (typeof accessToken !== 'string' || !accessToken) {
    throw new AppError(ErrorCodes.unexpectedResponse, 'The node answered the token request without an access token.', 'Check that the OAuth port belongs to the management node; if it does, the node may run an incompatible release.', {
      // Only the token fields it did carry: the other keys are the answer's own text (node-proof.ts).
      details: { fields: Object.keys(body).filter((k) => TOKEN_FIELDS.has(k)) },
    });
  }
  registerSecret(accessToken);
  const refreshToken = typeof body.refresh_token === 'string' && body.refresh_token ? body.refresh_token : undefined;
  registerSecret(refreshToken);
  const expiresIn = parseSeconds(body.expires_in);
  const refreshExpiresIn = parseSeconds(body.refresh_expires_in);
  const at = (s: number | null | undefined) => (s === null ? null : s === undefined ? undefined : now + s * 1000);
  return {
    accessToken,
    ...(refreshToken ? { refreshToken } : {}),
    accessExpiresAt: at(expiresIn),
    refreshExpiresAt: at(refreshExpiresIn),
    ...(typeof expiresIn === 'number' ? { lifetimeMs: expiresIn * 1000 } : {}),
    obtainedAt: now,
  };
}
