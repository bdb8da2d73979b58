/**
 * What the EDR feature asks of its store (issue 21.1): the scheduler's cycles (begin, stage, commit,
 * finish), the publisher's cycle reads and marks, the ZTA dashboard's reads and retention. Every
 * method answers a Promise, so an implementation on a server database can follow without touching
 * the services; the SQLite one (sqlite-edr-store.ts over edr-db.ts) does its work synchronously inside.
 */
import type { CycleState } from '../../../shared/contract';
import type { Contribution, HostRecord, RiskBand, ScoredHost, Vendor } from '../../../shared/model/edr';
import type { ZtaChanges, ZtaColumns } from '../../../shared/model/zta';
import type { HostCounts, HostCountsQuery, HostWindow, HostWindowQuery, HostWindowRow } from '../../../shared/model/zta-window';
import type { HostExportQuery } from './edr-export-sql';

export type { HostExportQuery } from './edr-export-sql';

/** Hosts of one customer and platform in one cycle (`cycleGroups`). */
export interface CycleGroup {
  cycleId: number;
  customerId: string;
  platform: string;
  hosts: number;
}

/** Retention's default when the setting is missing or not a number of days (EDR-H4). */
export const DEFAULT_RETENTION_DAYS = 90;

/**
 * The contract's statuses. `interrupted`: the cycle was still `running` when the store was opened
 * again, so the process that ran it stopped (killed, crashed, power lost) before it could finish it.
 */
export type CycleStatus = CycleState;

export type CycleKind = 'poll' | 'rescore';

export interface CycleRow {
  id: number;
  connectorId: string;
  vendor: Vendor;
  tenantId: string;
  startedAt: string;
  finishedAt: string | null;
  status: CycleStatus;
  hosts: number;
  error: string | null;
  publishedAt: string | null;
  publishAttempts: number;
  /** Why the last publication attempt did not complete (null once published). */
  publishError: string | null;
  /** `poll`, or `rescore`: the stored hosts scored again under new risk settings (no vendor call). */
  kind: CycleKind;
  /** The error code of a failed cycle (tells an unreachable vendor from a refusal). */
  errorCode: string | null;
}

/** One host of a cycle as published: its latest score and, for Falcon, the predefined profiles of spec 2.4. */
export interface CycleHost {
  hostId: string;
  hostname: string;
  customerId: string;
  platform: string;
  score: number;
  band: RiskBand;
  profiles?: Record<string, boolean>;
}

/** Band counts and mean score of one cycle (what is published). */
export interface CycleSummary {
  hosts: number;
  meanScore: number;
  bands: Record<RiskBand, number>;
}

/** A connector's newest completed cycle. */
export interface LatestCycle {
  connectorId: string;
  cycleId: number;
  finishedAt: string;
  kind: CycleKind;
  hosts: number;
}

/** A host's latest score with its record (last-seen time of its latest cycle) and contributions. */
export interface StoredHostScore {
  score: number;
  band: RiskBand;
  scoredAt: string;
  cycleId: number;
  host: HostRecord;
  contributions: Contribution[];
  profiles: Record<string, boolean> | null;
}

export interface ScorePoint {
  cycleId: number;
  at: string;
  score: number;
  band: RiskBand;
  kind: CycleKind;
}

export interface TrendFilter {
  connectors: ReadonlySet<string>;
  customer?: string;
  platform?: string;
}

export interface PruneResult {
  cycles: number;
  hosts: number;
  changes: number;
}

export interface EdrStore {
  /** Cycles found still `running` when this store was opened, now marked `interrupted`. */
  readonly interruptedAtOpen: number;

  // The scheduler's cycles: begun, staged batch by batch (invisible), committed or finished.
  beginCycle(connectorId: string, vendor: Vendor, tenantId: string, startedAt: Date, kind?: CycleKind): Promise<number>;
  /** Appends one scored batch of a running cycle (consumed host by host); answers how many. */
  stageScores(cycleId: number, connectorId: string, scored: Iterable<ScoredHost>): Promise<number>;
  /** Makes a cycle's staged rows visible and marks it completed, at once; answers the host count. */
  commitCycle(cycleId: number, at: Date): Promise<number>;
  /** How a cycle that did not commit ended (its staged rows go). */
  finishCycle(cycleId: number, status: Exclude<CycleStatus, 'running' | 'interrupted'>, info: { hosts: number; error?: string; errorCode?: string; at: Date }): Promise<void>;

