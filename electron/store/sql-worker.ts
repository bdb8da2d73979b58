/**
 * A store's long writes on a worker thread (issue 21 item 5), so the thread that answers the window
 * never waits on the disk: the worker opens its own connection to the same WAL database and runs
 * named operations (`ops`, the worker entry's table: sql-worker-thread.ts) one at a time, in the
 * order they were asked. Reads stay on the owner's connection (WAL: a reader never waits for the
 * writer, and sees a commit once it is done).
 *
 * Protocol (typed, both ways): a request is `{ id, op, args }`; the answer `{ id, ok: true, result }`
 * or `{ id, ok: false, error: { message, name } }`, carried back as an Error with that message. A
 * worker that stops (a crash, an uncaught error, terminated) fails every request in flight and every
 * later one with `SqlWorkerStopped`; what it had committed stays (SQLite's commit is atomic; a
 * transaction cut short is rolled back at the next open). `close` asks the worker to finish what was
 * asked before, close its connection and end, and resolves once it has.
 *
 * Not only SQL: the protocol serves any thread of named operations (the Falcon parser,
 * edr/falcon/falcon-parser.ts, reads vendor answers on one).
 *
 * The worker's code is a module of its own (an entry beside main's in the Electron bundle,
 * scripts/build-electron.mjs): `workerEntry` finds it next to the running module, `<name>.cjs` in the
 * bundle, `<name>.ts` under tsx or vitest (loaded through tsx).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

export interface SqlRequest {
  id: number;
  op: string;
  args: unknown[];
}

export type SqlResponse = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: { message: string; name: string } };

/** A worker's table of operations: each takes structured-clonable arguments and answers one. */
export type SqlOps = Record<string, (...args: never[]) => unknown>;

/** The operation every worker knows: finish, close the connection, end. */
export const CLOSE_OP = '__close';

/** The worker stopped (crashed, terminated, closed): no request runs on it any more. */
export class SqlWorkerStopped extends Error {
  constructor(readonly why: string) {
    super(`The SQL worker stopped: ${why}`);
    this.name = 'SqlWorkerStopped';
  }
}

/**
 * Where a worker entry is. `name` is its source path under electron/ without `.ts` (e.g.
 * `edr/store/edr-writer-thread`: the feature owns its writer). In the Electron bundle every module is
 * main.cjs in dist-electron/, and the entry was built beside it as `<basename>.cjs`; from the sources
 * (tsx, vitest) it is `electron/<name>.ts`, run through tsx.
 */
export function workerEntry(name: string): { file: string; argv: string[] } {
  const here = path.dirname(fileURLToPath(import.meta.url));
  // A path of its own (a test's entry).
  if (path.isAbsolute(name)) return name.endsWith('.ts') ? { file: path.join(here, 'ts-worker.mjs'), argv: [name] } : { file: name, argv: [] };
  const built = path.join(here, `${path.basename(name)}.cjs`);
  if (!import.meta.url.endsWith('.ts') && existsSync(built)) return { file: built, argv: [] };
  // Node cannot load .ts by itself: ts-worker.mjs registers tsx in the thread, then imports the entry.
  return { file: path.join(here, 'ts-worker.mjs'), argv: [path.join(here, '..', `${name}.ts`)] };
}

/** Starts a worker entry (`workerEntry`) with its data. */
export function startWorker(name: string, workerData: unknown): Worker {
  const entry = workerEntry(name);
  return new Worker(entry.file, { workerData, argv: entry.argv });
}

type Result<F> = F extends (...args: never[]) => infer R ? Awaited<R> : never;

export class SqlWorker<Ops extends SqlOps> {
  private readonly worker: Worker;
  private next = 1;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private stoppedWhy: string | undefined;
  private readonly exited: Promise<void>;
  /** Called once when the worker stops without being closed (a crash): the owner falls back or reports it. */
  onCrash: ((e: Error) => void) | undefined;

  /** `name`: the worker entry (sql-worker-thread.ts serves its ops), or its absolute path; `workerData`: what it opens (the database file). */
  constructor(name: string, workerData: unknown) {
    this.worker = startWorker(name, workerData);
    this.worker.on('message', (m: SqlResponse) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (m.ok) p.resolve(m.result);
      else p.reject(Object.assign(new Error(m.error.message), { name: m.error.name }));
    });
    let error: Error | undefined;
    this.worker.on('error', (e) => (error = e));
    this.exited = new Promise((resolve) => {
      this.worker.once('exit', (code) => {
        const closing = this.stoppedWhy !== undefined;
        const why = error ? error.message : `it exited with code ${code}`;
        this.stop(this.stoppedWhy ?? why);
        if (!closing) this.onCrash?.(new SqlWorkerStopped(why));
        resolve();
      });
    });
  }

  /** Whether requests still run (not closed, not crashed). */
  get running(): boolean {
    return this.stoppedWhy === undefined;
  }

  /** Runs `op` on the worker; resolves with its answer, rejects with its error. */
  call<K extends keyof Ops & string>(op: K, ...args: Parameters<Ops[K]>): Promise<Result<Ops[K]>> {
    return this.send(op, args) as Promise<Result<Ops[K]>>;
  }

  /** As `call`, moving `transfer` (e.g. a body's ArrayBuffer) to the worker instead of copying it: it is gone here afterwards. */
  callMoving<K extends keyof Ops & string>(transfer: ArrayBuffer[], op: K, ...args: Parameters<Ops[K]>): Promise<Result<Ops[K]>> {
    return this.send(op, args, transfer) as Promise<Result<Ops[K]>>;
  }

  private send(op: string, args: unknown[], transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.stoppedWhy !== undefined) return Promise.reject(new SqlWorkerStopped(this.stoppedWhy));
    const id = this.next++;
    const request: SqlRequest = { id, op, args };
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(request, transfer);
    });
  }

  /** Whether the thread keeps the process alive (default: it does); an idle, optional thread unrefs itself. */
  ref(): void {
    this.worker.ref();
  }

  unref(): void {
    this.worker.unref();
  }

  /** Lets what was asked before finish, closes the worker's connection and ends it. */
  async close(): Promise<void> {
    if (this.stoppedWhy === undefined) {
      const done = this.send(CLOSE_OP, []).catch(() => undefined);
      this.stoppedWhy = 'closed';
      await done;
    }
    await this.exited;
  }

  /** Ends the worker at once, as a crash would (what it had not committed is rolled back; `onCrash` is told). */
  async terminate(): Promise<void> {
    await this.worker.terminate();
    await this.exited;
  }

  private stop(why: string): void {
    this.stoppedWhy ??= why;
    const failed = [...this.pending.values()];
    this.pending.clear();
    for (const p of failed) p.reject(new SqlWorkerStopped(why));
  }
}
