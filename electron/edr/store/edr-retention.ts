/**
 * Retention of edr.db (EDR-H4): what is older than the retention period goes, except what the views
 * need to stand on: each connector's newest completed cycle and its hosts, a running cycle, and for
 * every host the newest history row from before the cut (the score it had when the kept history
 * starts). Cycles go with their band counts and publication marks; hosts last seen in a cycle that
 * went go with their record and history.
 */
import type Database from 'better-sqlite3';
import type { PruneResult } from './edr-store';

export { DEFAULT_RETENTION_DAYS, type PruneResult } from './edr-store';

/** `onHosts`: called inside the transaction with the keys of the hosts that go (staging forgets them). */
export function pruneEdrStore(db: Database.Database, now: Date, days: number, onHosts?: (hids: number[]) => void): PruneResult {
  const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
  // IMMEDIATE: it reads before it deletes; another connection's write in between must not fail it (edr-writer-thread.ts).
  return db.transaction((): PruneResult => {
    db.exec('CREATE TEMP TABLE IF NOT EXISTS pruned_cycles (id INTEGER PRIMARY KEY); DELETE FROM pruned_cycles;');
    db.prepare(
      `INSERT INTO pruned_cycles (id) SELECT id FROM cycles
       WHERE started_at < ? AND status <> 'running' AND id NOT IN (SELECT MAX(id) FROM cycles WHERE status = 'completed' GROUP BY connector_id)`,
    ).run(cutoff);
    // Hosts last seen in a cycle that goes, with their record and history.
    db.exec('CREATE TEMP TABLE IF NOT EXISTS pruned_hosts (hid INTEGER PRIMARY KEY); DELETE FROM pruned_hosts;');
    db.exec('INSERT INTO pruned_hosts (hid) SELECT s.hid FROM host_seen s JOIN pruned_cycles p ON p.id = s.last_cycle');
    db.exec(
      'DELETE FROM host_details WHERE hid IN (SELECT hid FROM pruned_hosts); DELETE FROM score_changes WHERE hid IN (SELECT hid FROM pruned_hosts); DELETE FROM host_seen WHERE hid IN (SELECT hid FROM pruned_hosts);',
    );
    const hosts = db.prepare('DELETE FROM hosts WHERE hid IN (SELECT hid FROM pruned_hosts)').run().changes;
    if (hosts && onHosts) onHosts(db.prepare('SELECT hid FROM pruned_hosts').pluck().all() as number[]);
    db.exec('DELETE FROM cycle_bands WHERE cycle_id IN (SELECT id FROM pruned_cycles); DELETE FROM publications WHERE cycle_id IN (SELECT id FROM pruned_cycles);');
    const cycles = db.prepare('DELETE FROM cycles WHERE id IN (SELECT id FROM pruned_cycles)').run().changes;
    // History before the cut, but the newest row of each host before it (its score when the kept history starts).
    const changes = db
      .prepare(
        `DELETE FROM score_changes WHERE scored_at < @cutoff AND cycle_id < (
           SELECT MAX(k.cycle_id) FROM score_changes k WHERE k.hid = score_changes.hid AND k.scored_at < @cutoff)`,
      )
      .run({ cutoff }).changes;
    return { cycles, hosts, changes };
  }).immediate();
}
