/**
 * Background threads yield the CPU to the thread that answers the window (issue 21 item 5). The
 * store's writers and checkpointer do work that may wait (a cycle's staging, a commit, a WAL
 * checkpoint); main's event loop may not (IPC, the window's requests, timers). On a machine with
 * fewer free cores than runnable threads, the kernel shares them by weight: at equal priority a
 * writer holding a core kept main off one for 50 ms and more in the Falcon 100k bench while main
 * itself ran for 26 ms. A worker calls `lowerThisThreadPriority()` once when it starts.
 *
 * Linux only: there a thread has its own nice value, set with setpriority(PRIO_PROCESS, tid)
 * (os.setPriority with the thread's id, found through /proc/thread-self). On macOS that call would
 * lower the whole process and on Windows the number names a process, so elsewhere nothing changes.
 * Never on the main thread. Raising one's own nice value needs no privilege.
 */
import { readlinkSync } from 'node:fs';
import os from 'node:os';
import { isMainThread } from 'node:worker_threads';

/** How much lower than it was (nice +10: about a tenth of a normal thread's share when they contend). */
export const BACKGROUND_NICE_STEP = 10;

export interface ThreadPriorityEnv {
  platform: NodeJS.Platform;
  isMainThread: boolean;
  pid: number;
  /** The target of /proc/thread-self: `<pid>/task/<tid>`. */
  threadSelf: () => string;
  getPriority: (id: number) => number;
  setPriority: (id: number, nice: number) => void;
}

const nodeEnv = (): ThreadPriorityEnv => ({
  platform: process.platform,
  isMainThread,
  pid: process.pid,
  threadSelf: () => readlinkSync('/proc/thread-self'),
  getPriority: (id) => os.getPriority(id),
  setPriority: (id, nice) => os.setPriority(id, nice),
});

/**
 * Lowers the calling worker thread's priority by `BACKGROUND_NICE_STEP` (at most to 19). Returns
 * the thread's new nice value, or undefined when nothing was changed (not Linux, the main thread,
 * or the kernel refused): a thread that keeps its priority still works, only less politely.
 */
export function lowerThisThreadPriority(env: ThreadPriorityEnv = nodeEnv()): number | undefined {
  if (env.platform !== 'linux' || env.isMainThread) return undefined;
  try {
    const m = /^(\d+)\/task\/(\d+)$/.exec(env.threadSelf());
    if (!m || Number(m[1]) !== env.pid) return undefined;
    const tid = Number(m[2]);
    // The process's own id is its main thread's.
    if (tid === env.pid) return undefined;
    const nice = Math.min(19, env.getPriority(tid) + BACKGROUND_NICE_STEP);
    env.setPriority(tid, nice);
    return nice;
  } catch {
    return undefined;
  }
}
