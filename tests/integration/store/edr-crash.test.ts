/**
 * kill -9 during a poll's storing phase: a real child process runs the scheduler and the SQLite
 * store, is killed with SIGKILL while storing, and the next open of the store marks that cycle
 * interrupted instead of leaving it `running` for ever.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EdrStore, INTERRUPTED_CYCLE_ERROR } from '../../../electron/store/edr-db';

const child = path.resolve('tests/support/edr-crash-child.ts');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Starts the child, waits (at most 45 s) until it says it froze, kills it with SIGKILL; answers the frozen cycle's id. */
async function killWhileStoring(file: string, when: 'before-write' | 'after-write'): Promise<number> {
  const proc = spawn(process.execPath, ['--import', 'tsx', child, file, when], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  const frozen = await new Promise<{ cycleId: number } | undefined>((resolve) => {
    const deadline = setTimeout(() => resolve(undefined), 45_000);
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        clearTimeout(deadline);
        resolve(JSON.parse(line) as { cycleId: number });
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
  return frozen!.cycleId;
}

describe('a poll killed with SIGKILL while storing', () => {
  it.each([
    ['before-write', 0],
    ['after-write', 25],
  ] as const)('leaves no cycle running: the next open marks it interrupted (%s, %i scores kept)', async (when, hosts) => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-edr-crash-'));
    dirs.push(dir);
    const file = path.join(dir, 'edr.db');
    const cycleId = await killWhileStoring(file, when);

    const store = new EdrStore(file);
    try {
      expect(store.interruptedAtOpen).toBe(1);
      expect(store.cycle(cycleId)).toMatchObject({ status: 'interrupted', hosts, error: INTERRUPTED_CYCLE_ERROR, publishedAt: null });
      expect(store.cycle(cycleId)?.finishedAt).toEqual(expect.any(String));
      expect(store.latestScores()).toHaveLength(hosts);
      expect(store.unpublishedCycles()).toEqual([]);
    } finally {
      store.close();
    }
  }, 60_000);
});
