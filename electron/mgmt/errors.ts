/**
 * Management node answers → values or AppErrors (spec 2.5, 7.1, 7.2; MN-12, MN-24..MN-27).
 *
 * - OAuth `{error, error_description}` (JSON or XML) → `oauth.<error>`
 * - custom `{error: {http_status_code, code, message, description, more_info}}` → `api.<code>`
 * - YANG `{errors: {error: [...]}}` → `yang.<error-tag>`
 * - 415 / 405 / 404 without a more specific body → `http.*`
 * - `text/html` where JSON was expected, even with 200 → `mgmt.login_page`
 * - 204 → empty (undefined)
 *
 * An endpoint that has not answered as a management node (`withholdText`) gets none of its own
 * words shown: a code the node's dialect defines keeps the console's wording (without the node's
 * description), anything else says the HTTP status and that the address has not answered as a
 * management node (issue 20.8: a page could otherwise read any local HTTPS service's error text).
 */
import { XMLParser } from 'fast-xml-parser';
import { AppError, ErrorCodes, apiErrorCode, oauthErrorCode, yangErrorCode } from '../../shared/model/errors';
import { boundText, LIMITS } from '../../shared/model/limits';
import { API_CODES, apiWording } from './api-messages';
import { isKnownOAuthError, oauthWording, type OAuthOperation } from './oauth-messages';

export type { OAuthOperation } from './oauth-messages';

export interface MgmtResponse {
  status: number;
  /** Media type without parameters, lower case. */
  contentType: string;
  body: string;
  headers?: Record<string, string>;
}

export interface ErrorContext {
  /** What the request was, to pick the wording of OAuth errors. Default 'use'. */
  operation?: OAuthOperation;
  host?: string;
  port?: number;
  method?: string;
  path?: string;
  /**
   * The endpoint has not (yet) answered the organization list in its shape (mgmt/node-proof.ts):
   * nothing of its answer's text goes into the error. Default false.
   */
  withholdText?: boolean;
}

const xml = new XMLParser({ ignoreAttributes: true, parseTagValue: false, trimValues: true });

const where = (ctx: ErrorContext) => (ctx.host ? `${ctx.host}${ctx.port ? `:${ctx.port}` : ''}` : 'The node');
const looksLikeHtml = (res: MgmtResponse) => res.contentType === 'text/html' || res.contentType === 'application/xhtml+xml' || /^\s*(<!doctype html|<html)/i.test(res.body);

