/**
 * The devices table: TanStack Table for the columns, headers and sort state, TanStack Virtual
 * for the rows. Search, filters and sorting run on the precomputed index (device-index.ts); the
 * table gets only the rows in view as its data, so neither React nor TanStack ever builds
 * 20,000 rows (TanStack's row model alone costs ~13 µs a row). Keyboard: the focused row moves
 * with the arrows, Home/End and PageUp/PageDown; Enter opens its details.
 *
 * Per keystroke only what changed is redone: rows are keyed by their position in the window, so
 * a new search rewrites the text of the rows in view instead of replacing their elements, and a
 * row whose device did not change is not rendered again (DeviceRow is memoized). A new answer
 * starts at its first row without an effect or a second render (the focused row is kept with the
 * answer it belongs to), and scrolls only when the table is not already at the top (a scroll
 * forces a layout). TanStack Table's state resets on new data are off (each cost a render).
 * Narrow containers hide the least important columns first (container queries in
 * devices-table.css; the name, Status and Reachability always stay).
 */
import { createColumnHelper, flexRender, getCoreRowModel, useReactTable, type Row, type SortingState, type Updater } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import clsx from 'clsx';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { DeviceView } from '../../../shared/model/inventory';
import { countryLabel, serialOf, type DeviceIndex, type DeviceSort, type SortKey } from './device-index';
import { ReachChip, StatusChip, SyncChip } from './StatusChip';

export const ROW_HEIGHT = 36;
const col = createColumnHelper<DeviceView>();

/** A value the node did not send (a real node's list carries no organization, group or serial). */
const unknown = <span className="muted" title="Not in the node's list; open the device to fetch its record">—</span>;
const orUnknown = (v: string | null, className?: string) => (v ? <span className={className} title={v}>{v}</span> : unknown);

const columns = [
  col.accessor('deviceName', { header: 'Device name', cell: (c) => <span className="strong">{c.getValue()}</span> }),
  col.accessor('siteId', { header: 'Site ID', cell: (c) => orUnknown(c.getValue(), 'mono') }),
  col.accessor('orgName', { header: 'Organization', cell: (c) => orUnknown(c.getValue()) }),
  col.accessor('deviceGroup', { header: 'Device group', cell: (c) => orUnknown(c.getValue()) }),
  col.accessor((d) => d.locationInfo?.country ?? '', { id: 'country', header: 'Country', cell: (c) => orUnknown(countryLabel(c.getValue())) }),
  col.accessor((d) => serialOf(d), { id: 'serialNumber', header: 'Serial number', cell: (c) => orUnknown(c.getValue(), 'mono') }),
  col.accessor('deploymentStatus', { header: 'Status', cell: (c) => <StatusChip status={c.getValue()} /> }),
  col.accessor((d) => d.appliance?.reachability, { id: 'reachability', header: 'Reachability', cell: (c) => <ReachChip value={c.getValue()} /> }),
  col.accessor((d) => d.appliance?.configSync, { id: 'configSync', header: 'Config sync', cell: (c) => <SyncChip value={c.getValue()} /> }),
];

export interface DevicesTableProps {
  index: DeviceIndex;
  /** Row numbers into index.devices, in display order. */
  rows: Int32Array;
  sort: DeviceSort;
  onSort(sort: DeviceSort): void;
  onOpen(device: DeviceView): void;
  /** True while a newer search is being applied (the shown rows are the previous answer). */
  stale?: boolean;
}

interface RowProps {
  row: Row<DeviceView>;
  /** Position in the filtered list. */
  index: number;
  start: number;
  active: boolean;
  onPick(index: number, device: DeviceView): void;
  onFocusRow(index: number): void;
}

/** One row. TanStack builds a new Row object for every window; what it shows is its device. */
const DeviceRow = memo(
  function DeviceRow({ row, index, start, active, onPick, onFocusRow }: RowProps) {
    const device = row.original;
    return (
      <tr
        className={clsx('devices-grid', 'device-row', active && 'active')}
        data-index={index}
        data-testid="device-row"
        data-device={device.deviceName}
        aria-rowindex={index + 2}
        tabIndex={active ? 0 : -1}
        style={{ transform: `translateY(${start}px)` }}
        onClick={() => onPick(index, device)}
        onFocus={() => onFocusRow(index)}
      >
        {row.getVisibleCells().map((cell) => (
          <td key={cell.column.id} className={`col-${cell.column.id}`}>
            {flexRender(cell.column.columnDef.cell, cell.getContext())}
          </td>
        ))}
      </tr>
    );
  },
  (a, b) => a.row.original === b.row.original && a.index === b.index && a.start === b.start && a.active === b.active && a.onPick === b.onPick && a.onFocusRow === b.onFocusRow,
);

