/**
 * The EDR store (SQLite, WAL): one row per poll cycle, each host's latest record and score, the
 * history of what changed (scores that moved, band counts per cycle), so the ZTA views open
 * offline and show history that grows with change, not with time (schema: edr-schema.ts).
 * The app's poller stages a cycle batch by batch (edr-staging.ts) and `commitCycle` makes it
 * visible in one transaction; `writeScores` stages and promotes a whole cycle at once (tests, CLI).
 */
import type Database from 'better-sqlite3';
import type { Contribution, HostRecord, RiskBand, ScoredHost, Vendor } from '../../../shared/model/edr';
import { EDR_MIGRATIONS, adoptEdrStore } from './edr-schema';
import { pruneEdrStore } from './edr-retention';
import type { CycleHost, CycleKind, CycleRow, CycleStatus, CycleSummary, PruneResult } from './edr-store';
import { EdrStaging } from './edr-staging';
import { EdrViews } from './edr-views';
import { summaryOf, toCycle } from './edr-views-shared';
import { withLastSeen } from './host-json';
import { Checkpointer } from '../../store/checkpointer';
import { OffMainWrites } from './edr-writer';
import { migrate, openPrivateDatabase } from '../../store/sqlite';

export { EDR_MIGRATIONS, EDR_SCHEMA_VERSION } from './edr-schema';
export type { CycleHost, CycleKind, CycleRow, CycleStatus, CycleSummary } from './edr-store';

/** The error text of an interrupted cycle. */
export const INTERRUPTED_CYCLE_ERROR = 'The app stopped during this cycle.';

export interface LatestScoreRow {
  connectorId: string;
  hostId: string;
  hostname: string;
  customerId: string;
  platform: string;
  vendor: Vendor;
  score: number;
  band: RiskBand;
  scoredAt: string;
  cycleId: number;
}

export interface ScoreQuery {
  connectorId?: string;
  customerId?: string;
  platform?: string;
  band?: RiskBand;
  limit?: number;
  offset?: number;
}

/**
 * edr.db itself, synchronous (better-sqlite3): the SQLite implementation of the feature's
 * `EdrStore` (sqlite-edr-store.ts) does its work here; the store's tests and the bench use it directly.
 */
/** How edr.db is opened (EdrDb's constructor says what each means). */
export interface EdrDbOptions {
  guest?: boolean;
  offMain?: boolean;
  /** The ZTA windows' count of a search's matches stops past this many (C-79; COUNT_CAP unless given, the tests give a small one). */
  countCap?: number;
}

export class EdrDb {
  private readonly db: Database.Database;
  private readonly stmt;
  private readonly staging: EdrStaging;
  /** Checkpoints the WAL off this thread once cycles are big (checkpointer.ts). */
  readonly checkpointer: Checkpointer;
  /** The ZTA dashboard's reads (edr-views.ts). */
  readonly views: EdrViews;
  /** Cycles found still `running` when this store was opened, now marked `interrupted` (their staged rows went with their process). */
  readonly interruptedAtOpen: number;
  /** `offMain`: the cycles' staging and commits on a worker thread (edr-writer.ts). */
  readonly writes: OffMainWrites;

  /**
   * `guest`: this process does not own the data folder (the CLI beside a running app): cycles found
   * `running` may be the owner's, so they are left alone rather than marked interrupted. `offMain`:
   * `stageBatch` and `completeCycle` run on a worker thread (the app: its thread answers the window).
   */
  constructor(file: string, opts: EdrDbOptions = {}) {
    this.db = openPrivateDatabase(file);
    this.db.pragma('foreign_keys = ON');
    // A cycle's commit touches the narrow host_seen (6 MB for 100,000 hosts) and the pages of the
    // hosts that changed; SQLite's default cache (2 MB) would read most of them again from the OS for
    // every statement of the commit. 24 MB holds them (64 MB was no faster and cost the app poller's
    // first cycle 60 MB of peak RSS; `npm run bench -- defender falcon zta-store`).
    this.db.pragma('cache_size = -24576');
    this.db.pragma('temp.cache_size = -8192');
    migrate(this.db, EDR_MIGRATIONS, adoptEdrStore);
    this.staging = new EdrStaging(this.db);
    this.checkpointer = new Checkpointer(this.db, file);
    this.writes = new OffMainWrites(file, opts.offMain === true);
    this.views = new EdrViews(this.db, opts.countCap);
    this.interruptedAtOpen = opts.guest ? 0 : this.closeInterruptedCycles(new Date());
    this.stmt = {
      begin: this.db.prepare('INSERT INTO cycles (connector_id, vendor, tenant_id, started_at, status, kind) VALUES (?, ?, ?, ?, ?, ?)'),
      finish: this.db.prepare('UPDATE cycles SET status = ?, finished_at = ?, hosts = ?, error = ?, error_code = ? WHERE id = ?'),
      cycle: this.db.prepare('SELECT * FROM cycles WHERE id = ?'),
      lastCycle: this.db.prepare('SELECT * FROM cycles WHERE connector_id = ? ORDER BY id DESC LIMIT 1'),
      // Only the newest completed cycle of a connector is worth publishing: an older one's scores are superseded.
      unpublished: this.db.prepare(
        `SELECT * FROM cycles c WHERE status = 'completed' AND published_at IS NULL
           AND id = (SELECT MAX(id) FROM cycles WHERE connector_id = c.connector_id AND status = 'completed') ORDER BY id`,
      ),
      published: this.db.prepare('UPDATE cycles SET published_at = ?, publish_attempts = publish_attempts + 1, publish_error = NULL WHERE id = ? AND published_at IS NULL'),
      attempt: this.db.prepare('UPDATE cycles SET publish_attempts = publish_attempts + 1, publish_error = ? WHERE id = ?'),
      history: this.db.prepare(
        `SELECT c.cycle_id AS cycleId, c.score, c.band, c.scored_at AS scoredAt FROM score_changes c JOIN hosts h ON h.hid = c.hid
         WHERE h.connector_id = ? AND h.host_id = ? ORDER BY c.cycle_id DESC LIMIT ?`,
      ),
      cycleBands: this.db.prepare('SELECT band, SUM(hosts) AS hosts, SUM(score_sum) AS sum FROM cycle_bands WHERE cycle_id = ? GROUP BY band'),
      cycleHosts: this.db.prepare(
        `SELECT h.host_id AS hostId, h.hostname, h.customer_id AS customerId, h.platform, h.score, h.band, d.profiles_json AS profiles
         FROM hosts h JOIN host_seen s ON s.hid = h.hid LEFT JOIN host_details d ON d.hid = h.hid
         WHERE h.connector_id = (SELECT connector_id FROM cycles WHERE id = @cycle) AND s.last_cycle = @cycle ORDER BY h.host_id`,
      ),
      targetDone: this.db.prepare('SELECT 1 FROM publications WHERE cycle_id = ? AND target = ?'),
      targetMark: this.db.prepare('INSERT OR IGNORE INTO publications (cycle_id, target, published_at) VALUES (?, ?, ?)'),
    };
  }

  /**
   * One process owns the data folder (the desktop app holds a single-instance lock), so a cycle
   * still `running` at open belongs to a process that is gone: it is marked `interrupted`, finished
   * now, with the number of scores it had stored: none for a cycle of the app's poller, whose scores
   * only leave the staging table in the transaction that completes it (its staged rows are deleted
   * right after). It is never published (only `completed` cycles are).
   */
  private closeInterruptedCycles(at: Date): number {
    return this.db
      .prepare(
        `UPDATE cycles SET status = 'interrupted', finished_at = ?, error = ?, hosts = (SELECT COUNT(*) FROM host_seen WHERE host_seen.last_cycle = cycles.id)
         WHERE status = 'running'`,
      )
      .run(at.toISOString(), INTERRUPTED_CYCLE_ERROR).changes;
  }

  beginCycle(connectorId: string, vendor: Vendor, tenantId: string, startedAt: Date, kind: CycleKind = 'poll'): number {
    return Number(this.stmt.begin.run(connectorId, vendor, tenantId, startedAt.toISOString(), 'running', kind).lastInsertRowid);
  }

  /**
   * Stores the scored hosts of one cycle in one transaction (staged and promoted at once; the cycle's
   * mark is the caller's). When it fails, nothing of the cycle stays staged (what it staged went
   * with its transaction, and staging forgets it too).
   */
  writeScores(cycleId: number, connectorId: string, scored: readonly ScoredHost[]): void {
    try {
      this.promoted(
        cycleId,
        () => {
          this.staging.stage(cycleId, connectorId, scored);
          this.staging.promote(cycleId);
        },
        () => scored.length,
      );
    } catch (e) {
      this.staging.discard(cycleId);
      throw e;
    }
  }

  /**
   * Records how a cycle ended. A cycle that did not complete loses its staged rows in the same
   * transaction (they were never visible).
   */
  finishCycle(cycleId: number, status: Exclude<CycleStatus, 'running' | 'interrupted'>, info: { hosts: number; error?: string; errorCode?: string; at: Date }): void {
    if (status !== 'completed') this.writes.writer(cycleId)?.discard(cycleId);
    this.db.transaction(() => {
      if (status !== 'completed') this.staging.discard(cycleId);
      this.stmt.finish.run(status, info.at.toISOString(), info.hosts, info.error ?? null, info.errorCode ?? null, cycleId);
    })();
  }

