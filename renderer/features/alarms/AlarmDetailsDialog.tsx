/**
 * One alarm, opened by its id (its own address: `?alarm=<id>`): the record, its status changes
 * (newest first, with how each reached the console: a broker message or REST) and its handlings
 * (who, when, the note). Live: an event naming the alarm reads it again. Acknowledge and clear
 * act on it from here.
 */
import { Link } from '@tanstack/react-router';
import { Check, Filter, XCircle } from 'lucide-react';
import { useMemo } from 'react';
import type { AlarmDetail, AlarmHandling, AlarmStatusChange } from '../../../shared/model/alarms';
import { AppError } from '../../../shared/model/errors';
import { netText } from '../../../shared/text';
import { useAlarmDetail } from '../../api/alarms';
import { Dialog } from '../../components/Dialog';
import { formatCount } from '../../components/format';
import { NetText } from '../../components/NetText';
import { Loading } from '../../components/QueryState';
import { DateTime } from '../../components/Time';
import { useTimeFormat } from '../../components/useTimeFormat';
import { Table, type TableColumn } from '../../components/Table';
import { HANDLING_LABEL, isUnhandled, SeverityChip } from './labels';

export interface AlarmDetailsProps {
  profileId: string;
  id: number;
  signedIn: boolean;
  onClose(): void;
  onAcknowledge(alarm: AlarmDetail): void;
  onClear(alarm: AlarmDetail): void;
  onFilterDevice(deviceName: string): void;
}

function useHistoryColumns() {
  const tf = useTimeFormat();
  return useMemo(() => {
    const changes: TableColumn<AlarmStatusChange>[] = [
      { id: 'at', header: 'Time', cell: (c) => <span className="mono">{tf.dateTime(c.at)}</span> },
      { id: 'severity', header: 'Severity', cell: (c) => <SeverityChip severity={c.severity} /> },
      { id: 'text', header: 'Text', cell: (c) => <span title={netText(c.text)}><NetText text={c.text} /></span> },
      { id: 'via', header: 'Came by', cell: (c) => <span className="muted">{c.messageId !== null ? `broker #${c.messageId}` : 'REST'}</span> },
    ];
    const handlings: TableColumn<AlarmHandling>[] = [
      { id: 'at', header: 'Time', cell: (h) => <span className="mono">{tf.dateTime(h.at)}</span> },
      { id: 'state', header: 'Handling', cell: (h) => HANDLING_LABEL[h.state] },
      { id: 'user', header: 'By', cell: (h) => <NetText text={h.user} /> },
      { id: 'note', header: 'Note', cell: (h) => (h.description ? <NetText text={h.description} /> : <span className="muted">no note</span>) },
    ];
    return { changes, handlings };
  }, [tf]);
}

export function AlarmDetailsDialog({ profileId, id, signedIn, onClose, onAcknowledge, onClear, onFilterDevice }: AlarmDetailsProps) {
  const q = useAlarmDetail(profileId, id);
  const d = q.data;
  const columns = useHistoryColumns();
  const changes = useMemo(() => (d ? [...d.statusChanges].reverse() : []), [d]);
  const handlings = useMemo(() => (d ? [...d.handlings].reverse() : []), [d]);
  const offline = signedIn ? undefined : 'Sign in to the connection to act on its alarms.';
  return (
    <Dialog
      title={d ? `${netText(d.type)} on ${netText(d.deviceName)}` : 'Alarm'}
      description={
        d ? (
          <>
            <SeverityChip severity={d.severity} /> <NetText className="mono" text={d.object} /> · <NetText text={d.org} /> · {d.cleared ? 'cleared' : 'open'} · last change <DateTime iso={d.lastChangeAt} />
          </>
        ) : undefined
      }
      onClose={onClose}
      size="xl"
      testId="alarm-details"
      footer={
        d ? (
          <>
            <button type="button" className="button button-ghost" onClick={() => onFilterDevice(d.deviceName)}>
              <Filter size={14} aria-hidden="true" />
              Only <NetText text={d.deviceName} />
            </button>
            <span className="footer-spacer" />
            <button type="button" className="button" onClick={() => onClear(d)} disabled={d.cleared || !signedIn} title={d.cleared ? 'Cleared already.' : offline}>
              <XCircle size={14} aria-hidden="true" />
              Clear…
            </button>
            <button type="button" className="button button-primary" onClick={() => onAcknowledge(d)} disabled={!signedIn} title={offline}>
              <Check size={14} aria-hidden="true" />
              Acknowledge…
            </button>
          </>
        ) : undefined
      }
    >
      {q.isPending ? (
        <Loading>Loading the alarm…</Loading>
      ) : q.isError ? (
        <div className="empty" role="alert">
          <p>{q.error instanceof AppError ? q.error.message : 'The alarm could not be read.'}</p>
          {q.error instanceof AppError && q.error.hint ? <p className="muted">{q.error.hint}</p> : null}
        </div>
      ) : d ? (
        <div className="alarm-detail" data-testid="alarm-detail">
          <dl className="details alarm-record">
            <dt>Text</dt>
            <dd data-testid="alarm-detail-text">
              <NetText text={d.text} />
            </dd>
            <dt>Device</dt>
            <dd>
              <Link to="/devices" search={{ device: d.deviceName }} data-testid="alarm-detail-device" title={`Open ${netText(d.deviceName)} on the Devices page`}>
                <NetText text={d.deviceName} />
              </Link>{' '}
              <NetText className="muted mono" text={d.device} />
            </dd>
            <dt>Organization</dt>
            <dd>
              <NetText text={d.org} />
            </dd>
            <dt>Managed object</dt>
            <dd className="mono">
              <NetText text={d.object} />
            </dd>
            <dt>Type, specific problem</dt>
            <dd>
              <NetText text={d.type} /> · <NetText text={d.specificProblem} />
            </dd>
            <dt>Handling</dt>
            <dd data-testid="alarm-detail-handling">
              {isUnhandled(d) ? (
                <span className="muted">Not acknowledged</span>
              ) : (
                <>
                  {HANDLING_LABEL[d.handling!.state]} by{' '}
                  <strong>
                    <NetText text={d.handling!.user} />
                  </strong>
                  , <DateTime iso={d.handling!.at} />
                  {d.handling!.description ? (
                    <>
                      : “<NetText text={d.handling!.description} />”
                    </>
                  ) : null}
                </>
              )}
            </dd>
          </dl>
          <section aria-labelledby="alarm-changes-title">
            <h3 id="alarm-changes-title">
              Status changes <span className="count">{formatCount(d.statusChanges.length)}</span>
            </h3>
            <Table label="Status changes, newest first" columns={columns.changes} rows={changes} rowKey={(c) => `${c.at}|${c.severity}`} className="alarm-history alarm-changes" size={{ maxHeight: 230 }} testIds={{ scroll: 'alarm-changes' }} rowTestId={() => 'alarm-change'} />
          </section>
          <section aria-labelledby="alarm-handlings-title">
            <h3 id="alarm-handlings-title">
              Handling <span className="count">{formatCount(d.handlings.length)}</span>
            </h3>
            {handlings.length === 0 ? (
              <p className="muted">Nobody has handled this alarm yet.</p>
            ) : (
              <Table label="Handling, newest first" columns={columns.handlings} rows={handlings} rowKey={(h) => `${h.at}|${h.state}`} className="alarm-history alarm-handlings" size={{ maxHeight: 190 }} wrap testIds={{ scroll: 'alarm-handlings' }} rowTestId={() => 'alarm-handling'} />
            )}
          </section>
        </div>
      ) : null}
    </Dialog>
  );
}
