/**
 * A deployment task as it runs: percent bar, state, the messages seen so far, and the final
 * success or failure. `task.progress` events update the task in the cache (event-sync.ts).
 */
import clsx from 'clsx';
import { CircleCheck, CircleX } from 'lucide-react';
import { useState } from 'react';
import { useTask } from '../../api/inventory';
import { Spinner } from '../../components/Spinner';
import { TaskStateChip } from './StatusChip';

export function TaskProgress({ profileId, taskId }: { profileId: string; taskId: string }) {
  const query = useTask(profileId, taskId);
  const task = query.data;
  const [log, setLog] = useState<{ taskId: string; messages: string[] }>({ taskId, messages: [] });
  // Keep every distinct message the task showed (events carry only the latest one).
  const messages = log.taskId === taskId ? log.messages : [];
  if (task?.message && messages[messages.length - 1] !== task.message) setLog({ taskId, messages: [...messages, task.message] });

  if (!task) {
    return (
      <div className="task-progress" data-testid="task-progress">
        {query.isError ? <span className="field-error">The task could not be read: {query.error.message}</span> : <Spinner label="Loading the task" />}
      </div>
    );
  }
  const done = task.state === 'completed' || task.state === 'failed';
  const percent = Math.round(task.percent);
  return (
    <div className={clsx('task-progress', `task-${task.state}`)} data-testid="task-progress" data-state={task.state}>
      <div className="task-progress-head">
        <strong>Deployment</strong>
        <TaskStateChip state={task.state} />
        <span className="mono muted">task {task.taskId}</span>
        <span className="task-percent mono">{percent} %</span>
      </div>
      <div className={clsx('progress-bar', 'task-bar', 'determinate')} role="progressbar" aria-label={`Deployment of ${task.deviceName}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <span style={{ width: `${percent}%` }} />
      </div>
      {messages.length ? (
        <ol className="task-messages" aria-label="Task messages">
          {messages.map((m, i) => (
            <li key={`${i}:${m}`}>{m}</li>
          ))}
        </ol>
      ) : null}
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