  /**
   * Appends one scored batch of a running cycle to its staging rows (not visible until
   * `commitCycle`), in one transaction; a generator is consumed host by host. Answers how many.
   */
  stageScores(cycleId: number, connectorId: string, scored: Iterable<ScoredHost>): number {
    return this.staging.stage(cycleId, connectorId, scored);
  }

  /** Staged rows of a cycle whose host changed or is new (its record is rewritten at the commit); the rest were seen as they were. */
  stagedChanged(cycleId: number): number {
    return this.writes.writer(cycleId)?.countChanged(cycleId) ?? this.staging.countChanged(cycleId);
  }

  /** Staged rows of one cycle (or of all): rows scored and not yet committed. */
  stagedCount(cycleId?: number): number {
    return this.writes.count(cycleId) + (cycleId === undefined || !this.writes.writer(cycleId) ? this.staging.count(cycleId) : 0);
  }

  /** `stageScores` and `commitCycle` for the app's poller: on the worker thread when the store is `offMain` (edr-writer.ts). */
  async stageBatch(cycleId: number, connectorId: string, scored: Iterable<ScoredHost>): Promise<number> {
    return this.writes.for(cycleId)?.stage(cycleId, connectorId, [...scored]) ?? this.stageScores(cycleId, connectorId, scored);
  }
  async completeCycle(cycleId: number, at: Date): Promise<number> {
    return this.writes.for(cycleId)?.commit(cycleId, at) ?? this.commitCycle(cycleId, at);
  }

  /**
   * Completes a cycle in one transaction: its staged rows move into hosts and scores (INSERT …
   * SELECT inside SQLite), the cycle is marked completed with that host count, and the staged rows
   * are deleted. Until it commits the views show the previous cycle; answers the host count.
   */
  commitCycle(cycleId: number, at: Date): number {
    return this.promoted(
      cycleId,
      () => {
        const hosts = this.staging.promote(cycleId);
        this.stmt.finish.run('completed', at.toISOString(), hosts, null, null, cycleId);
        return hosts;
      },
      (hosts) => hosts,
    );
  }

  /**
   * Runs a transaction that promotes a cycle's staged rows; staging learns the new digests only once
   * it committed, and the WAL is checkpointed off this thread (`hostsOf`: how many hosts it moved).
   */
  private promoted<T>(cycleId: number, work: () => T, hostsOf: (result: T) => number): T {
    let result: T;
    this.checkpointer.beforeCommit();
    try {
      // IMMEDIATE: see edr-writer-thread.ts (another connection's write never fails the commit).
      result = this.db.transaction(work).immediate();
    } catch (e) {
      this.staging.forgetDigests();
      throw e;
    }
    this.staging.committed(cycleId);
    this.checkpointer.afterCommit(hostsOf(result));
    return result;
  }

  cycle(id: number): CycleRow | undefined {
    return toCycle(this.stmt.cycle.get(id));
  }

  lastCycle(connectorId: string): CycleRow | undefined {
    return toCycle(this.stmt.lastCycle.get(connectorId));
  }

  /** The newest completed cycle of each connector when it is not published yet (retried at start, with the next cycle and at sign-in). */
  unpublishedCycles(): CycleRow[] {
    return this.stmt.unpublished.all().map((r) => toCycle(r)!);
  }

  /** Marks a cycle published; false when it already was (so a cycle is never published twice). */
  markPublished(cycleId: number, at: Date): boolean {
    return this.stmt.published.run(at.toISOString(), cycleId).changes === 1;
  }

  /** An attempt that did not publish the cycle, and why (shown to the operator until it succeeds). */
  recordPublishAttempt(cycleId: number, error: string): void {
    this.stmt.attempt.run(error, cycleId);
  }

  /** Band counts and mean score of one cycle (what is published), from the cycle's aggregates. */
  cycleSummary(cycleId: number): CycleSummary {
    return summaryOf(this.stmt.cycleBands.all(cycleId) as Array<{ band: RiskBand; hosts: number; sum: number }>);
  }

  /** Every scored host of one cycle (what a publication carries), with the Falcon profile results when there are some. */
  cycleHosts(cycleId: number): CycleHost[] {
    const rows = this.stmt.cycleHosts.all({ cycle: cycleId }) as Array<Omit<CycleHost, 'profiles'> & { profiles: string | null }>;
    return rows.map(({ profiles, ...h }) => (profiles ? { ...h, profiles: JSON.parse(profiles) as Record<string, boolean> } : h));
  }

