/**
 * Staging of a running poll cycle's scores (edr.db, table `staged_scores`), so the app's poller
 * keeps no more than one batch of hosts in memory and a cycle still becomes visible all at once.
 *
 * Each batch the connector hands out is scored and appended here in its own transaction. The
 * views never read this table. When the cycle completes, `promote` moves its rows with INSERT …
 * SELECT (SQLite does the copy; nothing of the whole cycle is held in JavaScript) and deletes them;
 * `EdrStore` runs that and the cycle's `completed` mark in one transaction. A failed or cancelled
 * cycle's rows are discarded, and so are those of a cycle the app stopped during.
 *
 * Cost is kept to what changes (EDR-H1…H3): a staged row is narrow (the latest score and the
 * attributes the dashboard shows); the host's whole record, its contributions and profiles are
 * staged only when their digest differs from the stored one (a host's last-seen time alone does
 * not count, it is a column), and its score history gains a row only when its score or band moved.
 */
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { HostRecord, ScoredHost } from '../../shared/model/edr';
import { hostAttributes } from '../../shared/model/zta-columns';
import { HOST_ATTRIBUTE_COLUMNS } from './edr-schema';

const IDENTITY = ['connector_id', 'host_id', 'vendor', 'hostname', 'customer_id', 'platform'] as const;
const PARAMS: Record<(typeof HOST_ATTRIBUTE_COLUMNS)[number] | (typeof IDENTITY)[number], string> = {
  connector_id: 'connectorId',
  host_id: 'hostId',
  vendor: 'vendor',
  hostname: 'hostname',
  customer_id: 'customerId',
  platform: 'platform',
  os_version: 'osVersion',
  last_seen: 'lastSeen',
  score: 'score',
  band: 'band',
  scored_at: 'scoredAt',
  digest: 'digest',
  os_assessment: 'osAssessment',
  sensor_assessment: 'sensorAssessment',
  overall_assessment: 'overallAssessment',
  sensor_running: 'sensorRunning',
  reduced_functionality: 'reducedFunctionality',
  risk_level: 'riskLevel',
  exposure: 'exposure',
  health: 'health',
  av_status: 'avStatus',
  onboarding: 'onboarding',
  critical_cves: 'criticalCves',
  cve_count: 'cveCount',
  max_cvss: 'maxCvss',
  cvss: 'cvss',
};
const COLUMNS = [...IDENTITY, ...HOST_ATTRIBUTE_COLUMNS];
const HOST_UPDATE = [...IDENTITY.slice(2), ...HOST_ATTRIBUTE_COLUMNS].map((c) => `${c} = excluded.${c}`).join(', ');

/** The record without its last-seen times, which move every cycle and are kept as a column instead. */
function stableRecord(h: HostRecord): string {
  const { lastSeen: _seen, defender, falcon, ...rest } = h;
  return JSON.stringify([rest, defender ? { ...defender, lastSeen: null } : null, falcon ? { ...falcon, lastSeen: null } : null]);
}

const bool = (v: boolean | null) => (v === null ? null : v ? 1 : 0);

export class EdrStaging {
  private readonly stmt;

  constructor(private readonly db: Database.Database) {
    this.stmt = {
      // A host handed out twice in one cycle keeps its last record and score.
      stage: db.prepare(
        `INSERT OR REPLACE INTO staged_scores (cycle_id, ${COLUMNS.join(', ')}, record_json, contributions_json, profiles_json)
         VALUES (@cycleId, ${COLUMNS.map((c) => `@${PARAMS[c]}`).join(', ')}, @record, @contributions, @profiles)`,
      ),
      digest: db.prepare('SELECT digest FROM hosts WHERE connector_id = ? AND host_id = ?').pluck(),
      count: db.prepare('SELECT COUNT(*) AS n FROM staged_scores WHERE cycle_id = ?'),
      countAll: db.prepare('SELECT COUNT(*) AS n FROM staged_scores'),
      // Before the hosts move: a row of history for every host whose score or band is not the stored one.
      changes: db.prepare(
        `INSERT OR REPLACE INTO score_changes (connector_id, host_id, cycle_id, score, band, scored_at)
         SELECT s.connector_id, s.host_id, s.cycle_id, s.score, s.band, s.scored_at
         FROM staged_scores s LEFT JOIN hosts h ON h.connector_id = s.connector_id AND h.host_id = s.host_id
         WHERE s.cycle_id = ? AND (h.host_id IS NULL OR h.score <> s.score OR h.band <> s.band)`,
      ),
      // `WHERE` before `ON CONFLICT` is required by SQLite's grammar for an upsert from a SELECT.
      details: db.prepare(
        `INSERT INTO host_details (connector_id, host_id, record_json, contributions_json, profiles_json)
         SELECT connector_id, host_id, record_json, contributions_json, profiles_json FROM staged_scores WHERE cycle_id = ? AND record_json IS NOT NULL
         ON CONFLICT (connector_id, host_id) DO UPDATE SET record_json = excluded.record_json, contributions_json = excluded.contributions_json, profiles_json = excluded.profiles_json`,
      ),
      hosts: db.prepare(
        `INSERT INTO hosts (${COLUMNS.join(', ')}, last_cycle)
         SELECT ${COLUMNS.join(', ')}, cycle_id FROM staged_scores WHERE cycle_id = ?
         ON CONFLICT (connector_id, host_id) DO UPDATE SET ${HOST_UPDATE}, last_cycle = excluded.last_cycle`,
      ),
      bands: db.prepare(
        `INSERT INTO cycle_bands (cycle_id, customer_id, platform, band, hosts, score_sum)
         SELECT cycle_id, customer_id, platform, band, COUNT(*), SUM(score) FROM staged_scores WHERE cycle_id = ? GROUP BY customer_id, platform, band`,
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
        const contributions = JSON.stringify(s.contributions);
        const profiles = s.profiles ? JSON.stringify(s.profiles) : null;
        const digest = createHash('sha1').update(stableRecord(h)).update(contributions).update(profiles ?? '').digest('base64');
        const same = this.stmt.digest.get(connectorId, h.hostId) === digest;
        const a = hostAttributes(h);
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
          score: s.score,
          band: s.band,
          scoredAt: s.scoredAt,
          digest,
          ...a,
          sensorRunning: bool(a.sensorRunning),
          reducedFunctionality: bool(a.reducedFunctionality),
          record: same ? null : JSON.stringify(h),
          contributions: same ? null : contributions,
          profiles: same ? null : profiles,
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
   * Moves a cycle's staged rows into the store and deletes them; answers how many hosts moved. The
   * history rows are taken before the hosts change (they compare with the stored score). Call it
   * inside the transaction that marks the cycle completed.
   */
  promote(cycleId: number): number {
    const n = this.count(cycleId);
    this.stmt.changes.run(cycleId);
    this.stmt.details.run(cycleId);
    this.stmt.hosts.run(cycleId);
    this.stmt.bands.run(cycleId);
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
