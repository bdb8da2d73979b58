/**
 * The stream of one connection: toolbar (source badge, pause and resume, "N new" while paused),
 * counters and chart, the filters, the selection's actions, the table, and the dialogs (details,
 * acknowledge, clear). Pausing holds the rows in view still (C-29); what changes meanwhile is
 * counted from the store (`afterSeq`) and shown on resume, highlighted.
 */
import { Check, Pause, Play, X, XCircle } from 'lucide-react';
import { useCallback, useMemo, useState } from 'react';
import type { ActiveSeverity, AlarmView } from '../../../shared/model/alarms';
import type { ProfileView } from '../../../shared/model/profile';
import { useAlarmRate, useAlarmsChangedAfter, useAlarmStatus, useAlarmSummary } from '../../api/alarms';
import { ALARM_FILTERS, alarmFilterOf, alarmsDefaults } from '../../app/search';
import { formatCount } from '../../components/format';
import { AcknowledgeDialog, ClearDialog, type ActionTarget } from './AlarmActions';
import { AlarmCounters } from './AlarmCounters';
import { AlarmDetailsDialog } from './AlarmDetailsDialog';
import { AlarmFilters } from './AlarmFilters';
import type { AlarmRefinements } from '../../app/search';
import { AlarmTable } from './AlarmTable';
import { alarmsText } from './labels';
import { RateChart } from './RateChart';
import { SourceBadge } from './SourceBadge';

const NO_FILTERS = Object.fromEntries(ALARM_FILTERS.map((k) => [k, alarmsDefaults[k]])) as Pick<AlarmRefinements, (typeof ALARM_FILTERS)[number]>;
type Action = { kind: 'ack' | 'clear'; target: ActionTarget } | undefined;

export interface AlarmStreamProps {
  profile: ProfileView;
  signedIn: boolean;
  /** What the filters show (the draft). */
  view: AlarmRefinements;
  /** What the stream is filtered by (choices at once, typed text from the address). */
  applied: AlarmRefinements;
  refine(patch: Partial<AlarmRefinements>): void;
  openedId: number | undefined;
  openAlarm(id: number): void;
  closeAlarm(): void;
}

