/**
 * The statements of a running cycle's staging and commit (edr-staging.ts), prepared once per
 * connection: appending full rows to the TEMP table `staged_scores`, writing light rows into
 * `host_seen`, and the INSERT … SELECTs that move a cycle's staged rows into the store.
 */
import type Database from 'better-sqlite3';
import { HOST_ATTRIBUTE_COLUMNS } from './edr-schema';

const IDENTITY = ['connector_id', 'host_id', 'vendor', 'hostname', 'customer_id', 'platform'] as const;
/** The columns of a full row that `hosts` takes as they are. */
const COLUMNS = [...IDENTITY, ...HOST_ATTRIBUTE_COLUMNS];
const HOST_UPDATE = [...IDENTITY.slice(2), ...HOST_ATTRIBUTE_COLUMNS].map((c) => `${c} = excluded.${c}`).join(', ');
/** A full row's columns, in the order `full` binds them. */
const FULL = ['cycle_id', ...COLUMNS, 'last_seen', 'scored_at', 'record_json', 'contributions_json', 'profiles_json', 'is_new'];
/** Light rows written by one statement (SQLite's per-statement cost, paid 100,000 times a cycle, is most of writing one). */
export const SEEN_ROWS = 100;
/** A stored host's row of `host_seen` from a staged full row (`s`, joined to `hosts` as `h`). */
const SEEN_FROM_STAGED = `INSERT INTO host_seen (hid, last_cycle, last_seen, scored_at)
  SELECT h.hid, s.cycle_id, s.last_seen, s.scored_at
  FROM staged_scores s JOIN hosts h ON h.connector_id = s.connector_id AND h.host_id = s.host_id
  WHERE s.cycle_id = ?
  ON CONFLICT (hid) DO UPDATE SET last_cycle = excluded.last_cycle, last_seen = excluded.last_seen, scored_at = excluded.scored_at`;

/** The prepared statements (after `STAGING_TEMP` made the staging table on this connection). */
export function stagingStatements(db: Database.Database) {
  return {
    dataVersion: db.prepare('PRAGMA data_version').pluck(),
    // A host handed out twice in one cycle keeps its last record and score.
    full: db.prepare(`INSERT OR REPLACE INTO staged_scores (${FULL.join(', ')}) VALUES (${FULL.map(() => '?').join(', ')})`),
    light: db.prepare('UPDATE host_seen SET last_cycle = ?, last_seen = ?, scored_at = ? WHERE hid = ?'),
    lights: db.prepare(
      `UPDATE host_seen SET last_cycle = ?, last_seen = v.column2, scored_at = v.column3
       FROM (VALUES ${Array.from({ length: SEEN_ROWS }, () => '(?, ?, ?)').join(', ')}) AS v WHERE host_seen.hid = v.column1`,
    ),
    digests: db.prepare('SELECT host_id, digest, hid, customer_id, platform, band, score FROM hosts WHERE connector_id = ?').raw(),
    // The keys the hosts new in a cycle were given (read at its commit, before its rows go).
    added: db.prepare('SELECT s.host_id, h.hid FROM staged_scores s JOIN hosts h ON h.connector_id = s.connector_id AND h.host_id = s.host_id WHERE s.cycle_id = ? AND s.is_new = 1').raw(),
    countFull: db.prepare('SELECT COUNT(*) FROM staged_scores WHERE cycle_id = ?').pluck(),
    countAll: db.prepare('SELECT COUNT(*) FROM staged_scores').pluck(),
    // Before the hosts move: a row of history for every stored host whose score or band is not the stored one.
    moved: db.prepare(
      `INSERT OR REPLACE INTO score_changes (hid, cycle_id, score, band, scored_at)
       SELECT h.hid, s.cycle_id, s.score, s.band, s.scored_at
       FROM staged_scores s JOIN hosts h ON h.connector_id = s.connector_id AND h.host_id = s.host_id
       WHERE s.cycle_id = ? AND s.is_new = 0 AND (h.score <> s.score OR h.band <> s.band)`,
    ),
    // `WHERE` before `ON CONFLICT` is required by SQLite's grammar for an upsert from a SELECT.
    hosts: db.prepare(
      `INSERT INTO hosts (${COLUMNS.join(', ')})
       SELECT ${COLUMNS.join(', ')} FROM staged_scores WHERE cycle_id = ?
       ON CONFLICT (connector_id, host_id) DO UPDATE SET ${HOST_UPDATE}`,
    ),
    fullSeen: db.prepare(SEEN_FROM_STAGED),
    // After: the first score of every host new in this cycle.
    first: db.prepare(
      `INSERT OR REPLACE INTO score_changes (hid, cycle_id, score, band, scored_at)
       SELECT h.hid, s.cycle_id, s.score, s.band, s.scored_at
       FROM staged_scores s JOIN hosts h ON h.connector_id = s.connector_id AND h.host_id = s.host_id
       WHERE s.cycle_id = ? AND s.is_new = 1`,
    ),
    details: db.prepare(
      `INSERT INTO host_details (hid, record_json, contributions_json, profiles_json)
       SELECT h.hid, s.record_json, s.contributions_json, s.profiles_json
       FROM staged_scores s JOIN hosts h ON h.connector_id = s.connector_id AND h.host_id = s.host_id
       WHERE s.cycle_id = ?
       ON CONFLICT (hid) DO UPDATE SET record_json = excluded.record_json, contributions_json = excluded.contributions_json, profiles_json = excluded.profiles_json`,
    ),
    band: db.prepare('INSERT INTO cycle_bands (cycle_id, customer_id, platform, band, hosts, score_sum) VALUES (?, ?, ?, ?, ?, ?)'),
    // A cycle promoted again (writeScores called more than once for it) counts all its hosts anew, from the tables.
    promotedBefore: db.prepare('SELECT 1 FROM cycle_bands WHERE cycle_id = ? LIMIT 1').pluck(),
    clearBands: db.prepare('DELETE FROM cycle_bands WHERE cycle_id = ?'),
    recountBands: db.prepare(
      `INSERT INTO cycle_bands (cycle_id, customer_id, platform, band, hosts, score_sum)
       SELECT s.last_cycle, h.customer_id, h.platform, h.band, COUNT(*), SUM(h.score)
       FROM hosts h JOIN host_seen s ON s.hid = h.hid
       WHERE h.connector_id = (SELECT connector_id FROM cycles WHERE id = @cycle) AND s.last_cycle = @cycle GROUP BY h.customer_id, h.platform, h.band`,
    ),
    discard: db.prepare('DELETE FROM staged_scores WHERE cycle_id = ?'),
    // Without WHERE SQLite drops the table's pages at once instead of deleting row by row.
    discardAll: db.prepare('DELETE FROM staged_scores'),
    // A host seen again as stored, after a full row of this cycle: its last sighting counts.
    dropFull: db.prepare('DELETE FROM staged_scores WHERE cycle_id = ? AND host_id = ?'),
  };
}
