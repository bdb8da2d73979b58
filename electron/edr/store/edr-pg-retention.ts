/**
 * Retention on PostgreSQL (EDR-H4, as edr-retention.ts): what is older than the retention period
 * goes, except each connector's newest completed cycle and its hosts, a running cycle, and for every
 * host the newest history row from before the cut. One transaction, under retention's advisory lock
 * taken exclusive (commits take it shared), so no commit moves a host while it may be deleted; staged
 * rows of cycles no longer running (left by a worker that died between its finish and its cleanup)
 * go too.
 */
import { withTransaction, type PgPool } from '../../store/postgres';
import { PRUNE_LOCK } from './edr-pg-errors';
import type { PruneResult } from './edr-store';

export async function prunePgEdrStore(pool: PgPool, now: Date, days: number): Promise<PruneResult> {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  return withTransaction(pool, async (c) => {
    await c.query(`SELECT pg_advisory_xact_lock(${PRUNE_LOCK})`);
    await c.query(
      `CREATE TEMP TABLE pruned_cycles ON COMMIT DROP AS SELECT id FROM edr.cycles
       WHERE started_at < $1 AND status <> 'running' AND id NOT IN (SELECT MAX(id) FROM edr.cycles WHERE status = 'completed' GROUP BY connector_id)`,
      [cutoff],
    );
    // Hosts last seen in a cycle that goes, with their record and history.
    await c.query('CREATE TEMP TABLE pruned_hosts ON COMMIT DROP AS SELECT s.hid FROM edr.host_seen s JOIN pruned_cycles p ON p.id = s.last_cycle');
    // What processes know of these connectors' stored hosts is read again (edr-pg-staging.ts).
    await c.query('UPDATE edr.connector_writes SET version = version + 1 WHERE connector_id IN (SELECT DISTINCT h.connector_id FROM edr.hosts h JOIN pruned_hosts p ON p.hid = h.hid)');
    for (const table of ['host_details', 'score_changes', 'host_seen']) await c.query(`DELETE FROM edr.${table} WHERE hid IN (SELECT hid FROM pruned_hosts)`);
    const hosts = (await c.query('DELETE FROM edr.hosts WHERE hid IN (SELECT hid FROM pruned_hosts)')).rowCount ?? 0;
    for (const table of ['cycle_bands', 'publications']) await c.query(`DELETE FROM edr.${table} WHERE cycle_id IN (SELECT id FROM pruned_cycles)`);
    const cycles = (await c.query('DELETE FROM edr.cycles WHERE id IN (SELECT id FROM pruned_cycles)')).rowCount ?? 0;
    // History before the cut, but the newest row of each host before it (its score when the kept history starts).
    const changes =
      (
        await c.query(
          `DELETE FROM edr.score_changes x USING (
             SELECT hid, MAX(cycle_id) AS keep FROM edr.score_changes WHERE scored_at < $1 GROUP BY hid) k
           WHERE x.hid = k.hid AND x.scored_at < $1 AND x.cycle_id < k.keep`,
          [cutoff],
        )
      ).rowCount ?? 0;
    await c.query(`DELETE FROM edr.staged_scores WHERE cycle_id NOT IN (SELECT id FROM edr.cycles WHERE status = 'running')`);
    return { cycles, hosts, changes };
  });
}
