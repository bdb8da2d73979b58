/**
 * The live stream: a virtualized table of a connection's alarms (components/Table.tsx), newest
 * change first, over the windows useAlarmWindow reads. Rows are keyed by their place in the window
 * (a new answer rewrites the rows in view in place), except a row that changed since it was last
 * shown: keyed by its change, it is drawn anew and its CSS animation highlights it once (no timer
 * per row).
 *
 * Keyboard (the tables' one, row-keys.ts): ↑/↓ or k/j move, Home/End, PageUp/PageDown, Enter opens
 * the details, Space selects, `a` acknowledges the selection (or the focused alarm). Shift+click on
 * a checkbox selects the range from the last one clicked.
 */
import clsx from 'clsx';
import { memo, useCallback, useEffect, useMemo, useRef, useState, type MouseEvent } from 'react';
import type { AlarmFilter, AlarmView } from '../../../shared/model/alarms';
import { netText } from '../../../shared/text';
import type { TimeFormat } from '../../components/format';
import { NetText } from '../../components/NetText';
import { Table, type TableColumn } from '../../components/Table';
import { useTimeFormat } from '../../components/useTimeFormat';
import { HANDLING_LABEL, SeverityChip } from './labels';
import { useAlarmWindow } from './useAlarmWindow';

export const ROW_HEIGHT = 34;

export interface AlarmTableProps {
  profileId: string;
  filter: AlarmFilter;
  /** The rows shown hold still (and so does their count); what changes waits. */
  paused: boolean;
  selected: ReadonlySet<number>;
  onSelect(rows: readonly AlarmView[], on: boolean): void;
  onOpen(id: number): void;
  /** `a` on a row: the selection's, or this row's acknowledge. */
  onAcknowledge(row: AlarmView): void;
  /** What is shown changed: the row count and how new the rows are. */
  onShown(shown: { total: number | undefined; seq: number | undefined }): void;
}

/** What the cells read besides their alarm: the time format, the selection and the checkbox's click. */
interface AlarmMeta {
  tf: TimeFormat;
  selected: ReadonlySet<number>;
  onCheck(index: number, row: AlarmView, e: MouseEvent<HTMLInputElement>): void;
}

/** A text cell: clipped to its column, the whole text on hover where it is long. */
const text = (id: string, header: string, pick: (row: AlarmView) => string, more: { mono?: boolean; hover?: boolean } = {}): TableColumn<AlarmView, AlarmMeta> => ({
  id,
  header,
  className: `col-${id}${more.mono ? ' mono' : ''}`,
  cell: (row) => (
    <span title={more.hover ? netText(pick(row)) : undefined}>
      <NetText text={pick(row)} />
    </span>
  ),
});

const COLUMNS: readonly TableColumn<AlarmView, AlarmMeta>[] = [
  {
    id: 'select',
    header: <span className="sr-only">Selected</span>,
    className: 'col-select',
    ownClicks: true,
    cell: (row, m, index) => (
      <input type="checkbox" checked={m.selected.has(row.id)} tabIndex={-1} aria-label={`Select ${netText(row.type)} on ${netText(row.deviceName)} ${netText(row.object)}`} onChange={() => undefined} onClick={(e) => m.onCheck(index, row, e)} />
    ),
  },
  { id: 'severity', header: 'Severity', className: 'col-severity', cell: (row) => <SeverityChip severity={row.severity} short /> },
  {
    id: 'time',
    header: 'Last change',
    className: 'col-time mono',
    cell: (row, m) => {
      const when = m.tf.dateTime(row.lastChangeAt);
      return (
        <time dateTime={row.lastChangeAt} title={when}>
          {when.slice(5, 19)}
        </time>
      );
    },
  },
  text('device', 'Device', (r) => r.deviceName),
  text('object', 'Object', (r) => r.object, { mono: true }),
  text('type', 'Type', (r) => r.type),
  text('text', 'Text', (r) => r.text, { hover: true }),
  text('org', 'Organization', (r) => r.org),
  {
    id: 'handling',
    header: 'Handling',
    className: 'col-handling',
    cell: (row, m) =>
      row.handling && row.handling.state !== 'none' ? (
        <span title={`${HANDLING_LABEL[row.handling.state]} by ${netText(row.handling.user)} at ${m.tf.dateTime(row.handling.at)}${row.handling.description ? `: ${netText(row.handling.description)}` : ''}`}>
          <bdi>{`${row.handling.state} · ${netText(row.handling.user)}`}</bdi>
        </span>
      ) : (
        <span className="muted">—</span>
      ),
  },
];

