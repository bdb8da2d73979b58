/**
 * /auth/token, /auth/refresh and /auth/revoke (spec 4.3, 7.2; MN-3, MN-9, MN-10, MN-13).
 */
import { OAuthError } from './errors';
import { bearerToken, checkClientState, missingBearer } from './guard';
import { json, type Reply } from './http';
import type { Handler, SimContext, SimRequest } from './routes';
import type { ClientRecord, TokenPair, UserRecord } from './store';
import type { MgmtFaultHooks } from './fault-hooks';

type GrantType = 'password' | 'refresh_token';

/** MN-10 step 1: every named field present as a non-empty string. */
function requireFields<K extends string>(body: unknown, names: readonly K[]): Record<K, string> {
  const obj = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {};
  const missing = names.filter((n) => typeof obj[n] !== 'string' || obj[n] === '');
  if (missing.length > 0) throw new OAuthError(400, 'invalid_request', `Missing or empty required parameter(s): ${missing.join(', ')}.`);
  return obj as Record<K, string>;
}

/** MN-10 step 2: the grant type of the endpoint. */
function requireGrant(given: string, expected: GrantType): void {
  if (given === expected) return;
  const hint = given === 'refresh_token' ? ' Send refresh_token grants to /auth/refresh.' : given === 'password' ? ' Send password grants to /auth/token.' : '';
  throw new OAuthError(400, 'unsupported_grant_type', `Grant type ${given} is not supported here; only password and refresh_token are supported.${hint}`);
}

/**
 * MN-10 steps 3-6: client id, secret and enabled; the client allows the grant; expiry, secret
 * expiry, source address. The client's own grant list is checked once the caller has proven
 * it holds the client (so an unknown caller learns nothing about the client).
 */
function authenticateClient(ctx: SimContext, req: SimRequest, clientId: string, secret: string, grant: GrantType): ClientRecord {
  const client = ctx.store.clients.get(clientId);
  if (!client || client.secret !== secret || !client.body.enabled) {
    throw new OAuthError(401, 'invalid_client', 'Client authentication failed: check client_id and client_secret, and that the client is enabled.');
  }
  if (!client.body.allowed_grant_types.includes(grant)) {
    throw new OAuthError(400, 'unsupported_grant_type', `This client does not allow the ${grant} grant.`);
  }
  checkClientState(client, ctx.clock.now(), req.remoteAddress);
  return client;
}

/** MN-9: live tokens of the client and of the user, not counting the pair a refresh replaces. */
function checkLimits(ctx: SimContext, client: ClientRecord, username: string, replacing?: TokenPair): void {
  const { max_access_tokens: max, max_access_tokens_per_user: perUser } = client.body;
  if (ctx.store.liveCount(client.id, undefined, replacing) >= max) {
    throw new OAuthError(400, 'token_limit_exceeded', `The client already has ${max} live access tokens (max_access_tokens); revoke unused tokens or raise the limit.`);
  }
  if (ctx.store.liveCount(client.id, username, replacing) >= perUser) {
    throw new OAuthError(400, 'token_limit_exceeded', `User ${username} already has ${perUser} live access tokens for this client (max_access_tokens_per_user); sign out elsewhere or raise the limit.`);
  }
}

/** MN-3 token response. */
export function tokenResponse(pair: TokenPair, faults: MgmtFaultHooks): Reply {
  const asNumber = faults.numericExpiry();
  const fmt = (n: number) => (asNumber ? n : String(n));
  return json(
    200,
    {
      access_token: pair.access,
      refresh_token: pair.refresh,
      token_type: 'Bearer',
      expires_in: fmt(pair.accessValidity),
      refresh_expires_in: fmt(pair.refreshValidity),
      issued_at: new Date(pair.issuedAt).toISOString(),
    },
    { 'cache-control': 'no-store', pragma: 'no-cache' },
  );
}

function issue(ctx: SimContext, client: ClientRecord, user: UserRecord): Reply {
  const pair = ctx.store.issue(client, user, ctx.faults.neverExpire());
  ctx.logger.debug('token issued', { client: client.id, user: user.username });
  return tokenResponse(pair, ctx.faults);
}

export function tokenHandlers(ctx: SimContext): { token: Handler; refresh: Handler; revoke: Handler } {
  const token: Handler = (req) => {
    const f = requireFields(req.body, ['client_id', 'client_secret', 'username', 'password', 'grant_type']);
    requireGrant(f.grant_type, 'password');
    const client = authenticateClient(ctx, req, f.client_id, f.client_secret, 'password');
    const user = ctx.store.checkPassword(f.username, f.password);
    if (!user) throw new OAuthError(401, 'invalid_grant', 'Wrong username or password.');
    checkLimits(ctx, client, user.username);
    return issue(ctx, client, user);
  };

  const refresh: Handler = (req) => {
    const f = requireFields(req.body, ['grant_type', 'client_id', 'client_secret', 'refresh_token']);
    requireGrant(f.grant_type, 'refresh_token');
    const client = authenticateClient(ctx, req, f.client_id, f.client_secret, 'refresh_token');
    const pair = ctx.store.byRefreshToken(f.refresh_token);
    if (!pair || pair.clientId !== client.id || ctx.store.refreshExpired(pair)) {
      throw new OAuthError(401, 'invalid_refresh_token', 'The refresh token is not valid or has expired; sign in again.');
    }
    const user = ctx.store.user(pair.username);
    if (!user || user.passwordVersion !== pair.passwordVersion) {
      throw new OAuthError(401, 'user_credentials_not_matched', 'The user credentials changed after this token was issued; sign in again.');
    }
    checkLimits(ctx, client, user.username, pair);
    ctx.store.revoke(pair);
    return issue(ctx, client, user);
  };

  const revoke: Handler = (req) => {
    const t = bearerToken(req.headers);
    if (!t) throw missingBearer();
    const pair = ctx.store.byAccessToken(t);
    if (!pair) throw new OAuthError(401, 'invalid_token', 'The access token is not valid.');
    ctx.store.revoke(pair);
    ctx.logger.debug('token revoked', { client: pair.clientId, user: pair.username });
    return json(200, { status: 'success' });
  };

  return { token, refresh, revoke };
}
