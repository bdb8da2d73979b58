/**
 * The EDR store's schema on PostgreSQL (issue 24.1, C-61): the tables of edr.db (edr-schema.ts) in
 * a schema of their own, `edr`, applied by `migratePg(pool, 'edr', EDR_PG_STEPS)`.
 *
 * - Times the store makes from a Date (a cycle's start, end, publication) are `timestamptz` and
 *   come back as ISO text with milliseconds and Z (TS below), as the SQLite store keeps them.
 *   Times copied from a host (`last_seen`, `scored_at`) are text as the connector gave them, in
 *   the "C" collation, so retention's `scored_at < cutoff` compares as SQLite does (bytes).
 * - `host_id` is in the "C" collation too: the views page and order by it, as SQLite's BINARY does.
 * - Staging is UNLOGGED and keyed by cycle: the fleet's workers share it (a TEMP table is one
 *   connection's), and a staged row is never visible, so it needs no WAL; a crash of the server
 *   empties it, which only loses the cycles running then. `staged_scores` holds the hosts that
 *   changed or are new (full rows, keyed by host). The hosts seen as stored (light rows: 96 % of a
 *   cycle) were staged in `staged_seen` until step 2; the process running the cycle now holds them
 *   and the commit writes them in one statement (edr-pg-staging.ts).
 * - `host_seen` is rewritten for every host every cycle: fillfactor 50 leaves room on each page
 *   for the new version of its rows (a HOT update: no index entry, no new page).
 * - `connector_writes`: per connector, how many commits rewrote its hosts (and prunes deleted
 *   some); a process keeps what it read of a connector's stored hosts while this has not moved.
 */
import { isoText } from '../../store/postgres';

/** The search's folded columns as step 3 indexes them (edr-window-sql.ts `foldPg`, spelled out: a step never changes). */
const FOLD_HOSTNAME = 'lower(hostname COLLATE "C")';
const FOLD_HOST_ID = 'lower(host_id COLLATE "C")';

/** The band sort's key as step 4 indexes it (edr-window-sql.ts `indexCase` over BANDS, spelled out: a step never changes). */
const BAND_KEY = `(CASE band WHEN 'Trustworthy' THEN 0 WHEN 'Low Risk' THEN 1 WHEN 'Moderate Risk' THEN 2 WHEN 'Suspicious' THEN 3 WHEN 'High Risk' THEN 4 WHEN 'Not assessed' THEN 5 ELSE 0 END)`;

/** The attribute columns `hosts` and `staged_scores` share, with their types (edr-schema.ts HOST_ATTRIBUTE_COLUMNS, in its order). */
export const PG_ATTRIBUTES: ReadonlyArray<readonly [string, string]> = [
  ['os_version', 'text'],
  ['score', 'float8'],
  ['band', 'text'],
  ['digest', 'text'],
  ['os_assessment', 'float8'],
  ['sensor_assessment', 'float8'],
  ['overall_assessment', 'float8'],
  ['sensor_running', 'float8'],
  ['reduced_functionality', 'float8'],
  ['risk_level', 'text'],
  ['exposure', 'text'],
  ['health', 'text'],
  ['av_status', 'text'],
  ['onboarding', 'text'],
  ['critical_cves', 'float8'],
  ['cve_count', 'float8'],
  ['max_cvss', 'float8'],
  ['cvss', 'text'],
];

/** A host's identity columns after its key (as edr.db's). */
export const PG_IDENTITY: ReadonlyArray<readonly [string, string]> = [
  ['connector_id', 'text'],
  ['host_id', 'text'],
  ['vendor', 'text'],
  ['hostname', 'text'],
  ['customer_id', 'text'],
  ['platform', 'text'],
];

const NOT_NULL = new Set(['connector_id', 'host_id', 'vendor', 'hostname', 'customer_id', 'platform', 'score', 'band', 'digest']);
const C_COLLATED = new Set(['connector_id', 'host_id']);
const ddl = (cols: ReadonlyArray<readonly [string, string]>) => cols.map(([n, t]) => `  ${n} ${t}${C_COLLATED.has(n) ? ' COLLATE "C"' : ''}${NOT_NULL.has(n) ? ' NOT NULL' : ''},`).join('\n');

/** A timestamptz column as the SQLite store's ISO text (what Date.toISOString gives). */
export const TS = isoText;

