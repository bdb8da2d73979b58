/**
 * The live stream: a virtualized table of a connection's alarms, newest change first, over the
 * windows useAlarmWindow reads. Rows are keyed by their place in the window (a new answer rewrites
 * the rows in view in place), except a row that changed since it was last shown: keyed by its
 * change, it is drawn anew and its CSS animation highlights it once (no timer per row).
 *
 * Keyboard (tbody): ↑/↓ or k/j move, Home/End, PageUp/PageDown, Enter opens the details, Space
 * selects, `a` acknowledges the selection (or the focused alarm). Shift+click on a checkbox
 * selects the range from the last one clicked.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import clsx from 'clsx';
import { memo, useCallback, useEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react';
import type { AlarmFilter, AlarmView } from '../../../shared/model/alarms';
import { netText } from '../../../shared/text';
import type { TimeFormat } from '../../components/format';
import { NetText } from '../../components/NetText';
import { onRowKeyDown } from '../../components/row-keys';
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

interface RowProps {
  row: AlarmView | undefined;
  index: number;
  start: number;
  active: boolean;
  fresh: boolean;
  selected: boolean;
  tf: TimeFormat;
  onRowClick(index: number, row: AlarmView): void;
  onCheck(index: number, row: AlarmView, e: MouseEvent<HTMLInputElement>): void;
  onFocusRow(index: number): void;
}

const AlarmRow = memo(function AlarmRow({ row, index, start, active, fresh, selected, tf, onRowClick, onCheck, onFocusRow }: RowProps) {
  const style = { transform: `translateY(${start}px)` };
  if (!row) {
    return (
      <tr className="alarm-grid alarm-row alarm-row-loading" style={style} data-index={index} aria-rowindex={index + 2}>
        <td className="col-loading muted">Loading…</td>
      </tr>
    );
  }
  const when = tf.dateTime(row.lastChangeAt);
  return (
    <tr
      className={clsx('alarm-grid', 'alarm-row', active && 'active', fresh && 'alarm-fresh', selected && 'selected', row.cleared && 'alarm-cleared')}
      style={style}
      data-index={index}
      data-testid="alarm-row"
      data-alarm={row.id}
      data-fresh={fresh ? 'true' : undefined}
      aria-rowindex={index + 2}
      aria-selected={selected}
      tabIndex={active ? 0 : -1}
      onClick={() => onRowClick(index, row)}
      onFocus={() => onFocusRow(index)}
    >
      <td className="col-select" onClick={(e) => e.stopPropagation()}>
        <input type="checkbox" checked={selected} tabIndex={-1} aria-label={`Select ${netText(row.type)} on ${netText(row.deviceName)} ${netText(row.object)}`} onChange={() => undefined} onClick={(e) => onCheck(index, row, e)} />
      </td>
      <td className="col-severity">
        <SeverityChip severity={row.severity} />
      </td>
      <td className="col-time mono">
        <time dateTime={row.lastChangeAt} title={when}>
          {when.slice(5, 19)}
        </time>
      </td>
      <td className="col-device">
        <span>
          <NetText text={row.deviceName} />
        </span>
      </td>
      <td className="col-object mono">
        <span>
          <NetText text={row.object} />
        </span>
      </td>
      <td className="col-type">
        <span>
          <NetText text={row.type} />
        </span>
      </td>
      <td className="col-text" title={netText(row.text)}>
        <span>
          <NetText text={row.text} />
        </span>
      </td>
      <td className="col-org">
        <span>
          <NetText text={row.org} />
        </span>
      </td>
      <td className="col-handling">
        {row.handling && row.handling.state !== 'none' ? (
          <span title={`${HANDLING_LABEL[row.handling.state]} by ${netText(row.handling.user)} at ${tf.dateTime(row.handling.at)}${row.handling.description ? `: ${netText(row.handling.description)}` : ''}`}>
            <bdi>{`${row.handling.state} · ${netText(row.handling.user)}`}</bdi>
          </span>
        ) : (
          <span className="muted">—</span>
        )}
      </td>
    </tr>
  );
});

export const AlarmTable = memo(function AlarmTable({ profileId, filter, paused, selected, onSelect, onOpen, onAcknowledge, onShown }: AlarmTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [range, setRange] = useState({ start: 0, end: 40 });
  const w = useAlarmWindow(profileId, filter, range, paused);
  const count = w.total ?? 0;
  const [active, setActive] = useState(0);
  const activeRow = Math.min(active, Math.max(0, count - 1));
  const anchor = useRef<number | undefined>(undefined);
  const focusPending = useRef(false);
  const tf = useTimeFormat();

  // No React Compiler here: reading the virtualizer during render is how TanStack Virtual works.
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    initialRect: { width: 1000, height: 600 },
    onChange: (v) => {
      const items = v.getVirtualItems();
      const start = items[0]?.index ?? 0;
      const end = items[items.length - 1]?.index ?? 0;
      setRange((r) => (r.start === start && r.end === end ? r : { start, end }));
    },
  });
  const items = virtualizer.getVirtualItems();

  const { total, seq } = w;
  useEffect(() => onShown({ total, seq }), [onShown, total, seq]);

  // A new filter starts at the top.
  useEffect(() => {
    const el = scrollRef.current;
    if (el && el.scrollTop !== 0) el.scrollTo?.({ top: 0 });
    setActive(0);
    anchor.current = undefined;
  }, [filter]);

  useEffect(() => {
    if (!focusPending.current) return;
    const el = scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${activeRow}"]`);
    if (el) {
      focusPending.current = false;
      el.focus();
    }
  });

  const moveTo = (next: number) => {
    const target = Math.max(0, Math.min(count - 1, next));
    setActive(target);
    focusPending.current = true;
    virtualizer.scrollToIndex(target, { align: 'auto' });
  };

  const rowClick = (index: number, row: AlarmView) => {
    setActive(index);
    onOpen(row.id);
  };
  const check = (index: number, row: AlarmView, e: MouseEvent<HTMLInputElement>) => {
    setActive(index);
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
  // The memoized rows get handlers that never change and call the latest ones.
  const latest = useRef({ rowClick, check });
  useEffect(() => {
    latest.current = { rowClick, check };
  });
  const onRowClick = useCallback((index: number, row: AlarmView) => latest.current.rowClick(index, row), []);
  const onCheck = useCallback((index: number, row: AlarmView, e: MouseEvent<HTMLInputElement>) => latest.current.check(index, row, e), []);

  // The tables' one keyboard (row-keys.ts); a row still loading takes no action.
  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 600) / ROW_HEIGHT) - 1);
    const loaded = (i: number, act: (row: AlarmView) => void) => {
      const row = w.rowAt(i);
      if (row) act(row);
    };
    onRowKeyDown(e, { active: activeRow, count, page, own: ['a'] }, {
      moveTo,
      open: (i) => loaded(i, (row) => onOpen(row.id)),
      select: (i) =>
        loaded(i, (row) => {
          onSelect([row], !selected.has(row.id));
          anchor.current = i;
        }),
      own: (_key, i) => loaded(i, onAcknowledge),
    });
  };

  return (
    <div className={clsx('alarm-scroll', w.stale && 'stale')} ref={scrollRef} data-testid="alarm-scroll">
      <table className="table alarm-table" aria-label="Alarm stream, newest change first" aria-rowcount={count + 1} data-testid="alarm-table">
        <thead>
          <tr className="alarm-grid" aria-rowindex={1}>
            <th className="col-select">
              <span className="sr-only">Selected</span>
            </th>
            <th className="col-severity">Severity</th>
            <th className="col-time" title={`Times in ${tf.zoneLabel()}`}>
              Last change
            </th>
            <th className="col-device">Device</th>
            <th className="col-object">Object</th>
            <th className="col-type">Type</th>
            <th className="col-text">Text</th>
            <th className="col-org">Organization</th>
            <th className="col-handling">Handling</th>
          </tr>
        </thead>
        <tbody style={{ height: virtualizer.getTotalSize() }} onKeyDown={onKeyDown}>
          {items.map((item) => {
            const row = w.rowAt(item.index);
            const fresh = w.isFresh(item.index);
            // A changed row is drawn anew (its highlight plays once); the others keep their element.
            const key = fresh && row ? `fresh:${row.id}:${row.lastChangeAt}:${row.handling?.at ?? ''}` : item.index;
            return (
              <AlarmRow
                key={key}
                row={row}
                index={item.index}
                start={item.start}
                active={item.index === activeRow}
                fresh={fresh}
                selected={!!row && selected.has(row.id)}
                tf={tf}
                onRowClick={onRowClick}
                onCheck={onCheck}
                onFocusRow={setActive}
              />
            );
          })}
        </tbody>
      </table>
      {w.total === 0 ? (
        <p className="alarm-none muted" data-testid="alarm-none">
          No alarm matches these filters.
        </p>
      ) : null}
    </div>
  );
});
