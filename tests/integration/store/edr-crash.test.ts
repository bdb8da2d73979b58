/**
 * kill -9 during a poll: a real child process runs the scheduler and the SQLite store, completes
 * one cycle, and is killed with SIGKILL in the next one, while it stages batches or just before it
 * commits them. The next open of the store marks that cycle interrupted instead of leaving it
 * `running` for ever, deletes its staged rows, and the views still show the completed cycle; also
 * with the staging and commit on the store's worker thread (`off-main`, as the app runs them).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { EdrDb, INTERRUPTED_CYCLE_ERROR } from '../../../electron/edr/store/edr-db';

const child = path.resolve('tests/support/edr-crash-child.ts');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Starts the child, waits (at most 45 s) until it says it froze, kills it with SIGKILL; answers the frozen cycle's id. */
async function killWhileStoring(file: string, when: 'while-staging' | 'before-commit', mode: 'on-main' | 'off-main'): Promise<{ cycleId: number; completedCycleId: number }> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, file, when, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  const frozen = await new Promise<{ cycleId: number; completedCycleId: number } | undefined>((resolve) => {
    const deadline = setTimeout(() => resolve(undefined), 45_000);
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(deadline);
        resolve(JSON.parse(line) as { cycleId: number; completedCycleId: number });
      }
    });
    void exited.then(() => {
      clearTimeout(deadline);
      resolve(undefined);
    });
  });
  proc.kill('SIGKILL');
  const exit = await exited;
  expect(frozen, `the child never reached the storing phase: ${err}`).toBeDefined();
  expect(exit.signal).toBe('SIGKILL');
  return frozen!;
}

describe('a poll killed with SIGKILL while staging or storing', () => {
  // off-main: staging and the commit on the store's worker thread (the app's store), killed with the process.
  it.each([
    ['while-staging', 10, 'on-main'],
    ['before-commit', 25, 'on-main'],
    ['while-staging', 10, 'off-main'],
    ['before-commit', 25, 'off-main'],
  ] as const)('leaves no cycle running: the next open marks it interrupted; its staged rows went with the process (%s, %i staged, %s)', async (when, _staged, mode) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-edr-crash-'));
    dirs.push(dir);
    const file = path.join(dir, 'edr.db');
    const { cycleId, completedCycleId } = await killWhileStoring(file, when, mode);

    const store = new EdrDb(file);
    try {
      expect(store.interruptedAtOpen).toBe(1);
      expect(store.stagedCount()).toBe(0);
      // Staging is a TEMP table: the file itself never held a staged row.
      const raw = new Database(file, { readonly: true });
      expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'staged_scores'").all()).toEqual([]);
      raw.close();
      expect(store.cycle(cycleId)).toMatchObject({ status: 'interrupted', hosts: 0, error: INTERRUPTED_CYCLE_ERROR, publishedAt: null });
      expect(store.cycle(cycleId)?.finishedAt).toEqual(expect.any(String));
      // Nothing of the interrupted cycle is visible: the completed one still is, and is the one to publish.
      const latest = store.latestScores();
      expect(latest).toHaveLength(25);
      expect(new Set(latest.map((r) => r.cycleId))).toEqual(new Set([completedCycleId]));
      expect(store.unpublishedCycles().map((c) => c.id)).toEqual([completedCycleId]);
    } finally {
      store.close();
    }
  }, 60_000);
});
