/**
 * edr.db's schema history, applied in order by `migrate` (store/sqlite.ts; `PRAGMA user_version`
 * counts the steps a database has had). A store written before the list existed is placed once
 * from its tables by `adoptEdrStore`.
 *
 * Since step 4 the store keeps history by what changes, not by time (EDR-H1…H4 in
 * docs/spec-decisions.md):
 * - `hosts`: one row per host with its latest score and the attributes the dashboard shows and
 *   the what-if rescoring reads; rewritten only when the host changed (its digest, `hosts.digest`).
 * - `host_seen` (step 5): what moves every cycle for every host — the cycle it was last listed
 *   in, its last-seen time, when it was scored — in a row of about 60 bytes keyed by `hosts.hid`,
 *   so a cycle of hosts seen as they were rewrites that and nothing else.
 * - `host_details`: the host's whole record, the contributions of its latest score and the Falcon
 *   profile results; written only when their digest (`hosts.digest`) changes.
 * - `score_changes`: a host's score history, one row per cycle in which its score or band moved
 *   (and its first score), keyed by the host's integer key `hosts.hid` (a few dozen bytes a row).
 * - `cycle_bands`: per-cycle aggregates (hosts and score sum per customer, platform and band), for
 *   trends and publication summaries of every cycle.
 */
import type Database from 'better-sqlite3';
import { hasTable } from '../../store/sqlite';

/**
 * A host's columns after its key: identity, then the attributes `hosts` and `staged_scores` share
 * (the latest score, the last-seen time, the digest, and what the dashboard shows and the what-if
 * reads). One list for both tables and for the statements that copy between them.
 */
const IDENTITY_DDL: ReadonlyArray<readonly [string, string]> = [
  ['connector_id', 'TEXT NOT NULL'],
  ['host_id', 'TEXT NOT NULL'],
  ['vendor', 'TEXT NOT NULL'],
  ['hostname', 'TEXT NOT NULL'],
  ['customer_id', 'TEXT NOT NULL'],
  ['platform', 'TEXT NOT NULL'],
];
/** The attribute columns of step 4's `hosts` (frozen: step 4 creates exactly these). */
const V4_ATTRIBUTE_DDL = [
  ['os_version', 'TEXT'],
  ['last_seen', 'TEXT'],
  ['score', 'REAL NOT NULL'],
  ['band', 'TEXT NOT NULL'],
  ['scored_at', 'TEXT NOT NULL'],
  ['digest', 'TEXT NOT NULL'],
  ['os_assessment', 'REAL'],
  ['sensor_assessment', 'REAL'],
  ['overall_assessment', 'REAL'],
  ['sensor_running', 'INTEGER'],
  ['reduced_functionality', 'INTEGER'],
  ['risk_level', 'TEXT'],
  ['exposure', 'TEXT'],
  ['health', 'TEXT'],
  ['av_status', 'TEXT'],
  ['onboarding', 'TEXT'],
  ['critical_cves', 'INTEGER'],
  ['cve_count', 'INTEGER'],
  ['max_cvss', 'REAL'],
  ['cvss', 'TEXT'],
] as const;
const columnsDdl = (cols: ReadonlyArray<readonly [string, string]>) => cols.map(([name, type]) => `  ${name} ${type},`).join('\n');

/** What moved to `host_seen` in step 5. */
const SEEN_DDL = [
  ['last_seen', 'TEXT'],
  ['scored_at', 'TEXT NOT NULL'],
] as const;
const ATTRIBUTE_DDL = V4_ATTRIBUTE_DDL.filter(([name]) => !SEEN_DDL.some(([seen]) => seen === name));

/** The attribute columns `hosts` and `staged_scores` share (after the identity columns). */
export const HOST_ATTRIBUTE_COLUMNS = ATTRIBUTE_DDL.map(([name]) => name);

/**
 * The staging table of a running cycle (edr-staging.ts): a TEMP table since step 4. Staged rows are
 * never visible and never survive their process (a cycle the app stopped during is discarded), so
 * they need no durability: they stay out of the WAL and out of the file. It holds the hosts that
 * changed (or are new) as they are staged; the others are kept in memory as light rows until the
 * commit (edr-staging.ts).
 */
