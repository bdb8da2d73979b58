/**
 * A running cycle's staging and commit on PostgreSQL (issue 24.1, C-61), the fleet's side of
 * edr-staging.ts. Several processes share the database, so nothing of a cycle lives in one
 * connection: its rows go to the UNLOGGED `edr.staged_scores`, keyed by cycle.
 *
 * - `stage`: one statement per batch, a multi-row INSERT from `unnest` of one array per column
 *   (C-63), and only while the cycle is `running` (the statement locks its row FOR SHARE, so a
 *   concurrent `interrupt` waits for it and then deletes what it added). Cost is kept to what changed
 *   as on SQLite (EDR-H1…H3): at a cycle's first batch the connector's stored digests and keys are
 *   read once; a host whose digest (host-digest.ts) is the stored one is a light row (its key, last
 *   seen, scored at), only a changed or new host gets a full row with its record as JSON.
 * - `commit`: one transaction: the cycle's row locked FOR UPDATE and found `running` (else it
 *   rejects and changes nothing), history rows for stored hosts whose score or band moved, the hosts
 *   and details upserted (INSERT … SELECT … ON CONFLICT), the first score of new hosts, `host_seen`
 *   for every host listed, the band counts from the tables, the `completed` mark, the staged rows
 *   deleted.
 * - `interrupt`: a connector's `running` cycles marked `interrupted` and their staged rows deleted
 *   (a worker taking over a connector whose lease lapsed); their commits are refused from then on.
 *
 * Commits hold retention's advisory lock shared (retention takes it exclusive), so a prune never
 * deletes a host a commit is moving.
 */
import type pg from 'pg';
import type { ScoredHost } from '../../../shared/model/edr';
import { AppError, ErrorCodes } from '../../../shared/model/errors';
import { hostAttributes } from '../../../shared/model/zta-columns';
import { withTransaction, type PgPool } from '../../store/postgres';
import { PG_ATTRIBUTES } from './edr-pg-schema';
import { digestKey, hostDigestKey, lastDigestText } from './host-digest';
import { contributionsJson, storedRecord } from './host-json';

/** The error code of a commit or stage refused because the cycle is no longer running (another worker interrupted it). */
export const CYCLE_NOT_RUNNING = 'edr.cycle_not_running';
/** The error text of a cycle a worker interrupted to take its connector over. */
export const TAKEN_OVER_ERROR = 'Another worker took this connector over during this cycle (its lease had lapsed).';
/** Retention's advisory lock: exclusive for a prune, shared for each commit. */
export const PRUNE_LOCK = "hashtext('northbound:edr:prune')";

/** The staged columns a batch sends, one array each, with the array type `unnest` reads it as. */
const STAGED: ReadonlyArray<readonly [string, string]> = [
  ['host_id', 'text'],
  ['light', 'bool'],
  ['hid', 'int8'],
  ['last_seen', 'text'],
  ['scored_at', 'text'],
  ['vendor', 'text'],
  ['hostname', 'text'],
  ['customer_id', 'text'],
  ['platform', 'text'],
  ...PG_ATTRIBUTES,
  ['record_json', 'text'],
  ['contributions_json', 'text'],
  ['profiles_json', 'text'],
];
const STAGED_NAMES = STAGED.map(([n]) => n);
const STAGE_SQL = `INSERT INTO edr.staged_scores (cycle_id, connector_id, ${STAGED_NAMES.join(', ')})
  SELECT $1, $2, u.* FROM unnest(${STAGED.map(([, t], i) => `$${i + 3}::${t}[]`).join(', ')}) AS u
  WHERE EXISTS (SELECT 1 FROM edr.cycles WHERE id = $1 AND status = 'running' FOR SHARE)
  ON CONFLICT (cycle_id, host_id) DO UPDATE SET ${STAGED_NAMES.slice(1).map((n) => `${n} = excluded.${n}`).join(', ')}`;

/** The columns of `hosts` a full staged row gives as they are. */
const HOST_COLUMNS = ['host_id', 'vendor', 'hostname', 'customer_id', 'platform', ...PG_ATTRIBUTES.map(([n]) => n)];
const FULL = 's.cycle_id = $1 AND NOT s.light';
const JOINED = 'edr.staged_scores s JOIN edr.hosts h ON h.connector_id = $2 AND h.host_id = s.host_id';

