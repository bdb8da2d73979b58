import { z } from 'zod';

/**
 * An error as it crosses a process boundary (IPC, browser-mode HTTP): a stable code,
 * an operator-friendly message, and a hint of what to do about it.
 */
export const AppErrorShape = z.object({
  code: z.string(),
  message: z.string(),
  hint: z.string(),
  /** Structured details the UI can act on, e.g. the certificate to trust for `tls.untrusted`. */
  details: z.record(z.string(), z.unknown()).optional(),
});
export type AppErrorShape = z.infer<typeof AppErrorShape>;

/**
 * Error codes used across the app. OAuth errors of spec 7.2 are `oauth.<error>`,
 * application codes of spec 7.1 are `api.<code>` (e.g. `api.4001`), YANG errors are
 * `yang.<error-tag>`.
 */
export const ErrorCodes = {
  validation: 'request.invalid',
  /** Browser mode: the request body is larger than the channel accepts (HTTP 413). */
  tooLarge: 'request.too_large',
  /** Browser mode: the launch token is missing or wrong (HTTP 401). */
  unauthorized: 'bridge.unauthorized',
  notFound: 'not_found',
  unknownChannel: 'channel.unknown',
  internal: 'internal',
  cancelled: 'cancelled',
  tlsUntrusted: 'tls.untrusted',
  tlsPinMismatch: 'tls.pin_mismatch',
  tlsFailed: 'tls.failed',
  tlsCaFile: 'tls.ca_file',
  network: 'net.unreachable',
  timeout: 'net.timeout',
  loginPage: 'mgmt.login_page',
  unexpectedResponse: 'mgmt.unexpected_response',
  httpUnsupportedMedia: 'http.415',
  httpMethodNotAllowed: 'http.405',
  httpNotFound: 'http.404',
  httpError: 'http.error',
  signInRequired: 'session.sign_in_required',
  notSignedIn: 'session.not_signed_in',
  missingSecret: 'vault.missing_secret',
  vaultLocked: 'vault.locked',
  vaultUnavailable: 'vault.unavailable',
  tokenLimit: 'oauth.token_limit_exceeded',
  oauthRequired: 'mgmt.oauth_required',
  forbidden: 'request.forbidden',
  /** Joining a team (issue 25.1): the database refused the user or password. */
  teamAuth: 'team.auth',
  /** The team's database has no Northbound schema, or one of another version. */
  teamSchema: 'team.schema',
  /** The database user is in neither northbound_console nor northbound_admin. */
  teamRole: 'team.role',
  /** The team's database could not be reached (or its TLS failed). */
  teamUnreachable: 'team.unreachable',
} as const;

export const oauthErrorCode = (error: string) => `oauth.${error}`;
export const apiErrorCode = (code: number) => `api.${code}`;
export const yangErrorCode = (tag: string) => `yang.${tag}`;

/** Spec 7.1: 4001 UNAUTHENTICATED (wrong or withdrawn credentials on a custom API). */
export const API_UNAUTHENTICATED = apiErrorCode(4001);

/** The family of a code: what comes before its first dot (`session`, `net`, `oauth`, …). */
const familyOf = (code: string) => code.slice(0, Math.max(0, code.indexOf('.')));
const SESSION_ENDING_FAMILIES: ReadonlySet<string> = new Set(['session', 'vault', 'tls', 'oauth']);

/**
 * The node session can make no more calls until the operator acts: signed out or sign-in needed,
 * a secret gone, the certificate refused, OAuth refused, the node's login page, 4001. Work that
 * calls the node (a bulk job, a task follower) stops at once on these instead of retrying.
 */
export function endsSession(code: string): boolean {
  return SESSION_ENDING_FAMILIES.has(familyOf(code)) || code === ErrorCodes.loginPage || code === API_UNAUTHENTICATED;
}

/** The network failed (unreachable, timeout, reset): worth a bounded number of retries. */
export const isTransportFailure = (code: string): boolean => familyOf(code) === 'net';

/** A typed error: thrown in main, serialised across IPC, rethrown in the renderer. */
export class AppError extends Error {
  readonly code: string;
  readonly hint: string;
  readonly details?: Record<string, unknown>;
  /** HTTP status that produced it, when it came from the management node. */
  readonly status?: number;

  constructor(code: string, message: string, hint: string, options?: { details?: Record<string, unknown>; status?: number; cause?: unknown }) {
    super(message, options?.cause !== undefined ? { cause: options.cause } : undefined);
    this.name = 'AppError';
    this.code = code;
    this.hint = hint;
    if (options?.details) this.details = options.details;
    if (options?.status !== undefined) this.status = options.status;
  }

  toShape(): AppErrorShape {
    return { code: this.code, message: this.message, hint: this.hint, ...(this.details ? { details: this.details } : {}) };
  }

  static fromShape(shape: AppErrorShape): AppError {
    return new AppError(shape.code, shape.message, shape.hint, shape.details ? { details: shape.details } : undefined);
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** A result envelope: every handler answers with one of these. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppErrorShape };
