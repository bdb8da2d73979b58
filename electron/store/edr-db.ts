/**
 * The EDR store (SQLite, WAL): hosts with their latest facts, one row per poll cycle, and the
 * scores of every host in every cycle, so the ZTA views open offline and show history.
 * The app's poller stages a cycle batch by batch (store/edr-staging.ts) and `commitCycle` makes it
 * visible in one transaction; `writeScores` writes a whole cycle's scores in one transaction with
 * prepared statements (100,000 scores in well under a second or two).
 */
import type Database from 'better-sqlite3';
import type { CycleState } from '../../shared/contract';
import type { Contribution, HostRecord, RiskBand, ScoredHost, Vendor } from '../../shared/model/edr';
import { EdrStaging, STAGING_SCHEMA } from './edr-staging';
import { hasTable, migrate, openPrivateDatabase } from './sqlite';

/**
 * The contract's statuses. `interrupted`: the cycle was still `running` when the store was opened
 * again, so the process that ran it stopped (killed, crashed, power lost) before it could finish it.
 */
export type CycleStatus = CycleState;

/** The error text of an interrupted cycle. */
export const INTERRUPTED_CYCLE_ERROR = 'The app stopped during this cycle.';

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
}

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
 * edr.db's schema history, applied by `migrate` (user_version = steps done). Stores from before
 * the list existed are placed by `adoptEdrStore` from their shape, once.
 */
export const EDR_MIGRATIONS: readonly string[] = [
  // 1: cycles, the latest record per host, every cycle's scores, per-target publications.
  `CREATE TABLE cycles (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  connector_id TEXT NOT NULL,
  vendor TEXT NOT NULL,
  tenant_id TEXT NOT NULL,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  status TEXT NOT NULL,
  hosts INTEGER NOT NULL DEFAULT 0,
  error TEXT,
  published_at TEXT,
  publish_attempts INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX cycles_connector ON cycles(connector_id, id);
CREATE TABLE hosts (
  connector_id TEXT NOT NULL,
  host_id TEXT NOT NULL,
  vendor TEXT NOT NULL,
  hostname TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  os_version TEXT,
  last_seen TEXT,
  record_json TEXT NOT NULL,
  last_cycle INTEGER NOT NULL,
  PRIMARY KEY (connector_id, host_id)
) WITHOUT ROWID;
CREATE TABLE scores (
  cycle_id INTEGER NOT NULL,
  connector_id TEXT NOT NULL,
  host_id TEXT NOT NULL,
  score REAL NOT NULL,
  band TEXT NOT NULL,
  contributions_json TEXT NOT NULL,
  profiles_json TEXT,
  scored_at TEXT NOT NULL,
  PRIMARY KEY (cycle_id, host_id)
) WITHOUT ROWID;
CREATE INDEX scores_host ON scores(connector_id, host_id, cycle_id);
CREATE TABLE publications (
  cycle_id INTEGER NOT NULL,
  target TEXT NOT NULL,
  published_at TEXT NOT NULL,
  PRIMARY KEY (cycle_id, target)
) WITHOUT ROWID;`,
  // 2: why the last publication attempt failed (shown on the Connectors page).
  `ALTER TABLE cycles ADD COLUMN publish_error TEXT;`,
  // 3: the running cycle's scores, staged batch by batch (edr-staging.ts).
  STAGING_SCHEMA,
];

export const EDR_SCHEMA_VERSION = EDR_MIGRATIONS.length;

/** The step an unversioned edr.db (written before the list) had reached, read from its tables. */
export function adoptEdrStore(db: Database.Database): number {
  if (!hasTable(db, 'cycles')) return 0;
  if (!hasTable(db, 'cycles', 'publish_error')) return 1;
  return hasTable(db, 'staged_scores') ? 3 : 2;
}

export class EdrStore {
  private readonly db: Database.Database;
  private readonly stmt;
  private readonly staging: EdrStaging;
  /** Cycles found still `running` when this store was opened, now marked `interrupted`. */
  readonly interruptedAtOpen: number;
  /** Staged rows of those cycles (never visible, never published), deleted at that open. */
  readonly stagedDiscardedAtOpen: number;

