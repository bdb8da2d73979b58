/**
 * lowerThisThreadPriority (electron/store/thread-priority.ts) decides from the platform and the
 * thread it runs on: only a Linux worker thread, found by /proc/thread-self in its own process, is
 * lowered, by 10 and at most to 19; the main thread, other platforms (where the id would name a
 * process) and a refusal change nothing. The real thread's value: sql-worker.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { lowerThisThreadPriority, type ThreadPriorityEnv } from '../../../electron/store/thread-priority';

function env(over: Partial<ThreadPriorityEnv> = {}): { env: ThreadPriorityEnv; set: Array<[number, number]> } {
  const set: Array<[number, number]> = [];
  return {
    set,
    env: {
      platform: 'linux',
      isMainThread: false,
      pid: 400,
      threadSelf: () => '400/task/417',
      getPriority: () => 0,
      setPriority: (id, nice) => void set.push([id, nice]),
      ...over,
    },
  };
}

describe('lowerThisThreadPriority', () => {
  it('lowers a Linux worker thread by 10, by its own id', () => {
    const e = env();
    expect(lowerThisThreadPriority(e.env)).toBe(10);
    expect(e.set).toEqual([[417, 10]]);
  });

  it('goes from the thread’s current value and stops at 19', () => {
    const e = env({ getPriority: (id) => (id === 417 ? 15 : 0) });
    expect(lowerThisThreadPriority(e.env)).toBe(19);
    expect(e.set).toEqual([[417, 19]]);
  });

  it.each([
    ['macOS (the call would lower the whole process)', { platform: 'darwin' as const }],
    ['Windows (the id would name a process)', { platform: 'win32' as const }],
    ['the main thread', { isMainThread: true }],
    ['a thread whose id is the process’s (main)', { threadSelf: () => '400/task/400' }],
    ['a thread of another process', { threadSelf: () => '999/task/417' }],
    ['an unreadable /proc/thread-self', { threadSelf: () => { throw new Error('ENOENT'); } }],
    ['an answer it cannot read', { threadSelf: () => 'self' }],
  ])('changes nothing on %s', (_why, over: Partial<ThreadPriorityEnv>) => {
    const e = env(over);
    expect(lowerThisThreadPriority(e.env)).toBeUndefined();
    expect(e.set).toEqual([]);
  });

  it('a refusal by the kernel is not an error: the thread keeps its priority', () => {
    const e = env({ setPriority: () => { throw new Error('EACCES'); } });
    expect(lowerThisThreadPriority(e.env)).toBeUndefined();
  });
});