export const STAGING_TEMP = `
CREATE TEMP TABLE IF NOT EXISTS staged_scores (
  cycle_id INTEGER NOT NULL,
${columnsDdl(IDENTITY_DDL)}
${columnsDdl(ATTRIBUTE_DDL)}
${columnsDdl(SEEN_DDL)}
  record_json TEXT NOT NULL,
  contributions_json TEXT NOT NULL,
  profiles_json TEXT,
  -- 1: the host was not stored when it was staged (its first score is history).
  is_new INTEGER NOT NULL,
  PRIMARY KEY (cycle_id, host_id)
);`;

const STEP_4 = `
CREATE TABLE hosts_v4 (
  hid INTEGER PRIMARY KEY,
${columnsDdl(IDENTITY_DDL)}
  last_cycle INTEGER NOT NULL,
${columnsDdl(V4_ATTRIBUTE_DDL)}
  UNIQUE (connector_id, host_id)
);
INSERT INTO hosts_v4 (connector_id, host_id, vendor, hostname, customer_id, platform, last_cycle, os_version, last_seen, score, band, scored_at, digest,
    os_assessment, sensor_assessment, overall_assessment, sensor_running, reduced_functionality,
    risk_level, exposure, health, av_status, onboarding, critical_cves, cve_count, max_cvss, cvss)
  SELECT h.connector_id, h.host_id, h.vendor, h.hostname, h.customer_id, h.platform, h.last_cycle, h.os_version, h.last_seen, s.score, s.band, s.scored_at, '',
    json_extract(h.record_json, '$.falcon.assessment.os'), json_extract(h.record_json, '$.falcon.assessment.sensor_config'),
    json_extract(h.record_json, '$.falcon.assessment.overall'), json_extract(h.record_json, '$.falcon.sensorRunning'),
    json_extract(h.record_json, '$.falcon.reducedFunctionalityMode'),
    json_extract(h.record_json, '$.defender.riskScore'), json_extract(h.record_json, '$.defender.exposureLevel'),
    json_extract(h.record_json, '$.defender.healthStatus'), json_extract(h.record_json, '$.defender.avStatus'),
    json_extract(h.record_json, '$.defender.onboardingStatus'), json_extract(h.record_json, '$.defender.criticalCveCount'),
    json_extract(h.record_json, '$.defender.cveCount'), json_extract(h.record_json, '$.defender.maxCvss'), NULL
  FROM hosts h JOIN scores s ON s.connector_id = h.connector_id AND s.host_id = h.host_id AND s.cycle_id = h.last_cycle
  WHERE json_valid(h.record_json);
-- Rows of kilobytes: a rowid table keyed by the host's integer key (a WITHOUT ROWID b-tree would give each an overflow page).
CREATE TABLE host_details (
  hid INTEGER PRIMARY KEY,
  record_json TEXT NOT NULL,
  contributions_json TEXT NOT NULL,
  profiles_json TEXT
);
INSERT INTO host_details (hid, record_json, contributions_json, profiles_json)
  SELECT n.hid, h.record_json, s.contributions_json, s.profiles_json
  FROM hosts h JOIN hosts_v4 n ON n.connector_id = h.connector_id AND n.host_id = h.host_id
  JOIN scores s ON s.connector_id = h.connector_id AND s.host_id = h.host_id AND s.cycle_id = h.last_cycle;
CREATE TABLE score_changes (
  hid INTEGER NOT NULL,
  cycle_id INTEGER NOT NULL,
  score REAL NOT NULL,
  band TEXT NOT NULL,
  scored_at TEXT NOT NULL,
  PRIMARY KEY (hid, cycle_id)
) WITHOUT ROWID;
CREATE INDEX score_changes_cycle ON score_changes(cycle_id);
INSERT INTO score_changes (hid, cycle_id, score, band, scored_at)
  SELECT n.hid, c.cycle_id, c.score, c.band, c.scored_at FROM (
    SELECT connector_id, host_id, cycle_id, score, band, scored_at,
      LAG(score) OVER w AS prev_score, LAG(band) OVER w AS prev_band
    FROM scores WINDOW w AS (PARTITION BY connector_id, host_id ORDER BY cycle_id)) c
  JOIN hosts_v4 n ON n.connector_id = c.connector_id AND n.host_id = c.host_id
  WHERE c.prev_score IS NULL OR c.prev_score <> c.score OR c.prev_band <> c.band;
CREATE TABLE cycle_bands (
  cycle_id INTEGER NOT NULL,
  customer_id TEXT NOT NULL,
  platform TEXT NOT NULL,
  band TEXT NOT NULL,
  hosts INTEGER NOT NULL,
  score_sum REAL NOT NULL,
  PRIMARY KEY (cycle_id, customer_id, platform, band)
) WITHOUT ROWID;
INSERT INTO cycle_bands (cycle_id, customer_id, platform, band, hosts, score_sum)
  SELECT s.cycle_id, COALESCE(h.customer_id, ''), COALESCE(h.platform, 'Other'), s.band, COUNT(*), SUM(s.score)
  FROM scores s LEFT JOIN hosts h ON h.connector_id = s.connector_id AND h.host_id = s.host_id
  GROUP BY s.cycle_id, COALESCE(h.customer_id, ''), COALESCE(h.platform, 'Other'), s.band;
DROP TABLE scores;
DROP TABLE hosts;
ALTER TABLE hosts_v4 RENAME TO hosts;
CREATE INDEX hosts_cycle ON hosts(last_cycle);
DROP TABLE staged_scores;
ALTER TABLE cycles ADD COLUMN kind TEXT NOT NULL DEFAULT 'poll';
ALTER TABLE cycles ADD COLUMN error_code TEXT;
`;

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
  `CREATE TABLE staged_scores (
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
);`,
  // 4: history by change (hosts narrow + host_details, score_changes, cycle_bands); cycle kind
  // (poll or rescore) and the error code of a failed cycle (offline tells from failing); the
  // staging table leaves the file (STAGING_TEMP).
  STEP_4,
  // 5: what moves every cycle (last cycle, last-seen time, scoring time) leaves \`hosts\` for the
  // narrow \`host_seen\`; no index on the cycle (a cycle would move every host's entry in it; the
  // reads go by connector, through \`hosts\`' own index).
  `CREATE TABLE host_seen (
  hid INTEGER PRIMARY KEY,
  last_cycle INTEGER NOT NULL,
  last_seen TEXT,
  scored_at TEXT NOT NULL
);
INSERT INTO host_seen (hid, last_cycle, last_seen, scored_at) SELECT hid, last_cycle, last_seen, scored_at FROM hosts;
DROP INDEX hosts_cycle;
ALTER TABLE hosts DROP COLUMN last_cycle;
ALTER TABLE hosts DROP COLUMN last_seen;
ALTER TABLE hosts DROP COLUMN scored_at;`,
  // 6: a cycle's band counts read in the order they group (no sort of 100,000 rows at each commit).
  `CREATE INDEX hosts_bands ON hosts(connector_id, customer_id, platform, band, score);`,
  // 7: the commit counts its cycle's bands from what staging knows of each host (edr-staging.ts), so
  // the index of step 6 goes: a cycle moved a thousand of its pages (every host whose score moved)
  // for a read it no longer serves.
  `DROP INDEX hosts_bands;`,
  // 8: the ZTA table's first window in its default order (issue 25.3, edr-window-sql.ts DEFAULT_RANK):
  // read along this index and stopped at the window's end instead of sorting every host. Its entry
  // moves only with a host's score or band (a few % of a cycle's hosts), not with what is seen.
  `CREATE INDEX hosts_default_order ON hosts((CASE WHEN band = 'Not assessed' THEN -1 ELSE score END) DESC, hostname, connector_id, host_id);`,
  // 9: the ZTA table's score sort (C-101), the dashboard's opening view (risk score, descending): read
  // along this index and stopped at the window's end; ascending reads it backwards, each score's few
  // ties sorted apart. Its key is edr-window-sql.ts's sortKeys('score') spelled out (a step never
  // changes); like step 8's, its entry moves only with a host's score or band.
  `CREATE INDEX hosts_by_score ON hosts((CASE WHEN band = 'Not assessed' THEN 0 ELSE 1 + max(0, min(10000, floor(score * 100 + 0.5))) END) DESC, hostname, connector_id, host_id);`,
];

export const EDR_SCHEMA_VERSION = EDR_MIGRATIONS.length;

/** The step an unversioned edr.db (written before the list) had reached, read from its tables. */
export function adoptEdrStore(db: Database.Database): number {
  if (!hasTable(db, 'cycles')) return 0;
  if (!hasTable(db, 'cycles', 'publish_error')) return 1;
  return hasTable(db, 'staged_scores') ? 3 : 2;
}
