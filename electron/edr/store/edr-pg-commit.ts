/**
 * A cycle's commit on PostgreSQL (issue 24.1, C-61): one transaction that locks the cycle's row FOR
 * UPDATE and finds it `running` (else it rejects and changes nothing), then moves the staged rows
 * (edr-pg-staging.ts) into the store with INSERT … SELECT … ON CONFLICT: history rows for stored
 * hosts whose score or band moved, the hosts and their details upserted, the first score of new
 * hosts, `host_seen` for every host listed; the band counts (as staging counted them, or from the
 * tables when the connector's hosts were written behind the cycle's back); the `completed` mark;
 * the staged rows deleted. And the interruption of a connector's running cycles by a worker taking
 * it over, which the commit's row lock orders against any commit.
 *
 * Commits hold retention's advisory lock shared (a prune takes it exclusive), and the connector's
 * `connector_writes` row FOR UPDATE, so two commits of one connector run one after the other.
 */
import { textArray, withTransaction, type PgPool, type PoolClient } from '../../store/postgres';
import { PG_ATTRIBUTES } from './edr-pg-schema';
import { notRunning, PRUNE_LOCK, stagedElsewhere, TAKEN_OVER_ERROR } from './edr-pg-errors';
import type { PgStaging } from './edr-pg-staging';

/** The columns of `hosts` a full staged row gives as they are. */
const HOST_COLUMNS = ['host_id', 'vendor', 'hostname', 'customer_id', 'platform', ...PG_ATTRIBUTES.map(([n]) => n)];

/**
 * The changed and new hosts, in one statement ($1 the cycle, $2 its connector): the stored hosts as
 * they were before it (`old`: read by key), the upsert, then from its keys the history rows
 * (the first score of a new host; a stored host's when its score or band moved), `host_seen` and the
 * details. Answers each rewritten host's id and key.
 */
const FULL_ROWS = `WITH s AS MATERIALIZED (SELECT * FROM edr.staged_scores WHERE cycle_id = $1),
old AS MATERIALIZED (SELECT h.host_id, h.score, h.band FROM edr.hosts h WHERE h.connector_id = $2 AND h.host_id = ANY (ARRAY(SELECT host_id FROM s))),
up AS (INSERT INTO edr.hosts (connector_id, ${HOST_COLUMNS.join(', ')})
  SELECT $2, ${HOST_COLUMNS.join(', ')} FROM s
  ON CONFLICT (connector_id, host_id) DO UPDATE SET ${HOST_COLUMNS.slice(1).map((c) => `${c} = excluded.${c}`).join(', ')}
  RETURNING host_id, hid),
j AS MATERIALIZED (SELECT up.hid, s.*, o.host_id IS NULL AS is_new, o.score AS old_score, o.band AS old_band FROM up JOIN s USING (host_id) LEFT JOIN old o USING (host_id)),
history AS (INSERT INTO edr.score_changes (hid, cycle_id, score, band, scored_at)
  SELECT hid, $1, score, band, scored_at FROM j WHERE is_new OR old_score <> score OR old_band <> band
  ON CONFLICT (hid, cycle_id) DO UPDATE SET score = excluded.score, band = excluded.band, scored_at = excluded.scored_at),
seen AS (INSERT INTO edr.host_seen (hid, last_cycle, last_seen, scored_at) SELECT hid, $1, last_seen, scored_at FROM j
  ON CONFLICT (hid) DO UPDATE SET last_cycle = excluded.last_cycle, last_seen = excluded.last_seen, scored_at = excluded.scored_at),
details AS (INSERT INTO edr.host_details (hid, record_json, contributions_json, profiles_json) SELECT hid, record_json, contributions_json, profiles_json FROM j
  ON CONFLICT (hid) DO UPDATE SET record_json = excluded.record_json, contributions_json = excluded.contributions_json, profiles_json = excluded.profiles_json)
SELECT host_id, hid FROM up`;
/**
 * Hosts seen as stored ($2-$4: the light rows staging held: key, last seen, scored at), matched by
 * hashing them (a lookup in host_seen's key per row took twice as long); one retention deleted
 * meanwhile matches nothing (the next cycle adds it again).
 */
const LIGHT = `UPDATE edr.host_seen t SET last_cycle = $1, last_seen = u.last_seen, scored_at = u.scored_at
  FROM unnest($2::int8[], $3::text[], $4::text[]) AS u(hid, last_seen, scored_at) WHERE t.hid = u.hid`;
const COUNTED_BANDS = `INSERT INTO edr.cycle_bands (cycle_id, customer_id, platform, band, hosts, score_sum)
  SELECT $1, u.* FROM unnest($2::text[], $3::text[], $4::text[], $5::int[], $6::float8[]) u`;
/** The band counts as the tables hold the cycle's hosts (a numeric sum: the same in any order). */
const TABLE_BANDS = `INSERT INTO edr.cycle_bands (cycle_id, customer_id, platform, band, hosts, score_sum)
  SELECT s.last_cycle, h.customer_id, h.platform, h.band, COUNT(*), SUM(h.score::numeric)::float8
  FROM edr.hosts h JOIN edr.host_seen s ON s.hid = h.hid WHERE h.connector_id = $2 AND s.last_cycle = $1
  GROUP BY s.last_cycle, h.customer_id, h.platform, h.band`;
const COMPLETED = `UPDATE edr.cycles SET status = 'completed', finished_at = $2, error = NULL, error_code = NULL,
    hosts = (SELECT COALESCE(SUM(hosts), 0) FROM edr.cycle_bands WHERE cycle_id = $1)
  WHERE id = $1 RETURNING hosts`;

