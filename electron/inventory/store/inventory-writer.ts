/**
 * The owner's side of the inventory writer (inventory-writer-thread.ts; C-100): with it, every write
 * of the inventory store goes to the worker thread, started at the first one, and runs there in the
 * order asked — a device upserted after a list replace is written after it, whatever the replace
 * costs — while main's connection only reads (WAL: a read sees the last commit, never half a list).
 * All writes go there, not only the long ones: a write on main's connection while the worker holds
 * the write lock would wait for it on main's thread (SQLite's busy wait is synchronous).
 *
 * A worker that stops fails the writes in flight and queued (`SqlWorkerStopped`); the transaction it
 * was in is rolled back (nothing half-written), and it is not started again: later writes run on the
 * owner's connection, as before the worker existed.
 */
import type { InventoryDb } from './inventory-db';
import type { InventoryWriterOps } from './inventory-writer-thread';
import { SqlWorker } from '../../store/sql-worker';

type Op = keyof InventoryWriterOps;

export class InventoryWrites {
  private worker: SqlWorker<InventoryWriterOps> | undefined;

  constructor(
    private readonly file: string,
    private readonly enabled: boolean,
  ) {}

  /** Runs `op` on the worker, or on `owner` (its own connection) when there is none. */
  async run<K extends Op>(owner: InventoryDb, op: K, ...args: Parameters<InventoryWriterOps[K]>): Promise<ReturnType<InventoryWriterOps[K]>> {
    if (this.enabled) this.worker ??= new SqlWorker<InventoryWriterOps>('inventory/store/inventory-writer-thread', { file: this.file });
    if (this.worker?.running) return this.worker.call(op, ...args) as Promise<ReturnType<InventoryWriterOps[K]>>;
    return (owner[op] as (...a: Parameters<InventoryWriterOps[K]>) => ReturnType<InventoryWriterOps[K]>).apply(owner, args);
  }

  /** Lets the writes asked finish, then ends the worker. */
  close(): Promise<void> {
    return this.worker?.close() ?? Promise.resolve();
  }

  /** Tests: the worker's thread ends as in a crash. */
  crash(): Promise<void> {
    return this.worker?.terminate() ?? Promise.resolve();
  }
}