  /** Per-target publication marks, so a retry after a partial failure never sends a cycle twice to one target. */
  targetPublished(cycleId: number, target: string): boolean {
    return this.stmt.targetDone.get(cycleId, target) !== undefined;
  }

  markTargetPublished(cycleId: number, target: string, at: Date): boolean {
    return this.stmt.targetMark.run(cycleId, target, at.toISOString()).changes === 1;
  }

  /**
   * The latest score of every host of each connector's newest completed cycle (a host the vendor no
   * longer lists is not in it), filtered as the ZTA dashboard asks.
   */
  latestScores(q: ScoreQuery = {}): LatestScoreRow[] {
    const where: string[] = [`s.last_cycle IN (${LATEST_CYCLES})`];
    const args: Record<string, unknown> = {};
    const filters = { connectorId: 'h.connector_id', customerId: 'h.customer_id', platform: 'h.platform', band: 'h.band' } as const;
    for (const [key, column] of Object.entries(filters) as Array<[keyof typeof filters, string]>) {
      if (q[key] === undefined) continue;
      where.push(`${column} = @${key}`);
      args[key] = q[key];
    }
    args.limit = Math.min(Math.max(q.limit ?? 1000, 1), 100_000);
    args.offset = Math.max(q.offset ?? 0, 0);
    return this.db
      .prepare(
        `SELECT h.connector_id AS connectorId, h.host_id AS hostId, h.hostname, h.customer_id AS customerId, h.platform, h.vendor,
                h.score, h.band, s.scored_at AS scoredAt, s.last_cycle AS cycleId
         FROM hosts h JOIN host_seen s ON s.hid = h.hid WHERE ${where.join(' AND ')} ORDER BY h.score DESC, h.hostname LIMIT @limit OFFSET @offset`,
      )
      .all(args) as LatestScoreRow[];
  }

  /** A host's record (with its latest last-seen times) and the contributions of its latest score. */
  hostDetail(connectorId: string, hostId: string): { host: HostRecord; contributions: Contribution[]; profiles: Record<string, boolean> | null } | undefined {
    const row = this.db
      .prepare(
        `SELECT d.record_json AS record, d.contributions_json AS contributions, d.profiles_json AS profiles, s.last_seen AS lastSeen
         FROM hosts h JOIN host_seen s ON s.hid = h.hid JOIN host_details d ON d.hid = h.hid
         WHERE h.connector_id = ? AND h.host_id = ?`,
      )
      .get(connectorId, hostId) as { record: string; contributions: string; profiles: string | null; lastSeen: string | null } | undefined;
    if (!row) return undefined;
    return {
      host: withLastSeen(JSON.parse(row.record) as HostRecord, row.lastSeen),
      contributions: JSON.parse(row.contributions) as Contribution[],
      profiles: row.profiles ? (JSON.parse(row.profiles) as Record<string, boolean>) : null,
    };
  }

  /** Score history of one host, newest first. */
  history(connectorId: string, hostId: string, limit = 50): Array<{ cycleId: number; score: number; band: RiskBand; scoredAt: string }> {
    return this.stmt.history.all(connectorId, hostId, limit) as Array<{ cycleId: number; score: number; band: RiskBand; scoredAt: string }>;
  }

  /**
   * Retention for the app: on the cycle writer's thread when it runs (a prune of a large store is a
   * write that takes longer than main may wait), else on this connection.
   */
  async pruneOffMain(now: Date, days: number): Promise<PruneResult> {
    const onWorker = this.writes.prune(now, days);
    if (!onWorker) return this.prune(now, days);
    const { gone, ...r } = await onWorker;
    if (gone.length) this.staging.forgetHosts(gone);
    return r;
  }

  /** Deletes what is older than `days` (edr-retention.ts), on this connection. */
  prune(now: Date, days: number): PruneResult {
    let gone: number[] = [];
    const r = pruneEdrStore(this.db, now, days, (hids) => (gone = hids));
    if (r.hosts) this.staging.forgetHosts(gone);
    if (r.hosts) this.writes.forgetHosts(gone);
    return r;
  }

  /** Closes the connection; the cycle writer (if any) first finishes what it was asked, then closes (awaited on quit). */
  close(): Promise<void> {
    const writing = this.writes.close();
    this.checkpointer.close();
    this.db.close();
    return writing;
  }
}

/** Each connector's newest completed cycle: the one whose hosts the views show. */
export const LATEST_CYCLES = "SELECT MAX(id) FROM cycles WHERE status = 'completed' GROUP BY connector_id";
