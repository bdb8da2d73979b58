/**
 * In-memory state of the simulated node's OAuth side: users, clients, token pairs and
 * registration tokens, with the daily clean-up of expired tokens (MN-11).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { SimClientBody } from './oauth-client-body';
import { DAY_MS, midnightAtOrBefore, type SimClock } from './clock';
import type { SimClientView, SimRole, SimUser } from './views';

export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');
/** 16 characters. */
export const randomPassword = (): string => randomBytes(12).toString('base64url');
/** 32 characters. */
export const randomSecret = (): string => randomBytes(24).toString('base64url');

/** MN-8: registration access tokens live 24 hours. */
export const REGISTRATION_TOKEN_TTL_MS = DAY_MS;

export interface ClientRecord {
  id: string;
  secret: string;
  body: SimClientBody;
  createdAt: string;
  updatedAt: string;
}

export interface TokenPair {
  access: string;
  refresh: string;
  clientId: string;
  username: string;
  /** The user's password version at issue; a later change makes the pair unusable. */
  passwordVersion: number;
  issuedAt: number;
  /** Seconds, as sent in expires_in / refresh_expires_in; -1 = never expires. */
  accessValidity: number;
  refreshValidity: number;
  /** null = never expires. */
  accessExpiresAt: number | null;
  refreshExpiresAt: number | null;
}

export interface UserRecord {
  username: string;
  role: SimRole;
  password: string;
  passwordVersion: number;
}

export interface RegistrationRecord {
  clientId: string;
  issuedAt: number;
}

const expired = (at: number | null, now: number) => at !== null && now >= at;

/** Whether an ISO expiry (empty = never) has passed at `now`. Unparseable values count as passed. */
export function isoExpired(iso: string, now: number): boolean {
  if (iso === '') return false;
  const at = Date.parse(iso);
  return Number.isNaN(at) || now >= at;
}

export class SimStore {
  readonly clients = new Map<string, ClientRecord>();
  private readonly users = new Map<string, UserRecord>();
  private readonly byAccess = new Map<string, TokenPair>();
  private readonly byRefresh = new Map<string, TokenPair>();
  private readonly registrations = new Map<string, RegistrationRecord>();
  private lastCleanup: number;

  constructor(
    private readonly clock: SimClock,
    users: SimUser[],
  ) {
    for (const u of users) {
      if (this.users.has(u.username)) throw new Error(`Duplicate simulator user ${u.username}`);
      this.users.set(u.username, { username: u.username, role: u.role, password: u.password, passwordVersion: 0 });
    }
    this.lastCleanup = midnightAtOrBefore(clock.now());
  }

  // ---- users

  user(username: string): UserRecord | undefined {
    return this.users.get(username);
  }

  /** The user when the password matches. */
  checkPassword(username: string, password: string): UserRecord | undefined {
    const u = this.users.get(username);
    return u && u.password === password ? u : undefined;
  }

  setPassword(username: string, password: string): void {
    const u = this.users.get(username);
    if (!u) throw new Error(`No simulator user ${username}`);
    u.password = password;
    u.passwordVersion += 1;
  }

  // ---- clients

  addClient(body: SimClientBody, ids: { id?: string; secret?: string } = {}): { client: ClientRecord; registrationToken: string } {
    const now = this.clock.iso();
    const client: ClientRecord = { id: ids.id ?? randomUUID(), secret: ids.secret ?? randomSecret(), body, createdAt: now, updatedAt: now };
    if (this.clients.has(client.id)) throw new Error(`Duplicate client id ${client.id}`);
    this.clients.set(client.id, client);
    const registrationToken = randomToken();
    this.registrations.set(registrationToken, { clientId: client.id, issuedAt: this.clock.now() });
    return { client, registrationToken };
  }

  updateClient(client: ClientRecord, body: SimClientBody): void {
    client.body = body;
    client.updatedAt = this.clock.iso();
  }

  clientByName(name: string): ClientRecord | undefined {
    for (const c of this.clients.values()) if (c.body.name === name) return c;
    return undefined;
  }

  view(client: ClientRecord): SimClientView & { created_at: string; updated_at: string } {
    return { client_id: client.id, ...structuredClone(client.body), created_at: client.createdAt, updated_at: client.updatedAt };
  }

  registration(token: string): RegistrationRecord | undefined {
    return this.registrations.get(token);
  }

  registrationExpired(r: RegistrationRecord): boolean {
    return this.clock.now() - r.issuedAt >= REGISTRATION_TOKEN_TTL_MS;
  }

  // ---- tokens

  issue(client: ClientRecord, user: UserRecord, neverExpire: boolean): TokenPair {
    const now = this.clock.now();
    const accessValidity = neverExpire ? -1 : client.body.access_token_validity;
    const refreshValidity = neverExpire ? -1 : client.body.refresh_token_validity;
    const pair: TokenPair = {
      access: randomToken(),
      refresh: randomToken(),
      clientId: client.id,
      username: user.username,
      passwordVersion: user.passwordVersion,
      issuedAt: now,
      accessValidity,
      refreshValidity,
      accessExpiresAt: neverExpire ? null : now + accessValidity * 1000,
      refreshExpiresAt: neverExpire ? null : now + refreshValidity * 1000,
    };
    this.byAccess.set(pair.access, pair);
    this.byRefresh.set(pair.refresh, pair);
    return pair;
  }

  /** The pair of an access token that the clean-up has not removed yet (it may have expired). */
  byAccessToken(token: string): TokenPair | undefined {
    return this.byAccess.get(token);
  }

  byRefreshToken(token: string): TokenPair | undefined {
    return this.byRefresh.get(token);
  }

  accessExpired(pair: TokenPair): boolean {
    return expired(pair.accessExpiresAt, this.clock.now());
  }

  refreshExpired(pair: TokenPair): boolean {
    return expired(pair.refreshExpiresAt, this.clock.now());
  }

  /** MN-13: the access token and the refresh token issued with it stop working. */
  revoke(pair: TokenPair): void {
    this.byAccess.delete(pair.access);
    this.byRefresh.delete(pair.refresh);
  }

  /** Pairs of the client (and user) with an unexpired access token, other than `except`. */
  liveCount(clientId: string, username?: string, except?: TokenPair): number {
    const now = this.clock.now();
    let n = 0;
    for (const p of this.byAccess.values()) {
      if (p === except || p.clientId !== clientId || expired(p.accessExpiresAt, now)) continue;
      if (username === undefined || p.username === username) n += 1;
    }
    return n;
  }

  /** Runs the daily clean-up if a midnight UTC has passed on the clock since the last run (MN-11). */
  runDueCleanup(): void {
    const midnight = midnightAtOrBefore(this.clock.now());
    if (midnight <= this.lastCleanup) return;
    this.lastCleanup = midnight;
    this.cleanup(midnight);
  }

  /** Forgets tokens that expired at or before `cutoff`: access and refresh tokens separately. */
  private cleanup(cutoff: number): void {
    for (const [token, p] of this.byAccess) if (expired(p.accessExpiresAt, cutoff)) this.byAccess.delete(token);
    for (const [token, p] of this.byRefresh) if (expired(p.refreshExpiresAt, cutoff)) this.byRefresh.delete(token);
  }
}
