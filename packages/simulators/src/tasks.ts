/**
 * Deployment tasks of the simulated node (MN-44, MN-45). A task stores only when it started, how
 * long it runs and whether it will fail; its state is computed from the simulator clock at every
 * request, so tests move it with `clock.advance` and nothing runs on real timers.
 */
export type SimTaskStatus = 'PENDING' | 'IN_PROGRESS' | 'COMPLETED' | 'FAILED';

/** A task is PENDING for this long before it starts working. */
export const TASK_PENDING_MS = 1000;
export const DEFAULT_DEPLOY_SECONDS = 6;

export interface SimTask {
  id: string;
  deviceName: string;
  /** Clock time the task was created. */
  startMs: number;
  /** How long it stays IN_PROGRESS after PENDING. */
  runMs: number;
  /** Fails when it reaches the configuration stage (50 %). */
  fails: boolean;
}

interface TaskMessage {
  message: string;
  atMs: number;
}

export interface SimTaskState {
  status: SimTaskStatus;
  percent: number;
  progress: TaskMessage[];
  errors: TaskMessage[];
  endMs: number | null;
}

export const TASK_WRAPPER = 'mgmt-tasks.task';
const P = 'mgmt-tasks.';

/** Where the task stands at clock time `now`. */
export function taskState(t: SimTask, now: number): SimTaskState {
  const elapsed = now - t.startMs;
  const progress: TaskMessage[] = [{ message: `Deployment of ${t.deviceName} queued.`, atMs: t.startMs }];
  if (elapsed < TASK_PENDING_MS) return { status: 'PENDING', percent: 0, progress, errors: [], endMs: null };
  const stages = [
    { offset: TASK_PENDING_MS, percent: 20, message: `Staging: ${t.deviceName} reached the controller and received its bootstrap configuration.` },
    { offset: TASK_PENDING_MS + t.runMs / 3, percent: 50, message: `Configuration: pushing the device workflow configuration to ${t.deviceName}.` },
    { offset: TASK_PENDING_MS + (2 * t.runMs) / 3, percent: 80, message: `Verification: checking tunnels and services on ${t.deviceName}.` },
  ];
  let percent = 0;
  for (const stage of stages) {
    if (elapsed < stage.offset) break;
    const atMs = t.startMs + stage.offset;
    progress.push({ message: stage.message, atMs });
    percent = stage.percent;
    if (t.fails && stage.percent === 50) {
      const error = `Configuration of ${t.deviceName} failed: the device did not acknowledge the configuration commit (simulated failure).`;
      return { status: 'FAILED', percent, progress, errors: [{ message: error, atMs }], endMs: atMs };
    }
  }
  const endOffset = TASK_PENDING_MS + t.runMs;
  if (elapsed < endOffset) return { status: 'IN_PROGRESS', percent, progress, errors: [], endMs: null };
  const endMs = t.startMs + endOffset;
  progress.push({ message: `Deployment of ${t.deviceName} completed.`, atMs: endMs });
  return { status: 'COMPLETED', percent: 100, progress, errors: [], endMs };
}

export const isRunning = (t: SimTask, now: number): boolean => {
  const s = taskState(t, now).status;
  return s === 'PENDING' || s === 'IN_PROGRESS';
};

const iso = (ms: number) => new Date(ms).toISOString();
const messages = (list: TaskMessage[]) => list.map((m) => ({ [`${P}message`]: m.message, [`${P}time`]: iso(m.atMs) }));

/** The MN-45 answer of GET /mgmt/tasks/task/<id>. */
export function taskBody(t: SimTask, now: number): object {
  const s = taskState(t, now);
  return {
    [TASK_WRAPPER]: {
      [`${P}id`]: t.id,
      [`${P}task-name`]: `Deploy ${t.deviceName}`,
      [`${P}task-description`]: `Deploy the device workflow of ${t.deviceName}`,
      [`${P}task-status`]: s.status,
      [`${P}percentage-completion`]: s.percent,
      [`${P}progressmessages`]: { [`${P}progressmessage`]: messages(s.progress) },
      [`${P}errormessages`]: { [`${P}errormessage`]: messages(s.errors) },
      [`${P}start-time`]: iso(t.startMs),
      [`${P}end-time`]: s.endMs === null ? null : iso(s.endMs),
    },
  };
}

export class SimTasks {
  private readonly tasks = new Map<string, SimTask>();
  private nextId = 1;

  add(deviceName: string, startMs: number, runMs: number, fails: boolean): SimTask {
    const task: SimTask = { id: String(this.nextId), deviceName, startMs, runMs, fails };
    this.nextId += 1;
    this.tasks.set(task.id, task);
    return task;
  }

  get(id: string): SimTask | undefined {
    return this.tasks.get(id);
  }

  get count(): number {
    return this.tasks.size;
  }

  /** A page of the task list, newest first (C-56). */
  newestFirst(offset: number, size: number): SimTask[] {
    return [...this.tasks.values()].reverse().slice(offset, offset + size);
  }

  runningCount(now: number): number {
    let n = 0;
    for (const t of this.tasks.values()) if (isRunning(t, now)) n += 1;
    return n;
  }
}
