/**
 * An OAuth session with the management node (spec 5, MN-3, MN-13, C-1, C-2):
 * password grant to sign in, refresh ahead of expiry, one refresh for all concurrent callers
 * when the node says the token expired (each call is retried once), revoke on sign-out.
 * The transport is injected (real HTTPS in the client, a fake in unit tests), so is the clock.
 */
import { AppError, ErrorCodes, isAppError, type AppErrorShape } from '../../shared/model/errors';
import type { SessionState, SessionStatus } from '../../shared/model/session';
import { registerSecret, silentLogger, type Logger } from '../log';
import type { OAuthOperation } from './oauth-messages';
import { parseTokenResponse, refreshMarginMs, type TokenSet } from './token';

export interface OAuthCredentials {
  clientId: string;
  clientSecret: string;
  username: string;
  password: string;
}

export interface OAuthTransport {
  /** POST to an /auth path of the OAuth port; the parsed JSON (undefined for 204), or throws an AppError. */
  post(path: string, body: Record<string, string> | undefined, options: { bearer?: string; operation: OAuthOperation }): Promise<unknown>;
}

export interface OAuthSessionOptions {
  profileId: string;
  username: string;
  /** For messages ("your session on <host> ended"). */
  host?: string;
  transport: OAuthTransport;
  /** Read when signing in (from the vault); the password is not kept afterwards. */
  credentials: () => Promise<OAuthCredentials>;
  now?: () => number;
  onStatus?: (s: SessionStatus) => void;
  logger?: Logger;
}

/** Refresh failures that no retry can heal (C-2); also ends the session when a call gets them. */
export const SESSION_ENDING = new Set(['oauth.invalid_refresh_token', 'oauth.invalid_client', 'oauth.client_expired', 'oauth.client_secret_expired', 'oauth.user_credentials_not_matched']);
/** Token-use errors a refresh can heal (an expired token answers invalid_token after the daily clean-up, MN-11). */
const REFRESHABLE = new Set(['oauth.access_token_expired', 'oauth.invalid_token']);

const iso = (ms: number | null | undefined) => (ms === null ? null : ms === undefined ? undefined : new Date(ms).toISOString());

export class OAuthSession {
  private state: SessionState = 'signed-out';
  private tokens: TokenSet | undefined;
  private client: { clientId: string; clientSecret: string } | undefined;
  private signedInAt: number | undefined;
  private lastError: AppErrorShape | undefined;
  private signingIn: Promise<SessionStatus> | undefined;
  private refreshing: Promise<string> | undefined;
  /** Bumped at every sign-in and sign-out, so a late refresh answer cannot revive a closed session. */
  private generation = 0;
  private readonly now: () => number;
  private readonly logger: Logger;

  constructor(private readonly o: OAuthSessionOptions) {
    this.now = o.now ?? Date.now;
    this.logger = o.logger ?? silentLogger;
  }

  status(): SessionStatus {
    const t = this.state === 'signed-in' ? this.tokens : undefined;
    return {
      profileId: this.o.profileId,
      state: this.state,
      authMode: 'oauth',
      username: this.o.username,
      ...(t && t.accessExpiresAt !== undefined ? { accessTokenExpiresAt: iso(t.accessExpiresAt) } : {}),
      ...(t && t.refreshExpiresAt !== undefined ? { refreshTokenExpiresAt: iso(t.refreshExpiresAt) } : {}),
      ...(t && this.signedInAt !== undefined ? { signedInAt: new Date(this.signedInAt).toISOString() } : {}),
      ...(this.lastError ? { error: this.lastError } : {}),
    };
  }

  private setState(state: SessionState, error?: AppError): void {
    this.state = state;
    this.lastError = error?.toShape();
    this.emit();
  }

  private emit(): void {
    try {
      this.o.onStatus?.(this.status());
    } catch (e) {
      this.logger.warn('session status listener failed', { error: String(e) });
    }
  }

  /** Password grant. Concurrent calls share one sign-in; a signed-in session is kept as it is. */
  signIn(): Promise<SessionStatus> {
    if (this.state === 'signed-in' && this.tokens) return Promise.resolve(this.status());
    this.signingIn ??= this.doSignIn().finally(() => {
      this.signingIn = undefined;
    });
    return this.signingIn;
  }

  private async doSignIn(): Promise<SessionStatus> {
    const gen = ++this.generation;
    this.tokens = undefined;
    this.setState('signing-in');
    try {
      const c = await this.o.credentials();
      for (const s of [c.password, c.clientSecret]) registerSecret(s);
      const json = await this.o.transport.post(
        '/auth/token',
        { client_id: c.clientId, client_secret: c.clientSecret, username: c.username, password: c.password, grant_type: 'password' },
        { operation: 'token' },
      );
      const tokens = parseTokenResponse(json, this.now());
      if (gen !== this.generation) throw this.discard(tokens);
      this.tokens = tokens;
      this.client = { clientId: c.clientId, clientSecret: c.clientSecret };
      this.signedInAt = this.now();
      this.setState('signed-in');
      this.logger.info('signed in', { profileId: this.o.profileId, username: this.o.username, expiresAt: iso(this.tokens.accessExpiresAt) ?? 'unknown' });
      return this.status();
    } catch (e) {
      const err = isAppError(e) ? e : new AppError(ErrorCodes.internal, `Sign-in failed: ${String(e)}`, 'Try again.', { cause: e });
      if (gen === this.generation) this.setState('error', err);
      throw err;
    }
  }

  /** Forget the tokens and revoke them on the node (MN-13). Never throws for a failed revoke. */
  async signOut(): Promise<SessionStatus> {
    this.generation++;
    const tokens = this.tokens;
    this.tokens = undefined;
    this.signedInAt = undefined;
    let problem: AppError | undefined;
    if (tokens) {
      try {
        await this.o.transport.post('/auth/revoke', undefined, { bearer: tokens.accessToken, operation: 'revoke' });
      } catch (e) {
        if (!isAppError(e) || e.code !== 'oauth.invalid_token') {
          const cause = isAppError(e) ? e : undefined;
          problem = new AppError(cause?.code ?? ErrorCodes.network, `Signed out here, but the node could not be told to revoke the token: ${cause?.message ?? String(e)}`, 'The token stays valid on the node until it expires.', { cause: e });
          this.logger.warn('token revoke failed', { profileId: this.o.profileId, code: problem.code });
        }
      }
    }
    this.setState('signed-out', problem);
    return this.status();
  }

  /**
   * Run `fn` with a valid access token. Refreshes ahead of expiry (C-1); when the node still
   * answers access_token_expired (or invalid_token), refreshes once for every caller holding
   * that token and retries the call once.
   */
  /**
   * `targetMissing`: the call is about another OAuth client (client management), so
   * `invalid_client` may name that client rather than the session's own. A refresh tells the two
   * apart: it succeeds when the session's client is fine, and the call fails with what
   * `targetMissing` answers; it fails (ending the session) when the session's client is gone.
   */
  async withToken<T>(fn: (accessToken: string) => Promise<T>, opts: { targetMissing?: (e: AppError) => AppError } = {}): Promise<T> {
    const token = await this.accessToken();
    try {
      return await fn(token);
    } catch (e) {
      if (!isAppError(e)) throw e;
      if (e.code === 'oauth.invalid_client' && opts.targetMissing) {
        await this.refreshFrom(token, e);
        throw opts.targetMissing(e);
      }
      if (!REFRESHABLE.has(e.code)) throw this.afterUseFailure(e);
      const fresh = await this.refreshFrom(token, e);
      try {
        return await fn(fresh);
      } catch (again) {
        throw isAppError(again) ? this.afterUseFailure(again) : again;
      }
    }
  }