export const EDR_PG_STEPS: readonly string[] = [
  `CREATE SCHEMA edr;
CREATE TABLE edr.cycles (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  connector_id text COLLATE "C" NOT NULL,
  vendor text NOT NULL,
  tenant_id text NOT NULL,
  started_at timestamptz NOT NULL,
  finished_at timestamptz,
  status text NOT NULL CHECK (status IN ('running', 'completed', 'failed', 'cancelled', 'interrupted')),
  kind text NOT NULL DEFAULT 'poll' CHECK (kind IN ('poll', 'rescore')),
  hosts integer NOT NULL DEFAULT 0,
  error text,
  error_code text,
  published_at timestamptz,
  publish_attempts integer NOT NULL DEFAULT 0,
  publish_error text
);
CREATE INDEX cycles_connector ON edr.cycles (connector_id, id);
CREATE INDEX cycles_running ON edr.cycles (connector_id) WHERE status = 'running';
CREATE TABLE edr.hosts (
  hid bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
${ddl(PG_IDENTITY)}
${ddl(PG_ATTRIBUTES)}
  UNIQUE (connector_id, host_id)
);
CREATE TABLE edr.host_seen (
  hid bigint PRIMARY KEY,
  last_cycle bigint NOT NULL,
  last_seen text,
  scored_at text COLLATE "C" NOT NULL
) WITH (fillfactor = 50);
CREATE TABLE edr.host_details (
  hid bigint PRIMARY KEY,
  record_json text NOT NULL,
  contributions_json text NOT NULL,
  profiles_json text
);
CREATE TABLE edr.score_changes (
  hid bigint NOT NULL,
  cycle_id bigint NOT NULL,
  score float8 NOT NULL,
  band text NOT NULL,
  scored_at text COLLATE "C" NOT NULL,
  PRIMARY KEY (hid, cycle_id)
);
CREATE INDEX score_changes_cycle ON edr.score_changes (cycle_id);
CREATE TABLE edr.cycle_bands (
  cycle_id bigint NOT NULL,
  customer_id text NOT NULL,
  platform text NOT NULL,
  band text NOT NULL,
  hosts integer NOT NULL,
  score_sum float8 NOT NULL,
  PRIMARY KEY (cycle_id, customer_id, platform, band)
);
CREATE TABLE edr.publications (
  cycle_id bigint NOT NULL,
  target text NOT NULL,
  published_at timestamptz NOT NULL,
  PRIMARY KEY (cycle_id, target)
);
CREATE TABLE edr.connector_writes (
  connector_id text COLLATE "C" PRIMARY KEY,
  version bigint NOT NULL
);
CREATE UNLOGGED TABLE edr.staged_scores (
  cycle_id bigint NOT NULL,
  last_seen text,
  scored_at text NOT NULL,
${ddl(PG_IDENTITY)}
${ddl(PG_ATTRIBUTES)}
  record_json text NOT NULL,
  contributions_json text NOT NULL,
  profiles_json text,
  PRIMARY KEY (cycle_id, host_id)
);
CREATE UNLOGGED TABLE edr.staged_seen (
  cycle_id bigint NOT NULL,
  hid bigint NOT NULL,
  last_seen text,
  scored_at text NOT NULL
);
CREATE INDEX staged_seen_cycle ON edr.staged_seen (cycle_id);`,
  // 2: light rows are held by the process running the cycle, named in `staged_by` (edr-pg-staging.ts); a cycle running across the upgrade is interrupted.
  `UPDATE edr.cycles SET status = 'interrupted', finished_at = now(), error = 'Interrupted by an upgrade of the store.', hosts = 0 WHERE status = 'running';
DELETE FROM edr.staged_scores;
DROP TABLE edr.staged_seen;
ALTER TABLE edr.cycles ADD COLUMN staged_by text;`,
  // 3: the ZTA table in windows (issue 25.3, edr-window-sql.ts): the search's substring of hostname or
  // host ID (ASCII letters folded) through trigram indexes (pg_trgm, a trusted extension PostgreSQL
  // ships: the database's owner, who runs the migrations, may create it; where it already is, its
  // schema's operator class is used); the default order (riskiest first) and the hostname order in
  // code units, read along an index and stopped at the window's end.
  `CREATE EXTENSION IF NOT EXISTS pg_trgm;
DO $$
DECLARE ops text := (SELECT quote_ident(n.nspname) || '.gin_trgm_ops' FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'pg_trgm');
BEGIN
  EXECUTE format('CREATE INDEX hosts_search_name ON edr.hosts USING gin (${FOLD_HOSTNAME} %s)', ops);
  EXECUTE format('CREATE INDEX hosts_search_id ON edr.hosts USING gin (${FOLD_HOST_ID} %s)', ops);
END $$;
CREATE INDEX hosts_default_order ON edr.hosts ((CASE WHEN band = 'Not assessed' THEN -1 ELSE score END) DESC, (hostname COLLATE "C"), connector_id, host_id);
CREATE INDEX hosts_by_name ON edr.hosts ((hostname COLLATE "C"), connector_id, host_id);`,
  // 4: the ZTA table's sorts the operators use most, read along an index and stopped at the window's
  // end (C-80; the keys as edr-window-sql.ts's sortKeys spells them, ties by hostname in code units,
  // connector, host ID): the score both ways (descending: the index backwards, each score's few ties
  // sorted apart), the band each way (6 values: backwards, a band's ties would be all its hosts), the
  // customer (each customer's hosts read apart in the sort's order of customers). The last-seen time
  // is not indexed: host_seen is rewritten every cycle in place (HOT), and an index on it would cost
  // every host a new index entry at each commit.
  `CREATE INDEX hosts_by_score ON edr.hosts ((CASE WHEN band = 'Not assessed' THEN 0 ELSE 1 + GREATEST(0, LEAST(10000, floor(score * 100 + 0.5))) END), (hostname COLLATE "C"), connector_id, host_id);
CREATE INDEX hosts_by_band ON edr.hosts (${BAND_KEY}, (hostname COLLATE "C"), connector_id, host_id);
CREATE INDEX hosts_by_band_desc ON edr.hosts (${BAND_KEY} DESC, (hostname COLLATE "C"), connector_id, host_id);
CREATE INDEX hosts_by_customer ON edr.hosts ((customer_id COLLATE "C"), (hostname COLLATE "C"), connector_id, host_id);
ANALYZE edr.hosts;`,
  // 5: the Host ID sort (C-97), both ways along one index (its key as edr-window-sql.ts's orderBy
  // spells it: host ID, hostname in code units, connector; descending is the same order reversed).
  // A host's ID and name are written once, when it is first stored, so a commit pays for it only on
  // its new hosts and on the changed ones its other indexes already move.
  `CREATE INDEX hosts_by_host_id ON edr.hosts (host_id, (hostname COLLATE "C"), connector_id);
ANALYZE edr.hosts;`,
];
