/**
 * The WAL checkpoint off the owner's thread (electron/store/checkpointer.ts): started by a big
 * commit, it copies the WAL back on its own connection, the owner's connection stops checkpointing
 * itself, staging does not take it for another writer, and a worker that cannot start leaves the
 * owner checkpointing as before; its thread runs below main's priority.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BIG_COMMIT_HOSTS, Checkpointer } from '../../../electron/store/checkpointer';
import { EdrDb } from '../../../electron/edr/store/edr-db';
import type { ScoredHost } from '../../../shared/model/edr';
import { makeScoredHosts } from '../../support/edr-fixtures';

const dirs: string[] = [];
const closers: Array<() => void> = [];
const tempFile = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-ckpt-'));
  dirs.push(dir);
  return path.join(dir, 'edr.db');
};
afterEach(() => {
  for (const c of closers.splice(0)) c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A WAL database of its own with a Checkpointer (`module`: the SQLite module the worker loads), closed after the test. */
function owner(module?: string): { file: string; db: Database.Database; ckpt: Checkpointer } {
  const file = tempFile();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  const ckpt = new Checkpointer(db, file, module);
  closers.push(() => {
    ckpt.close();
    db.close();
  });
  return { file, db, ckpt };
}

/** A big commit starts the worker; resolves once it is ready. */
async function started(ckpt: Checkpointer): Promise<void> {
  ckpt.afterCommit(BIG_COMMIT_HOSTS);
  await vi.waitFor(() => expect(ckpt.active).toBe(true), { timeout: 10_000, interval: 20 });
}

let minute = 0;
function cycle(store: EdrDb, hosts: ScoredHost[]): number {
  minute += 10;
  const at = new Date(Date.UTC(2026, 10, 22, 0, minute));
  const id = store.beginCycle('conn-1', 'defender', 't1', at);
  store.stageScores(id, 'conn-1', hosts);
  store.commitCycle(id, new Date(at.getTime() + 30_000));
  return id;
}

const rescored = (hosts: ScoredHost[], salt: number) => makeScoredHosts(hosts.length, { cycleSalt: salt });

/** This process's threads (Linux) with their nice values, seen from outside (the kernel's). */
function threads(): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of readdirSync('/proc/self/task')) {
    try {
      out.set(Number(t), os.getPriority(Number(t)));
    } catch {
      // Ended meanwhile.
    }
  }
  return out;
}

