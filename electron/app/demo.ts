/**
 * The demo workspace: the built-in management node simulator, started inside the app, and two
 * profiles connected to it (OAuth and basic auth) with the simulator's seeded credentials.
 * The app started the simulator itself and holds its certificate, so pinning it is not
 * trusting an unknown certificate. Demo profiles are refreshed at every start (new certificate,
 * new random credentials).
 */
import type { DemoStatus } from '../../shared/contract';
import type { MgmtSimulator } from '@northbound/simulators/demo';
import type { Logger } from '../log';
import type { EventHub } from './events';
import type { ProfileRepository, StoredProfile } from './profiles';
import type { SessionManager } from './sessions';
import type { DemoEdr } from './demo-edr';
import { loadDemoSimulators, type SimulatorsLoader } from './demo-simulators';

export interface DemoDeps {
  profiles: ProfileRepository;
  sessions: SessionManager;
  events: EventHub;
  logger: Logger;
  ports: { basic: number; oauth: number };
  /** EDR simulators and connectors of the demo (optional). */
  edr?: DemoEdr;
  /** How many organizations and devices the demo node is seeded with (simulator defaults otherwise). */
  inventory?: DemoInventorySeed;
  /** The broker the demo node publishes its alarm events to, when one is configured. */
  alarmBroker?: () => Promise<{ url: string; exchange: string } | undefined>;
  /** Where the simulators come from (default: the plain ones, loaded when the demo opens). */
  simulators?: SimulatorsLoader;
}

export { loadDemoSimulators, type DemoSimulators, type SimulatorsLoader } from './demo-simulators';

/** The demo node's alarms: a change every two seconds or so, and now and then a flapping interface. */
/** The demo's alarms: a change every 2 s around a steady 30-odd active alarms (issue 22.12), and a flapping interface now and then. */
export const DEMO_ALARM_GENERATOR = { ratePerSecond: 0.5, flapEveryMs: 30_000, seed: 7, steadyActive: 30 } as const;

export interface DemoInventorySeed {
  organizations?: number;
  devices?: number;
}

export const DEMO_OAUTH_NAME = 'Demo node (OAuth)';
export const DEMO_BASIC_NAME = 'Demo node (basic auth)';

export class DemoWorkspace {
  private sim: MgmtSimulator | undefined;
  private starting: Promise<DemoStatus> | undefined;
  private ids: { oauth?: string; basic?: string } = {};

  constructor(private readonly deps: DemoDeps) {}

  /** The running simulator (tests and the CLI read its credentials from here). */
  get simulator(): MgmtSimulator | undefined {
    return this.sim;
  }

  status(): DemoStatus {
    if (!this.sim) return { running: false };
    return {
      running: true,
      ...(this.ids.basic ? { profileId: this.ids.basic } : {}),
      ...(this.ids.oauth ? { oauthProfileId: this.ids.oauth } : {}),
      mgmtBasicUrl: this.sim.basicUrl,
      mgmtOauthUrl: this.sim.oauthUrl,
      fingerprint256: this.sim.fingerprint256,
    };
  }

  hasDemoProfiles(): boolean {
    return this.deps.profiles.list().some((p) => p.demo);
  }

  open(): Promise<DemoStatus> {
    if (this.sim) return Promise.resolve(this.status());
    this.starting ??= this.start().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async startSimulator(): Promise<MgmtSimulator> {
    const { basic, oauth } = this.deps.ports;
    const broker = await this.deps.alarmBroker?.();
    const seed = {
      seedOrganizations: this.deps.inventory?.organizations,
      seedDevices: this.deps.inventory?.devices,
      alarms: { generator: { ...DEMO_ALARM_GENERATOR }, ...(broker ? { amqp: { url: broker.url, exchange: broker.exchange } } : {}) },
    };
    const { startMgmtSimulator } = await (this.deps.simulators ?? loadDemoSimulators)();
    try {
      return await startMgmtSimulator({ basicPort: basic, oauthPort: oauth, ...seed, logger: this.deps.logger.child('simulator') });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE' || (basic === 0 && oauth === 0)) throw e;
      this.deps.logger.warn('demo ports busy, using free ports', { basic, oauth });
      return startMgmtSimulator({ basicPort: 0, oauthPort: 0, ...seed, logger: this.deps.logger.child('simulator') });
    }
  }

  private async start(): Promise<DemoStatus> {
    const sim = await this.startSimulator();
    this.sim = sim;
    const admin = sim.users.find((u) => u.role === 'admin');
    const operator = sim.users.find((u) => u.role === 'operator') ?? admin;
    if (!admin || !operator) throw new Error('simulator has no admin user');
    const port = (url: string) => Number(new URL(url).port);
    const existing = this.deps.profiles.list().filter((p) => p.demo);
    const upsert = async (name: string, fields: { authMode: 'basic' | 'oauth'; username: string; password: string; clientSecret?: string; oauthClientId?: string }): Promise<StoredProfile> => {
      const prior = existing.find((p) => p.name === name);
      const saved = await this.deps.profiles.save(
        {
          ...(prior ? { id: prior.id } : {}),
          name,
          host: '127.0.0.1',
          basicPort: port(sim.basicUrl),
          oauthPort: port(sim.oauthUrl),
          authMode: fields.authMode,
          username: fields.username,
          ...(fields.oauthClientId ? { oauthClientId: fields.oauthClientId } : {}),
          tls: { mode: 'pinned' },
          password: fields.password,
          ...(fields.clientSecret ? { clientSecret: fields.clientSecret } : {}),
        },
        { demo: true, trust: { mode: 'pinned', fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem } },
      );
      await this.deps.sessions.forget(saved.id);
      return saved;
    };
    const oauthProfile = await upsert(DEMO_OAUTH_NAME, {
      authMode: 'oauth',
      username: admin.username,
      password: admin.password,
      oauthClientId: sim.bootstrapClient.clientId,
      clientSecret: sim.bootstrapClient.clientSecret,
    });
    const basicProfile = await upsert(DEMO_BASIC_NAME, { authMode: 'basic', username: operator.username, password: operator.password });
    this.ids = { oauth: oauthProfile.id, basic: basicProfile.id };
    this.deps.events.emit('profiles.changed', { ids: [oauthProfile.id, basicProfile.id] });
    this.deps.logger.info('demo workspace open', { basicUrl: sim.basicUrl, oauthUrl: sim.oauthUrl });
    try {
      await this.deps.sessions.signIn(oauthProfile.id);
    } catch (e) {
      this.deps.logger.warn('demo sign-in failed', { error: String(e) });
    }
    try {
      if (this.deps.edr) {
        await this.deps.edr.start();
        sim.edrConnectorDocument.current = this.deps.edr.bulkDocument();
      }
    } catch (e) {
      this.deps.logger.warn('demo EDR simulators failed to start', { error: String(e) });
    }
    const status = this.status();
    this.deps.events.emit('demo.changed', status);
    return status;
  }

  /** The demo's EDR simulators and connectors, when the demo includes them. */
  get edr(): DemoEdr | undefined {
    return this.deps.edr;
  }

  async close(): Promise<void> {
    const sim = this.sim;
    this.sim = undefined;
    await this.deps.edr?.close();
    if (sim) await sim.close();
  }
}
