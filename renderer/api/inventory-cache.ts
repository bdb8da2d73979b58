/**
 * How pushed inventory events change what the cache holds (pure, tested on their own):
 * `onboarding.progress` carries only the rows that changed, merged here into the job's full
 * list; `task.progress` moves a device's deployment status in the cached windows of the devices table.
 */
import type { BulkJobState, BulkRowResult, DeploymentStatus, DeviceView, TaskState, TaskStatus } from '../../shared/model/inventory';

/** A cached window of the devices table (or anything holding devices as `rows`). */
export type DeviceRows = { rows: DeviceView[] };

const finishedJob = (s: BulkJobState['state']) => s !== 'running';

/**
 * The job after an event or an answer. The newer of the two (more rows done, or finished) gives
 * the counters; rows are merged by line, and a row never goes back to `pending` (an answer that
 * left main before an event may arrive after it).
 */
export function mergeJob(old: BulkJobState | undefined, incoming: BulkJobState): BulkJobState {
  if (!old || old.jobId !== incoming.jobId) return incoming;
  const incomingNewer = finishedJob(incoming.state) || (!finishedJob(old.state) && incoming.done >= old.done);
  const head = incomingNewer ? incoming : old;
  if (incoming.rows.length === 0) return { ...head, rows: old.rows };
  const byLine = new Map<number, number>();
  old.rows.forEach((r, i) => byLine.set(r.line, i));
  const rows: BulkRowResult[] = old.rows.slice();
  let appended = false;
  for (const r of incoming.rows) {
    const i = byLine.get(r.line);
    if (i === undefined) {
      rows.push(r);
      appended = true;
    } else if (!(r.outcome === 'pending' && rows[i]!.outcome !== 'pending')) {
      rows[i] = r;
    }
  }
  if (appended) rows.sort((a, b) => a.line - b.line);
  return { ...head, rows };
}

export function deploymentStatusOf(state: TaskState): DeploymentStatus {
  return state === 'completed' ? 'deployed' : state === 'failed' ? 'failed' : 'deploying';
}

const rank: Record<TaskState, number> = { pending: 0, 'in-progress': 1, completed: 2, failed: 2 };

/** False when `incoming` is older than what is cached (events can overtake an answer). */
export function isTaskNewer(old: TaskStatus | undefined, incoming: TaskStatus): boolean {
  if (!old || old.taskId !== incoming.taskId) return true;
  if (rank[incoming.state] !== rank[old.state]) return rank[incoming.state] > rank[old.state];
  return incoming.percent >= old.percent;
}

/** A window with the task's device moved to the status the task implies; the same object when nothing changes. */
export function applyTaskToDevices<W extends DeviceRows>(window: W | undefined, task: TaskStatus): W | undefined {
  const device = window?.rows.find((d) => d.deviceName === task.deviceName);
  if (!window || !device) return window;
  const status = deploymentStatusOf(task.state);
  if (device.deploymentStatus === status && device.lastTaskId === task.taskId) return window;
  return replaceDevice(window, { ...device, deploymentStatus: status, lastTaskId: task.taskId });
}

/** A window with a device of the same name replaced by `device`; the same object when it has none. */
export function replaceDevice<W extends DeviceRows>(window: W | undefined, device: DeviceView): W | undefined {
  const i = window ? window.rows.findIndex((d) => d.deviceName === device.deviceName) : -1;
  if (!window || i < 0) return window;
  const rows = window.rows.slice();
  rows[i] = device;
  return { ...window, rows };
}