function parseBody(res: MgmtResponse): unknown {
  const text = res.body.trim();
  if (!text) return undefined;
  if (res.contentType.includes('xml') || text.startsWith('<')) {
    try {
      return xml.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A word of the node's error body, cut to LIMITS.message (issue 20.5). */
const str = (v: unknown) => boundText(typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined, LIMITS.message);

export function loginPageError(ctx: ErrorContext, status?: number): AppError {
  const at = ctx.host ? `${ctx.host}${ctx.port ? `:${ctx.port}` : ''}` : 'The node';
  return new AppError(
    ErrorCodes.loginPage,
    `${at} answered with a web login page instead of the API.`,
    'Check the port: the API answers on the basic-auth port (9182) and the OAuth port (9183), not on the web interface. A proxy in between can also cause this.',
    { details: { ...(ctx.host ? { host: ctx.host } : {}), ...(ctx.port ? { port: ctx.port } : {}) }, ...(status !== undefined ? { status } : {}) },
  );
}

function unexpected(res: MgmtResponse, ctx: ErrorContext, why: string): AppError {
  return new AppError(ErrorCodes.unexpectedResponse, `${where(ctx)} sent an answer the console cannot read (${why}).`, 'Check that the host and port belong to the management node’s API. If they do, the node may run an incompatible release.', {
    details: { status: res.status, contentType: res.contentType, ...(ctx.path ? { path: ctx.path } : {}) },
    status: res.status,
  });
}

function oauthError(body: Record<string, unknown>, res: MgmtResponse, ctx: ErrorContext): AppError {
  const status = res.status;
  const error = str(body.error) ?? 'unknown';
  const description = str(body.error_description) ?? '';
  if (ctx.withholdText) {
    if (!isKnownOAuthError(error)) return withheld(res, ctx);
    // The console's own sentence (token_limit_exceeded only picks one of two by the description).
    const w = oauthWording(error, description, ctx.operation ?? 'use');
    return new AppError(oauthErrorCode(error), w.message, w.hint, { status, details: { error } });
  }
  const w = oauthWording(error, description, ctx.operation ?? 'use');
  return new AppError(oauthErrorCode(error), w.message, w.hint, { status, details: { error, ...(description ? { description } : {}) } });
}

function apiError(err: Record<string, unknown>, res: MgmtResponse, ctx: ErrorContext): AppError {
  const status = res.status;
  const code = Number(err.code ?? 0) || 0;
  if (ctx.withholdText) {
    const known = API_CODES[code];
    if (!known) return withheld(res, ctx);
    return new AppError(apiErrorCode(code), known.message, known.hint, { status, details: { name: known.name } });
  }
  const nodeMessage = str(err.message) ?? '';
  const description = str(err.description);
  const w = apiWording(code, nodeMessage, description, status);
  return new AppError(apiErrorCode(code), w.message, w.hint, {
    status,
    details: { name: w.name, nodeMessage, ...(description ? { description } : {}), ...(str(err.more_info) ? { moreInfo: str(err.more_info) } : {}) },
  });
}

const YANG_HINTS: Record<string, string> = {
  'malformed-message': 'Check the values you entered; the node names the field it did not accept.',
  'invalid-value': 'Check the values you entered.',
  'access-denied': 'Check the user name and password in the connection form, and that the user may do this.',
  'data-exists': 'The item already exists; edit it instead.',
  'data-missing': 'The item does not exist; reload and try again.',
  'operation-not-supported': 'The node does not support this operation here.',
};

function yangError(errors: Record<string, unknown>, res: MgmtResponse, ctx: ErrorContext): AppError {
  const status = res.status;
  const list = Array.isArray(errors.error) ? errors.error : [errors.error];
  const items = list.filter(isObject);
  const first = items[0] ?? {};
  const tag = str(first['error-tag']) ?? 'unknown';
  if (ctx.withholdText) {
    const hint = YANG_HINTS[tag];
    if (!hint) return withheld(res, ctx);
    return new AppError(yangErrorCode(tag), `The node rejected the request (${tag}).`, hint, { status, details: { tag } });
  }
  const messages = items.map((i) => str(i['error-message'])).filter((m): m is string => !!m);
  const text = messages.join('; ');
  return new AppError(yangErrorCode(tag), text ? `The node rejected the request: ${text}` : `The node rejected the request (${tag}).`, YANG_HINTS[tag] ?? 'Check the request; the node’s message says what it did not accept.', {
    status,
    details: { tag, messages, ...(str(first['error-urlpath']) ? { path: str(first['error-urlpath']) } : {}) },
  });
}

function httpError(res: MgmtResponse, ctx: ErrorContext): AppError {
  const details = { status: res.status, ...(ctx.method ? { method: ctx.method } : {}), ...(ctx.path ? { path: ctx.path } : {}) };
  switch (res.status) {
    case 415:
      return new AppError(ErrorCodes.httpUnsupportedMedia, `${where(ctx)} did not accept the request format (HTTP 415 Unsupported Media Type).`, 'The console sends JSON; a proxy may be changing the request, or the node runs an incompatible release.', { status: 415, details });
    case 405: {
      const allow = ctx.withholdText ? undefined : res.headers?.allow;
      return new AppError(ErrorCodes.httpMethodNotAllowed, `${where(ctx)} does not allow ${ctx.method ?? 'this method'} on ${ctx.path ?? 'this path'}${allow ? ` (allowed: ${allow})` : ''}.`, 'The node’s release may not support this function.', {
        status: 405,
        details: { ...details, ...(allow ? { allow } : {}) },
      });
    }
    case 404:
      return new AppError(ErrorCodes.httpNotFound, `${where(ctx)} has no API at ${ctx.path ?? 'this path'} (HTTP 404).`, 'Check that the host and port belong to the management node and that its release supports this function.', { status: 404, details });
    default:
      return new AppError(
        ErrorCodes.httpError,
        res.status >= 500 ? `${where(ctx)} had an internal error (HTTP ${res.status}).` : `${where(ctx)} refused the request (HTTP ${res.status}).`,
        res.status >= 500 ? 'Try again later; if it stays, show this to the node’s administrator.' : 'Check the request and the connection settings.',
        { status: res.status, details },
      );
  }
}

/**
 * Spring-style error bodies of real nodes (MN-50): `{"timestamp","http_status_code","error":
 * "Not Found","exception","message","path"}` (custom APIs) and `{"timestamp","status","error",
 * "message","path"}`. `error` is the HTTP reason phrase there, not an OAuth error code.
 */
const isSpringBody = (b: Record<string, unknown>) =>
  typeof b.error === 'string' && b.error_description === undefined && ('timestamp' in b || 'exception' in b || 'path' in b || 'http_status_code' in b || 'status' in b);

/**
 * The answer of an endpoint that has not answered as a management node, in a shape the console
 * has no wording of its own for: the status, and why nothing of what it sent is shown.
 */
function withheld(res: MgmtResponse, ctx: ErrorContext): AppError {
  const base = httpError(res, ctx);
  return new AppError(
    base.code,
    `${base.message.replace(/\.$/, '')}; this address has not answered as a management node, so what it sent is not shown.`,
    'Check the host and port: they must be the management node’s API (the basic-auth port, 9182, or the OAuth port, 9183). The node’s own messages are shown once it has listed its organizations.',
    { status: res.status, details: { ...base.details, answeredAsNode: false } },
  );
}

function springError(body: Record<string, unknown>, res: MgmtResponse, ctx: ErrorContext): AppError {
  if (ctx.withholdText) return withheld(res, ctx);
  const base = httpError(res, ctx);
  const nodeMessage = str(body.message)?.trim() ?? '';
  const reason = str(body.error) ?? '';
  const details = { ...base.details, ...(nodeMessage ? { nodeMessage } : {}), ...(reason ? { reason } : {}), ...(str(body.exception) ? { exception: str(body.exception) } : {}) };
  if (!nodeMessage) return new AppError(base.code, base.message, base.hint, { status: res.status, details });
  const message = res.status === 404 ? `${where(ctx)} does not know it: ${nodeMessage}` : `${where(ctx)} refused the request: ${nodeMessage}`;
  return new AppError(base.code, message, res.status === 404 ? 'Reload the list; it may have been removed on the node.' : base.hint, { status: res.status, details });
}

/** The AppError for a non-2xx answer (or a 2xx login page). */
export function errorFromResponse(res: MgmtResponse, ctx: ErrorContext = {}): AppError {
  if (res.status === 415 || res.status === 405) return httpError(res, ctx);
  if (looksLikeHtml(res) && (res.status < 400 || res.status === 401 || res.status === 403)) return loginPageError(ctx, res.status);
  const body = parseBody(res);
  // XML bodies arrive wrapped in their root element (<oauth-error>, <errors>).
  const root = isObject(body) && isObject(body['oauth-error']) ? body['oauth-error'] : body;
  if (isObject(root)) {
    if (isSpringBody(root)) return springError(root, res, ctx);
    if (typeof root.error === 'string') return oauthError(root, res, ctx);
    if (isObject(root.error) && ('code' in root.error || 'message' in root.error)) {
      const code = Number(root.error.code ?? 0) || 0;
      if (res.status !== 404 || API_CODES[code]) return apiError(root.error, res, ctx);
    }
    if (isObject(root.errors) && root.errors.error !== undefined) return yangError(root.errors, res, ctx);
  }
  // A body the console has no reading for: shown as the status alone, saying why when it is withheld.
  return ctx.withholdText && res.body.trim() ? withheld(res, ctx) : httpError(res, ctx);
}

/**
 * The JSON body of a successful answer; `undefined` for 204 No Content (MN-27) or an empty
 * body. Throws the AppError of any other answer.
 */
export function readJsonResponse<T = unknown>(res: MgmtResponse, ctx: ErrorContext = {}): T | undefined {
  if (res.status === 204 || res.status === 205) return undefined;
  if (res.status < 200 || res.status >= 300) throw errorFromResponse(res, ctx);
  if (looksLikeHtml(res)) throw loginPageError(ctx, res.status);
  if (!res.body.trim()) return undefined;
  if (res.contentType && !res.contentType.includes('json')) throw unexpected(res, ctx, `content type ${res.contentType}, not JSON`);
  try {
    return JSON.parse(res.body) as T;
  } catch {
    throw unexpected(res, ctx, 'not valid JSON');
  }
}