  /** The current access token, refreshed first when it is about to expire. */
  async accessToken(): Promise<string> {
    if (this.state === 'signing-in' && this.signingIn) await this.signingIn.catch(() => undefined);
    const t = this.tokens;
    if (this.state === 'sign-in-required') throw this.signInRequired();
    if (this.state !== 'signed-in' || !t) throw notSignedIn(this.o.host);
    if (typeof t.accessExpiresAt !== 'number') return t.accessToken;
    const now = this.now();
    if (now < t.accessExpiresAt - refreshMarginMs(t.lifetimeMs)) return t.accessToken;
    try {
      return await this.refreshFrom(t.accessToken);
    } catch (e) {
      // A refresh ahead of time that failed for a passing reason: the token still works for now.
      if (this.state === 'signed-in' && this.tokens === t && now < t.accessExpiresAt) return t.accessToken;
      throw e;
    }
  }

  /** Refresh unless someone already replaced `staleToken`; one refresh in flight at most. */
  private refreshFrom(staleToken: string, cause?: AppError): Promise<string> {
    const t = this.tokens;
    if (this.state === 'sign-in-required') return Promise.reject(this.signInRequired());
    if (!t || this.state !== 'signed-in') return Promise.reject(notSignedIn(this.o.host));
    if (t.accessToken !== staleToken) return Promise.resolve(t.accessToken);
    this.refreshing ??= this.doRefresh(t, cause).finally(() => {
      this.refreshing = undefined;
    });
    return this.refreshing;
  }

  private async doRefresh(t: TokenSet, cause?: AppError): Promise<string> {
    const gen = this.generation;
    const client = this.client;
    if (!t.refreshToken || !client) {
      throw this.endSession(cause ?? new AppError('oauth.access_token_expired', 'The access token has expired and the node gave no refresh token.', 'Sign in again.'));
    }
    try {
      this.logger.debug('refreshing access token', { profileId: this.o.profileId });
      const json = await this.o.transport.post(
        '/auth/refresh',
        { grant_type: 'refresh_token', client_id: client.clientId, client_secret: client.clientSecret, refresh_token: t.refreshToken },
        { operation: 'refresh' },
      );
      const tokens = parseTokenResponse(json, this.now());
      if (gen !== this.generation) throw this.discard(tokens);
      this.tokens = tokens;
      this.emit();
      return this.tokens.accessToken;
    } catch (e) {
      if (gen === this.generation && isAppError(e) && SESSION_ENDING.has(e.code)) throw this.endSession(e);
      throw e;
    }
  }

  /** Tokens that arrived after a sign-out: revoke them in the background so none stays live. */
  private discard(tokens: TokenSet): AppError {
    this.o.transport.post('/auth/revoke', undefined, { bearer: tokens.accessToken, operation: 'revoke' }).catch(() => undefined);
    return notSignedIn(this.o.host);
  }

  /**
   * A call failed. Errors that no refresh can heal (the C-2 kinds) end the session too; the
   * call itself still fails with the node's precise reason (e.g. oauth.client_expired), and
   * later calls fail with session.sign_in_required.
   */
  private afterUseFailure(e: AppError): AppError {
    if (SESSION_ENDING.has(e.code) && this.state === 'signed-in') this.endSession(e);
    return e;
  }

  private endSession(reason: AppError): AppError {
    this.tokens = undefined;
    this.generation++;
    this.setState('sign-in-required', reason);
    this.logger.info('session ended, sign-in required', { profileId: this.o.profileId, reason: reason.code });
    return this.signInRequired(reason);
  }

  private signInRequired(reason?: AppError): AppError {
    const r = reason ?? (this.lastError ? AppError.fromShape(this.lastError) : undefined);
    const on = this.o.host ? ` on ${this.o.host}` : '';
    return new AppError(ErrorCodes.signInRequired, `Your session${on} has ended${r ? `: ${r.message}` : '.'}`, r && r.hint !== 'Sign in again.' ? `Sign in again. ${r.hint}` : 'Sign in again.', {
      details: { ...(r ? { reason: r.code } : {}) },
      ...(reason ? { cause: reason } : {}),
    });
  }
}

export function notSignedIn(host?: string): AppError {
  return new AppError(ErrorCodes.notSignedIn, `You are not signed in${host ? ` to ${host}` : ''}.`, 'Sign in first.');
}