/** The commit's statements after the cycle's row is locked, in order ($1 the cycle, $2 its connector); the `completed` mark comes last. */
const COMMIT_STATEMENTS: readonly string[] = [
  // Before the hosts move: a history row for every stored host whose score or band is not the stored one.
  `INSERT INTO edr.score_changes (hid, cycle_id, score, band, scored_at)
   SELECT h.hid, s.cycle_id, s.score, s.band, s.scored_at FROM ${JOINED}
   WHERE ${FULL} AND (h.score <> s.score OR h.band <> s.band)
   ON CONFLICT (hid, cycle_id) DO UPDATE SET score = excluded.score, band = excluded.band, scored_at = excluded.scored_at`,
  `INSERT INTO edr.hosts (connector_id, ${HOST_COLUMNS.join(', ')})
   SELECT $2, ${HOST_COLUMNS.map((c) => `s.${c}`).join(', ')} FROM edr.staged_scores s WHERE ${FULL}
   ON CONFLICT (connector_id, host_id) DO UPDATE SET ${HOST_COLUMNS.slice(1).map((c) => `${c} = excluded.${c}`).join(', ')}`,
  // After: the first score of every host new in this cycle (every stored host keeps at least one history row, retention included).
  `INSERT INTO edr.score_changes (hid, cycle_id, score, band, scored_at)
   SELECT h.hid, s.cycle_id, s.score, s.band, s.scored_at FROM ${JOINED}
   WHERE ${FULL} AND NOT EXISTS (SELECT 1 FROM edr.score_changes c WHERE c.hid = h.hid)`,
  `INSERT INTO edr.host_seen (hid, last_cycle, last_seen, scored_at)
   SELECT h.hid, s.cycle_id, s.last_seen, s.scored_at FROM ${JOINED} WHERE ${FULL}
   ON CONFLICT (hid) DO UPDATE SET last_cycle = excluded.last_cycle, last_seen = excluded.last_seen, scored_at = excluded.scored_at`,
  // Hosts seen as stored; a host retention deleted meanwhile matches nothing (the next cycle adds it again).
  `UPDATE edr.host_seen t SET last_cycle = s.cycle_id, last_seen = s.last_seen, scored_at = s.scored_at
   FROM edr.staged_scores s WHERE s.cycle_id = $1 AND s.light AND t.hid = s.hid`,
  `INSERT INTO edr.host_details (hid, record_json, contributions_json, profiles_json)
   SELECT h.hid, s.record_json, s.contributions_json, s.profiles_json FROM ${JOINED} WHERE ${FULL}
   ON CONFLICT (hid) DO UPDATE SET record_json = excluded.record_json, contributions_json = excluded.contributions_json, profiles_json = excluded.profiles_json`,
  // The cycle's band counts as the tables now hold its hosts (a numeric sum: the same in any order).
  `INSERT INTO edr.cycle_bands (cycle_id, customer_id, platform, band, hosts, score_sum)
   SELECT s.last_cycle, h.customer_id, h.platform, h.band, COUNT(*), SUM(h.score::numeric)::float8
   FROM edr.hosts h JOIN edr.host_seen s ON s.hid = h.hid WHERE h.connector_id = $2 AND s.last_cycle = $1
   GROUP BY s.last_cycle, h.customer_id, h.platform, h.band`,
  'DELETE FROM edr.staged_scores WHERE cycle_id = $1',
];
/** The `completed` mark, with the host count the band counts hold ($1 the cycle, $2 the time). */
const COMPLETED_SQL = `UPDATE edr.cycles SET status = 'completed', finished_at = $2, error = NULL, error_code = NULL,
    hosts = (SELECT COALESCE(SUM(hosts), 0) FROM edr.cycle_bands WHERE cycle_id = $1)
  WHERE id = $1 RETURNING hosts`;
/** Each statement with how many of the parameters it takes (PostgreSQL refuses more). */
const COMMIT_SQL = COMMIT_STATEMENTS.map((sql) => [sql, Math.max(...[...sql.matchAll(/\$(\d)/g)].map((m) => Number(m[1])))] as const);

const bool = (v: boolean | null) => (v === null ? null : v ? 1 : 0);

export function notRunning(cycleId: number, status: string | undefined): AppError {
  return status === undefined
    ? new AppError(ErrorCodes.notFound, `There is no cycle ${cycleId} in the store.`, '')
    : new AppError(CYCLE_NOT_RUNNING, `Cycle ${cycleId} is ${status}, no longer running: its scores were not stored.`, status === 'interrupted' ? 'Another worker took its connector over; that worker polls the tenant again.' : '');
}

export class PgStaging {
  /** Per running cycle of this process: its connector's stored hosts (digest key, integer key), read at its first batch. */
  private readonly known = new Map<number, Promise<Map<string, { digest: number; hid: number }>>>();

  constructor(private readonly pool: PgPool) {}

  private storedHosts(cycleId: number, connectorId: string) {
    let k = this.known.get(cycleId);
    if (!k) {
      k = this.pool.query<[string, string, string]>({ text: 'SELECT host_id, digest, hid FROM edr.hosts WHERE connector_id = $1', values: [connectorId], rowMode: 'array' }).then((r) => {
        const byHost = new Map<string, { digest: number; hid: number }>();
        for (const [hostId, digest, hid] of r.rows) byHost.set(hostId, { digest: digestKey(digest), hid: Number(hid) });
        return byHost;
      });
      this.known.set(cycleId, k);
      k.catch(() => this.known.delete(cycleId));
    }
    return k;
  }

