/**
 * HTTP basic authentication (spec 5, port 9182): signing in verifies the credentials with one
 * cheap read; every call then carries the Basic header. When the node stops accepting the
 * credentials (password changed), the session moves to `sign-in-required`.
 */
import { API_UNAUTHENTICATED, AppError, ErrorCodes, isAppError, type AppErrorShape } from '../../shared/model/errors';
import type { SessionState, SessionStatus } from '../../shared/model/session';
import { registerSecret, silentLogger, type Logger } from '../log';
import { notSignedIn } from './oauth-session';

export interface BasicSessionOptions {
  profileId: string;
  username: string;
  host?: string;
  getPassword: () => Promise<string>;
  /** One authenticated read that proves the credentials (throws the node's AppError otherwise). */
  verify: (authorization: string) => Promise<void>;
  now?: () => number;
  onStatus?: (s: SessionStatus) => void;
  logger?: Logger;
}

/** Answers meaning "these credentials are not accepted" (MN-24). */
const REJECTED = new Set([API_UNAUTHENTICATED, 'yang.access-denied']);

export function basicHeader(username: string, password: string): string {
  const encoded = Buffer.from(`${username}:${password}`, 'utf8').toString('base64');
  registerSecret(password);
  registerSecret(encoded);
  return `Basic ${encoded}`;
}

export class BasicSession {
  private state: SessionState = 'signed-out';
  private header: string | undefined;
  private signedInAt: number | undefined;
  private lastError: AppErrorShape | undefined;
  private signingIn: Promise<SessionStatus> | undefined;
  private generation = 0;
  private readonly now: () => number;
  private readonly logger: Logger;

  constructor(private readonly o: BasicSessionOptions) {
    this.now = o.now ?? Date.now;
    this.logger = o.logger ?? silentLogger;
  }

  status(): SessionStatus {
    return {
      profileId: this.o.profileId,
      state: this.state,
      authMode: 'basic',
      username: this.o.username,
      ...(this.state === 'signed-in' && this.signedInAt !== undefined ? { signedInAt: new Date(this.signedInAt).toISOString() } : {}),
      ...(this.lastError ? { error: this.lastError } : {}),
    };
  }

  private setState(state: SessionState, error?: AppError): void {
    this.state = state;
    this.lastError = error?.toShape();
    try {
      this.o.onStatus?.(this.status());
    } catch (e) {
      this.logger.warn('session status listener failed', { error: String(e) });
    }
  }

  signIn(): Promise<SessionStatus> {
    if (this.state === 'signed-in' && this.header) return Promise.resolve(this.status());
    this.signingIn ??= this.doSignIn().finally(() => {
      this.signingIn = undefined;
    });
    return this.signingIn;
  }

  private async doSignIn(): Promise<SessionStatus> {
    const gen = ++this.generation;
    this.header = undefined;
    this.setState('signing-in');
    try {
      const header = basicHeader(this.o.username, await this.o.getPassword());
      await this.o.verify(header);
      if (gen !== this.generation) throw notSignedIn(this.o.host);
      this.header = header;
      this.signedInAt = this.now();
      this.setState('signed-in');
      this.logger.info('signed in (basic)', { profileId: this.o.profileId, username: this.o.username });
      return this.status();
    } catch (e) {
      const err = isAppError(e) ? e : new AppError(ErrorCodes.internal, `Sign-in failed: ${String(e)}`, 'Try again.', { cause: e });
      if (gen === this.generation) this.setState('error', err);
      throw err;
    }
  }

  async signOut(): Promise<SessionStatus> {
    this.generation++;
    this.header = undefined;
    this.signedInAt = undefined;
    this.setState('signed-out');
    return this.status();
  }

  /** Run `fn` with the Authorization header; credentials the node rejects end the session. */
  async withAuth<T>(fn: (authorization: string) => Promise<T>): Promise<T> {
    if (this.state === 'signing-in' && this.signingIn) await this.signingIn.catch(() => undefined);
    if (this.state === 'sign-in-required') throw this.signInRequired();
    const header = this.header;
    if (this.state !== 'signed-in' || !header) throw notSignedIn(this.o.host);
    try {
      return await fn(header);
    } catch (e) {
      if (isAppError(e) && REJECTED.has(e.code) && this.header === header) {
        this.header = undefined;
        this.generation++;
        this.setState('sign-in-required', e);
        throw this.signInRequired(e);
      }
      throw e;
    }
  }

  private signInRequired(reason?: AppError): AppError {
    const r = reason ?? (this.lastError ? AppError.fromShape(this.lastError) : undefined);
    return new AppError(
      ErrorCodes.signInRequired,
      `The node${this.o.host ? ` ${this.o.host}` : ''} no longer accepts the user name or password of ${this.o.username}.`,
      'Check the password in the connection form (it may have been changed on the node) and sign in again.',
      { details: { ...(r ? { reason: r.code } : {}) }, ...(reason ? { cause: reason } : {}) },
    );
  }
}