  constructor(file: string) {
    this.db = openPrivateDatabase(file);
    this.db.pragma('foreign_keys = ON');
    migrate(this.db, EDR_MIGRATIONS, adoptEdrStore);
    this.staging = new EdrStaging(this.db);
    const open = this.db.transaction(() => [this.closeInterruptedCycles(new Date()), this.staging.discardStale()] as const)();
    [this.interruptedAtOpen, this.stagedDiscardedAtOpen] = open;
    this.stmt = {
      begin: this.db.prepare('INSERT INTO cycles (connector_id, vendor, tenant_id, started_at, status) VALUES (?, ?, ?, ?, ?)'),
      finish: this.db.prepare('UPDATE cycles SET status = ?, finished_at = ?, hosts = ?, error = ? WHERE id = ?'),
      host: this.db.prepare(
        `INSERT INTO hosts (connector_id, host_id, vendor, hostname, customer_id, platform, os_version, last_seen, record_json, last_cycle)
         VALUES (@connectorId, @hostId, @vendor, @hostname, @customerId, @platform, @osVersion, @lastSeen, @record, @cycleId)
         ON CONFLICT (connector_id, host_id) DO UPDATE SET vendor = excluded.vendor, hostname = excluded.hostname, customer_id = excluded.customer_id,
           platform = excluded.platform, os_version = excluded.os_version, last_seen = excluded.last_seen, record_json = excluded.record_json, last_cycle = excluded.last_cycle`,
      ),
      score: this.db.prepare(
        `INSERT OR REPLACE INTO scores (cycle_id, connector_id, host_id, score, band, contributions_json, profiles_json, scored_at)
         VALUES (@cycleId, @connectorId, @hostId, @score, @band, @contributions, @profiles, @scoredAt)`,
      ),
      cycle: this.db.prepare('SELECT * FROM cycles WHERE id = ?'),
      lastCycle: this.db.prepare('SELECT * FROM cycles WHERE connector_id = ? ORDER BY id DESC LIMIT 1'),
      // Only the newest completed cycle of a connector is worth publishing: an older one's scores are superseded.
      unpublished: this.db.prepare(
        `SELECT * FROM cycles c WHERE status = 'completed' AND published_at IS NULL
           AND id = (SELECT MAX(id) FROM cycles WHERE connector_id = c.connector_id AND status = 'completed') ORDER BY id`,
      ),
      published: this.db.prepare('UPDATE cycles SET published_at = ?, publish_attempts = publish_attempts + 1, publish_error = NULL WHERE id = ? AND published_at IS NULL'),
      attempt: this.db.prepare('UPDATE cycles SET publish_attempts = publish_attempts + 1, publish_error = ? WHERE id = ?'),
      history: this.db.prepare('SELECT cycle_id AS cycleId, score, band, scored_at AS scoredAt FROM scores WHERE connector_id = ? AND host_id = ? ORDER BY cycle_id DESC LIMIT ?'),
      cycleScores: this.db.prepare('SELECT score, band FROM scores WHERE cycle_id = ?'),
      cycleHosts: this.db.prepare(
        `SELECT s.host_id AS hostId, h.hostname, h.customer_id AS customerId, h.platform, s.score, s.band, s.profiles_json AS profiles
         FROM scores s JOIN hosts h ON h.connector_id = s.connector_id AND h.host_id = s.host_id WHERE s.cycle_id = ? ORDER BY s.host_id`,
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
        `UPDATE cycles SET status = 'interrupted', finished_at = ?, error = ?, hosts = (SELECT COUNT(*) FROM scores WHERE scores.cycle_id = cycles.id)
         WHERE status = 'running'`,
      )
      .run(at.toISOString(), INTERRUPTED_CYCLE_ERROR).changes;
  }

  beginCycle(connectorId: string, vendor: Vendor, tenantId: string, startedAt: Date): number {
    return Number(this.stmt.begin.run(connectorId, vendor, tenantId, startedAt.toISOString(), 'running').lastInsertRowid);
  }

  /** Stores the scored hosts of one cycle in one transaction. */
  writeScores(cycleId: number, connectorId: string, scored: readonly ScoredHost[]): void {
    const write = this.db.transaction((rows: readonly ScoredHost[]) => {
      for (const s of rows) {
        const h = s.host;
        this.stmt.host.run({
          connectorId,
          hostId: h.hostId,
          vendor: h.vendor,
          hostname: h.hostname,
          customerId: h.customerId,
          platform: h.platform,
          osVersion: h.osVersion,
          lastSeen: h.lastSeen,
          record: JSON.stringify(h),
          cycleId,
        });
        this.stmt.score.run({
          cycleId,
          connectorId,
          hostId: h.hostId,
          score: s.score,
          band: s.band,
          contributions: JSON.stringify(s.contributions),
          profiles: s.profiles ? JSON.stringify(s.profiles) : null,
          scoredAt: s.scoredAt,
        });
      }
    });
    write(scored);
  }

  /**
   * Records how a cycle ended. A cycle that did not complete loses its staged rows in the same
   * transaction (they were never visible).
   */
  finishCycle(cycleId: number, status: Exclude<CycleStatus, 'running' | 'interrupted'>, info: { hosts: number; error?: string; at: Date }): void {
    this.db.transaction(() => {
      if (status !== 'completed') this.staging.discard(cycleId);
      this.stmt.finish.run(status, info.at.toISOString(), info.hosts, info.error ?? null, cycleId);
    })();
  }

  /**
   * Appends one scored batch of a running cycle to its staging rows (not visible until
   * `commitCycle`), in one transaction; a generator is consumed host by host. Answers how many.
   */
  stageScores(cycleId: number, connectorId: string, scored: Iterable<ScoredHost>): number {
    return this.staging.stage(cycleId, connectorId, scored);
  }

  /** Staged rows of one cycle (or of all): rows scored and not yet committed. */
  stagedCount(cycleId?: number): number {
    return this.staging.count(cycleId);
  }

  /**
   * Completes a cycle in one transaction: its staged rows move into hosts and scores (INSERT …
   * SELECT inside SQLite), the cycle is marked completed with that host count, and the staged rows
   * are deleted. Until it commits the views show the previous cycle; answers the host count.
   */
  commitCycle(cycleId: number, at: Date): number {
    return this.db.transaction(() => {
      const hosts = this.staging.promote(cycleId);
      this.stmt.finish.run('completed', at.toISOString(), hosts, null, cycleId);
      return hosts;
    })();
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

  /** Band counts and mean score of one cycle (what is published). */
  cycleSummary(cycleId: number): { hosts: number; meanScore: number; bands: Record<RiskBand, number> } {
    const bands: Record<RiskBand, number> = { Trustworthy: 0, 'Low Risk': 0, 'Moderate Risk': 0, Suspicious: 0, 'High Risk': 0 };
    let sum = 0;
    let n = 0;
    for (const row of this.stmt.cycleScores.iterate(cycleId) as Iterable<{ score: number; band: RiskBand }>) {
      bands[row.band] += 1;
      sum += row.score;
      n += 1;
    }
    return { hosts: n, meanScore: n ? Math.round((sum / n) * 100) / 100 : 0, bands };
  }

  /** Every scored host of one cycle (what a publication carries), with the Falcon profile results when there are some. */
  cycleHosts(cycleId: number): CycleHost[] {
    const rows = this.stmt.cycleHosts.all(cycleId) as Array<Omit<CycleHost, 'profiles'> & { profiles: string | null }>;
    return rows.map(({ profiles, ...h }) => (profiles ? { ...h, profiles: JSON.parse(profiles) as Record<string, boolean> } : h));
  }

  /** Per-target publication marks, so a retry after a partial failure never sends a cycle twice to one target. */
  targetPublished(cycleId: number, target: string): boolean {
    return this.stmt.targetDone.get(cycleId, target) !== undefined;
  }

  markTargetPublished(cycleId: number, target: string, at: Date): boolean {
    return this.stmt.targetMark.run(cycleId, target, at.toISOString()).changes === 1;
  }

  /** The latest score of every host, filtered as the ZTA dashboard asks. */
  latestScores(q: ScoreQuery = {}): LatestScoreRow[] {
    const where: string[] = ['s.cycle_id = h.last_cycle'];
    const args: Record<string, unknown> = {};
    const filters = { connectorId: 'h.connector_id', customerId: 'h.customer_id', platform: 'h.platform', band: 's.band' } as const;
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
                s.score, s.band, s.scored_at AS scoredAt, s.cycle_id AS cycleId
         FROM hosts h JOIN scores s ON s.connector_id = h.connector_id AND s.host_id = h.host_id
         WHERE ${where.join(' AND ')} ORDER BY s.score DESC, h.hostname LIMIT @limit OFFSET @offset`,
      )
      .all(args) as LatestScoreRow[];
  }

  /** A host's record and the contributions of its latest score. */
  hostDetail(connectorId: string, hostId: string): { host: HostRecord; contributions: Contribution[]; profiles: Record<string, boolean> | null } | undefined {
    const row = this.db
      .prepare(
        `SELECT h.record_json AS record, s.contributions_json AS contributions, s.profiles_json AS profiles
         FROM hosts h JOIN scores s ON s.connector_id = h.connector_id AND s.host_id = h.host_id AND s.cycle_id = h.last_cycle
         WHERE h.connector_id = ? AND h.host_id = ?`,
      )
      .get(connectorId, hostId) as { record: string; contributions: string; profiles: string | null } | undefined;
    if (!row) return undefined;
    return { host: JSON.parse(row.record) as HostRecord, contributions: JSON.parse(row.contributions) as Contribution[], profiles: row.profiles ? (JSON.parse(row.profiles) as Record<string, boolean>) : null };
  }

  /** Score history of one host, newest first. */
  history(connectorId: string, hostId: string, limit = 50): Array<{ cycleId: number; score: number; band: RiskBand; scoredAt: string }> {
    return this.stmt.history.all(connectorId, hostId, limit) as Array<{ cycleId: number; score: number; band: RiskBand; scoredAt: string }>;
  }

  close(): void {
    this.db.close();
  }
}

function toCycle(r: unknown): CycleRow | undefined {
  if (!r) return undefined;
  const x = r as Record<string, unknown>;
  return {
    id: Number(x.id),
    connectorId: String(x.connector_id),
    vendor: x.vendor as Vendor,
    tenantId: String(x.tenant_id),
    startedAt: String(x.started_at),
    finishedAt: (x.finished_at as string | null) ?? null,
    status: x.status as CycleStatus,
    hosts: Number(x.hosts),
    error: (x.error as string | null) ?? null,
    publishedAt: (x.published_at as string | null) ?? null,
    publishAttempts: Number(x.publish_attempts),
    publishError: (x.publish_error as string | null) ?? null,
  };
}
