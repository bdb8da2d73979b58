/**
 * The EDR feature's store on SQLite (issue 21.1): `EdrStore`'s methods over edr.db (edr-db.ts),
 * each answering a Promise of what the synchronous store did; a statement that throws rejects it.
 */
import type { ScoredHost, Vendor } from '../../../shared/model/edr';
import type { ZtaColumns } from '../../../shared/model/zta';
import type { HostCountsQuery, HostWindowQuery } from '../../../shared/model/zta-window';
import type { HostExportQuery } from './edr-export-sql';
import { EdrDb, type EdrDbOptions } from './edr-db';
import { hostScoreOf } from './edr-views-shared';
import type { CycleKind, CycleStatus, EdrStore, StoredHostScore, TrendFilter } from './edr-store';

export class SqliteEdrStore implements EdrStore {
  /** `db`: the synchronous store (its tests and the bench read it directly). */
  constructor(readonly db: EdrDb) {}

  get interruptedAtOpen(): number {
    return this.db.interruptedAtOpen;
  }

  async beginCycle(connectorId: string, vendor: Vendor, tenantId: string, startedAt: Date, kind: CycleKind = 'poll') {
    return this.db.beginCycle(connectorId, vendor, tenantId, startedAt, kind);
  }

  /** On the worker thread when the store was opened `offMain` (edr-writer.ts), else here. */
  async stageScores(cycleId: number, connectorId: string, scored: Iterable<ScoredHost>) {
    return this.db.stageBatch(cycleId, connectorId, scored);
  }

  async commitCycle(cycleId: number, at: Date) {
    return this.db.completeCycle(cycleId, at);
  }

  async finishCycle(cycleId: number, status: Exclude<CycleStatus, 'running' | 'interrupted'>, info: { hosts: number; error?: string; errorCode?: string; at: Date }) {
    this.db.finishCycle(cycleId, status, info);
  }

  async cycle(id: number) {
    return this.db.cycle(id);
  }

  async lastCycle(connectorId: string) {
    return this.db.lastCycle(connectorId);
  }

  async unpublishedCycles() {
    return this.db.unpublishedCycles();
  }

  async cycleSummary(cycleId: number) {
    return this.db.cycleSummary(cycleId);
  }

  async cycleHosts(cycleId: number) {
    return this.db.cycleHosts(cycleId);
  }

  async targetPublished(cycleId: number, target: string) {
    return this.db.targetPublished(cycleId, target);
  }

  async markTargetPublished(cycleId: number, target: string, at: Date) {
    return this.db.markTargetPublished(cycleId, target, at);
  }

  async markPublished(cycleId: number, at: Date) {
    return this.db.markPublished(cycleId, at);
  }

  async recordPublishAttempt(cycleId: number, error: string) {
    this.db.recordPublishAttempt(cycleId, error);
  }

  async latestCycles() {
    return this.db.views.latestCycles();
  }

  async hostWindow(q: HostWindowQuery) {
    return this.db.views.hostWindow(q);
  }

  async cycleGroups(cycleIds: readonly number[]) {
    return this.db.views.cycleGroups(cycleIds);
  }

  async hostCounts(q: HostCountsQuery) {
    return this.db.views.hostCounts(q);
  }

  exportHosts(q: HostExportQuery) {
    return this.db.views.exportHosts(q);
  }

  async appendRows(cols: ZtaColumns, cycleId: number, connector: number, customerIndex: (id: string) => number) {
    return this.db.views.appendRows(cols, cycleId, connector, customerIndex);
  }

  async storedRecords(connectorId: string, cycleId: number, afterHostId: string, limit: number) {
    return this.db.views.storedRecords(connectorId, cycleId, afterHostId, limit);
  }

  async hostScore(connectorId: string, hostId: string): Promise<StoredHostScore | undefined> {
    const row = this.db.views.host(connectorId, hostId);
    return row && hostScoreOf(row);
  }

  async scoreHistory(connectorId: string, hostId: string, limit?: number) {
    return this.db.views.scoreHistory(connectorId, hostId, limit);
  }

  async trend(f: TrendFilter, limit?: number) {
    return this.db.views.trend(f, limit);
  }

  async bandTotals(cycleIds: readonly number[]) {
    return this.db.views.bandTotals(cycleIds);
  }

  async previousCycle(connectorId: string, cycleId: number) {
    return this.db.views.previousCycle(connectorId, cycleId);
  }

  async changes(connectorId: string, cycleId: number, top?: number) {
    return this.db.views.changes(connectorId, cycleId, top);
  }

  async prune(now: Date, days: number) {
    return this.db.pruneOffMain(now, days);
  }

  async close() {
    await this.db.close();
  }
}

/**
 * Opens edr.db as the feature's store. `guest`: this process does not own the data folder (the
 * CLI beside a running app), so cycles found `running` are left alone.
 */
export function openEdrStore(file: string, opts: EdrDbOptions = {}): SqliteEdrStore {
  return new SqliteEdrStore(new EdrDb(file, opts));
}