export function DevicesTable({ index, rows, sort, onSort, onOpen, stale }: DevicesTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  // The focused row belongs to the answer it was chosen in: a new answer (search, filter, sort)
  // starts at its first row, with no effect and no second render.
  const [focus, setFocus] = useState({ rows, index: 0 });
  const setActive = (index: number) => setFocus({ rows, index });
  const focusPending = useRef(false);
  const count = rows.length;
  const activeRow = focus.rows === rows ? Math.min(focus.index, Math.max(0, count - 1)) : 0;

  // No React Compiler here: reading the virtualizer during render is how TanStack Virtual works.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    initialRect: { width: 1000, height: 600 },
  });
  const items = virtualizer.getVirtualItems();
  const windowData = useMemo(() => items.map((it) => index.devices[rows[it.index]!]!), [items, rows, index]);

  const sorting = useMemo<SortingState>(() => [{ id: sort.key, desc: sort.desc }], [sort]);
  const table = useReactTable({
    data: windowData,
    columns,
    state: { sorting },
    onSortingChange: (u: Updater<SortingState>) => {
      const next = typeof u === 'function' ? u(sorting) : u;
      const first = next[0];
      onSort(first ? { key: first.id as SortKey, desc: first.desc } : { key: sort.key, desc: !sort.desc });
    },
    manualSorting: true,
    manualFiltering: true,
    // Nothing here pages or expands: without this every new window of rows would queue a state
    // reset and render the table a second time.
    autoResetAll: false,
    enableSortingRemoval: false,
    enableMultiSort: false,
    sortDescFirst: false,
    getCoreRowModel: getCoreRowModel(),
  });
  const tableRows = table.getRowModel().rows;

  // Back to the top when the search or a filter changes what is shown (only if scrolled: scrolling forces a layout).
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && virtualizer.scrollOffset) el.scrollTop = 0;
  }, [rows, virtualizer]);

  useEffect(() => {
    if (!focusPending.current) return;
    const el = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${activeRow}"]`);
    if (el) {
      focusPending.current = false;
      el.focus();
    }
  });

  // Stable for the memoized rows; they read the latest props through the ref.
  const latest = useRef({ onOpen, rows });
  useLayoutEffect(() => {
    latest.current = { onOpen, rows };
  });
  const [rowHandlers] = useState(() => ({
    onPick: (i: number, device: DeviceView) => {
      setFocus({ rows: latest.current.rows, index: i });
      latest.current.onOpen(device);
    },
    onFocusRow: (i: number) => setFocus((f) => (f.rows === latest.current.rows && f.index === i ? f : { rows: latest.current.rows, index: i })),
  }));

  const moveTo = (next: number) => {
    const target = Math.max(0, Math.min(count - 1, next));
    setActive(target);
    focusPending.current = true;
    virtualizer.scrollToIndex(target, { align: 'auto' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 600) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: activeRow + 1, ArrowUp: activeRow - 1, PageDown: activeRow + page, PageUp: activeRow - page, Home: 0, End: count - 1 };
    if (e.key in moves) {
      e.preventDefault();
      moveTo(moves[e.key]!);
    } else if (e.key === 'Enter' || e.key === ' ') {
      const device = index.devices[rows[activeRow]!];
      if (device) {
        e.preventDefault();
        onOpen(device);
      }
    }
  };

  return (
    <div className={clsx('devices-scroll', stale && 'stale')} ref={scrollRef} data-testid="devices-scroll">
      <table className="table devices-table" aria-label="Devices" aria-rowcount={count + 1} data-testid="devices-table">
        <thead>
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id} className="devices-grid" aria-rowindex={1}>
              {hg.headers.map((h) => {
                const dir = h.column.getIsSorted();
                return (
                  <th key={h.id} aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'} className={clsx(`col-${h.column.id}`)}>
                    <button type="button" className="sort-button" onClick={h.column.getToggleSortingHandler()} title={`Sort by ${String(h.column.columnDef.header).toLowerCase()}`}>
                      {flexRender(h.column.columnDef.header, h.getContext())}
                      {dir === 'asc' ? <ArrowUp size={12} aria-hidden="true" /> : dir === 'desc' ? <ArrowDown size={12} aria-hidden="true" /> : <ArrowUpDown size={12} aria-hidden="true" className="sort-idle" />}
                    </button>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody style={{ height: virtualizer.getTotalSize() }} onKeyDown={onKeyDown}>
          {tableRows.map((row, k) => {
            const item = items[k]!;
            // Keyed by position: a new answer updates the rows in view in place.
            return <DeviceRow key={item.index} row={row} index={item.index} start={item.start} active={item.index === activeRow} onPick={rowHandlers.onPick} onFocusRow={rowHandlers.onFocusRow} />;
          })}
        </tbody>
      </table>
      {count === 0 ? <p className="devices-none muted">No device matches.</p> : null}
    </div>
  );
}
