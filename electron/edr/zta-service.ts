/**
 * The ZTA dashboard's side of main (issue 11), one job a file: the connectors and their health
 * (zta-connectors.ts), the snapshot the window filters and rescores (zta-snapshot.ts), a host's
 * details and history (zta-host.ts), the trend and the changes of the newest cycles
 * (zta-overview.ts), the what-if's Save (zta-what-if.ts) and retention after each cycle
 * (zta-retention.ts). Everything reads the feature's store, so it all works offline.
 */
import type { CycleProgress } from '../../shared/contract';
import type { ZtaConnector, ZtaFilter, ZtaHostDetail, ZtaOverview, ZtaSnapshot } from '../../shared/model/zta';
import type { ApplyRiskResult, ZtaCounts, ZtaFacets, ZtaWindow } from '../../shared/contract-zta';
import type { Platform } from '../../shared/model/edr';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { PLATFORMS, newestAsOf } from '../../shared/model/zta';
import type { HostCountsQuery, HostWindowQuery } from '../../shared/model/zta-window';
import type { Logger } from '../log';
import type { ConnectorRegistry } from './registry';
import type { EdrScheduler } from './scheduler';
import type { EdrStore } from './store/edr-store';
import { ztaConnectors } from './zta-connectors';
import { ztaHostDetail } from './zta-host';
import { ztaOverview } from './zta-overview';
import { EdrRetention } from './zta-retention';
import { ztaSnapshot } from './zta-snapshot';
import { storeExportSource, type ExportSource } from './zta-export-source';
import { applyRisk } from './zta-what-if';

export { RESCORE_BATCH } from './zta-what-if';

export interface ZtaServiceOptions {
  store: EdrStore;
  registry: ConnectorRegistry;
  /** Whether a cycle runs, and the what-if's rescoring (the CLI's export passes one that runs nothing). */
  scheduler: Pick<EdrScheduler, 'status' | 'rescore'>;
  logger: Logger;
  /** The retention setting in days (Settings → Risk history, `riskHistoryDays`), read when pruning. */
  retentionDays(): number;
  now?: () => Date;
  /** Every connector the store holds cycles of is shown, named from them (a team's store: zta-connectors.ts). */
  everyStored?: boolean;
}

export class ZtaService {
  private readonly retention: EdrRetention;

  constructor(private readonly o: ZtaServiceOptions) {
    this.retention = new EdrRetention({ store: o.store, logger: o.logger, retentionDays: o.retentionDays, now: o.now ?? (() => new Date()) });
  }

  /** Every connector with its newest completed cycle and how its data stands (EDR-Z10). */
  connectors(): Promise<ZtaConnector[]> {
    return ztaConnectors(this.o);
  }

  /** The latest scores of every connector's newest completed cycle (or of one connector's: the what-if), columnar. */
  async snapshot(connectorId?: string): Promise<ZtaSnapshot> {
    const all = await this.connectors();
    if (connectorId === undefined) return ztaSnapshot(this.o.store, all);
    const one = all.filter((c) => c.connectorId === connectorId);
    if (one.length === 0) throw new AppError(ErrorCodes.notFound, 'That connector is not registered (any more).', 'Choose another tenant.');
    return ztaSnapshot(this.o.store, one);
  }

  /** The export's rows, streamed from the store `batch` hosts at a time (C-86), never the whole snapshot. */
  exportSource(batch?: number): ExportSource {
    return storeExportSource({ store: this.o.store, connectors: () => this.connectors(), ...(batch !== undefined ? { batch } : {}) });
  }

  /** The connectors and their newest cycles' hosts by customer and platform (C-78): no host is read. */
  async facets(): Promise<ZtaFacets> {
    const connectors = await this.connectors();
    const index = new Map<number, number>();
    connectors.forEach((c, i) => c.cycleId !== null && index.set(c.cycleId, i));
    const groups = (await this.o.store.cycleGroups([...index.keys()])).map((g) => ({
      connector: index.get(g.cycleId)!,
      customerId: g.customerId,
      platform: (PLATFORMS as readonly string[]).includes(g.platform) ? (g.platform as Platform) : 'Other',
      hosts: g.hosts,
    }));
    return { asOf: newestAsOf(connectors), connectors, groups };
  }

  /** A window of the latest hosts, filtered, searched and sorted in the store (issue 25.3). */
  async window(q: HostWindowQuery): Promise<ZtaWindow> {
    const w = await this.o.store.hostWindow(q);
    return { rows: w.rows, total: w.total, exact: w.exact };
  }

  /** The hosts the filter and search choose, by band and by customer → platform. */
  async counts(q: HostCountsQuery): Promise<ZtaCounts> {
    return this.o.store.hostCounts(q);
  }

  hostDetail(connectorId: string, hostId: string): Promise<ZtaHostDetail> {
    return ztaHostDetail(this.o, connectorId, hostId);
  }

  /** The trend of band counts and the changes of each connector's newest cycle, for the filters shown. */
  async overview(f: ZtaFilter): Promise<ZtaOverview> {
    return ztaOverview(this.o.store, await this.connectors(), f);
  }

  /** The what-if's Save: answers the rescore cycle, or null when there was nothing to rescore. */
  applyRisk(connectorId: string, risk: unknown): Promise<ApplyRiskResult> {
    return applyRisk(this.o, connectorId, risk);
  }

  /** After a cycle completes: retention, at most once an hour. */
  onProgress(p: CycleProgress): void {
    this.retention.onProgress(p);
  }

  prune(now?: Date): Promise<void> {
    return this.retention.prune(now);
  }
}
