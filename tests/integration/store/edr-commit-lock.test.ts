/**
 * A cycle's commit is not failed by another connection's write (the CI failure of 2026-11-28: a
 * poll cycle ended "database is locked" while the app wrote beside it). The commit reads before it
 * writes; in a deferred transaction a write committed by another connection in between makes its
 * first write fail at once (SQLITE_BUSY_SNAPSHOT, no busy wait). Here the other connection writes
 * exactly there: after the commit's first read (staging's data_version check), before its writes.
 */
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { EdrDb } from '../../../electron/edr/store/edr-db';
import { makeScoredHosts } from '../../support/edr-fixtures';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

it('a write committed by another connection after the commit began does not fail the commit', async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-edr-lock-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'edr.db');
  const store = new EdrDb(file);
  cleanups.push(() => store.close());
  // Another writer on the same file (main beside the writer thread); it never waits for a lock.
  const other = new Database(file, { timeout: 0 });
  cleanups.push(() => void other.close());

  const at = new Date(Date.UTC(2026, 10, 28, 3, 0));
  const beside = store.beginCycle('conn-2', 'falcon', 'cid-2', at);
  const id = store.beginCycle('conn-1', 'defender', 't1', at);
  await store.stageBatch(id, 'conn-1', makeScoredHosts(200));

  const staging = (store as unknown as { staging: { noticeOtherWriters(): void } }).staging;
  const notice = staging.noticeOtherWriters.bind(staging);
  let otherWrote: boolean | undefined;
  staging.noticeOtherWriters = () => {
    notice();
    // The other connection's write, between the commit's first read and its first write.
    try {
      other.prepare('UPDATE cycles SET error = ? WHERE id = ?').run('written beside the commit', beside);
      otherWrote = true;
    } catch (e) {
      // The commit holds the write lock already: the other writer is the one that waits (here: is refused).
      expect((e as { code?: string }).code).toBe('SQLITE_BUSY');
      otherWrote = false;
    }
  };

  await expect(store.completeCycle(id, new Date(at.getTime() + 30_000))).resolves.toBe(200);
  expect(otherWrote).toBe(false);
  expect(store.cycle(id)).toMatchObject({ status: 'completed', hosts: 200 });
  expect(store.latestScores({ connectorId: 'conn-1', limit: 500 })).toHaveLength(200);
});
