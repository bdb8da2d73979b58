/** The running cycle (phase, done/total) or the last one (status, hosts, when, error, published), and the next one. */
import clsx from 'clsx';
import type { ConnectorStatus, CycleProgress, CycleState } from '../../../shared/contract';
import { RelativeTime } from '../../components/Time';
import { useTimeFormat } from '../../components/useTimeFormat';
import { useNow } from '../../components/useNow';
import { agoText, cycleStatusLabel, inText, interruptedText, phaseLabel, progressText } from '../../components/connector-labels';
import { formatCount } from '../../components/format';

export function CycleProgressBar({ progress }: { progress: CycleProgress | undefined }) {
  const known = progress && progress.total !== null && progress.total > 0;
  const percent = known ? Math.min(100, Math.round((progress.done / (progress.total ?? 1)) * 100)) : undefined;
  const text = progress ? `Polling: ${progressText(progress)}` : 'Polling: starting';
  return (
    <div className="connector-progress" data-testid="connector-progress">
      <div
        className={clsx('progress-bar', 'connector-progress-bar', percent === undefined && 'indeterminate')}
        role="progressbar"
        aria-label="Poll progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={text}
      >
        <span style={percent === undefined ? undefined : { width: `${percent}%` }} />
      </div>
      <span className="connector-progress-text">
        Polling: <strong>{progress ? phaseLabel[progress.phase] : 'starting'}</strong>
        {progress ? <span className="mono"> {progress.total === null ? progress.done : `${progress.done}/${progress.total}`}</span> : null}
      </span>
      {progress?.message ? <span className="connector-progress-text">{progress.message}</span> : null}
    </div>
  );
}

const statusChip: Record<CycleState, string> = { completed: 'chip-ok', failed: 'chip-danger', cancelled: 'chip-warn', running: 'chip-accent', interrupted: 'chip-warn' };

export function CycleStatus({ connector }: { connector: ConnectorStatus }) {
  const now = useNow();
  const tf = useTimeFormat();
  const last = connector.lastCycle;
  const interrupted = last?.status === 'interrupted';
  // An interrupted cycle's finish time is when the next start noticed it, not when the app stopped.
  const finishedAt = last && !interrupted ? last.finishedAt : null;
  return (
    <div className="connector-cycle">
      {connector.running ? <CycleProgressBar progress={connector.progress} /> : null}
      {last && !(connector.running && last.status === 'running') ? (
        <div className="connector-last" data-testid="connector-last-cycle">
          <span className="connector-last-line">
            <span className="muted">Last cycle</span>
            <span className={clsx('chip', statusChip[last.status])}>{cycleStatusLabel[last.status]}</span>
            {interrupted && last.hosts === 0 ? null : <span>{formatCount(last.hosts)} hosts</span>}
            <RelativeTime iso={finishedAt ?? last.startedAt} className="muted" describe={(t) => `${finishedAt ? 'Finished' : 'Started'} at ${t}`}>
              {finishedAt ? `finished ${agoText(finishedAt, now)}` : `started ${agoText(last.startedAt, now)}`}
            </RelativeTime>
            {last.status === 'completed' ? (
              <span className={clsx('chip', last.publishedAt ? 'chip-ok' : undefined)} title={last.publishedAt ? `Published at ${tf.dateTime(last.publishedAt)}` : undefined}>
                {last.publishedAt ? 'published' : 'not published'}
              </span>
            ) : null}
          </span>
          {interrupted ? (
            <span className="connector-error" data-testid="connector-interrupted">
              {interruptedText(last.hosts)}
            </span>
          ) : last.error ? (
            <span className={last.status === 'cancelled' ? 'muted' : 'connector-error'}>{last.error}</span>
          ) : null}
          {last.status === 'completed' && !last.publishedAt && last.publishError ? (
            <span className="connector-publish-note" data-testid="connector-publish-note">
              {last.publishError}
            </span>
          ) : null}
        </div>
      ) : !connector.running ? (
        <span className="muted">No cycle yet</span>
      ) : null}
      {!connector.enabled ? (
        <span className="muted">Disabled: no scheduled polls</span>
      ) : connector.nextCycleAt && !connector.running ? (
        <RelativeTime iso={connector.nextCycleAt} className="muted" describe={(t) => `Next poll at ${t}`}>
          Next poll {inText(connector.nextCycleAt, now)} ({tf.dateTime(connector.nextCycleAt)})
        </RelativeTime>
      ) : null}
    </div>
  );
}
