/**
 * One management node client per profile, built on demand from the stored profile and the
 * vault's secrets. Session changes become `session.changed` events. On quit every OAuth
 * session is revoked (MN-13).
 */
import type { ConnectionTest } from '../../shared/contract';
import type { OAuthClient, OAuthClientBody } from '../../shared/model/oauth-client';
import type { SessionStatus } from '../../shared/model/session';
import type { Logger } from '../log';
import type { EventHub } from './events';
import type { ProfileRepository, StoredProfile } from './profiles';

/** What the app needs from a management node client (implemented by electron/mgmt). */
export interface MgmtSession {
  signIn(): Promise<SessionStatus>;
  signOut(): Promise<SessionStatus>;
  status(): SessionStatus;
  test(): Promise<ConnectionTest>;
  /** One API call on the signed-in session (basic or bearer, by the profile's auth mode). */
  request<T = unknown>(method: string, path: string, body?: unknown, opts?: { signal?: AbortSignal }): Promise<T | undefined>;
  createOAuthClient(body: OAuthClientBody): Promise<{ client: OAuthClient; clientSecret: string }>;
  updateOAuthClient(clientId: string, body: OAuthClientBody): Promise<OAuthClient>;
  close(): Promise<void>;
}

export type MgmtSessionFactory = (
  profile: StoredProfile,
  secrets: { getPassword(): Promise<string | undefined>; getClientSecret(): Promise<string | undefined> },
  onStatus: (s: SessionStatus) => void,
) => MgmtSession;

export class SessionManager {
  private readonly sessions = new Map<string, { session: MgmtSession; fingerprint: string }>();

  constructor(
    private readonly profiles: ProfileRepository,
    private readonly factory: MgmtSessionFactory,
    private readonly events: EventHub,
    private readonly logger: Logger,
  ) {}

  /** A fingerprint of everything that shapes a client: an edited profile gets a new client. */
  private static shape(p: StoredProfile): string {
    const tls = p.tls.mode === 'pinned' ? `pinned:${p.tls.fingerprint256 ?? ''}` : p.tls.mode === 'custom-ca' ? `ca:${p.tls.caPem ?? p.tls.caFile ?? ''}` : 'system';
    return [p.host, p.basicPort, p.oauthPort, p.authMode, p.username, p.oauthClientId ?? '', tls, p.updatedAt].join('|');
  }

  get(profileId: string): MgmtSession {
    const profile = this.profiles.get(profileId);
    const shape = SessionManager.shape(profile);
    const current = this.sessions.get(profileId);
    if (current && current.fingerprint === shape) return current.session;
    if (current) void this.retire(profileId, current.session);
    const session = this.factory(profile, this.profiles.secrets(profile), (s) => this.events.emit('session.changed', s));
    this.sessions.set(profileId, { session, fingerprint: shape });
    return session;
  }

  private async retire(profileId: string, session: MgmtSession): Promise<void> {
    this.sessions.delete(profileId);
    try {
      await session.signOut();
    } catch (e) {
      this.logger.warn('sign-out of a replaced session failed', { profileId, error: String(e) });
    }
    await session.close().catch(() => undefined);
  }

  status(profileId: string): SessionStatus {
    const existing = this.sessions.get(profileId);
    if (existing) return existing.session.status();
    const p = this.profiles.get(profileId);
    return { profileId, state: 'signed-out', authMode: p.authMode, username: p.username };
  }

  list(): SessionStatus[] {
    return this.profiles.list().map((p) => this.status(p.id));
  }

  signIn(profileId: string): Promise<SessionStatus> {
    return this.get(profileId).signIn();
  }

  async signOut(profileId: string): Promise<SessionStatus> {
    if (!this.sessions.has(profileId)) return this.status(profileId);
    return this.get(profileId).signOut();
  }

  /** Drop a profile's client (after delete or a demo restart), revoking its tokens first. */
  async forget(profileId: string): Promise<void> {
    const current = this.sessions.get(profileId);
    if (current) await this.retire(profileId, current.session);
  }

  /** Revoke every session, within `budgetMs` in all. */
  async closeAll(budgetMs = 2000): Promise<void> {
    const all = [...this.sessions.entries()];
    const work = Promise.allSettled(all.map(([id, { session }]) => this.retire(id, session)));
    await Promise.race([work, new Promise((r) => setTimeout(r, budgetMs).unref())]);
  }
}
