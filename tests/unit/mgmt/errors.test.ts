import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/model/errors';
import { errorFromResponse, readJsonResponse, type MgmtResponse } from '../../../electron/mgmt/errors';
import { API_CODES } from '../../../electron/mgmt/api-messages';
import type { OAuthOperation } from '../../../electron/mgmt/oauth-messages';

const json = (status: number, body: unknown, headers?: Record<string, string>): MgmtResponse => ({ status, contentType: 'application/json', body: JSON.stringify(body), ...(headers ? { headers } : {}) });
const oauth = (status: number, error: string, description = 'node says so') => json(status, { error, error_description: description });

// Every row of spec 7.2 (operation, error, HTTP status).
const ROWS_7_2: [OAuthOperation, string, number][] = [
  ['token', 'invalid_client', 401],
  ['token', 'invalid_grant', 401],
  ['token', 'invalid_request', 400],
  ['token', 'unsupported_grant_type', 400],
  ['refresh', 'invalid_client', 401],
  ['refresh', 'invalid_refresh_token', 401],
  ['refresh', 'invalid_request', 400],
  ['refresh', 'unsupported_grant_type', 400],
  ['revoke', 'invalid_request', 400],
  ['revoke', 'invalid_token', 401],
  ['use', 'access_forbidden', 401],
  ['use', 'access_token_expired', 401],
  ['use', 'client_expired', 401],
  ['use', 'client_ip_not_allowed', 401],
  ['use', 'client_secret_expired', 401],
  ['use', 'existing_client_found', 500],
  ['use', 'invalid_client', 401],
  ['use', 'invalid_registration_token', 401],
  ['use', 'invalid_request', 400],
  ['use', 'invalid_token', 401],
  ['use', 'registration_token_disabled', 401],
  ['use', 'registration_token_expired', 401],
  ['use', 'user_credentials_not_matched', 401],
];

describe('OAuth errors (spec 7.2)', () => {
  it.each(ROWS_7_2)('%s: %s (%i) → oauth.<error> with own wording', (operation, error, status) => {
    const e = errorFromResponse(oauth(status, error), { operation });
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe(`oauth.${error}`);
    expect(e.status).toBe(status);
    expect(e.message).not.toContain('node says so'); // our sentence, not the raw description
    expect(e.message.length).toBeGreaterThan(20);
    expect(e.hint.length).toBeGreaterThan(5);
    expect(e.details).toMatchObject({ error, description: 'node says so' });
  });

  it('words errors by operation', () => {
    expect(errorFromResponse(oauth(401, 'invalid_client'), { operation: 'token' }).message).toMatch(/does not accept the OAuth client/);
    expect(errorFromResponse(oauth(401, 'invalid_client'), { operation: 'use' }).message).toMatch(/no longer accepted/);
    expect(errorFromResponse(oauth(400, 'invalid_request'), { operation: 'revoke' }).message).toMatch(/no access token/);
  });

  it('gives specific messages for the common ones', () => {
    expect(errorFromResponse(oauth(401, 'invalid_grant'), { operation: 'token' }).message).toBe('The user name or password is wrong.');
    expect(errorFromResponse(oauth(401, 'access_forbidden')).hint).toMatch(/admin/);
    expect(errorFromResponse(oauth(401, 'client_ip_not_allowed')).hint).toMatch(/allowed source addresses/);
  });

  it('names the limit of token_limit_exceeded (MN-9)', () => {
    const perUser = errorFromResponse(oauth(400, 'token_limit_exceeded', 'max_access_tokens_per_user (2) reached for user admin'), { operation: 'token' });
    expect(perUser.code).toBe('oauth.token_limit_exceeded');
    expect(perUser.message).toMatch(/max_access_tokens_per_user/);
    const perClient = errorFromResponse(oauth(400, 'token_limit_exceeded', 'max_access_tokens (5) reached'), { operation: 'token' });
    expect(perClient.message).toMatch(/max_access_tokens\)/);
    expect(perClient.hint).toMatch(/raise max_access_tokens/);
  });

  it('reads the XML form (MN-12)', () => {
    const e = errorFromResponse({
      status: 401,
      contentType: 'application/xml',
      body: '<?xml version="1.0" encoding="UTF-8"?><oauth-error><error>invalid_grant</error><error_description>bad &amp; wrong</error_description></oauth-error>',
    }, { operation: 'token' });
    expect(e.code).toBe('oauth.invalid_grant');
    expect(e.details).toMatchObject({ description: 'bad & wrong' });
  });

  it('keeps the node words for an unknown OAuth error', () => {
    const e = errorFromResponse(oauth(400, 'weird_thing', 'Something odd'));
    expect(e.code).toBe('oauth.weird_thing');
    expect(e.message).toContain('Something odd');
  });
});

