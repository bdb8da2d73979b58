/**
 * The SQL worker (electron/store/sql-worker.ts): a worker entry's operations run on their own
 * connection to the owner's WAL database, in the order asked; an error comes back as an Error with
 * SQLite's message and the worker goes on; a worker that crashes fails what was in flight and every
 * later call with SqlWorkerStopped, tells the owner once, and what it committed stays; `close`
 * lets what was asked finish first; its thread runs below main's priority.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { SqlWorker, SqlWorkerStopped } from '../../../electron/store/sql-worker';
import { BACKGROUND_NICE_STEP } from '../../../electron/store/thread-priority';
import type { FixtureOps } from '../../support/sql-worker-fixture';

const entry = path.resolve('tests/support/sql-worker-fixture.ts');
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function open(): { file: string; worker: SqlWorker<FixtureOps>; count(): number } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-sqlw-'));
  const file = path.join(dir, 'w.db');
  const worker = new SqlWorker<FixtureOps>(entry, { file });
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  cleanups.push(() => worker.close());
  // The owner's own connection, as a store keeps for its reads.
  const count = () => {
    const db = new Database(file, { readonly: true });
    try {
      return db.prepare('SELECT COUNT(*) FROM t').pluck().get() as number;
    } finally {
      db.close();
    }
  };
  return { file, worker, count };
}

describe('the SQL worker', () => {
  it('runs the writes on its own connection, in order; the owner reads them once each answered', async () => {
    const { worker, count } = open();
    const asked = [worker.call('insert', [{ id: 1, v: 'a' }]), worker.call('insert', [{ id: 2, v: 'b' }, { id: 3, v: 'c' }])];
    await expect(Promise.all(asked)).resolves.toEqual([1, 2]);
    expect(count()).toBe(3);
  });

  it('carries an error back as an Error with its message, rolls its transaction back, and goes on', async () => {
    const { worker, count } = open();
    await worker.call('insert', [{ id: 1, v: 'a' }]);
    const failed = worker.call('insert', [{ id: 2, v: 'b' }, { id: 1, v: 'again' }]);
    await expect(failed).rejects.toThrow(/UNIQUE constraint failed: t\.id/);
    await expect(failed).rejects.toBeInstanceOf(Error);
    await expect(worker.call('insert', [{ id: 3, v: null }])).rejects.toThrow(/NOT NULL constraint failed: t\.v/);
    // Nothing of the failed batches stayed; the worker still writes.
    await expect(worker.call('insert', [{ id: 2, v: 'b' }])).resolves.toBe(1);
    expect(count()).toBe(2);
    expect(worker.running).toBe(true);
  });

  it('a crash fails the call in flight and every later one, tells the owner once, and keeps what was committed', async () => {
    const { worker, count } = open();
    const crashes: Error[] = [];
    worker.onCrash = (e) => crashes.push(e);
    await worker.call('insert', [{ id: 1, v: 'a' }]);
    const inFlight = worker.call('crash');
    await expect(inFlight).rejects.toBeInstanceOf(SqlWorkerStopped);
    await expect(inFlight).rejects.toThrow(/exited with code 7/);
    expect(worker.running).toBe(false);
    await expect(worker.call('insert', [{ id: 2, v: 'b' }])).rejects.toBeInstanceOf(SqlWorkerStopped);
    expect(crashes).toHaveLength(1);
    expect(crashes[0]).toBeInstanceOf(SqlWorkerStopped);
    expect(count()).toBe(1);
  });

  it('close lets what was asked before finish, then ends the worker (not a crash)', async () => {
    const { worker, count } = open();
    const crashes: Error[] = [];
    worker.onCrash = (e) => crashes.push(e);
    const asked = Array.from({ length: 20 }, (_, i) => worker.call('insert', [{ id: i + 1, v: `v${i}` }]));
    await worker.close();
    await expect(Promise.all(asked)).resolves.toHaveLength(20);
    expect(count()).toBe(20);
    expect(worker.running).toBe(false);
    await expect(worker.call('insert', [{ id: 99, v: 'late' }])).rejects.toThrow(/stopped: closed/);
    expect(crashes).toEqual([]);
  });

  it('runs below main’s priority on Linux (the thread’s nice value is main’s + 10), and main’s own is untouched everywhere', async () => {
    const mainNice = os.getPriority();
    const { worker } = open();
    const { tid, nice } = await worker.call('thread');
    if (process.platform === 'linux') {
      expect(tid).not.toBe(process.pid);
      expect(nice).toBe(Math.min(19, mainNice + BACKGROUND_NICE_STEP));
      // Seen from main, by the thread's id: the kernel's value, not what the worker believes.
      expect(os.getPriority(tid!)).toBe(nice);
    } else {
      // Elsewhere the call would change the whole process (macOS) or another one (Windows): nothing is changed.
      expect(nice).toBe(mainNice);
    }
    expect(os.getPriority()).toBe(mainNice);
  });

  it('an unknown operation is refused as an error', async () => {
    const { worker } = open();
    const anyWorker = worker as unknown as SqlWorker<Record<string, () => unknown>>;
    await expect(anyWorker.call('dropEverything')).rejects.toThrow(/Unknown SQL worker operation: dropEverything/);
  });
});
