/**
 * A deployment task as it runs: percent bar, state, its step log (every message with its time:
 * the node's, or when main saw it), and the final success or failure. `task.progress` events
 * update the task in the cache (event-sync.ts).
 */
import clsx from 'clsx';
import { CircleCheck, CircleX } from 'lucide-react';
import type { TaskStep } from '../../shared/model/inventory';
import { useTask } from '../api/inventory';
import { Spinner } from './Spinner';
import { DateTime } from './Time';
import { useTimeFormat } from './useTimeFormat';
import { TaskStateChip } from './StatusChip';

type ShownStep = Pick<TaskStep, 'message' | 'level'> & Partial<Pick<TaskStep, 'at' | 'timeFrom'>>;

export function TaskProgress({ profileId, taskId }: { profileId: string; taskId: string }) {
  const query = useTask(profileId, taskId);
  const task = query.data;
  const tf = useTimeFormat();

  if (!task) {
    return (
      <div className="task-progress" data-testid="task-progress">
        {query.isError ? <span className="field-error">The task could not be read: {query.error.message}</span> : <Spinner label="Loading the task" />}
      </div>
    );
  }
  const done = task.state === 'completed' || task.state === 'failed';
  const percent = Math.round(task.percent);
  // A task stored before step logs were kept has only its latest message.
  const steps: ShownStep[] = task.steps.length ? task.steps : task.message ? [{ message: task.message, level: 'info' }] : [];
  const firstAt = steps.find((s) => s.at)?.at;
  const stepTitle = (at: string, from: ShownStep['timeFrom']) => `${tf.dateTime(at)}${from === 'console' ? ' — when the console saw this step (the node gave no time)' : ''}`;
  return (
    <div className={clsx('task-progress', `task-${task.state}`)} data-testid="task-progress" data-state={task.state}>
      <div className="task-progress-head">
        <strong>Deployment</strong>
        <TaskStateChip state={task.state} />
        <span className="mono muted">task {task.taskId}</span>
        {task.startedAt ? (
          <span className="muted">
            started <DateTime iso={task.startedAt} />
          </span>
        ) : null}
        <span className="task-percent mono">{percent} %</span>
      </div>
      <div className={clsx('progress-bar', 'task-bar', 'determinate')} role="progressbar" aria-label={`Deployment of ${task.deviceName}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <span style={{ width: `${percent}%` }} />
      </div>
      {steps.length ? (
        <ol className="task-messages" aria-label="Task messages">
          {steps.map((s, i) => (
            <li key={`${i}:${s.message}`} className={s.level === 'error' ? 'task-step-error' : undefined}>
              {s.at ? (
                <time className="task-step-time mono" dateTime={s.at} title={stepTitle(s.at, s.timeFrom)}>
                  {tf.time(s.at)}
                </time>
              ) : null}
              <span>{s.message}</span>
            </li>
          ))}
        </ol>
      ) : null}
      {firstAt ? <p className="task-steps-zone muted">Times in {tf.zoneLabel(firstAt)}</p> : null}
      {done ? (
        task.state === 'completed' ? (
          <p className="task-outcome task-outcome-ok" role="status">
            <CircleCheck size={16} aria-hidden="true" /> {task.deviceName} is deployed.
          </p>
        ) : (
          <p className="task-outcome task-outcome-fail" role="alert">
            <CircleX size={16} aria-hidden="true" /> The deployment of {task.deviceName} failed{task.message ? `: ${task.message}` : '.'}
          </p>
        )
      ) : null}
    </div>
  );
}