describe('custom API errors (spec 7.1)', () => {
  const custom = (status: number, code: number, message: string, description?: string) =>
    json(status, { error: { http_status_code: status, code, message, ...(description ? { description } : {}), more_info: `https://docs.mgmt-node.invalid/errors/${code}` } });

  it.each(Object.keys(API_CODES).map(Number))('code %i → api.<code> with a sentence', (code) => {
    const e = errorFromResponse(custom(400, code, 'X'));
    expect(e.code).toBe(`api.${code}`);
    expect(e.message).not.toBe('X');
    expect(e.details).toMatchObject({ name: API_CODES[code]!.name, nodeMessage: 'X', moreInfo: `https://docs.mgmt-node.invalid/errors/${code}` });
  });

  it('wrong basic credentials: 401, 4001 Unauthenticated', () => {
    const e = errorFromResponse(custom(401, 4001, 'Unauthenticated', 'Invalid user name or password'));
    expect(e.code).toBe('api.4001');
    expect(e.status).toBe(401);
    expect(e.message).toMatch(/user name or password/);
  });

  it('code 0 uses the node message (siteId in use)', () => {
    const e = errorFromResponse(custom(500, 0, 'Global device id SITE-7 is already in use by device branch-2'));
    expect(e.code).toBe('api.0');
    expect(e.message).toBe('The node reported an error: Global device id SITE-7 is already in use by device branch-2.');
  });

  it('code 0 Access forbidden (MN-25) says it is a permission problem', () => {
    const e = errorFromResponse(custom(401, 0, 'Access forbidden', 'User viewer (viewer) may only read; PUT is not permitted.'));
    expect(e.code).toBe('api.0');
    expect(e.message).toContain('may only read');
    expect(e.hint).toMatch(/permission/);
  });

  it('a 404 with a not-found code keeps the code; a bare 404 is http.404', () => {
    expect(errorFromResponse(custom(404, 4016, 'Organization not found')).code).toBe('api.4016');
    expect(errorFromResponse(custom(404, 0, 'Not Found'), { path: '/mgmt/x' }).code).toBe('http.404');
    expect(errorFromResponse({ status: 404, contentType: 'text/plain', body: 'nope' }).code).toBe('http.404');
  });
});

describe('YANG errors', () => {
  it('malformed-message → yang.malformed-message with the node message', () => {
    const e = errorFromResponse(json(400, { errors: { error: [{ 'error-message': 'port: "abc" is not a valid port', 'error-urlpath': '/api/config/system/syslog-servers', 'error-tag': 'malformed-message' }] } }));
    expect(e.code).toBe('yang.malformed-message');
    expect(e.message).toContain('"abc" is not a valid port');
    expect(e.details).toMatchObject({ tag: 'malformed-message', path: '/api/config/system/syslog-servers' });
  });

  it('accepts a single error object too', () => {
    expect(errorFromResponse(json(401, { errors: { error: { 'error-tag': 'access-denied', 'error-message': 'Invalid user name or password' } } })).code).toBe('yang.access-denied');
  });
});

describe('HTTP-level answers', () => {
  it('415 and 405 win over the styled body', () => {
    expect(errorFromResponse(json(415, { error: 'invalid_request', error_description: 'Content-Type' })).code).toBe('http.415');
    const e = errorFromResponse(json(405, { error: { code: 0, message: 'Method Not Allowed' } }, { allow: 'GET, PUT' }), { method: 'DELETE', path: '/mgmt/x' });
    expect(e.code).toBe('http.405');
    expect(e.message).toContain('GET, PUT');
  });

  it('other statuses without a known body → http.error', () => {
    const e = errorFromResponse({ status: 502, contentType: 'text/plain', body: 'bad gateway' });
    expect(e.code).toBe('http.error');
    expect(e.status).toBe(502);
  });
});

