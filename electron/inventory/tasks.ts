/**
 * Follows a node task (a deployment, MN-44/MN-45) in main: polls `GET /mgmt/tasks/task/<id>`
 * every `pollMs` (default 1 s of real time) until it is COMPLETED or FAILED, or until `maxMs`
 * passed or the node failed to answer `maxErrors` times in a row. Every change is stored, moves
 * the device's deployment status and is pushed (`task.progress`). One follower per task.
 */
import { AppError, endsSession } from '../../shared/model/errors';
import type { DeploymentStatus, TaskState, TaskStatus } from '../../shared/model/inventory';
import type { Logger } from '../log';
import type { InventoryStore } from './store/inventory-store';
import { taskFromNode, taskPath } from './node-api';
import type { NodeRequest } from '../mgmt/node-answer';
import { sleep } from '../net/retry';

export interface TaskTiming {
  /** Real milliseconds between two polls; default 1000. */
  pollMs?: number;
  /** Stop following after this long (the task keeps running on the node); default 15 minutes. */
  maxMs?: number;
  /** Stop after this many failed polls in a row; default 5. */
  maxErrors?: number;
}

export interface TaskFollowerOptions extends TaskTiming {
  store: InventoryStore;
  /** Every change of a followed task (task.progress). */
  onProgress(task: TaskStatus): void;
  logger: Logger;
}

/** How following ended: the task finished, or we stopped watching it (it may still run). */
export interface FollowOutcome {
  task: TaskStatus;
  finished: boolean;
  /** Why following stopped before the end. */
  reason?: string;
}

export const isFinal = (s: TaskState) => s === 'completed' || s === 'failed';
export const deviceStatusOf = (s: TaskState): DeploymentStatus => (s === 'completed' ? 'deployed' : s === 'failed' ? 'failed' : 'deploying');


const changed = (a: TaskStatus, b: TaskStatus) =>
  a.state !== b.state || a.percent !== b.percent || a.message !== b.message || a.endedAt !== b.endedAt || a.steps.length !== b.steps.length;

export class TaskFollower {
  private readonly running = new Map<string, { latest: TaskStatus; done: Promise<FollowOutcome>; recorded: Promise<void> }>();
  private readonly stop = new AbortController();
  private readonly pollMs: number;
  private readonly maxMs: number;
  private readonly maxErrors: number;

  constructor(private readonly o: TaskFollowerOptions) {
    this.pollMs = o.pollMs ?? 1000;
    this.maxMs = o.maxMs ?? 15 * 60_000;
    this.maxErrors = o.maxErrors ?? 5;
  }

  /** The latest state of a task being followed. */
  current(profileId: string, taskId: string): TaskStatus | undefined {
    return this.running.get(`${profileId}\u0000${taskId}`)?.latest;
  }

  /** Follows the task from `initial` to its end (joins a follower already running for it). */
  follow(request: NodeRequest, initial: TaskStatus): Promise<FollowOutcome> {
    const key = `${initial.profileId}\u0000${initial.taskId}`;
    const existing = this.running.get(key);
    if (existing) return existing.done;
    // The first state is stored before anything else of the task (record never rejects).
    const entry = { latest: initial, done: Promise.resolve<FollowOutcome>({ task: initial, finished: false }), recorded: this.record(initial) };
    this.running.set(key, entry);
    entry.done = this.run(request, entry).finally(() => this.running.delete(key));
    return entry.done;
  }

  /**
   * Settles once the first state of a task `follow` was just given is stored (the store's writes may
   * run on another thread, C-100): a caller that tells the window the devices changed waits for it.
   */
  recorded(profileId: string, taskId: string): Promise<void> {
    return this.running.get(`${profileId}\u0000${taskId}`)?.recorded ?? Promise.resolve();
  }

  /** Stores a task state and moves the device with it. */
  private async record(task: TaskStatus): Promise<void> {
    try {
      await this.o.store.putTask(task);
      if (task.deviceName) await this.o.store.setDeploymentStatus(task.profileId, task.deviceName, deviceStatusOf(task.state), task.taskId);
    } catch (e) {
      // Only when the store closed under a follower (quit); the event still tells the window.
      this.o.logger.warn('task state not stored', { taskId: task.taskId, error: e instanceof Error ? e.message : String(e) });
    }
    this.o.onProgress(task);
  }

  private async run(request: NodeRequest, entry: { latest: TaskStatus; recorded: Promise<void> }): Promise<FollowOutcome> {
    const { profileId, taskId, deviceName } = entry.latest;
    const signal = this.stop.signal;
    const deadline = Date.now() + this.maxMs;
    let errors = 0;
    await entry.recorded;
    while (!isFinal(entry.latest.state)) {
      if (signal.aborted) return { task: entry.latest, finished: false, reason: 'the console is closing' };
      if (Date.now() >= deadline) {
        this.o.logger.warn('stopped following a task that did not finish in time', { profileId, taskId, maxMs: this.maxMs });
        return { task: entry.latest, finished: false, reason: `it did not finish within ${Math.round(this.maxMs / 1000)} s` };
      }
      // Quitting ends the wait; the loop's top then says why following stopped.
      const waited = await sleep(this.pollMs, signal).then(() => true, () => false);
      if (!waited) continue;
      try {
        const next = taskFromNode(await request('GET', taskPath(taskId)), profileId, taskId, deviceName, entry.latest);
        errors = 0;
        if (changed(next, entry.latest)) {
          entry.latest = next;
          await this.record(next);
        }
      } catch (e) {
        errors += 1;
        const code = e instanceof AppError ? e.code : 'internal';
        this.o.logger.warn('task poll failed', { profileId, taskId, code, error: e instanceof Error ? e.message : String(e), errors });
        if (endsSession(code) || errors >= this.maxErrors) {
          return { task: entry.latest, finished: false, reason: e instanceof Error ? e.message : String(e) };
        }
      }
    }
    return { task: entry.latest, finished: true };
  }

  /** Stops every follower (shutdown); each resolves with its last state. */
  async close(): Promise<void> {
    this.stop.abort();
    await Promise.allSettled([...this.running.values()].map((r) => r.done));
  }
}
