/**
 * What the alarms feature asks of its store (issue 21.1): the sources' batches and cursors (ingest,
 * source state, backfill records), the window's and the CLI's reads (list, detail, counters, rate,
 * export), the Overview's counts, the notifier's new changes, and the hourly repair and retention.
 * Every method answers a Promise, so an implementation on a server database can follow without
 * touching the services; the SQLite one (sqlite-alarm-store.ts over alarms-db.ts) does its work
 * synchronously inside: a batch is committed when `ingest` resolves (its broker ack comes after, MN-AL9).
 */
import type { ActiveSeverity, AlarmDetail, AlarmFilter, AlarmItem, AlarmRate, AlarmSummary, AlarmView } from '../../../shared/model/alarms';
import type { AlarmOverview } from './alarms-overview';
import type { DeadLetter, IngestOptions, IngestResult, SourceState } from './alarms-db';
import type { ChangeRange, NotifiedChange } from './alarms-notify';
import type { TimeRepair } from './alarms-repair';
import type { RetentionResult } from './alarms-retention';

export type { AlarmOverview, OrganizationAlarms } from './alarms-overview';
export type { DeadLetter, IngestOptions, IngestResult, SourceState } from './alarms-db';
export type { ChangeRange, NotifiedChange } from './alarms-notify';
export type { TimeRepair } from './alarms-repair';
export type { RetentionResult } from './alarms-retention';
export { DEFAULT_ALARM_RETENTION_DAYS, DEFAULT_MAX_CHANGES } from './alarms-retention';

/** A stored alarm's natural key (for actions on the node). */
export interface AlarmKey {
  aid: number;
  device: string;
  deviceName: string;
  object: string;
  type: string;
  specificProblem: string;
}

export interface AlarmStore {
  /**
   * The store's newest change sequence (every new change or handling takes the next one); with a
   * source, the newest of that source's, which every change of it committed later exceeds (C-87:
   * what a reader of `afterSeq` takes as its next bound).
   */
  headSeq(source?: string): Promise<number>;
  /** This console install's identity (its broker queues are named after it, MN-AL9). */
  installId(): Promise<string>;

  /** Stores a batch in one transaction, committed when the Promise resolves. */
  ingest(source: string, items: readonly AlarmItem[], o: IngestOptions): Promise<IngestResult>;
  sourceState(source: string): Promise<SourceState>;
  /** The source's changes up to `ms` are complete (a backfill reached it). */
  advanceCursor(source: string, ms: number): Promise<void>;
  /** A backfill (or poll) finished at `atMs` and stored `added` changes the store lacked. */
  recordBackfill(source: string, atMs: number, added: number): Promise<void>;
  /** Alarms and changes stored for a source. */
  counts(source: string): Promise<{ alarms: number; changes: number }>;
  /** `counts` and the newest change sequence among them, read in one snapshot (a batch whose `headSeq` is not above it is counted in them). */
  countsAt(source: string): Promise<{ counts: { alarms: number; changes: number }; seq: number }>;
  deadLetters(source: string, limit?: number): Promise<Array<DeadLetter & { atMs: number }>>;

  // The window's and the CLI's reads (alarms-views.ts).
  /** A window of the list, newest change first (stops short of `limit` at the window's byte budget: `more`). */
  list(source: string, filter: AlarmFilter, offset: number, limit: number): Promise<{ total: number; rows: AlarmView[]; more: boolean }>;
  detail(source: string, aid: number): Promise<AlarmDetail | undefined>;
  /** The natural keys of stored alarms of a source; unknown ids are left out. */
  keys(source: string, aids: readonly number[]): Promise<AlarmKey[]>;
  summary(source: string): Promise<Omit<AlarmSummary, 'profileId'>>;
  /** Changes per minute of the node's time over the `minutes` up to `nowMs`. */
  rate(source: string, minutes: number, nowMs: number): Promise<Omit<AlarmRate, 'profileId'>>;
  /** Every stored alarm changed at or after `sinceMs` (all sources), newest change first, a row at a time. */
  exportAlarms(sinceMs?: number): AsyncIterable<AlarmView & { source: string }>;

  // The Overview's counts (alarms-overview.ts).
  overview(source: string): Promise<AlarmOverview>;
  /** Whether the store holds anything of a source: an alarm, or a finished backfill. */
  collected(source: string): Promise<boolean>;
  criticalUnacknowledged(source: string): Promise<number>;
  /** The newest stored change time of a source (0 when none). */
  newestChangeMs(source: string): Promise<number>;

  // The notifier's reads (alarms-notify.ts).
  /** The newest status change's sequence (0 when none). */
  changeSeq(): Promise<number>;
  changeCounts(source: string, range: ChangeRange): Promise<Array<{ severity: string; n: number }>>;
  newestChange(source: string, range: ChangeRange, severity: ActiveSeverity): Promise<NotifiedChange | undefined>;

  // Repair and retention (alarms-repair.ts, alarms-retention.ts).
  /** Sets aside stored times past now plus the clock skew and moves such cursors back. */
  repairTimes(nowMs: number, futureSkewMs?: number): Promise<TimeRepair>;
  applyRetention(o: { nowMs: number; days: number; maxChanges?: number }): Promise<RetentionResult>;

  /** Everything stored for a source (its connection was deleted). */
  forgetSource(source: string): Promise<void>;
  close(): Promise<void>;
}
