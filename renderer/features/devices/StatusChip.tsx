import clsx from 'clsx';
import type { DeploymentStatus, TaskState } from '../../../shared/model/inventory';

const chip: Record<DeploymentStatus, string | undefined> = { saved: undefined, deploying: 'chip-accent', deployed: 'chip-ok', failed: 'chip-danger' };

export function StatusChip({ status }: { status: DeploymentStatus }) {
  return <span className={clsx('chip', 'status-chip', chip[status])}>{status}</span>;
}

const taskChip: Record<TaskState, string | undefined> = { pending: undefined, 'in-progress': 'chip-accent', completed: 'chip-ok', failed: 'chip-danger' };
export const taskStateLabel: Record<TaskState, string> = { pending: 'pending', 'in-progress': 'in progress', completed: 'completed', failed: 'failed' };

export function TaskStateChip({ state }: { state: TaskState }) {
  return <span className={clsx('chip', 'status-chip', taskChip[state])}>{taskStateLabel[state]}</span>;
}
