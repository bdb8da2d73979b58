/**
 * A worker entry for tests/unit/store/sql-worker.test.ts, served as the product's are
 * (serveSqlWorker): its own connection to the test's WAL database, a table `t (id INTEGER PRIMARY
 * KEY, v TEXT NOT NULL)`, and operations that write, fail as SQLite fails, and end the thread as a
 * crash does, and the thread's id and priority.
 */
import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { serveSqlWorker } from '../../electron/store/sql-worker-thread';
import { openPrivateDatabase } from '../../electron/store/sqlite';

export type FixtureOps = {
  /** Inserts the rows in one transaction; answers how many. */
  insert(rows: Array<{ id: number; v: string | null }>): number;
  /** The thread ends at once, as when it crashes (exit code 7). */
  crash(): never;
  /** Linux: this thread's id (from /proc/thread-self) and its nice value; elsewhere the process's nice value. */
  thread(): { tid: number | undefined; nice: number };
};

serveSqlWorker((data: { file: string }) => {
  const db = openPrivateDatabase(data.file);
  db.exec('CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO t (id, v) VALUES (?, ?)');
  const ops: FixtureOps = {
    insert: (rows) => {
      db.transaction(() => {
        for (const r of rows) insert.run(r.id, r.v);
      })();
      return rows.length;
    },
    crash: () => process.exit(7),
    thread: () => {
      // Elsewhere a thread has no nice value of its own: the process's.
      if (process.platform !== 'linux') return { tid: undefined, nice: os.getPriority() };
      const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
      return { tid, nice: os.getPriority(tid) };
    },
  };
  return { ops, close: () => db.close() };
});
