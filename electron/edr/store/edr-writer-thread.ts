/**
 * The EDR store's cycle writes on a worker thread (edr-writer.ts; issue 21 item 5): this thread's own
 * connection to edr.db holds the running cycles' staging (its TEMP table and what staging knows of
 * the stored hosts, edr-staging.ts) and commits a completed cycle, so neither a batch's staging nor
 * a 100,000-host commit runs on the thread that answers the window. The owner (EdrStore) made the
 * schema before starting it. Its connection checkpoints its own commits (off the owner's thread).
 */
import type Database from 'better-sqlite3';
import type { ScoredHost } from '../../../shared/model/edr';
import { EdrStaging } from './edr-staging';
import { pruneEdrStore } from './edr-retention';
import type { PruneResult } from './edr-store';
import { serveSqlWorker } from '../../store/sql-worker-thread';
import { openPrivateDatabase } from '../../store/sqlite';

/** What the owner sees of the staging after a batch: rows of the cycle staged, and of them full rows. */
export interface StagedCounts {
  rows: number;
  count: number;
  changed: number;
}

export function edrWriterOps(db: Database.Database) {
  const staging = new EdrStaging(db);
  const finish = db.prepare("UPDATE cycles SET status = 'completed', finished_at = ?, hosts = ?, error = NULL, error_code = NULL WHERE id = ?");
  return {
    stage(cycleId: number, connectorId: string, hosts: ScoredHost[]): StagedCounts {
      const rows = staging.stage(cycleId, connectorId, hosts);
      return { rows, count: staging.count(cycleId), changed: staging.countChanged(cycleId) };
    },
    /** EdrStore.commitCycle's transaction, here: the staged rows move, the cycle is marked completed; answers its hosts. */
    commit(cycleId: number, atIso: string): number {
      let hosts: number;
      try {
        // IMMEDIATE: the write lock is taken at BEGIN (waiting out main's short writes) rather than
        // at the first write after a read, where a write main committed meanwhile fails it at once
        // with "database is locked" (SQLITE_BUSY_SNAPSHOT; seen in CI on 2026-11-28).
        hosts = db
          .transaction(() => {
            const n = staging.promote(cycleId);
            finish.run(atIso, n, cycleId);
            return n;
          })
          .immediate();
      } catch (e) {
        staging.forgetDigests();
        throw e;
      }
      staging.committed(cycleId);
      return hosts;
    },
    discard(cycleId: number): number {
      return staging.discard(cycleId);
    },
    forgetHosts(hids: number[]): void {
      staging.forgetHosts(hids);
    },
    /** Retention (edr-retention.ts) on this connection, in order with the commits; answers the keys of the hosts that went too. */
    prune(atIso: string, days: number): PruneResult & { gone: number[] } {
      let gone: number[] = [];
      const r = pruneEdrStore(db, new Date(atIso), days, (hids) => (gone = hids));
      if (gone.length) staging.forgetHosts(gone);
      return { ...r, gone };
    },
  };
}

export type EdrWriterOps = ReturnType<typeof edrWriterOps>;

serveSqlWorker((data: { file: string }) => {
  const db = openPrivateDatabase(data.file);
  db.pragma('foreign_keys = ON');
  // As the owner's connection (EdrStore): the commit's pages stay in the cache between its statements.
  db.pragma('cache_size = -24576');
  db.pragma('temp.cache_size = -8192');
  return { ops: edrWriterOps(db), close: () => db.close() };
});
