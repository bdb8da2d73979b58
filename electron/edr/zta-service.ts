/**
 * The ZTA dashboard's side of main (issue 11): the snapshot the window filters and rescores, a
 * host's details and history, the trend and the changes of the newest cycles, the what-if's Save
 * (risk settings stored, the stored hosts rescored as a cycle of kind `rescore`, published like a
 * poll), and retention after each cycle. Everything reads edr.db, so it all works offline.
 */
import type { CycleProgress } from '../../shared/contract';
import { AppError, ErrorCodes, isTransportFailure } from '../../shared/model/errors';
import {
  COLUMN_KEYS,
  type ConnectorHealth,
  type ZtaColumns,
  type ZtaConnector,
  type ZtaFilter,
  type ZtaHostDetail,
  type ZtaOverview,
  type ZtaSnapshot,
} from '../../shared/model/zta';
import type { HostRecord } from '../../shared/model/edr';
import { defaultRiskConfig, tenantRiskConfig } from '../../shared/risk';
import type { Logger } from '../log';
import type { EdrStore } from '../store/edr-db';
import { DEFAULT_RETENTION_DAYS } from '../store/edr-retention';
import { findRegisteredConnector } from '../../shared/model/connector-secret';
import { defaultConnectorName, isCliConnectorId } from './connector-ids';
import type { ConnectorRegistry, StoredConnector } from './registry';
import type { ConnectorRuntime, EdrScheduler } from './scheduler';

export const RESCORE_BATCH = 2_000;
/** Retention runs at most this often (after a cycle completes). */
const PRUNE_EVERY_MS = 60 * 60_000;

export interface ZtaServiceOptions {
  store: EdrStore;
  registry: ConnectorRegistry;
  /** Whether a cycle runs, and the what-if's rescoring (the CLI's export passes one that runs nothing). */
  scheduler: Pick<EdrScheduler, 'status' | 'rescore'>;
  logger: Logger;
  /** The retention setting in days (Settings → Risk history, `riskHistoryDays`), read when pruning. */
  retentionDays(): number;
  now?: () => Date;
}

/** A connector as the views know it: registered, or only stored by the CLI (no risk overrides then). */
type ShownConnector = Pick<StoredConnector, 'id' | 'name' | 'vendor' | 'tenantId' | 'risk'>;

export class ZtaService {
  private lastPrune = 0;
  private readonly now: () => Date;

  constructor(private readonly o: ZtaServiceOptions) {
    this.now = o.now ?? (() => new Date());
  }

  /**
   * The connectors the views show: every registered one, then every tenant the CLI stored into
   * this folder without it being registered (EDR-Z8: named from the store; once the tenant is
   * registered its connector stands for it). A deleted connector's rows stay hidden.
   */
  private shown(latest: ReadonlyMap<string, { cycleId: number }>): ShownConnector[] {
    const registered = this.o.registry.list();
    const out: ShownConnector[] = [...registered];
    for (const [connectorId, l] of latest) {
      if (!isCliConnectorId(connectorId) || registered.some((c) => c.id === connectorId)) continue;
      const cycle = this.o.store.cycle(l.cycleId);
      if (!cycle || findRegisteredConnector(registered, { vendor: cycle.vendor, tenantId: cycle.tenantId })) continue;
      out.push({ id: connectorId, name: defaultConnectorName(cycle), vendor: cycle.vendor, tenantId: cycle.tenantId });
    }
    return out;
  }

  /** Every connector with its newest completed cycle and how its data stands (EDR-Z10). */
  connectors(): ZtaConnector[] {
    const latest = new Map(this.o.store.views.latestCycles().map((c) => [c.connectorId, c]));
    return this.shown(latest).map((c): ZtaConnector => {
      const done = latest.get(c.id);
      const last = this.o.store.lastCycle(c.id);
      const running = this.o.scheduler.status(c.id).running;
      const attempt = last && last.id !== done?.cycleId && last.status !== 'running' && last.status !== 'completed' ? last : undefined;
      let health: ConnectorHealth = done ? 'online' : 'never';
      if (running) health = 'running';
      else if (attempt?.status === 'failed') health = attempt.errorCode && isTransportFailure(attempt.errorCode) ? 'offline' : 'failing';
      return {
        connectorId: c.id,
        name: c.name,
        vendor: c.vendor,
        tenantId: c.tenantId,
        cycleId: done?.cycleId ?? null,
        asOf: done?.finishedAt ?? null,
        kind: done?.kind ?? null,
        hosts: done?.hosts ?? 0,
        health,
        lastAttemptAt: attempt ? (attempt.finishedAt ?? attempt.startedAt) : null,
        lastError: attempt?.error ?? null,
      };
    });
  }

  /** The latest scores of every connector's newest completed cycle, columnar. */
  snapshot(): ZtaSnapshot {
    const connectors = this.connectors();
    const rows = Object.fromEntries(COLUMN_KEYS.map((k) => [k, []])) as unknown as ZtaColumns;
    const customers: string[] = [];
    const customerIds = new Map<string, number>();
    const customerIndex = (id: string) => {
      let i = customerIds.get(id);
      if (i === undefined) {
        i = customers.push(id) - 1;
        customerIds.set(id, i);
      }
      return i;
    };
    connectors.forEach((c, i) => {
      if (c.cycleId !== null) this.o.store.views.appendRows(rows, c.cycleId, i, customerIndex);
    });
    const asOf = connectors.reduce<string | null>((max, c) => (c.asOf && (!max || c.asOf > max) ? c.asOf : max), null);
    return { asOf, connectors, customers, rows };
  }

