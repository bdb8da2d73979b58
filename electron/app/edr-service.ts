/**
 * The EDR side of the app: connector registry, SQLite store, scheduler, scoring and publication,
 * built from the platform adapters. Vendor connectors are created per connector by
 * `runtimeFor` (electron/edr/runtimes.ts), which tests may replace.
 */
import path from 'node:path';
import type { ConnectorStatus, CycleProgress } from '../../shared/contract';
import type { HostRecord } from '../../shared/model/edr';
import type { PublicationUpdate, PublicationView } from '../../shared/model/settings';
import { compileRiskConfig, defaultRiskConfig, scoreHost, tenantRiskConfig, type CompiledRiskConfig } from '../../shared/risk';
import { ScorePublisher, type PublishTarget } from '../edr/publisher';
import { ConnectorRegistry, type StoredConnector } from '../edr/registry';
import { EdrScheduler, type ConnectorRuntime } from '../edr/scheduler';
import { amqpTarget, mgmtTarget } from '../edr/targets';
import type { Logger } from '../log';
import { ZtaService } from '../edr/zta-service';
import { EdrStore } from '../store/edr-db';
import { SETTINGS_KEY, readSettings } from './settings-handlers';
import type { EventHub } from './events';
import { PublicationSettings } from './publication-settings';
import type { PlatformAdapters } from './ports';
import type { SessionManager } from './sessions';

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
  /** Per connector: the overrides (as JSON) the compiled configuration was made from, and the last connector object seen. */
  private readonly compiled = new Map<string, { key: string; seen: StoredConnector; config: CompiledRiskConfig }>();
  private readonly runtimes = new Map<string, { key: string; runtime: ConnectorRuntime }>();

  constructor(private readonly o: EdrServiceOptions) {
    const { adapters, events, logger } = o;
    this.registry = new ConnectorRegistry(adapters.settings, adapters.vault);
    this.publication = new PublicationSettings({ settings: adapters.settings, vault: adapters.vault, logger: logger.child('publication'), ...(o.env ? { env: o.env } : {}) });
    // A cycle's staging and commit on a worker thread: this thread answers the window (issue 21 item 5).
    this.store = new EdrStore(path.join(adapters.dataDir, 'edr.db'), { offMain: true });
    if (this.store.interruptedAtOpen) {
      logger.warn('poll cycles were interrupted when the app last stopped; they are marked interrupted (nothing of them was stored)', { cycles: this.store.interruptedAtOpen });
    }
    this.publisher = new ScorePublisher({
      store: this.store,
      targets: () => this.targets(),
      logger: logger.child('publish'),
      // The Connectors page shows "published" (or why not) as soon as an attempt ends.
      onSettled: (cycle) => events.emit('connectors.changed', { ids: [cycle.connectorId] }),
    });
    this.scheduler = new EdrScheduler({
      registry: this.registry,
      store: this.store,
      runtimeFor: (c) => this.runtime(c),
      score: (host, c, now) => scoreHost(host, this.riskConfig(c), now),
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
      retentionDays: () => readSettings(adapters.settings.get(SETTINGS_KEY)).riskHistoryDays,
    });
    this.registry.onChange((ids) => events.emit('connectors.changed', { ids }));
    // A node signed in: scores kept while there was no publication target go out now.
    events.subscribe((event, payload) => {
      if (event === 'session.changed' && (payload as { state?: string }).state === 'signed-in') void this.publisher.publishPending();
    });
  }

  /** Before start: an address stored with its password moves the password to the vault. */
  async init(): Promise<void> {
    await this.publication.init();
  }

  start(): void {
    this.scheduler.start();
    void this.publisher.publishPending();
  }

  /** publication.update: the next publication uses the new address; scores waiting for a target go out now. */
  async updatePublication(req: PublicationUpdate): Promise<PublicationView> {
    const view = await this.publication.update(req);
    if (view.amqp.active !== 'none') void this.publisher.publishPending();
    return view;
  }

  private runtime(c: StoredConnector): ConnectorRuntime {
    const key = JSON.stringify([c.updatedAt, c.vendor, c.tenantId, c.clientId, c.apiUrl, c.cloudRegion, c.tls]);
    const cached = this.runtimes.get(c.id);
    if (cached?.key === key) return cached.runtime;
    void cached?.runtime.close?.();
    const runtime = this.o.runtimeFor(c, () => this.registry.getSecret(c));
    this.runtimes.set(c.id, { key, runtime });
    return runtime;
  }

  runtimeOf(connectorId: string): ConnectorRuntime {
    return this.runtime(this.registry.get(connectorId));
  }

  /**
   * Per-tenant scoring configuration: the documented defaults merged with the connector's stored
   * overrides, compiled once per distinct overrides (called per host, so the same connector object
   * is answered without looking at the overrides again). Stored overrides that fail validation
   * (the save path refuses them; an older or hand-edited settings file could still hold them) do
   * not stop the cycle: the defaults are used and a warning is logged once per such configuration.
   */
  private riskConfig(c: StoredConnector): CompiledRiskConfig {
    const cached = this.compiled.get(c.id);
    if (cached?.seen === c) return cached.config;
    const key = JSON.stringify(c.risk ?? null);
    if (cached?.key === key) {
      cached.seen = c;
      return cached.config;
    }
    const merged = tenantRiskConfig(c.risk);
    let config: CompiledRiskConfig;
    if (merged.ok) {
      config = compileRiskConfig(merged.value);
    } else {
      this.o.logger.warn('stored risk scoring settings are not valid; scoring with the defaults', {
        connectorId: c.id,
        tenantId: c.tenantId,
        issues: merged.error.issues.map((i) => `risk${i.path ? `.${i.path}` : ''}: ${i.message}`),
      });
      config = compileRiskConfig(defaultRiskConfig);
    }
    this.compiled.set(c.id, { key, seen: c, config });
    return config;
  }

  /**
   * RabbitMQ when configured (NORTHBOUND_AMQP_URL, or the setting `edr.amqpUrl` with its password
   * from the vault, read at each send), and the first signed-in management node.
   */
  private targets(): PublishTarget[] {
    const out: PublishTarget[] = [];
    if (this.publication.configured()) out.push(amqpTarget({ url: () => this.publication.connectUrl() }));
    const signedIn = this.o.sessions.list().find((s) => s.state === 'signed-in');
    if (signedIn) {
      const session = this.o.sessions.get(signedIn.profileId);
      out.push(mgmtTarget(signedIn.profileId, (m, p, b) => session.request(m, p, b)));
    }
    return out;
  }

  async status(c: StoredConnector): Promise<ConnectorStatus> {
    const view = await this.registry.view(c);
    const s = this.scheduler.status(c.id);
    const last = this.store.lastCycle(c.id);
    return {
      ...view,
      running: s.running,
      ...(s.progress ? { progress: s.progress } : {}),
      ...(s.nextCycleAt ? { nextCycleAt: s.nextCycleAt } : {}),
      ...(last
        ? {
            lastCycle: {
              id: last.id,
              status: last.status,
              startedAt: last.startedAt,
              finishedAt: last.finishedAt,
              hosts: last.hosts,
              error: last.error,
              publishedAt: last.publishedAt,
              ...(last.publishError ? { publishError: last.publishError } : {}),
            },
          }
        : {}),
    };
  }

  /** Scores hosts without storing them (the CLI's one-shot poll). */
  score(host: HostRecord, c: StoredConnector, now: Date) {
    return scoreHost(host, this.riskConfig(c), now);
  }

  async stop(): Promise<void> {
    await this.scheduler.stop();
    for (const { runtime } of this.runtimes.values()) await runtime.close?.().catch(() => undefined);
    this.runtimes.clear();
    await this.store.close();
  }
}