const CLASSES = { scroll: 'alarm-scroll', table: 'alarm-table', grid: 'alarm-grid', row: 'alarm-row', loading: 'alarm-row-loading' };
const TEST_IDS = { scroll: 'alarm-scroll', table: 'alarm-table' };
const rowTestId = () => 'alarm-row';
const OWN_KEYS = ['a'] as const;
const none = (
  <p className="alarm-none muted" data-testid="alarm-none">
    No alarm matches these filters.
  </p>
);

export const AlarmTable = memo(function AlarmTable({ profileId, filter, paused, selected, onSelect, onOpen, onAcknowledge, onShown }: AlarmTableProps) {
  const [range, setRange] = useState({ start: 0, end: 40 });
  const w = useAlarmWindow(profileId, filter, range, paused);
  const anchor = useRef<number | undefined>(undefined);
  const tf = useTimeFormat();

  const { total, seq } = w;
  useEffect(() => onShown({ total, seq }), [onShown, total, seq]);
  // A new filter starts at the top (the table's `answer`), and a range starts anew.
  useEffect(() => {
    anchor.current = undefined;
  }, [filter]);

  const onRange = useCallback((r: { start: number; end: number }) => setRange((old) => (old.start === r.start && old.end === r.end ? old : r)), []);

  const check = (index: number, row: AlarmView, e: MouseEvent<HTMLInputElement>) => {
    const on = !selected.has(row.id);
    if (e.shiftKey && anchor.current !== undefined) {
      // The range from the last checkbox clicked, of the rows read (a range never reaches rows not shown).
      const [a, b] = anchor.current < index ? [anchor.current, index] : [index, anchor.current];
      const rows: AlarmView[] = [];
      for (let i = a; i <= b; i++) {
        const r = w.rowAt(i);
        if (r) rows.push(r);
      }
      onSelect(rows, selected.has(w.rowAt(anchor.current)?.id ?? -1));
    } else onSelect([row], on);
    anchor.current = index;
  };
  // The cells get a handler that never changes and calls the latest one.
  const latest = useRef(check);
  useEffect(() => {
    latest.current = check;
  });
  const onCheck = useCallback((index: number, row: AlarmView, e: MouseEvent<HTMLInputElement>) => latest.current(index, row, e), []);
  const meta = useMemo<AlarmMeta>(() => ({ tf, selected, onCheck }), [tf, selected, onCheck]);

  const rowAttributes = useCallback(
    (row: AlarmView, index: number) => {
      const fresh = w.isFresh(index);
      return { className: clsx(fresh && 'alarm-fresh', row.cleared && 'alarm-cleared'), selected: selected.has(row.id), data: { 'data-alarm': String(row.id), 'data-fresh': fresh ? 'true' : undefined } };
    },
    [w, selected],
  );
  // A changed row is drawn anew (its highlight plays once); the others keep their element.
  const freshKey = useCallback((row: AlarmView, index: number) => (w.isFresh(index) ? `fresh:${row.id}:${row.lastChangeAt}:${row.handling?.at ?? ''}` : undefined), [w]);

  return (
    <Table<AlarmView, AlarmMeta>
      label="Alarm stream, newest change first"
      columns={COLUMNS}
      count={total ?? 0}
      rowAt={w.rowAt}
      meta={meta}
      answer={filter}
      onOpen={(row) => onOpen(row.id)}
      onSelect={(row, i) => {
        onSelect([row], !selected.has(row.id));
        anchor.current = i;
      }}
      ownKeys={OWN_KEYS}
      onOwnKey={(_key, row) => onAcknowledge(row)}
      rowHeight={ROW_HEIGHT}
      overscan={10}
      freshKey={freshKey}
      stale={w.stale}
      classes={CLASSES}
      testIds={TEST_IDS}
      rowTestId={rowTestId}
      rowAttributes={rowAttributes}
      empty={total === 0 ? none : null}
      onRange={onRange}
    />
  );
});