describe('the WAL checkpoint on a worker thread', () => {
  it('runs below main’s priority on Linux (its thread’s nice value is main’s + 10); main’s own is untouched', async () => {
    const mainNice = os.getPriority();
    const before = process.platform === 'linux' ? threads() : new Map<number, number>();
    const { ckpt } = owner();
    await started(ckpt);
    if (process.platform === 'linux') {
      const started_ = [...threads()].filter(([tid]) => !before.has(tid));
      expect(started_.map(([, nice]) => nice)).toContain(Math.min(19, mainNice + 10));
    }
    expect(os.getPriority()).toBe(mainNice);
  });

  it('starts at a big commit; later commits are copied back by the worker, and the stored cycle reads the same', async () => {
    const file = tempFile();
    const store = new EdrDb(file);
    closers.push(() => store.close());
    const small = makeScoredHosts(50);
    cycle(store, small);
    expect(store.checkpointer.active).toBe(false);

    const hosts = makeScoredHosts(BIG_COMMIT_HOSTS);
    cycle(store, hosts);
    await vi.waitFor(() => expect(store.checkpointer.active).toBe(true), { timeout: 10_000, interval: 20 });

    const id = cycle(store, rescored(hosts, 1));
    await store.checkpointer.idle();
    expect(store.checkpointer.done).toBe(1);
    // Every frame of the WAL copied back (no reader held it), and the WAL was not empty.
    const last = store.checkpointer.last!;
    expect(last.error).toBeUndefined();
    expect(last.log).toBeGreaterThan(100);
    expect(last.checkpointed).toBe(last.log);

    // What the views read is the cycle just committed, from a fresh connection too.
    const raw = new Database(file, { readonly: true });
    try {
      expect(raw.prepare('SELECT COUNT(*) FROM host_seen WHERE last_cycle = ?').pluck().get(id)).toBe(BIG_COMMIT_HOSTS);
    } finally {
      raw.close();
    }
    expect(store.views.latestCycles()[0]!.cycleId).toBe(id);
  });

  it('does not move the owner’s data_version (staging would take it for another writer)', async () => {
    const { file, db, ckpt } = owner();
    db.exec('CREATE TABLE t (x)');
    await started(ckpt);
    // The next commit hands the checkpoints over.
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    ckpt.beforeCommit();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);

    const version = db.prepare('PRAGMA data_version').pluck();
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    db.transaction(() => {
      for (let i = 0; i < 5000; i++) insert.run('x'.repeat(200));
    })();
    const before = version.get();
    ckpt.afterCommit(1);
    await ckpt.idle();
    expect(ckpt.last?.checkpointed).toBeGreaterThan(0);
    expect(version.get()).toBe(before);
    // Without a checkpoint of its own the owner's next commit starts the WAL again from its beginning.
    const walBefore = statSync(`${file}-wal`).size;
    insert.run('y');
    expect(statSync(`${file}-wal`).size).toBeLessThanOrEqual(walBefore);
  });

  it('frames a small write left behind the worker are copied before the next commit, so the WAL starts again and does not pile up', async () => {
    const { file, db, ckpt } = owner();
    db.exec('CREATE TABLE t (x)');
    const reader = new Database(file, { readonly: true });
    closers.unshift(() => {
      if (reader.inTransaction) reader.exec('COMMIT');
      reader.close();
    });
    await started(ckpt);
    const insert = db.prepare('INSERT INTO t VALUES (?)');
    const write = db.transaction(() => {
      for (let i = 0; i < 3000; i++) insert.run('x'.repeat(300));
    });
    const big = () => {
      ckpt.beforeCommit();
      write();
      ckpt.afterCommit(BIG_COMMIT_HOSTS);
    };
    big();
    await ckpt.idle();
    const oneCommit = ckpt.last!.log!;
    expect(ckpt.last!.checkpointed).toBe(oneCommit);

    // A big commit; a reader's snapshot ends there; a small write (a new cycle's row) after it: the
    // worker can copy only up to the reader's snapshot, and the small write's frames stay behind.
    ckpt.beforeCommit();
    write();
    reader.exec('BEGIN');
    reader.prepare('SELECT COUNT(*) FROM t').pluck().get();
    insert.run('small');
    ckpt.afterCommit(1);
    await ckpt.idle();
    expect(ckpt.last!.checkpointed).toBeLessThan(ckpt.last!.log!);
    reader.exec('COMMIT');

    // The next commit starts the WAL again (its frames are about one commit's, not two).
    big();
    await ckpt.idle();
    expect(ckpt.last!.log!).toBeLessThan(1.5 * oneCommit);
    expect(ckpt.last!.checkpointed).toBe(ckpt.last!.log);
  });

  it('a worker that cannot start leaves the owner checkpointing itself', async () => {
    const { db, ckpt } = owner(path.join(os.tmpdir(), 'no-such-module.js'));
    ckpt.afterCommit(BIG_COMMIT_HOSTS);
    await vi.waitFor(() => expect(ckpt.stopped).toBe(true), { timeout: 10_000, interval: 20 });
    // The owner never stopped checkpointing (it does only once the worker said it is ready), and nothing waits.
    expect(ckpt.active).toBe(false);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    ckpt.afterCommit(BIG_COMMIT_HOSTS);
    await expect(ckpt.idle()).resolves.toBeUndefined();
  });

  it('a worker that stops hands the checkpoints back to the owner', async () => {
    const { db, ckpt } = owner();
    await started(ckpt);
    ckpt.beforeCommit();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    // As if its thread died.
    await (ckpt as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await vi.waitFor(() => expect(ckpt.stopped).toBe(true), { timeout: 10_000, interval: 20 });
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    expect(ckpt.active).toBe(false);
  });

  it('a checkpoint that fails hands the checkpoints back to the owner (the WAL would otherwise only grow)', async () => {
    // A SQLite module whose checkpoint fails, as on a disk that refuses the write.
    const failing = path.join(path.dirname(tempFile()), 'failing-sqlite.cjs');
    writeFileSync(failing, "module.exports = class { pragma() { throw new Error('disk I/O error'); } };");
    const { db, ckpt } = owner(failing);
    await started(ckpt);
    ckpt.beforeCommit();
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    ckpt.afterCommit(1);
    await ckpt.idle();
    await vi.waitFor(() => expect(ckpt.stopped).toBe(true), { timeout: 10_000, interval: 20 });
    expect(ckpt.last?.error).toContain('disk I/O error');
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });
});