  cycle(id: number): Promise<CycleRow | undefined>;
  lastCycle(connectorId: string): Promise<CycleRow | undefined>;

  // Publication.
  /** The newest completed cycle of each connector when it is not published yet. */
  unpublishedCycles(): Promise<CycleRow[]>;
  cycleSummary(cycleId: number): Promise<CycleSummary>;
  cycleHosts(cycleId: number): Promise<CycleHost[]>;
  targetPublished(cycleId: number, target: string): Promise<boolean>;
  markTargetPublished(cycleId: number, target: string, at: Date): Promise<boolean>;
  /** Marks a cycle published; false when it already was (never published twice). */
  markPublished(cycleId: number, at: Date): Promise<boolean>;
  recordPublishAttempt(cycleId: number, error: string): Promise<void>;

  // The ZTA dashboard's and the Overview's reads.
  latestCycles(): Promise<LatestCycle[]>;
  /** Appends the hosts of one cycle to the columns (enum indexes; `connector` and the customer dictionary are the caller's); answers how many. */
  appendRows(cols: ZtaColumns, cycleId: number, connector: number, customerIndex: (id: string) => number): Promise<number>;
  /**
   * A window of the latest snapshot's hosts (each connector's newest completed cycle, the hosts
   * `appendRows` gives), filtered, searched and sorted in the store, as row objects, with how many
   * match (issue 25.3; order semantics in shared/model/zta-window.ts). One snapshot of the data.
   */
  hostWindow(q: HostWindowQuery): Promise<HostWindow>;
  /** The latest snapshot's hosts matching the filter and search, by band and by customer → platform with band counts. */
  hostCounts(q: HostCountsQuery): Promise<HostCounts>;
  /**
   * The export's read (C-86): the latest snapshot's hosts of `connectors` matching the filter and
   * search, every one, in the table's default order (`rowsInOrder`'s over the snapshot, ties in the
   * connectors' order given), answered `batch` rows at a time from one snapshot of the data (one
   * read transaction), so memory holds a batch, not the snapshot. Ending the iteration early (a
   * cancel) ends the read.
   */
  exportHosts(q: HostExportQuery): AsyncIterable<HostWindowRow[]>;
  /** Hosts by customer and platform in each of these cycles, from their band counts (no host row read): the dashboard's facets and customer names (C-78). */
  cycleGroups(cycleIds: readonly number[]): Promise<CycleGroup[]>;
  /** Up to `limit` stored records of a cycle's hosts after `afterHostId` (the rescore reads them batch by batch). */
  storedRecords(connectorId: string, cycleId: number, afterHostId: string, limit: number): Promise<HostRecord[]>;
  hostScore(connectorId: string, hostId: string): Promise<StoredHostScore | undefined>;
  /** The host's score at each of its connector's last `limit` completed cycles, oldest first. */
  scoreHistory(connectorId: string, hostId: string, limit?: number): Promise<ScorePoint[]>;
  /** Band counts over time, summed over the chosen connectors (the last `limit` points). */
  trend(f: TrendFilter, limit?: number): Promise<Array<{ at: string; bands: Record<RiskBand, number> }>>;
  bandTotals(cycleIds: readonly number[]): Promise<Record<RiskBand, number>>;
  previousCycle(connectorId: string, cycleId: number): Promise<{ id: number; at: string } | undefined>;
  /** What changed in a connector's cycle against its previous completed one (EDR-Z12). */
  changes(connectorId: string, cycleId: number, top?: number): Promise<ZtaChanges>;

  /** Deletes what is older than `days` (EDR-H4). */
  prune(now: Date, days: number): Promise<PruneResult>;
  close(): Promise<void>;
}