  hostDetail(connectorId: string, hostId: string): ZtaHostDetail {
    const c = this.shown(new Map(this.o.store.views.latestCycles().map((x) => [x.connectorId, x]))).find((x) => x.id === connectorId) ?? this.o.registry.get(connectorId);
    const row = this.o.store.views.host(connectorId, hostId);
    if (!row) throw new AppError(ErrorCodes.notFound, `No stored score for host ${hostId}.`, 'The host may have left the tenant; refresh the dashboard.');
    const record = JSON.parse(row.record) as HostRecord;
    const lastSeen = row.lastSeen;
    const host: HostRecord = { ...record, lastSeen, ...(record.defender ? { defender: { ...record.defender, lastSeen } } : {}), ...(record.falcon ? { falcon: { ...record.falcon, lastSeen } } : {}) };
    const config = tenantRiskConfig(c.risk);
    const latest = this.o.store.views.latestCycles().find((x) => x.connectorId === connectorId);
    return {
      connectorId,
      connectorName: c.name,
      host,
      score: row.score,
      band: row.band,
      scoredAt: row.scoredAt,
      cycleId: row.cycleId,
      asOf: latest?.finishedAt ?? null,
      contributions: JSON.parse(row.contributions) as ZtaHostDetail['contributions'],
      profiles: row.profiles ? (JSON.parse(row.profiles) as Record<string, boolean>) : null,
      history: this.o.store.views.scoreHistory(connectorId, hostId),
      bandEdges: [...(config.ok ? config.value.bands : defaultRiskConfig.bands)] as [number, number, number, number],
    };
  }

  /** The trend of band counts and the changes of each connector's newest cycle, for the filters shown. */
  overview(f: ZtaFilter): ZtaOverview {
    const connectors = this.connectors().filter((c) => (f.vendor === undefined || c.vendor === f.vendor) && (f.connector === undefined || c.connectorId === f.connector));
    const trend = this.o.store.views.trend({
      connectors: new Set(connectors.map((c) => c.connectorId)),
      ...(f.customer !== undefined ? { customer: f.customer } : {}),
      ...(f.platform !== undefined ? { platform: f.platform } : {}),
    });
    const changes: ZtaOverview['changes'] = { enteredHighRisk: [], leftHighRisk: [], biggestMovers: [], moved: 0 };
    for (const c of connectors) {
      if (c.cycleId === null) continue;
      const ch = this.o.store.views.changes(c.connectorId, c.cycleId);
      const keep = (m: { customerId: string }) => f.customer === undefined || m.customerId === f.customer;
      changes.enteredHighRisk.push(...ch.enteredHighRisk.filter(keep));
      changes.leftHighRisk.push(...ch.leftHighRisk.filter(keep));
      changes.biggestMovers.push(...ch.biggestMovers.filter(keep));
      changes.moved += ch.moved;
    }
    changes.biggestMovers = changes.biggestMovers.sort((a, b) => Math.abs(b.to.score - (b.from?.score ?? 0)) - Math.abs(a.to.score - (a.from?.score ?? 0))).slice(0, 10);
    return { trend, changes };
  }

  /**
   * The what-if's Save: stores the tenant's risk overrides, then scores the hosts of its newest
   * completed cycle again under them as a cycle of kind `rescore` (as of the time their facts were
   * collected), committed and published like a poll. Answers the new cycle, or null when there
   * was nothing to rescore.
   */
  async applyRisk(connectorId: string, risk: unknown): Promise<{ cycleId: number | null }> {
    if (isCliConnectorId(connectorId) && !this.o.registry.list().some((c) => c.id === connectorId)) {
      throw new AppError(ErrorCodes.validation, 'This tenant was polled by the command line and is not registered here.', 'Add it on the Connectors page to give it risk settings of its own.');
    }
    this.o.registry.setRisk(connectorId, risk);
    const latest = this.o.store.views.latestCycles().find((c) => c.connectorId === connectorId);
    if (!latest) return { cycleId: null };
    const views = this.o.store.views;
    const source: ConnectorRuntime = {
      async poll({ onHosts, signal, onProgress }) {
        let after = '';
        let done = 0;
        for (;;) {
          if (signal.aborted) break;
          const batch = views.storedRecords(connectorId, latest.cycleId, after, RESCORE_BATCH);
          if (batch.length === 0) break;
          done += batch.length;
          onProgress({ phase: 'devices', done, total: latest.hosts });
          await onHosts?.(batch);
          after = batch[batch.length - 1]!.hostId;
        }
        return [];
      },
    };
    const cycleId = await this.o.scheduler.rescore(connectorId, source, new Date(latest.finishedAt));
    return { cycleId };
  }

  /** After a cycle completes: retention, at most once an hour. */
  onProgress(p: CycleProgress): void {
    if (p.phase !== 'completed') return;
    const now = this.now();
    if (now.getTime() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now.getTime();
    this.prune(now);
  }

  prune(now = this.now()): void {
    const days = this.o.retentionDays();
    const r = this.o.store.prune(now, Number.isFinite(days) && days >= 1 ? days : DEFAULT_RETENTION_DAYS);
    if (r.cycles || r.hosts || r.changes) this.o.logger.info('edr.db retention', { days, ...r });
  }
}
