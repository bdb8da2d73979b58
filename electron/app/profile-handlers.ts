/** The profiles.*, tls.*, session.* and oauthClients.* channels of the contract. */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { CertificateInfo } from '../../shared/model/profile';
import type { Logger } from '../log';
import type { ProfileRepository, StoredProfile } from './profiles';
import type { Handlers } from './router';
import type { SessionManager } from './sessions';

type ProfileHandlers = Pick<
  Handlers,
  | 'profiles.list'
  | 'profiles.save'
  | 'profiles.delete'
  | 'profiles.test'
  | 'tls.inspect'
  | 'tls.trust'
  | 'session.list'
  | 'session.signIn'
  | 'session.signOut'
  | 'oauthClients.list'
  | 'oauthClients.create'
  | 'oauthClients.update'
>;

/** What these channels need: the saved connections, their sessions, a certificate reader, and who to tell. */
export interface ProfileHandlerDeps {
  profiles: Pick<ProfileRepository, 'list' | 'get' | 'save' | 'delete' | 'pin' | 'toView' | 'knownClients' | 'recordClient'>;
  sessions: Pick<SessionManager, 'get' | 'forget' | 'list' | 'signIn' | 'signOut'>;
  /** Drops what the features keep of a deleted connection (bulk jobs, stored lists, alarms). */
  forgetProfile(profileId: string): Promise<void>;
  /** The `profiles.changed` event. */
  profilesChanged(ids: string[]): void;
  /** Reads the certificate a node presents (never trusts it). */
  inspect(host: string, port: number): Promise<{ info: CertificateInfo; pem: string }>;
  logger: Logger;
}

/** The port whose certificate a profile pins: the one its auth mode talks to. */
export const trustPort = (p: StoredProfile) => (p.authMode === 'oauth' ? p.oauthPort : p.basicPort);

export function createProfileHandlers(d: ProfileHandlerDeps): ProfileHandlers {
  const changed = (...ids: string[]) => d.profilesChanged(ids);
  return {
    'profiles.list': async () => Promise.all(d.profiles.list().map((p) => d.profiles.toView(p))),
    'profiles.save': async (input) => {
      const saved = await d.profiles.save(input);
      // Whatever changed (endpoint, user, trust, secrets), the next call starts a fresh session.
      await d.sessions.forget(saved.id);
      changed(saved.id);
      return d.profiles.toView(saved);
    },
    'profiles.delete': async ({ profileId }) => {
      await d.sessions.forget(profileId);
      const deleted = await d.profiles.delete(profileId);
      if (deleted) {
        await d.forgetProfile(profileId);
        changed(profileId);
      }
      return { deleted };
    },
    'profiles.test': async ({ profileId }) => d.sessions.get(profileId).test(),

    'tls.inspect': async ({ profileId }) => {
      const p = d.profiles.get(profileId);
      return (await d.inspect(p.host, trustPort(p))).info;
    },
    'tls.trust': async ({ profileId, fingerprint256 }) => {
      const p = d.profiles.get(profileId);
      const { info, pem } = await d.inspect(p.host, trustPort(p));
      if (info.fingerprint256 !== fingerprint256.toUpperCase()) {
        throw new AppError(
          ErrorCodes.tlsPinMismatch,
          `${p.host} now presents a different certificate from the one you compared. Nothing was trusted.`,
          'Inspect the certificate again and compare the new fingerprint with the node before trusting it.',
          { details: { expected: fingerprint256, actual: info.fingerprint256, certificate: info } },
        );
      }
      const pinned = await d.profiles.pin(profileId, info.fingerprint256, pem);
      await d.sessions.forget(profileId);
      d.logger.info('certificate pinned', { profileId, fingerprint256: info.fingerprint256 });
      changed(profileId);
      return d.profiles.toView(pinned);
    },

    'session.list': async () => d.sessions.list(),
    'session.signIn': async ({ profileId }) => d.sessions.signIn(profileId),
    'session.signOut': async ({ profileId }) => d.sessions.signOut(profileId),

    'oauthClients.list': async ({ profileId }) => {
      d.profiles.get(profileId);
      return d.profiles.knownClients(profileId);
    },
    'oauthClients.create': async ({ profileId, body }) => {
      const created = await d.sessions.get(profileId).createOAuthClient(body);
      d.profiles.recordClient(profileId, created.client);
      return created;
    },
    'oauthClients.update': async ({ profileId, clientId, body }) => {
      const client = await d.sessions.get(profileId).updateOAuthClient(clientId, body);
      d.profiles.recordClient(profileId, client);
      return client;
    },
  };
}
