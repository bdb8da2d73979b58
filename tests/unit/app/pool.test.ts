/** The project's one worker pool (electron/pool.ts). */
import { describe, expect, it } from 'vitest';
import { forEachLimited } from '../../../electron/pool';

/** A task that waits for the test to release it, counting how many run at once. */
function gate() {
  let running = 0;
  let most = 0;
  const waiting: Array<() => void> = [];
  return {
    run: () =>
      new Promise<void>((resolve) => {
        running += 1;
        most = Math.max(most, running);
        waiting.push(() => {
          running -= 1;
          resolve();
        });
      }),
    releaseAll: async () => {
      while (waiting.length > 0) {
        waiting.shift()!();
        await new Promise((r) => setImmediate(r));
      }
    },
    most: () => most,
  };
}

describe('forEachLimited', () => {
  it('runs every item in order, never more than the limit at once', async () => {
    const g = gate();
    const started: number[] = [];
    const done = forEachLimited([10, 11, 12, 13, 14, 15, 16], 3, async (x) => {
      started.push(x);
      await g.run();
    });
    await new Promise((r) => setImmediate(r));
    expect(started).toEqual([10, 11, 12]);
    await g.releaseAll();
    await done;
    expect(started).toEqual([10, 11, 12, 13, 14, 15, 16]);
    expect(g.most()).toBe(3);
  });

  it('takes no new item once stop() says so; items in flight end', async () => {
    let stop = false;
    const seen: number[] = [];
    await forEachLimited([1, 2, 3, 4, 5, 6], 2, async (x) => {
      seen.push(x);
      if (x === 3) stop = true;
    }, () => stop);
    expect(seen).toEqual([1, 2, 3, 4].slice(0, seen.length));
    expect(seen).toContain(3);
    expect(seen).not.toContain(5);
  });

  it('throws the first error after the items in flight have ended, and starts no more', async () => {
    const ended: number[] = [];
    const err = await forEachLimited([1, 2, 3, 4, 5], 2, async (x) => {
      if (x === 2) throw new Error('row 2 failed');
      await new Promise((r) => setImmediate(r));
      ended.push(x);
    }).catch((e: unknown) => e);
    expect((err as Error).message).toBe('row 2 failed');
    expect(ended).toEqual([1]);
  });
});
