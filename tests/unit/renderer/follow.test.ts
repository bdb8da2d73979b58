/** The one pacing of the renderer (renderer/api/follow.ts): the alarm reads in view and the Overview after alarm events follow through it. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { pace } from '../../../renderer/api/follow';

describe('pace', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('runs at once, folds a burst into one run when the gap is over, and runs at once again after a quiet gap', () => {
    const job = vi.fn();
    const p = pace(job, 1_000);
    p.run();
    expect(job).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 3; i++) {
      vi.advanceTimersByTime(250);
      p.run();
    }
    expect(job).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(250);
    // 1,000 ms after the first run: the burst's one run.
    expect(job).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5_000);
    expect(job).toHaveBeenCalledTimes(2);
    p.run();
    expect(job).toHaveBeenCalledTimes(3);
  });

  it('cancel drops the run waiting for its gap, and keeps the gap', () => {
    const job = vi.fn();
    const p = pace(job, 500);
    p.run();
    p.run();
    p.cancel();
    vi.advanceTimersByTime(2_000);
    expect(job).toHaveBeenCalledTimes(1);
    const q = pace(job, 500);
    q.run();
    vi.advanceTimersByTime(100);
    q.cancel();
    q.run();
    expect(job).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(399);
    expect(job).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(1);
    expect(job).toHaveBeenCalledTimes(3);
  });
});