export function AlarmStream({ profile, signedIn, view, applied, refine, openedId, openAlarm, closeAlarm }: AlarmStreamProps) {
  const { severity, org, device, type, q, state, ack } = applied;
  const filter = useMemo(() => alarmFilterOf({ severity, org, device, type, q, state, ack }), [severity, org, device, type, q, state, ack]);
  const [paused, setPaused] = useState(false);
  const [shown, setShown] = useState<{ total: number | undefined; seq: number | undefined }>({ total: undefined, seq: undefined });
  const [selection, setSelection] = useState<ReadonlyMap<number, AlarmView>>(new Map());
  const [action, setAction] = useState<Action>();
  // A new filter starts with nothing selected (a selection never acts on rows out of view).
  const [selectedFor, setSelectedFor] = useState(filter);
  if (selectedFor !== filter) {
    setSelectedFor(filter);
    setSelection(new Map());
  }

  const status = useAlarmStatus(profile.id);
  const summary = useAlarmSummary(profile.id);
  const rate = useAlarmRate(profile.id);
  const held = useAlarmsChangedAfter(profile.id, filter, paused ? shown.seq : undefined);
  const waiting = paused ? (held.data?.total ?? 0) : 0;

  const onShown = useCallback((s: { total: number | undefined; seq: number | undefined }) => setShown((o) => (o.total === s.total && o.seq === s.seq ? o : s)), []);
  const selected = useMemo(() => new Set(selection.keys()), [selection]);
  const onSelect = useCallback((rows: readonly AlarmView[], on: boolean) => {
    setSelection((old) => {
      const next = new Map(old);
      for (const r of rows) {
        if (on) next.set(r.id, r);
        else next.delete(r.id);
      }
      return next;
    });
  }, []);
  const targetOf = useCallback((ids: readonly number[], rows: readonly AlarmView[]): ActionTarget => ({ ids, rows }), []);
  const acknowledge = useCallback((rows: readonly AlarmView[]) => signedIn && rows.length > 0 && setAction({ kind: 'ack', target: targetOf(rows.map((r) => r.id), rows) }), [signedIn, targetOf]);
  // `a` in the table: the selection, or else the focused alarm.
  const onAcknowledgeKey = useCallback((row: AlarmView) => acknowledge(selection.size > 0 ? [...selection.values()] : [row]), [acknowledge, selection]);
  const done = useCallback((ids: readonly number[]) => setSelection((old) => new Map([...old].filter(([id]) => !ids.includes(id)))), []);
  const pick = useCallback((o: string, s: ActiveSeverity | '') => refine({ org: o, severity: s, state: 'open' }), [refine]);
  const orgs = useMemo(() => summary.data?.organizations.map((o) => o.org) ?? [], [summary.data]);
  const filtering = ALARM_FILTERS.some((k) => view[k] !== alarmsDefaults[k]);
  const selectedRows = [...selection.values()];
  const notSignedIn = signedIn ? undefined : `Sign in to ${profile.name} to act on its alarms.`;

  return (
    <div className="page page-wide alarms-page">
      <div className="toolbar">
        <h2>
          Alarms {shown.total !== undefined ? <span className="count" data-testid="alarm-count">{formatCount(shown.total)}</span> : null}
        </h2>
        <div className="toolbar-actions">
          <SourceBadge status={status.data} connection={profile.name} signedIn={signedIn} />
          {paused && waiting > 0 ? (
            <button type="button" className="button alarm-new" onClick={() => setPaused(false)} data-testid="alarm-new">
              {formatCount(waiting)} new
            </button>
          ) : null}
          <button type="button" className="button" aria-pressed={paused} onClick={() => setPaused((p) => !p)} data-testid="alarm-pause" title={paused ? 'Show what changed meanwhile, and follow the stream again' : 'Hold the list still; what changes waits at the top'}>
            {paused ? <Play size={14} aria-hidden="true" /> : <Pause size={14} aria-hidden="true" />}
            {paused ? 'Resume' : 'Pause'}
          </button>
        </div>
      </div>
      <div className="alarm-overview">
        <AlarmCounters summary={summary.data} onPick={pick} />
        <RateChart rate={rate.data} />
      </div>
      <div className="alarm-filterbar">
        <AlarmFilters values={view} orgs={orgs} onChange={refine} />
        <button type="button" className="button button-small button-ghost" onClick={() => refine(NO_FILTERS)} style={filtering ? undefined : { visibility: 'hidden' }}>
          <X size={14} aria-hidden="true" />
          Clear filters
        </button>
      </div>
      <div className="alarm-selectionbar" aria-live="polite" data-testid="alarm-selectionbar">
        {selection.size > 0 ? (
          <>
            <span>{alarmsText(selection.size)} selected</span>
            <button type="button" className="button button-small button-primary" onClick={() => acknowledge(selectedRows)} disabled={!signedIn} title={notSignedIn}>
              <Check size={14} aria-hidden="true" />
              Acknowledge…
            </button>
            <button type="button" className="button button-small" onClick={() => setAction({ kind: 'clear', target: targetOf([...selection.keys()], selectedRows) })} disabled={!signedIn} title={notSignedIn}>
              <XCircle size={14} aria-hidden="true" />
              Clear…
            </button>
            <button type="button" className="button button-small button-ghost" onClick={() => setSelection(new Map())}>
              Deselect
            </button>
          </>
        ) : paused ? (
          <span className="muted">Paused: the list holds still{waiting > 0 ? `; ${alarmsText(waiting)} changed since` : ''}.</span>
        ) : (
          <span className="muted">Newest change first. Space selects, Shift+click a range, a acknowledges.</span>
        )}
      </div>
      <AlarmTable profileId={profile.id} filter={filter} paused={paused} selected={selected} onSelect={onSelect} onOpen={openAlarm} onAcknowledge={onAcknowledgeKey} onShown={onShown} />
      {openedId !== undefined ? (
        <AlarmDetailsDialog
          profileId={profile.id}
          id={openedId}
          signedIn={signedIn}
          onClose={closeAlarm}
          onAcknowledge={(a) => setAction({ kind: 'ack', target: targetOf([a.id], [a]) })}
          onClear={(a) => setAction({ kind: 'clear', target: targetOf([a.id], [a]) })}
          onFilterDevice={(name) => {
            closeAlarm();
            refine({ device: name });
          }}
        />
      ) : null}
      {action?.kind === 'ack' ? <AcknowledgeDialog profileId={profile.id} target={action.target} onDone={done} onClose={() => setAction(undefined)} /> : null}
      {action?.kind === 'clear' ? <ClearDialog profileId={profile.id} target={action.target} onDone={done} onClose={() => setAction(undefined)} /> : null}
    </div>
  );
}