  /** Appends one scored batch of a running cycle in one statement; answers how many hosts it had. Rejects when the cycle is not running. */
  async stage(cycleId: number, connectorId: string, scored: Iterable<ScoredHost>): Promise<number> {
    const known = await this.storedHosts(cycleId, connectorId);
    const cols: unknown[][] = STAGED.map(() => []);
    // A host handed out twice in a batch keeps its last sighting (one row per host in a statement).
    const at = new Map<string, number>();
    let n = 0;
    for (const s of scored) {
      n += 1;
      const h = s.host;
      let i = at.get(h.hostId);
      if (i === undefined) at.set(h.hostId, (i = at.size));
      const digest = hostDigestKey(s);
      const stored = known.get(h.hostId);
      const light = stored !== undefined && stored.digest === digest;
      const row: unknown[] = [h.hostId, light, light ? stored.hid : null, h.lastSeen, s.scoredAt];
      if (!light) {
        const a = hostAttributes(h);
        row.push(h.vendor, h.hostname, h.customerId, h.platform, h.osVersion, s.score, s.band, lastDigestText());
        row.push(a.osAssessment, a.sensorAssessment, a.overallAssessment, bool(a.sensorRunning), bool(a.reducedFunctionality));
        row.push(a.riskLevel, a.exposure, a.health, a.avStatus, a.onboarding, a.criticalCves, a.cveCount, a.maxCvss, a.cvss);
        row.push(storedRecord(h), contributionsJson(s.contributions), s.profiles ? JSON.stringify(s.profiles) : null);
      }
      for (let c = 0; c < cols.length; c++) cols[c]![i] = row[c] ?? null;
    }
    if (n === 0) return 0;
    const r = await this.pool.query(STAGE_SQL, [cycleId, connectorId, ...cols]);
    if ((r.rowCount ?? 0) === 0) {
      const status = (await this.pool.query<{ status: string }>('SELECT status FROM edr.cycles WHERE id = $1', [cycleId])).rows[0]?.status;
      this.known.delete(cycleId);
      throw notRunning(cycleId, status);
    }
    return n;
  }

  /** Moves a running cycle's staged rows into the store and marks it completed, in one transaction; answers its host count. */
  async commit(cycleId: number, at: Date): Promise<number> {
    try {
      return await withTransaction(this.pool, async (c) => {
        await c.query(`SELECT pg_advisory_xact_lock_shared(${PRUNE_LOCK})`);
        const cycle = (await c.query<{ connector_id: string; status: string }>('SELECT connector_id, status FROM edr.cycles WHERE id = $1 FOR UPDATE', [cycleId])).rows[0];
        if (cycle?.status !== 'running') throw notRunning(cycleId, cycle?.status);
        const args = [cycleId, cycle.connector_id];
        for (const [sql, params] of COMMIT_SQL) await c.query(sql, args.slice(0, params));
        return (await c.query<{ hosts: number }>(COMPLETED_SQL, [cycleId, at.toISOString()])).rows[0]!.hosts;
      });
    } finally {
      this.known.delete(cycleId);
    }
  }

  /** Deletes a cycle's staged rows (failed, cancelled), on `client` when given (inside its transaction). */
  async discard(cycleId: number, client?: pg.PoolClient): Promise<void> {
    this.known.delete(cycleId);
    await (client ?? this.pool).query('DELETE FROM edr.staged_scores WHERE cycle_id = $1', [cycleId]);
  }

  /** Marks a connector's running cycles interrupted and deletes their staged rows, in one transaction; answers how many. */
  async interrupt(connectorId: string, at: Date): Promise<number> {
    const ids = await withTransaction(this.pool, async (c) => {
      const r = await c.query<{ id: string }>(
        `UPDATE edr.cycles SET status = 'interrupted', finished_at = $2, error = $3, hosts = 0 WHERE connector_id = $1 AND status = 'running' RETURNING id`,
        [connectorId, at.toISOString(), TAKEN_OVER_ERROR],
      );
      const gone = r.rows.map((x) => Number(x.id));
      if (gone.length) await c.query('DELETE FROM edr.staged_scores WHERE cycle_id = ANY($1::int8[])', [gone]);
      return gone;
    });
    for (const id of ids) this.known.delete(id);
    return ids.length;
  }

  /** Staged rows of a cycle (tests). */
  async count(cycleId: number): Promise<number> {
    return Number((await this.pool.query<{ n: string }>('SELECT COUNT(*) AS n FROM edr.staged_scores WHERE cycle_id = $1', [cycleId])).rows[0]!.n);
  }
}