/** The channel a committed cycle is announced on (C-88): `{ connectorId, cycleId, hosts }`. */
export const EDR_CHANNEL = 'northbound_edr';

/**
 * What else a commit must hold, checked and written in its transaction (a fleet worker: its claim
 * on the connector, fleet/claims.ts); it throws to refuse the commit.
 */
export type CommitFence = (client: PoolClient, connectorId: string) => Promise<void>;

/** Moves a running cycle's staged rows into the store and marks it completed, in one transaction; answers its host count. */
export async function commitPgCycle(pool: PgPool, staging: PgStaging, cycleId: number, at: Date, fence?: CommitFence): Promise<number> {
  const stage = await staging.stageOf(cycleId);
  try {
    const done = await withTransaction(pool, async (c) => {
      // The planner cannot know a staged table's rows (it is never analysed while it holds a cycle):
      // no JIT compiling for estimates a hundred times too high, and room to sort a cycle's changed rows in memory.
      await c.query(`SET LOCAL jit = off; SET LOCAL work_mem = '64MB'; SELECT pg_advisory_xact_lock_shared(${PRUNE_LOCK})`);
      const cycle = (await c.query<{ connector_id: string; status: string; staged_by: string | null }>('SELECT connector_id, status, staged_by FROM edr.cycles WHERE id = $1 FOR UPDATE', [cycleId])).rows[0];
      if (cycle?.status !== 'running') throw notRunning(cycleId, cycle?.status);
      // The hosts a cycle saw as stored live with the process staging it: no other can commit it whole.
      if (cycle.staged_by !== null && (cycle.staged_by !== staging.token || stage === undefined)) throw stagedElsewhere(cycleId);
      if (fence) await fence(c, cycle.connector_id);
      const args = [cycleId, cycle.connector_id];
      await c.query('INSERT INTO edr.connector_writes (connector_id, version) VALUES ($1, 0) ON CONFLICT DO NOTHING', [cycle.connector_id]);
      const version = Number((await c.query<{ version: string }>('SELECT version FROM edr.connector_writes WHERE connector_id = $1 FOR UPDATE', [cycle.connector_id])).rows[0]!.version);
      // Light rows first: a host is a light row or a full one (staging keeps its last sighting).
      if (stage !== undefined) {
        const [hids, lastSeen, scoredAt] = staging.lightRows(stage);
        if (hids.length) await c.query(LIGHT, [cycleId, `{${hids.join(',')}}`, textArray(lastSeen), textArray(scoredAt)]);
      }
      const rewritten = new Map((await c.query<[string, string]>({ text: FULL_ROWS, values: args, rowMode: 'array' })).rows.map(([hostId, hid]) => [hostId, Number(hid)]));
      // Staging's counts hold while nothing wrote the connector's hosts since its light rows were decided.
      const counted = stage !== undefined && stage.connectorId === cycle.connector_id && stage.version === version;
      if (counted) {
        const cols: unknown[][] = [[], [], [], [], []];
        for (const row of staging.count(stage).rows()) row.forEach((v, i) => cols[i]!.push(v));
        await c.query(COUNTED_BANDS, [cycleId, ...cols]);
      } else await c.query(TABLE_BANDS, args);
      if (rewritten.size) await c.query('UPDATE edr.connector_writes SET version = version + 1 WHERE connector_id = $1', [cycle.connector_id]);
      await c.query('DELETE FROM edr.staged_scores WHERE cycle_id = $1', [cycleId]);
      const hosts = (await c.query<{ hosts: number }>(COMPLETED, [cycleId, at.toISOString()])).rows[0]!.hosts;
      // Told to every listening console when (and only if) this commits (C-88).
      await c.query('SELECT pg_notify($1, $2)', [EDR_CHANNEL, JSON.stringify({ connectorId: cycle.connector_id, cycleId, hosts: Number(hosts) })]);
      return { hosts, counted, before: version, after: rewritten.size ? version + 1 : version, rewritten };
    });
    if (stage && done.counted) staging.learn(stage, done.before, done.after, done.rewritten);
    staging.forget(cycleId, stage && !done.counted ? stage.connectorId : undefined);
    return done.hosts;
  } catch (e) {
    staging.forget(cycleId, stage?.connectorId);
    throw e;
  }
}

/** Marks a connector's running cycles interrupted and deletes their staged rows, in one transaction; answers how many. */
export async function interruptPgCycles(pool: PgPool, staging: PgStaging, connectorId: string, at: Date): Promise<number> {
  const ids = await withTransaction(pool, async (c) => {
    const r = await c.query<{ id: string }>(`UPDATE edr.cycles SET status = 'interrupted', finished_at = $2, error = $3, hosts = 0 WHERE connector_id = $1 AND status = 'running' RETURNING id`, [
      connectorId,
      at.toISOString(),
      TAKEN_OVER_ERROR,
    ]);
    const gone = r.rows.map((x) => Number(x.id));
    if (gone.length) await c.query('DELETE FROM edr.staged_scores WHERE cycle_id = ANY($1::int8[])', [gone]);
    return gone;
  });
  for (const id of ids) staging.forget(id);
  return ids.length;
}

/** Deletes a cycle's staged rows (failed, cancelled), on `client` (inside the transaction that marks it). */
export async function discardPgCycle(client: { query(sql: string, args: unknown[]): Promise<unknown> }, staging: PgStaging, cycleId: number): Promise<void> {
  staging.forget(cycleId);
  await client.query('DELETE FROM edr.staged_scores WHERE cycle_id = $1', [cycleId]);
}
