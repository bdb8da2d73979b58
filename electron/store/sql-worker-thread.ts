/**
 * The worker side of sql-worker.ts: a worker entry (e.g. edr-writer-thread.ts) calls `serveSqlWorker`
 * with its operations, made once from the worker's data (it opens its own connection there). Each
 * request runs to its end before the next (better-sqlite3 is synchronous); its answer or its error
 * (message and name) goes back with the request's id. `CLOSE_OP` runs the entry's `close`, answers,
 * and lets the thread end. The thread runs below main's priority (thread-priority.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CLOSE_OP, type SqlOps, type SqlRequest, type SqlResponse } from './sql-worker';
import { lowerThisThreadPriority } from './thread-priority';

export function serveSqlWorker<Data>(make: (data: Data) => { ops: SqlOps; close(): void }): void {
  const port = parentPort;
  if (!port) throw new Error('serveSqlWorker runs in a worker thread.');
  // A writer's work may wait; main's may not (thread-priority.ts).
  lowerThisThreadPriority();
  const { ops, close } = make(workerData as Data);
  port.on('message', (m: SqlRequest) => {
    let answer: SqlResponse;
    try {
      if (m.op === CLOSE_OP) {
        close();
        answer = { id: m.id, ok: true, result: undefined };
        port.postMessage(answer);
        port.close();
        return;
      }
      const op = Object.hasOwn(ops, m.op) ? ops[m.op] : undefined;
      if (!op) throw new Error(`Unknown SQL worker operation: ${m.op}`);
      answer = { id: m.id, ok: true, result: (op as (...args: unknown[]) => unknown)(...m.args) };
    } catch (e) {
      answer = { id: m.id, ok: false, error: { message: e instanceof Error ? e.message : String(e), name: e instanceof Error ? e.name : 'Error' } };
    }
    port.postMessage(answer);
  });
}
