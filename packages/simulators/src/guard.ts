/**
 * Who is calling: basic credentials on the basic port, bearer tokens on the OAuth port, with the
 * token-use checks of MN-10 in their order and the permissions of MN-1, MN-14 and MN-25.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { CustomError, OAuthError, YangError } from './errors';
import { sourceAllowed } from './ip';
import { isoExpired, type ClientRecord, type SimStore, type TokenPair, type UserRecord } from './store';
import type { SimRole } from './views';

export interface Principal {
  username: string;
  role: SimRole;
  /** Bearer callers only. */
  client?: ClientRecord;
  pair?: TokenPair;
}

const REALM = 'management-node';

/** MN-24: wrong or missing basic credentials. */
function unauthenticated(yang: boolean): Error {
  if (yang) return new YangError(401, 'access-denied', 'Invalid user name or password', { 'www-authenticate': `Basic realm="${REALM}"` });
  return new CustomError(401, 4001, 'Unauthenticated', 'Invalid user name or password');
}

export function authenticateBasic(store: SimStore, headers: IncomingHttpHeaders, yang: boolean): Principal {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(headers.authorization ?? '');
  if (!m?.[1]) throw unauthenticated(yang);
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw unauthenticated(yang);
  const user = store.checkPassword(decoded.slice(0, colon), decoded.slice(colon + 1));
  if (!user) throw unauthenticated(yang);
  return { username: user.username, role: user.role };
}

/** The bearer token of the Authorization header, or undefined. */
export function bearerToken(headers: IncomingHttpHeaders): string | undefined {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  return m?.[1];
}

const bearerError = (error: string, description: string) => new OAuthError(401, error, description, { 'www-authenticate': `Bearer realm="${REALM}", error="${error}"` });

export const missingBearer = () => new OAuthError(400, 'invalid_request', 'Access token missing: send Authorization: Bearer <ACCESS_TOKEN>.');

/**
 * Client checks shared by token requests and token use, in MN-10 order after the client is known:
 * expiry, secret expiry, source address.
 */
export function checkClientState(client: ClientRecord, now: number, remoteAddress: string): void {
  const fail = (error: string, description: string) => new OAuthError(401, error, description);
  if (isoExpired(client.body.expires_at, now)) throw fail('client_expired', `The client expired at ${client.body.expires_at}.`);
  if (isoExpired(client.body.client_secret_expires_at, now)) throw fail('client_secret_expired', `The client secret expired at ${client.body.client_secret_expires_at}.`);
  if (!sourceAllowed(client.body.allowed_source_client_address, remoteAddress)) {
    throw fail('client_ip_not_allowed', `Requests from ${remoteAddress} are not allowed for this client.`);
  }
}

/** MN-10 token use: header, token known, expired, client enabled, client state, user credentials. */
export function authenticateBearer(store: SimStore, headers: IncomingHttpHeaders, remoteAddress: string, now: number): Principal & { client: ClientRecord; pair: TokenPair; user: UserRecord } {
  const token = bearerToken(headers);
  if (!token) throw missingBearer();
  const pair = store.byAccessToken(token);
  if (!pair) throw bearerError('invalid_token', 'The access token is not valid.');
  if (store.accessExpired(pair)) throw bearerError('access_token_expired', 'The access token has expired; refresh it or request a new one.');
  const client = store.clients.get(pair.clientId);
  if (!client || !client.body.enabled) throw bearerError('invalid_client', 'The client of this token is disabled or no longer exists.');
  checkClientState(client, now, remoteAddress);
  const user = store.user(pair.username);
  if (!user || user.passwordVersion !== pair.passwordVersion) {
    throw bearerError('user_credentials_not_matched', 'The user credentials changed after this token was issued; request a new token.');
  }
  return { username: user.username, role: user.role, client, pair, user };
}

export const accessForbidden = (description: string) => bearerError('access_forbidden', description);

/** MN-14 / MN-25: viewers may only read. */
export function requireMethodAllowed(p: Principal, method: string, bearer: boolean): void {
  if (p.role !== 'viewer' || method === 'GET') return;
  const description = `User ${p.username} (viewer) may only read; ${method} is not permitted.`;
  if (bearer) throw accessForbidden(description);
  throw new CustomError(401, 0, 'Access forbidden', description);
}

/** MN-1: managing clients needs an admin client (allows client_credentials) and an admin user. */
export function requireClientAdmin(p: Principal & { client: ClientRecord }): void {
  if (!p.client.body.allowed_grant_types.includes('client_credentials')) {
    throw accessForbidden('Only tokens of a client that allows client_credentials can manage OAuth clients.');
  }
  if (p.role !== 'admin') throw accessForbidden(`User ${p.username} is not an administrator and cannot manage OAuth clients.`);
}
