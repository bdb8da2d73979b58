/**
 * The checkpointer's worker (checkpointer.ts): its own connection to the database, a PASSIVE
 * checkpoint on each request (it waits for no reader or writer), the answer posted back. Its state
 * is in shared memory so the owner reads it without waiting for its own event loop: READY (0/1)
 * once the connection is open, DONE counting the checkpoints run.
 */
import Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { parentPort, workerData } from 'node:worker_threads';
import { DONE, READY, type CheckpointerData, type CheckpointResult } from './checkpointer';
import { lowerThisThreadPriority } from './thread-priority';

const port = parentPort;
if (!port) throw new Error('checkpointer-thread runs in a worker thread.');
lowerThisThreadPriority();
const data = workerData as CheckpointerData;
const shared = new Int32Array(data.shared);
const Sqlite = data.module ? (createRequire(import.meta.url)(data.module) as typeof Database) : Database;
const db = new Sqlite(data.file);
Atomics.store(shared, READY, 1);
port.on('message', () => {
  let answer: CheckpointResult;
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)') as Array<{ busy: number; log: number; checkpointed: number }>;
    answer = { busy: r!.busy, log: r!.log, checkpointed: r!.checkpointed };
  } catch (e) {
    answer = { error: e instanceof Error ? e.message : String(e) };
  }
  Atomics.add(shared, DONE, 1);
  port.postMessage(answer);
});
