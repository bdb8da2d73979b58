/**
 * Staging of a running poll cycle's scores (edr.db, table `staged_scores`), so the app's poller
 * keeps no more than one batch of hosts in memory and a cycle still becomes visible all at once.
 *
 * Each batch the connector hands out is scored and appended here in its own transaction. The
 * views never read this table: they join `hosts.last_cycle` with `scores`. When the cycle
 * completes, `promote` moves its rows into `hosts` and `scores` with INSERT … SELECT (SQLite does
 * the copy; nothing of the whole cycle is held in JavaScript) and deletes them; `EdrStore` runs
 * that and the cycle's `completed` mark in one transaction. A failed or cancelled cycle's rows are
 * discarded, and so are those of a cycle the app stopped during (found `running` at the next open).
 */
import type Database from 'better-sqlite3';
import type { ScoredHost } from '../../shared/model/edr';

/** The staging table (edr.db migration 3). */
export const STAGING_SCHEMA = `
CREATE TABLE staged_scores (
  cycle_id INTEGER NOT NULL,
  connector_id TEXT NOT NULL,
  host_id TEXT NOT NULL,
  vendor TEXT NOT NULL,
  hostname TEXT NOT NULL,
  customer_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  os_version TEXT,
  last_seen TEXT,
  record_json TEXT NOT NULL,
  score REAL NOT NULL,
  band TEXT NOT NULL,
  contributions_json TEXT NOT NULL,
  profiles_json TEXT,
  scored_at TEXT NOT NULL,
  PRIMARY KEY (cycle_id, host_id)
);
`;

export class EdrStaging {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      // A host handed out twice in one cycle keeps its last record and score (as the one-transaction write did).
      stage: db.prepare(
        `INSERT OR REPLACE INTO staged_scores (cycle_id, connector_id, host_id, vendor, hostname, customer_id, platform, os_version, last_seen,
           record_json, score, band, contributions_json, profiles_json, scored_at)
         VALUES (@cycleId, @connectorId, @hostId, @vendor, @hostname, @customerId, @platform, @osVersion, @lastSeen,
           @record, @score, @band, @contributions, @profiles, @scoredAt)`,
      ),
      count: db.prepare('SELECT COUNT(*) AS n FROM staged_scores WHERE cycle_id = ?'),
      countAll: db.prepare('SELECT COUNT(*) AS n FROM staged_scores'),
      // `WHERE` before `ON CONFLICT` is required by SQLite's grammar for an upsert from a SELECT.
      hosts: db.prepare(
        `INSERT INTO hosts (connector_id, host_id, vendor, hostname, customer_id, platform, os_version, last_seen, record_json, last_cycle)
         SELECT connector_id, host_id, vendor, hostname, customer_id, platform, os_version, last_seen, record_json, cycle_id
         FROM staged_scores WHERE cycle_id = ?
         ON CONFLICT (connector_id, host_id) DO UPDATE SET vendor = excluded.vendor, hostname = excluded.hostname, customer_id = excluded.customer_id,
           platform = excluded.platform, os_version = excluded.os_version, last_seen = excluded.last_seen, record_json = excluded.record_json, last_cycle = excluded.last_cycle`,
      ),
      scores: db.prepare(
        `INSERT OR REPLACE INTO scores (cycle_id, connector_id, host_id, score, band, contributions_json, profiles_json, scored_at)
         SELECT cycle_id, connector_id, host_id, score, band, contributions_json, profiles_json, scored_at FROM staged_scores WHERE cycle_id = ?`,
      ),
      discard: db.prepare('DELETE FROM staged_scores WHERE cycle_id = ?'),
      // Staged rows belong to a running cycle only; anything else is left over and goes.
      discardStale: db.prepare("DELETE FROM staged_scores WHERE cycle_id NOT IN (SELECT id FROM cycles WHERE status = 'running')"),
    };
  }

  /**
   * Appends one scored batch of a running cycle, in one transaction; answers how many rows. Given
   * a generator, each host is scored as it is written, so no array of scored hosts is built.
   */
  stage(cycleId: number, connectorId: string, scored: Iterable<ScoredHost>): number {
    let n = 0;
    const write = this.db.transaction((rows: Iterable<ScoredHost>) => {
      for (const s of rows) {
        n += 1;
        const h = s.host;
        this.stmt.stage.run({
          cycleId,
          connectorId,
          hostId: h.hostId,
          vendor: h.vendor,
          hostname: h.hostname,
          customerId: h.customerId,
          platform: h.platform,
          osVersion: h.osVersion,
          lastSeen: h.lastSeen,
          record: JSON.stringify(h),
          score: s.score,
          band: s.band,
          contributions: JSON.stringify(s.contributions),
          profiles: s.profiles ? JSON.stringify(s.profiles) : null,
          scoredAt: s.scoredAt,
        });
      }
    });
    write(scored);
    return n;
  }

  /** Staged rows of one cycle, or of all cycles. */
  count(cycleId?: number): number {
    const row = (cycleId === undefined ? this.stmt.countAll.get() : this.stmt.count.get(cycleId)) as { n: number };
    return row.n;
  }

  /**
   * Moves a cycle's staged rows into `hosts` and `scores` and deletes them; answers how many hosts
   * moved. Call it inside the transaction that marks the cycle completed.
   */
  promote(cycleId: number): number {
    const n = this.count(cycleId);
    this.stmt.hosts.run(cycleId);
    this.stmt.scores.run(cycleId);
    this.stmt.discard.run(cycleId);
    return n;
  }

  /** Deletes a cycle's staged rows (failed, cancelled); answers how many. */
  discard(cycleId: number): number {
    return this.stmt.discard.run(cycleId).changes;
  }

  /** Deletes the staged rows of every cycle that is not running (at open, after interrupted cycles are marked). */
  discardStale(): number {
    return this.stmt.discardStale.run().changes;
  }
}
