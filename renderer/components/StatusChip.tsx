import clsx from 'clsx';
import type { ApplianceState, DeploymentStatus, TaskState } from '../../shared/model/inventory';

const chip: Record<DeploymentStatus, string | undefined> = { saved: undefined, deploying: 'chip-accent', deployed: 'chip-ok', failed: 'chip-danger' };

export function StatusChip({ status }: { status: DeploymentStatus }) {
  return <span className={clsx('chip', 'status-chip', chip[status])}>{status}</span>;
}

const taskChip: Record<TaskState, string | undefined> = { pending: undefined, 'in-progress': 'chip-accent', completed: 'chip-ok', failed: 'chip-danger' };
export const taskStateLabel: Record<TaskState, string> = { pending: 'pending', 'in-progress': 'in progress', completed: 'completed', failed: 'failed' };

export function TaskStateChip({ state }: { state: TaskState }) {
  return <span className={clsx('chip', 'status-chip', taskChip[state])}>{taskStateLabel[state]}</span>;
}

const reachChip: Record<ApplianceState['reachability'], string | undefined> = { reachable: 'chip-ok', unreachable: 'chip-danger', unknown: undefined };
const syncChip: Record<ApplianceState['configSync'], string | undefined> = { 'in-sync': 'chip-ok', 'out-of-sync': 'chip-warn', unknown: undefined };

/** Reachability (`ping-status`) of a device's appliance; "unknown" when the node lists none. */
export function ReachChip({ value }: { value: ApplianceState['reachability'] | undefined }) {
  const v = value ?? 'unknown';
  return <span className={clsx('chip', 'status-chip', reachChip[v])}>{v}</span>;
}

/** Configuration sync (`sync-status`) of a device's appliance. */
export function SyncChip({ value }: { value: ApplianceState['configSync'] | undefined }) {
  const v = value ?? 'unknown';
  return <span className={clsx('chip', 'status-chip', syncChip[v])}>{v.replace(/-/g, ' ')}</span>;
}
