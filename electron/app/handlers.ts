/** The implementation of every channel of the contract, in one table. */
import type { DemoStatus } from '../../shared/contract';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { CertificateInfo } from '../../shared/model/profile';
import type { Logger } from '../log';
import type { PlatformAdapters } from './ports';
import type { StoredProfile } from './profiles';
import type { Handlers } from './router';
import type { App } from './services';
import { createConnectorHandlers } from './connector-handlers';
import { createInventoryHandlers } from './inventory-handlers';
import { createZtaHandlers } from './zta-handlers';
import { createSettingsHandlers } from './settings-handlers';
import { createAlarmHandlers } from './alarm-handlers';
import { createOverviewHandlers } from './overview-handlers';
import { OverviewService } from './overview';

/** The app's services (as createApp builds them) and what the handlers need besides. */
export interface HandlerDeps extends Pick<App, 'profiles' | 'sessions' | 'demo' | 'edr' | 'inventory' | 'bulk' | 'ztaExports' | 'alarms' | 'events'> {
  adapters: PlatformAdapters;
  logger: Logger;
  /** Reads the certificate a node presents (never trusts it). */
  inspect(host: string, port: number): Promise<{ info: CertificateInfo; pem: string }>;
}

/** The port whose certificate a profile pins: the one its auth mode talks to. */
export const trustPort = (p: StoredProfile) => (p.authMode === 'oauth' ? p.oauthPort : p.basicPort);

export function createHandlers(d: HandlerDeps): Handlers {
  const changed = (...ids: string[]) => d.events.emit('profiles.changed', { ids });
  const demoStatus = (): DemoStatus => d.demo.status();

  return {
    'app.info': async () => ({
      name: 'Northbound',
      version: d.adapters.version,
      mode: d.adapters.mode,
      firstRun: d.profiles.list().length === 0,
      demoRunning: demoStatus().running,
      secretsPersist: d.adapters.vault.persistent,
      secretStorage: d.adapters.vault.kind,
      dataDir: d.adapters.dataDir,
      canOpenDataDir: Boolean(d.adapters.openDataDir),
    }),
    // A saved RabbitMQ address changes where the alarm sources consume from.
    ...createSettingsHandlers(d.adapters, d.edr, () => void d.alarms.reconfigure()),

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
        d.bulk.cancelProfile(profileId);
        await d.inventory.forgetProfile(profileId);
        await d.alarms.forgetProfile(profileId);
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

    ...createConnectorHandlers(d.edr, d.sessions),
    ...createInventoryHandlers(d.inventory, d.bulk, d.profiles),
    ...createZtaHandlers(d.edr, d.ztaExports, d.adapters),
    ...createAlarmHandlers(d.alarms, d.profiles),
    ...createOverviewHandlers(new OverviewService(d)),

    'demo.status': async () => demoStatus(),
    'demo.open': async () => d.demo.open(),
  };
}
