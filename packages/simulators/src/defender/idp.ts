/**
 * The simulated Entra ID token endpoint: `POST /<tenant>/oauth2/v2.0/token` (scope=<resource>/.default)
 * and the v1 `POST /<tenant>/oauth2/token` (resource=<resource>) of spec §4.1, client credentials
 * only. Failures use the real AADSTS body: {error, error_description, error_codes, timestamp,
 * trace_id, correlation_id, error_uri}.
 */
import { randomUUID } from 'node:crypto';
import type { SimClock } from '../clock';
import type { Reply } from '../http';
import { MCAS_APP_ID, permissionResource, resourceOf, type TokenIssuer } from './tokens';
import type { DefenderTenantConfig } from './types';

const stsTime = (ms: number) => `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')}Z`;

export function aadstsError(clock: SimClock, status: number, error: string, code: number, text: string): Reply {
  const traceId = randomUUID();
  const correlationId = randomUUID();
  const timestamp = stsTime(clock.now());
  return {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store, no-cache', 'x-ms-request-id': traceId },
    body: {
      error,
      error_description: `AADSTS${code}: ${text}\r\nTrace ID: ${traceId}\r\nCorrelation ID: ${correlationId}\r\nTimestamp: ${timestamp}`,
      error_codes: [code],
      timestamp,
      trace_id: traceId,
      correlation_id: correlationId,
      error_uri: `https://login.microsoftonline.com/error?code=${code}`,
    },
  };
}

export interface IdpDeps {
  clock: SimClock;
  tenants: () => DefenderTenantConfig[];
  issuer: TokenIssuer;
  tokenLifetimeSec: number;
}

const expiresAtMs = (v: string | number | undefined) => (v === undefined ? undefined : typeof v === 'number' ? v : Date.parse(v));

/** Handles POST /<tenant>/oauth2[/v2.0]/token with a form body. */
export function tokenRequest(deps: IdpDeps, tenantSegment: string, version: 'v1' | 'v2', form: URLSearchParams): Reply {
  const { clock } = deps;
  const err = (status: number, error: string, code: number, text: string) => aadstsError(clock, status, error, code, text);
  const tenantsHere = deps.tenants().filter((t) => t.tenantId.toLowerCase() === tenantSegment.toLowerCase());
  if (tenantsHere.length === 0) {
    return err(400, 'invalid_request', 90002, `Tenant '${tenantSegment}' not found. Check to make sure you have the correct tenant ID and are signing into the correct cloud. Check with your subscription administrator, this may happen if there are no active subscriptions for the tenant.`);
  }
  for (const name of ['grant_type', 'client_id']) {
    if (!form.get(name)) return err(400, 'invalid_request', 900144, `The request body must contain the following parameter: '${name}'.`);
  }
  if (form.get('grant_type') !== 'client_credentials') {
    return err(400, 'unsupported_grant_type', 70003, 'The app requested an unsupported grant type.');
  }
  const clientId = form.get('client_id')!;
  const app = tenantsHere.find((t) => t.clientId.toLowerCase() === clientId.toLowerCase());
  if (!app) {
    return err(400, 'unauthorized_client', 700016, `Application with identifier '${clientId}' was not found in the directory '${tenantSegment}'. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You may have sent your authentication request to the wrong tenant.`);
  }
  const secret = form.get('client_secret');
  if (!secret) {
    return err(401, 'invalid_client', 7000216, `'client_assertion', 'client_secret' or 'request' is required for the 'client_credentials' grant type.`);
  }
  if (secret !== app.clientSecret) {
    return err(401, 'invalid_client', 7000215, `Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${app.clientId}'.`);
  }
  const expires = expiresAtMs(app.secretExpiresAt);
  if (expires !== undefined && expires <= clock.now()) {
    return err(401, 'invalid_client', 7000222, `The provided client secret keys for app '${app.clientId}' are expired. Visit the Azure portal to create new keys for your app: https://aka.ms/NewClientSecret, or consider using certificate credentials for added security: https://aka.ms/certCreds.`);
  }
  let identifier: string;
  if (version === 'v2') {
    const scope = form.get('scope');
    if (!scope) return err(400, 'invalid_request', 900144, "The request body must contain the following parameter: 'scope'.");
    if (!scope.endsWith('/.default')) {
      return err(400, 'invalid_scope', 1002012, `The provided value for scope ${scope} is not valid. Client credential flows must have a scope value with /.default suffixed to the resource identifier (application ID URI).`);
    }
    identifier = scope.slice(0, -'/.default'.length);
  } else {
    identifier = form.get('resource') ?? '';
    if (!identifier) return err(400, 'invalid_request', 900144, "The request body must contain the following parameter: 'resource'.");
  }
  const target = resourceOf(identifier);
  if (!target) {
    return err(400, 'invalid_resource', 500011, `The resource principal named ${identifier} was not found in the tenant named ${tenantSegment}. This can happen if the application has not been installed by the administrator of the tenant or consented to by any user in the tenant. You might have sent your authentication request to the wrong tenant.`);
  }
  if (!app.consent) {
    return err(400, 'invalid_grant', 65001, `The user or administrator has not consented to use the application with ID '${app.clientId}' named '${app.appName ?? 'Northbound EDR connector'}'. Send an interactive authorization request for this user and resource.`);
  }
  const granted = app.permissions.filter((p) => permissionResource(p) === target.resource);
  const delegated = app.permissionType === 'Delegated';
  const token = deps.issuer.issue(
    {
      aud: target.audience,
      appid: app.clientId,
      oid: randomUUID(),
      tid: app.tenantId,
      roles: delegated ? [] : granted,
      ...(delegated && granted.length ? { scp: granted.join(' ') } : {}),
      app_displayname: app.appName ?? 'Northbound EDR connector',
    },
    deps.tokenLifetimeSec,
  );
  const life = deps.tokenLifetimeSec;
  const nowSec = Math.floor(clock.now() / 1000);
  const headers = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store, no-cache' };
  if (version === 'v2') return { status: 200, headers, body: { token_type: 'Bearer', expires_in: life, ext_expires_in: life, access_token: token } };
  // v1 sends every number as a string.
  return {
    status: 200,
    headers,
    body: {
      token_type: 'Bearer',
      expires_in: String(life),
      ext_expires_in: String(life),
      expires_on: String(nowSec + life),
      not_before: String(nowSec),
      resource: target.resource === 'mcas' ? MCAS_APP_ID : identifier,
      access_token: token,
    },
  };
}
