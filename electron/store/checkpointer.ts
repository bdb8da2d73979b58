/**
 * Checkpoints a WAL database from a worker thread, so the process's own thread does not copy a big
 * commit's pages into the database file. SQLite checkpoints on the committing connection by
 * default (`wal_autocheckpoint`, 1,000 pages): a 100,000-host cycle writes ~7,000 pages to the WAL,
 * and copying them back took ~90 ms of every cycle's commit, on the thread that answers the
 * window (the main process).
 *
 * Started by the first commit that moves `BIG` hosts or more (a small store never starts it: tests,
 * a new tenant). The worker opens its own connection and runs `wal_checkpoint(PASSIVE)` on request,
 * which waits for no reader or writer; once it is ready (a flag in shared memory: the owner reads
 * the worker's state without waiting for its own event loop, which a long synchronous commit
 * holds) the owner's connection stops checkpointing itself (`wal_autocheckpoint = 0`), and every
 * later commit asks for one. A PASSIVE
 * checkpoint does not move the owner's `PRAGMA data_version` (a TRUNCATE would, and staging would
 * take it for another writer). If the worker cannot start or stops (a platform without worker
 * threads, a module it cannot load), the owner checkpoints itself again, as before.
 *
 * The worker is a module of its own (checkpointer-thread.ts), started as sql-worker.ts starts one
 * (an entry of the Electron bundle, or the TypeScript source through tsx).
 */
import type Database from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import { startWorker } from './sql-worker';

/** Hosts a commit must move to start the worker. */
export const BIG_COMMIT_HOSTS = 5_000;

export interface CheckpointerData {
  file: string;
  /** Int32Array over it: [READY, DONE]. */
  shared: SharedArrayBuffer;
  /** Another SQLite module to load (tests: one that cannot load, one whose checkpoint fails). */
  module?: string;
}

export interface CheckpointResult {
  busy?: number;
  /** WAL frames, and how many of them the checkpoint copied into the database. */
  log?: number;
  checkpointed?: number;
  error?: string;
}

/** The worker's state, shared so the owner reads it without waiting for its event loop: ready (0/1), checkpoints done. */
export const READY = 0;
export const DONE = 1;

export class Checkpointer {
  private worker: Worker | undefined;
  private readonly shared = new Int32Array(new SharedArrayBuffer(8));
  /** Checkpoints asked of the worker. */
  private requested = 0;
  /** Whether the owner's own checkpoints are off (the worker said it is ready). */
  private handedOver = false;
  private waiters: Array<() => void> = [];
  /** No checkpoint runs on the worker any more: closed, or the worker could not start or stopped. */
  stopped = false;
  /** The last checkpoint's answer (tests, the bench). */
  last: CheckpointResult | undefined;

  /** `module`: where better-sqlite3 is (tests give another to see the worker fail). */
  constructor(
    private readonly db: Database.Database,
    private readonly file: string,
    private readonly module?: string,
  ) {}

  /** Whether the worker checkpoints for the owner now. */
  get active(): boolean {
    return !this.stopped && this.worker !== undefined && Atomics.load(this.shared, READY) === 1;
  }

  /** Checkpoints the worker ran. */
  get done(): number {
    return Atomics.load(this.shared, DONE);
  }

  /**
   * Before a commit. SQLite starts the WAL again from its beginning at a write that finds every
   * frame copied back; a small write made while the worker was copying (a new cycle's row) leaves
   * its frames behind, and then the WAL would only grow. Those few frames are copied here, on this
   * thread, when the worker is idle, so the commit writes the WAL from its start.
   */
  beforeCommit(): void {
    if (!this.handOver()) return;
    if (this.done === this.requested) this.db.pragma('wal_checkpoint(PASSIVE)');
  }

  /** After a commit that moved `hosts` hosts. */
  afterCommit(hosts: number): void {
    if (this.stopped) return;
    if (!this.worker) {
      if (hosts >= BIG_COMMIT_HOSTS) this.start();
      return;
    }
    if (!this.handOver()) return;
    this.requested += 1;
    this.worker.postMessage('checkpoint');
  }

  /** Resolves once every checkpoint asked for has run (tests, the bench). */
  idle(): Promise<void> {
    if (this.stopped || this.done >= this.requested) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  close(): void {
    this.stopped = true;
    const w = this.worker;
    this.worker = undefined;
    if (w) void w.terminate();
    this.settle();
  }

  /** Once the worker is ready, the owner's connection stops checkpointing itself; answers whether the worker checkpoints. */
  private handOver(): boolean {
    if (!this.active) return false;
    if (!this.handedOver) {
      this.handedOver = true;
      this.db.pragma('wal_autocheckpoint = 0');
    }
    return true;
  }

  private start(): void {
    let w: Worker;
    try {
      const data: CheckpointerData = { file: this.file, shared: this.shared.buffer as SharedArrayBuffer, ...(this.module ? { module: this.module } : {}) };
      w = startWorker('store/checkpointer-thread', data);
    } catch {
      this.stopped = true;
      return;
    }
    this.worker = w;
    // The process may end with the worker idle (the command line's one cycle).
    w.unref();
    const fail = () => {
      if (this.stopped) return;
      this.stopped = true;
      this.worker = undefined;
      // Back to checkpointing on the owner's connection.
      if (this.handedOver && this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
      this.handedOver = false;
      this.settle();
    };
    w.on('message', (m: CheckpointResult) => {
      this.last = m;
      // A checkpoint that fails would leave the WAL to grow: the owner takes them back.
      if (m.error) {
        fail();
        void w.terminate();
      } else if (this.done >= this.requested) this.settle();
    });
    w.on('error', fail);
    w.on('exit', fail);
  }

  private settle(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const resolve of waiting) resolve();
  }
}