describe('readJsonResponse', () => {
  it('204 is empty (MN-27)', () => {
    expect(readJsonResponse({ status: 204, contentType: '', body: '' })).toBeUndefined();
  });

  it('parses JSON', () => {
    expect(readJsonResponse<{ a: number }>(json(200, { a: 1 }))).toEqual({ a: 1 });
  });

  it('a login page with 200 is mgmt.login_page (MN-26)', () => {
    const page = { status: 200, contentType: 'text/html', body: '<!DOCTYPE html><html><body><form>Login</form></body></html>' };
    expect(() => readJsonResponse(page, { host: 'node', port: 9182 })).toThrow(expect.objectContaining({ code: 'mgmt.login_page', message: expect.stringContaining('node:9182') }));
    // Also without a content type.
    expect(() => readJsonResponse({ ...page, contentType: '' })).toThrow(expect.objectContaining({ code: 'mgmt.login_page' }));
    // A 401 answered with HTML is the login page too.
    expect(errorFromResponse({ ...page, status: 401 }).code).toBe('mgmt.login_page');
  });

  it('unparseable JSON is mgmt.unexpected_response', () => {
    expect(() => readJsonResponse({ status: 200, contentType: 'application/json', body: '{"a":' })).toThrow(expect.objectContaining({ code: 'mgmt.unexpected_response' }));
    expect(() => readJsonResponse({ status: 200, contentType: 'text/plain', body: 'hello' })).toThrow(expect.objectContaining({ code: 'mgmt.unexpected_response' }));
  });

  it('throws the mapped error for a non-2xx answer', () => {
    expect(() => readJsonResponse(oauth(401, 'access_token_expired'))).toThrow(expect.objectContaining({ code: 'oauth.access_token_expired' }));
  });
});

describe('sizes (issue 20.5)', () => {
  it('a node’s error message of 2,000,000 characters reaches the operator cut, its size noted', () => {
    const huge = 'm'.repeat(2_000_000);
    for (const res of [
      json(400, { timestamp: 'now', status: 400, error: 'Bad Request', message: huge, path: '/x' }),
      json(400, { error: { code: 0, message: huge, description: huge } }),
      json(401, { error: 'invalid_client', error_description: huge }),
    ]) {
      const e = errorFromResponse(res);
      expect(e.message.length).toBeLessThan(3_000);
      expect(`${e.message} ${JSON.stringify(e.details ?? {})}`).toContain('… [truncated, 2,000,000 characters]');
      expect(JSON.stringify(e.details ?? {}).length).toBeLessThan(3_000);
    }
  });
});

describe('an endpoint that has not answered as a management node (withholdText, issue 20.8)', () => {
  const S = 'SECRET-TEXT';
  const ctx = { host: '127.0.0.1', port: 8443, method: 'GET', path: '/mgmt/organization/orgs', withholdText: true };
  // [shape, answer, whether a node that did answer as one has these words shown]
  const bodies: Array<[string, MgmtResponse, boolean]> = [
    ['spring', json(401, { timestamp: 't', status: 401, error: 'Unauthorized', message: S, exception: S, path: '/x' }), true],
    ['custom, code 0', json(500, { error: { code: 0, message: S, description: S, more_info: S } }), true],
    ['custom, unknown code', json(400, { error: { code: 4999, message: S, description: S } }), true],
    ['oauth, unknown error', oauth(401, S, S), true],
    ['yang, unknown tag', json(400, { errors: { error: [{ 'error-tag': S, 'error-message': S, 'error-urlpath': S }] } }), true],
    ['xml oauth', { status: 401, contentType: 'application/xml', body: `<oauth-error><error>${S}</error><error_description>${S}</error_description></oauth-error>` }, true],
    ['bare', json(403, { message: S }), false],
    ['text', { status: 502, contentType: 'text/plain', body: S }, false],
    ['405 allow', json(405, { message: S }, { allow: S }), true],
  ];

  it.each(bodies)('%s: the status and why, none of its words', (_, res, shownFromNode) => {
    const e = errorFromResponse(res, ctx);
    expect(JSON.stringify({ code: e.code, message: e.message, hint: e.hint, details: e.details })).not.toContain(S);
    expect(e.status).toBe(res.status);
    if (res.status !== 405) expect(e.message).toMatch(new RegExp(`HTTP ${res.status}.*has not answered as a management node`));
    const shown = errorFromResponse(res, { ...ctx, withholdText: false });
    expect(JSON.stringify({ code: shown.code, message: shown.message, details: shown.details }).includes(S)).toBe(shownFromNode);
  });

  it('a code the console words itself keeps that wording, without the node’s description', () => {
    const api = errorFromResponse(json(400, { error: { code: 4017, message: S, description: S } }), ctx);
    expect(api).toMatchObject({ code: 'api.4017', message: API_CODES[4017]!.message, details: { name: 'INVALID_REQUEST' } });
    const grant = errorFromResponse(oauth(401, 'invalid_grant', S), { ...ctx, operation: 'token' });
    expect(grant).toMatchObject({ code: 'oauth.invalid_grant', message: 'The user name or password is wrong.', details: { error: 'invalid_grant' } });
    const yang = errorFromResponse(json(401, { errors: { error: [{ 'error-tag': 'access-denied', 'error-message': S }] } }), ctx);
    expect(yang).toMatchObject({ code: 'yang.access-denied', message: 'The node rejected the request (access-denied).', details: { tag: 'access-denied' } });
    for (const e of [api, grant, yang]) expect(JSON.stringify(e.details) + e.message).not.toContain(S);
  });
});
