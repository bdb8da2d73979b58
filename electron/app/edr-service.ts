/**
 * The EDR side of the app: connector registry, SQLite store, scheduler, scoring and publication,
 * built from the platform adapters, and their life (init, start, stop). Vendor connectors are
 * created per connector by `runtimeFor` (electron/edr/runtimes.ts), which tests may replace. Each
 * job has its file: the scoring configurations (edr-risk-configs.ts), the vendor clients
 * (edr-runtimes.ts), a connector's row and the publication targets (edr-status.ts).
 */
import path from 'node:path';
import type { ConnectorStatus, CycleProgress } from '../../shared/contract';
import type { HostRecord } from '../../shared/model/edr';
import type { PublicationUpdate, PublicationView } from '../../shared/model/settings';
import { scoreHost } from '../../shared/risk';
import { notAssessedOf } from '../../shared/model/connector';
import { ScorePublisher } from '../edr/publisher';
import { ConnectorRegistry, type StoredConnector } from '../edr/registry';
import { EdrScheduler, type ConnectorRuntime } from '../edr/scheduler';
import type { Logger } from '../log';
import { ZtaService } from '../edr/zta-service';
import type { EdrStore } from '../edr/store/edr-store';
import { openEdrStore } from '../edr/store/sqlite-edr-store';
import { AppSettings } from '../store/app-settings';
import type { EventHub } from './events';
import { PublicationSettings } from './publication-settings';
import type { PlatformAdapters } from './ports';
import type { SessionManager } from './sessions';
import { RiskConfigs } from './edr-risk-configs';
import { ConnectorRuntimes } from './edr-runtimes';
import { connectorStatus, publicationTargets } from './edr-status';

export interface EdrServiceOptions {
  adapters: PlatformAdapters;
  events: EventHub;
  sessions: SessionManager;
  logger: Logger;
  runtimeFor(connector: StoredConnector, secret: () => Promise<string | undefined>): ConnectorRuntime;
  /** Where NORTHBOUND_AMQP_URL is read (default process.env; tests pass their own). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Scheduler timing (tests shorten them). */
  firstPullDelayMs?: number;
  publishDelayMs?: number;
  /** The ZTA windows' count of a search's matches stops past this many (C-79; tests lower it). */
  countCap?: number;
}

export class EdrService {
  readonly registry: ConnectorRegistry;
  readonly store: EdrStore;
  readonly scheduler: EdrScheduler;
  readonly publisher: ScorePublisher;
  /** The ZTA dashboard's reads, the what-if's rescoring and retention (edr/zta-service.ts). */
  readonly zta: ZtaService;
  /** The RabbitMQ address (settings or environment), its password in the vault. */
  readonly publication: PublicationSettings;
  private readonly riskConfigs: RiskConfigs;
  private readonly runtimes: ConnectorRuntimes;
  /** Joined to a team (C-84): this desk polls and publishes nothing until it leaves. */
  private paused = false;

  constructor(o: EdrServiceOptions) {
    const { adapters, events, logger } = o;
    const appSettings = new AppSettings(adapters.settings);
    this.riskConfigs = new RiskConfigs(logger);
    this.runtimes = new ConnectorRuntimes((c) => o.runtimeFor(c, () => this.registry.getSecret(c)));
    this.registry = new ConnectorRegistry(adapters.settings, adapters.vault);
    this.publication = new PublicationSettings({ settings: adapters.settings, vault: adapters.vault, logger: logger.child('publication'), ...(o.env ? { env: o.env } : {}) });
    // A cycle's staging and commit on a worker thread: this thread answers the window (issue 21 item 5).
    this.store = openEdrStore(path.join(adapters.dataDir, 'edr.db'), { offMain: true, ...(o.countCap !== undefined ? { countCap: o.countCap } : {}) });
    if (this.store.interruptedAtOpen) {
      logger.warn('poll cycles were interrupted when the app last stopped; they are marked interrupted (nothing of them was stored)', { cycles: this.store.interruptedAtOpen });
    }
    this.publisher = new ScorePublisher({
      store: this.store,
      targets: () => publicationTargets(this.publication, o.sessions),
      logger: logger.child('publish'),
      notAssessed: (id) => notAssessedOf(this.registry.list().find((c) => c.id === id) ?? {}),
      // The Connectors page shows "published" (or why not) as soon as an attempt ends.
      onSettled: (cycle) => events.emit('connectors.changed', { ids: [cycle.connectorId] }),
    });
    this.scheduler = new EdrScheduler({
      registry: this.registry,
      store: this.store,
      runtimeFor: (c) => this.runtimes.of(c),
      score: (host, c, now) => scoreHost(host, this.riskConfigs.of(c), now),
      publish: (cycleId) => this.publisher.publishCycle(cycleId),
      onProgress: (p: CycleProgress) => {
        events.emit('edr.progress', p);
        this.zta.onProgress(p);
      },
      logger: logger.child('scheduler'),
      ...(o.firstPullDelayMs !== undefined ? { firstPullDelayMs: o.firstPullDelayMs } : {}),
      ...(o.publishDelayMs !== undefined ? { publishDelayMs: o.publishDelayMs } : {}),
    });
    this.zta = new ZtaService({
      store: this.store,
      registry: this.registry,
      scheduler: this.scheduler,
      logger: logger.child('zta'),
      retentionDays: () => appSettings.current().riskHistoryDays,
    });
    this.registry.onChange((ids) => events.emit('connectors.changed', { ids }));
    // A node signed in: scores kept while there was no publication target go out now.
    events.subscribe((event, payload) => {
      if (event === 'session.changed' && (payload as { state?: string }).state === 'signed-in' && !this.paused) void this.publisher.publishPending();
    });
  }

  /** Before start: an address stored with its password moves the password to the vault. */
  async init(): Promise<void> {
    await this.publication.init();
  }

  start(): void {
    if (this.paused) return;
    this.scheduler.start();
    void this.publisher.publishPending();
  }

  /** A console joined a team (C-84): no cycle runs and nothing is published; running cycles are cancelled (nothing of them is stored). */
  async pause(): Promise<void> {
    this.paused = true;
    await this.scheduler.stop();
  }

  /** Left the team: the desk's own connectors are scheduled again and what waits is published. */
  resume(): void {
    this.paused = false;
    this.start();
  }

  /** publication.update: the next publication uses the new address; scores waiting for a target go out now. */
  async updatePublication(req: PublicationUpdate): Promise<PublicationView> {
    const view = await this.publication.update(req);
    if (view.amqp.active !== 'none' && !this.paused) void this.publisher.publishPending();
    return view;
  }

  runtimeOf(connectorId: string): ConnectorRuntime {
    return this.runtimes.of(this.registry.get(connectorId));
  }

  async status(c: StoredConnector): Promise<ConnectorStatus> {
    return connectorStatus(await this.registry.view(c), this.scheduler.status(c.id), await this.store.lastCycle(c.id));
  }

  /** Scores hosts without storing them (the CLI's one-shot poll). */
  score(host: HostRecord, c: StoredConnector, now: Date) {
    return scoreHost(host, this.riskConfigs.of(c), now);
  }

  async stop(): Promise<void> {
    await this.scheduler.stop();
    await this.publisher.stop();
    await this.runtimes.closeAll();
    await this.store.close();
  }
}
