/**
 * The alarms feature's store on SQLite (issue 21.1): `AlarmStore`'s methods over alarms.db
 * (alarms-db.ts and its reads), each answering a Promise of what the synchronous store did; a
 * statement that throws rejects it.
 */
import type { ActiveSeverity, AlarmFilter, AlarmItem } from '../../../shared/model/alarms';
import { AlarmDb, type IngestOptions } from './alarms-db';
import { AlarmNotifyReads, type ChangeRange } from './alarms-notify';
import { alarmOverview, alarmsCollected, criticalUnacknowledged, newestChangeMs } from './alarms-overview';
import { applyAlarmRetention } from './alarms-retention';
import { alarmDetail, alarmKeys, alarmRate, alarmSummary, exportAlarms, listAlarms } from './alarms-views';
import type { AlarmStore } from './alarm-store';

export class SqliteAlarmStore implements AlarmStore {
  private notifyReads: AlarmNotifyReads | undefined;

  /** `db`: the synchronous store (its tests and the bench read it directly). */
  constructor(readonly db: AlarmDb) {}

  async headSeq() {
    return this.db.headSeq;
  }

  async installId() {
    return this.db.installId();
  }

  /** On the store's worker thread when it was opened `offMain` (alarms-writer.ts), else here. */
  async ingest(source: string, items: readonly AlarmItem[], o: IngestOptions) {
    return this.db.ingestBatch(source, items, o);
  }

  async sourceState(source: string) {
    return this.db.sourceState(source);
  }

  async advanceCursor(source: string, ms: number) {
    this.db.advanceCursor(source, ms);
  }

  async recordBackfill(source: string, atMs: number, added: number) {
    this.db.recordBackfill(source, atMs, added);
  }

  async counts(source: string) {
    return this.db.counts(source);
  }

  async countsAt(source: string) {
    return this.db.countsAt(source);
  }

  async deadLetters(source: string, limit?: number) {
    return this.db.deadLetters(source, limit);
  }

  async list(source: string, filter: AlarmFilter, offset: number, limit: number) {
    return listAlarms(this.db.db, source, filter, offset, limit);
  }

  async detail(source: string, aid: number) {
    return alarmDetail(this.db.db, source, aid);
  }

  async keys(source: string, aids: readonly number[]) {
    return alarmKeys(this.db.db, source, aids);
  }

  async summary(source: string) {
    return alarmSummary(this.db.db, source);
  }

  async rate(source: string, minutes: number, nowMs: number) {
    return alarmRate(this.db.db, source, minutes, nowMs);
  }

  async *exportAlarms(sinceMs = 0) {
    yield* exportAlarms(this.db.db, sinceMs);
  }

  async overview(source: string) {
    return alarmOverview(this.db.db, source);
  }

  async collected(source: string) {
    return alarmsCollected(this.db.db, source);
  }

  async criticalUnacknowledged(source: string) {
    return criticalUnacknowledged(this.db.db, source);
  }

  async newestChangeMs(source: string) {
    return newestChangeMs(this.db.db, source);
  }

  private get notify(): AlarmNotifyReads {
    return (this.notifyReads ??= new AlarmNotifyReads(this.db.db));
  }

  async changeSeq() {
    return this.notify.changeSeq();
  }

  async changeCounts(source: string, range: ChangeRange) {
    return this.notify.changeCounts(source, range);
  }

  async newestChange(source: string, range: ChangeRange, severity: ActiveSeverity) {
    return this.notify.newestChange(source, range, severity);
  }

  async repairTimes(nowMs: number, futureSkewMs?: number) {
    return this.db.repairTimes(nowMs, futureSkewMs);
  }

  async applyRetention(o: { nowMs: number; days: number; maxChanges?: number }) {
    return applyAlarmRetention(this.db.db, o);
  }

  async forgetSource(source: string) {
    this.db.forgetSource(source);
  }

  async close() {
    await this.db.close();
  }
}

export function openAlarmStore(file: string, o: { futureSkewMs?: number; now?: () => number; offMain?: boolean } = {}): SqliteAlarmStore {
  return new SqliteAlarmStore(new AlarmDb(file, o));
}
