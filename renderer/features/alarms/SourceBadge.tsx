/**
 * Which source feeds the stream and how far behind it is (MN-AL12; STYLE's alarm consoles: "a
 * badge when a source is down or behind"): green while live, amber when behind or catching up,
 * red when down. The button opens the details: broker or polling, lag, backlog, last backfill,
 * messages set aside, the last error. Live from `alarms.status` events.
 */
import clsx from 'clsx';
import { useId, useState } from 'react';
import type { AlarmSourceStatus } from '../../../shared/model/alarms';
import { formatCount } from '../../components/format';
import { useTimeFormat } from '../../components/useTimeFormat';

/** Behind: the newest change took longer than this to reach the store (or, polling, the last poll is this old). */
export const BEHIND_MS = 10_000;
/** Behind: more messages than this wait in the console's queue. */
export const BEHIND_BACKLOG = 5_000;

export type SourceHealth = 'live' | 'behind' | 'down' | 'unknown';

const SOURCE_WORDS: Record<AlarmSourceStatus['source'], string> = {
  amqp: 'RabbitMQ broker, REST backfill',
  poll: 'REST polling (no broker configured)',
  none: 'None',
  fleet: 'The team’s collector (alarms follow), into the team’s database; this console collects nothing itself',
};

const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : ms < 120_000 ? `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s` : `${Math.round(ms / 60_000)} min`);

export function sourceHealth(s: AlarmSourceStatus | undefined): { health: SourceHealth; label: string } {
  if (!s) return { health: 'unknown', label: 'Reading the alarm source…' };
  const via = s.source === 'amqp' ? 'broker' : s.source === 'fleet' ? 'team collector' : 'polling';
  // A joined console collects nothing itself: the team's collector of the node does, or none is alive (C-91).
  if (s.source === 'fleet' && s.state === 'stopped') return { health: 'down', label: 'No live team collector' };
  if (s.source === 'none' || s.state === 'stopped') return { health: 'down', label: 'Not collecting' };
  if (s.state === 'failing') return { health: 'down', label: `Down (${via})` };
  if (s.state === 'reconnecting') return { health: 'down', label: 'Broker reconnecting' };
  if (s.state === 'starting' || s.state === 'backfilling') return { health: 'behind', label: `Catching up (${via})` };
  if (!s.connected) return { health: 'down', label: `Not connected (${via})` };
  if ((s.lagMs ?? 0) > BEHIND_MS) return { health: 'behind', label: `Behind by ${seconds(s.lagMs!)} (${via})` };
  if ((s.backlog ?? 0) > BEHIND_BACKLOG) return { health: 'behind', label: `Behind: ${formatCount(s.backlog!)} queued` };
  // What was set aside or could not be read is said on the badge itself (issue 20), never only in the details.
  const leftOut = s.setAside + s.unreadable;
  return { health: 'live', label: leftOut > 0 ? `Live (${via}), ${formatCount(leftOut)} left out` : `Live (${via})` };
}

export function SourceBadge({ status, connection, signedIn }: { status: AlarmSourceStatus | undefined; connection: string; signedIn: boolean }) {
  const [open, setOpen] = useState(false);
  const panel = useId();
  const tf = useTimeFormat();
  const { health, label } = sourceHealth(status);
  const s = status;
  return (
    <div className="alarm-source">
      <button
        type="button"
        className={clsx('badge', 'alarm-source-badge', `source-${health}`)}
        aria-expanded={open}
        aria-controls={panel}
        onClick={() => setOpen((o) => !o)}
        data-testid="alarm-source"
        data-health={health}
        title="Where the alarms come from"
      >
        <span className="badge-dot" aria-hidden="true" />
        {label}
        {s && s.lagMs !== null && health === 'live' ? <span className="alarm-source-lag"> · {seconds(s.lagMs)}</span> : null}
      </button>
      {open ? (
        <div id={panel} className="alarm-source-panel" role="region" aria-label="Alarm source" data-testid="alarm-source-details">
          {!s || s.source === 'none' ? (
            <p>
              {signedIn ? `The alarm source of ${connection} is starting.` : `Sign in to ${connection} to collect its alarms.`} The stored alarms stay readable.
            </p>
          ) : (
            <dl className="details">
              <dt>Source</dt>
              <dd>{SOURCE_WORDS[s.source]}</dd>
              <dt>State</dt>
              <dd>
                {s.state}
                {s.connected ? '' : ' (not connected)'}
              </dd>
              {s.broker ? (
                <>
                  <dt>Broker</dt>
                  <dd className="mono">{s.broker}</dd>
                  <dt>Exchange, queue</dt>
                  <dd className="mono">
                    {s.exchange} → {s.queue}
                  </dd>
                  <dt>Waiting in the queue</dt>
                  <dd>{s.backlog === null ? 'unknown' : formatCount(s.backlog)}</dd>
                </>
              ) : null}
              <dt>{s.source === 'poll' ? 'Since the last poll' : 'Lag (change to store)'}</dt>
              <dd>{s.lagMs === null ? '—' : seconds(s.lagMs)}</dd>
              <dt>Last message</dt>
              <dd>{tf.dateTime(s.lastMessageAt)}</dd>
              <dt>Last backfill</dt>
              <dd>
                {tf.dateTime(s.lastBackfillAt)}
                {s.lastBackfillNew !== null ? ` (${formatCount(s.lastBackfillNew)} new)` : ''}
              </dd>
              <dt>Set aside (malformed)</dt>
              <dd>{formatCount(s.setAside)}</dd>
              <dt>Unreadable from the node’s list</dt>
              <dd>{formatCount(s.unreadable)}</dd>
              <dt>Stored</dt>
              <dd>
                {formatCount(s.stored.alarms)} alarms, {formatCount(s.stored.changes)} changes
              </dd>
              {s.error ? (
                <>
                  <dt>Last error</dt>
                  <dd className="alarm-source-error">{s.error}</dd>
                </>
              ) : null}
            </dl>
          )}
        </div>
      ) : null}
    </div>
  );
}
