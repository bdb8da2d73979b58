/**
 * The Overview page's side of main (issue 13): one answer for the whole page, read from the three
 * stores with SQL aggregates — alarms per severity and organization (alarms.db), hosts per band of
 * each connector's newest cycle and the trend (edr.db's cycle aggregates), the hosts that entered
 * High Risk, devices per deployment status (inventory.db) — and each connector's health. Each part
 * says when its numbers were true, or that they are not known (C-40). Nothing here calls a node or
 * a vendor, so it answers offline.
 */
import type { Overview, OverviewAlarms, OverviewBadges, OverviewConnection, OverviewConnector, OverviewDevices, OverviewRisk } from '../../shared/model/overview';
import { OVERVIEW_LISTED, OVERVIEW_ORGANIZATIONS } from '../../shared/model/overview';
import type { HostMove, ZtaConnector } from '../../shared/model/zta';
import type { AlarmService } from '../alarms/service';
import type { InventoryService } from '../inventory/service';
import type { DemoWorkspace } from './demo';
import type { EdrService } from './edr-service';
import type { ProfileRepository } from './profiles';
import type { SessionManager } from './sessions';

/** Cycles the trend chart shows. */
export const OVERVIEW_TREND_CYCLES = 30;

export interface OverviewDeps {
  profiles: ProfileRepository;
  sessions: SessionManager;
  alarms: Pick<AlarmService, 'criticalUnacknowledged' | 'overview' | 'isRunning'>;
  /** The desk's EDR, or a joined console's team stores (C-84): the same reads. */
  edr: Pick<EdrService, 'zta' | 'store' | 'registry'> & { scheduler: { status(id: string): Pick<ReturnType<EdrService['scheduler']['status']>, 'running' | 'nextCycleAt'> | Promise<Pick<ReturnType<EdrService['scheduler']['status']>, 'running' | 'nextCycleAt'>> } };
  inventory: InventoryService;
  demo: DemoWorkspace;
  now?: () => Date;
}

export class OverviewService {
  private readonly now: () => Date;

  constructor(private readonly d: OverviewDeps) {
    this.now = d.now ?? (() => new Date());
  }

  /** The chosen connection, when it still exists (a deleted one reads as none: the page still answers). */
  private connection(profileId: string | undefined): OverviewConnection | null {
    const p = profileId === undefined ? undefined : this.d.profiles.list().find((x) => x.id === profileId);
    if (!p) return null;
    return { profileId: p.id, name: p.name, signedIn: this.d.sessions.status(p.id).state === 'signed-in' };
  }

  async get(profileId?: string): Promise<Overview> {
    const generatedAt = this.now().toISOString();
    const connection = this.connection(profileId);
    const connectors = await this.d.edr.zta.connectors();
    return {
      generatedAt,
      connection,
      setup: { connections: this.d.profiles.list().length, connectors: connectors.length, demoRunning: this.d.demo.status().running },
      alarms: await this.alarms(connection, generatedAt),
      risk: await this.risk(connectors),
      devices: await this.devices(connection),
      connectors: await Promise.all(connectors.map((c) => this.connector(c))),
    };
  }

  async badges(profileId?: string): Promise<OverviewBadges> {
    const connection = this.connection(profileId);
    const scored = (await this.d.edr.zta.connectors()).flatMap((c) => (c.cycleId === null ? [] : [c.cycleId]));
    return {
      criticalUnacknowledged: connection ? ((await this.d.alarms.criticalUnacknowledged(connection.profileId)) ?? null) : null,
      highRisk: scored.length > 0 ? (await this.d.edr.store.bandTotals(scored))['High Risk'] : null,
    };
  }

