/**
 * The owner's side of the inventory writer (inventory-writer-thread.ts; C-100): with it, every write
 * of the inventory store goes to the worker thread, started at the first one, and runs there in the
 * order asked — a device upserted after a list replace is written after it, whatever the replace
 * costs — while main's connection only reads (WAL: a read sees the last commit, never half a list).
 * All writes go there, not only the long ones: a write on main's connection while the worker holds
 * the write lock would wait for it on main's thread (SQLite's busy wait is synchronous).
 *
 * A list longer than PART goes in parts, one per turn of main's loop (copying 100,000 devices to the
 * thread at once held main 60 ms), then is written whole; writes asked meanwhile are sent after it.
 * The list must not change until its write answers.
 *
 * A worker that stops fails the writes in flight and queued (`SqlWorkerStopped`); the transaction it
 * was in is rolled back (nothing half-written), and it is not started again: later writes run on the
 * owner's connection, as before the worker existed.
 */
import type { InventoryDb } from './inventory-db';
import type { InventoryWriterOps, ListReplace } from './inventory-writer-thread';
import { SqlWorker } from '../../store/sql-worker';

/** The store's writes (the thread's other operations carry the parts of a long list). */
type Write = Exclude<keyof InventoryWriterOps, 'stage' | 'replaceStaged'>;
type Answer<K extends Write> = ReturnType<InventoryWriterOps[K]>;

/** Items of a list copied to the thread in one turn of main's loop. */
export const PART = 5_000;
const LIST_REPLACES: ReadonlySet<string> = new Set<ListReplace>(['replaceDevices', 'replaceOrganizations', 'replaceAppliances']);

export class InventoryWrites {
  private worker: SqlWorker<InventoryWriterOps> | undefined;
  private lastToken = 0;
  /** Settles once the last write asked is sent (all its parts): each write is sent after those asked before it. */
  private sent: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly enabled: boolean,
  ) {}

  /** Runs `op` on the worker, or on `owner` (its own connection) when there is none. */
  run<K extends Write>(owner: InventoryDb, op: K, ...args: Parameters<InventoryWriterOps[K]>): Promise<Answer<K>> {
    if (this.enabled) this.worker ??= new SqlWorker<InventoryWriterOps>('inventory/store/inventory-writer-thread', { file: this.file });
    const sending = this.sent.then(() => this.send(owner, op, args));
    this.sent = sending;
    return sending.then((s) => s.answer);
  }

  /** Sends one write; resolves once it is sent, with its answer to come. */
  private async send<K extends Write>(owner: InventoryDb, op: K, args: Parameters<InventoryWriterOps[K]>): Promise<{ answer: Promise<Answer<K>> }> {
    const worker = this.worker;
    if (!worker?.running) {
      try {
        return { answer: Promise.resolve((owner[op] as (...a: typeof args) => Answer<K>).apply(owner, args)) };
      } catch (e) {
        return { answer: Promise.reject(e as Error) };
      }
    }
    const list = LIST_REPLACES.has(op) ? (args[1] as unknown[]) : undefined;
    if (!list || list.length <= PART) return { answer: worker.call(op, ...args) as Promise<Answer<K>> };
    const token = ++this.lastToken;
    const calls: Array<Promise<unknown>> = [];
    const call = (p: Promise<unknown>) => {
      // Failures are told through the answer (all of the calls), not left unhandled meanwhile.
      p.catch(() => undefined);
      calls.push(p);
    };
    for (let at = 0; at < list.length; at += PART) {
      if (at > 0) await new Promise((resolve) => setImmediate(resolve));
      call(worker.call('stage', token, list.slice(at, at + PART)));
    }
    const [profileId, , fetchedAt, unreadable] = args as unknown as [string, unknown, string, number | undefined];
    call(worker.call('replaceStaged', token, op as ListReplace, profileId, fetchedAt, unreadable));
    return { answer: Promise.all(calls).then(() => undefined as Answer<K>) };
  }

  /** Lets the writes asked finish, then ends the worker. */
  async close(): Promise<void> {
    await this.sent;
    await this.worker?.close();
  }

  /** Tests: the worker's thread ends as in a crash. */
  crash(): Promise<void> {
    return this.worker?.terminate() ?? Promise.resolve();
  }
}