  private async alarms(connection: OverviewConnection | null, now: string): Promise<OverviewAlarms> {
    if (!connection) return { state: 'no-connection' };
    const o = await this.d.alarms.overview(connection.profileId);
    if (!o) return { state: 'never', collecting: this.d.alarms.isRunning(connection.profileId) };
    return {
      state: 'known',
      // Live: true now; otherwise as of the last time the node was heard.
      asOf: o.live ? now : new Date(o.heardMs).toISOString(),
      live: o.live,
      source: o.source,
      active: o.active,
      unacknowledged: o.unacknowledged,
      organizations: o.organizations.slice(0, OVERVIEW_ORGANIZATIONS),
      moreOrganizations: Math.max(0, o.organizations.length - OVERVIEW_ORGANIZATIONS),
    };
  }

  private async risk(connectors: readonly ZtaConnector[]): Promise<OverviewRisk> {
    if (connectors.length === 0) return { state: 'no-connectors' };
    const scored = connectors.filter((c): c is ZtaConnector & { cycleId: number; asOf: string } => c.cycleId !== null && c.asOf !== null);
    if (scored.length === 0) return { state: 'never', connectors: connectors.length };
    const store = this.d.edr.store;
    const bands = await store.bandTotals(scored.map((c) => c.cycleId));
    const asOfs = scored.map((c) => c.asOf).sort();
    const entered: HostMove[] = [];
    let since: string | undefined;
    let notCompared = 0;
    for (const c of scored) {
      const previous = await store.previousCycle(c.connectorId, c.cycleId);
      if (!previous) {
        notCompared += 1;
        continue;
      }
      if (since === undefined || previous.at < since) since = previous.at;
      entered.push(...(await store.changes(c.connectorId, c.cycleId)).enteredHighRisk);
    }
    return {
      state: 'known',
      asOf: asOfs[asOfs.length - 1]!,
      oldestAsOf: asOfs[0]!,
      scored: scored.length,
      connectors: connectors.length,
      hosts: Object.values(bands).reduce((a, b) => a + b, 0),
      bands,
      trend: await store.trend({ connectors: new Set(connectors.map((c) => c.connectorId)) }, OVERVIEW_TREND_CYCLES),
      entered:
        since === undefined
          ? { state: 'first-cycle' }
          : {
              state: 'known',
              count: entered.length,
              hosts: entered.sort((a, b) => b.to.score - a.to.score || a.hostname.localeCompare(b.hostname)).slice(0, OVERVIEW_LISTED),
              since,
              notCompared,
            },
    };
  }

  private async devices(connection: OverviewConnection | null): Promise<OverviewDevices> {
    if (!connection) return { state: 'no-connection' };
    const store = this.d.inventory.store;
    const fetchedAt = await store.fetchedAt(connection.profileId, 'devices');
    if (fetchedAt === null) return { state: 'never' };
    const { total, ...byStatus } = await store.deploymentCounts(connection.profileId);
    return { state: 'known', asOf: fetchedAt, total, byStatus, failed: await store.failedDeployments(connection.profileId, OVERVIEW_LISTED) };
  }

  private async connector(c: ZtaConnector): Promise<OverviewConnector> {
    const registered = this.d.edr.registry.list().find((r) => r.id === c.connectorId);
    const schedule = await this.d.edr.scheduler.status(c.connectorId);
    const cycle = c.cycleId === null ? undefined : await this.d.edr.store.cycle(c.cycleId);
    return {
      connectorId: c.connectorId,
      name: c.name,
      vendor: c.vendor,
      // A tenant only the command line polled is not scheduled here.
      enabled: registered?.enabled ?? false,
      health: c.health,
      running: schedule.running,
      asOf: c.asOf,
      hosts: c.cycleId === null ? null : c.hosts,
      lastAttemptAt: c.lastAttemptAt,
      lastError: c.lastError,
      nextCycleAt: schedule.nextCycleAt ?? null,
      publication: !cycle ? { state: 'none' } : cycle.publishedAt ? { state: 'published', at: cycle.publishedAt } : { state: 'waiting', reason: cycle.publishError },
    };
  }
}
