/**
 * The assessment-by-host table: TanStack Table for the columns, headers and sort state, TanStack
 * Virtual for the rows, as the devices table. Filtering and sorting run on the index
 * (zta-index.ts); the table gets only the rows in view as its data (`snapshotRow` of ~40 rows),
 * so 100,000 hosts cost nothing per render. Keyboard: the focused row moves with the arrows,
 * Home/End and PageUp/PageDown; Enter opens the host's details.
 */
import { flexRender, getCoreRowModel, useReactTable, type SortingState, type Updater, type VisibilityState } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import clsx from 'clsx';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { memo, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { snapshotRow, type ZtaRow, type ZtaSnapshot } from '../../../shared/model/zta';
import { useNow } from '../../components/useNow';
import { useTimeFormat } from '../../components/useTimeFormat';
import { HOST_COLUMNS, hostCell } from './host-columns';
import type { ZtaSort, ZtaSortKey } from './zta-index';

export const ROW_HEIGHT = 36;

export interface HostTableProps {
  /** The snapshot shown (the what-if's copy while one is open). */
  shown: ZtaSnapshot;
  /** The stored snapshot, while a what-if is shown (its scores are compared). */
  stored?: ZtaSnapshot | undefined;
  /** Row numbers in display order. */
  rows: Int32Array;
  sort: ZtaSort;
  onSort(sort: ZtaSort): void;
  onOpen(row: ZtaRow): void;
  /** The columns shown (ids of HOST_COLUMNS). */
  visible: ReadonlySet<ZtaSortKey>;
  /** True while a newer filter is being applied (the rows shown are the previous answer). */
  stale?: boolean;
}

/** Memoised: typing in the search box re-renders the page at once, the table only when its rows arrive. */
export const HostTable = memo(function HostTable({ shown, stored, rows, sort, onSort, onOpen, visible, stale }: HostTableProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [active, setActive] = useState(0);
  const focusPending = useRef(false);
  const count = rows.length;
  const activeRow = Math.min(active, Math.max(0, count - 1));

  // No React Compiler here: reading the virtualizer during render is how TanStack Virtual works.
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
    initialRect: { width: 1000, height: 600 },
  });
  const items = virtualizer.getVirtualItems();
  const windowData = useMemo(() => items.map((it) => hostCell(shown, stored, snapshotRow(shown, rows[it.index]!))), [items, rows, shown, stored]);

  const columnVisibility = useMemo<VisibilityState>(() => Object.fromEntries(HOST_COLUMNS.map((c) => [c.id!, visible.has(c.id as ZtaSortKey)])), [visible]);
  const template = useMemo(() => HOST_COLUMNS.filter((c) => visible.has(c.id as ZtaSortKey)).map((c) => c.meta!.width).join(' '), [visible]);
  const sorting = useMemo<SortingState>(() => [{ id: sort.key, desc: sort.desc }], [sort]);
  const tf = useTimeFormat();
  const now = useNow();
  const table = useReactTable({
    meta: { tf, now },
    data: windowData,
    columns: HOST_COLUMNS,
    state: { sorting, columnVisibility },
    onSortingChange: (u: Updater<SortingState>) => {
      const next = typeof u === 'function' ? u(sorting) : u;
      const first = next[0];
      onSort(first ? { key: first.id as ZtaSortKey, desc: first.desc } : { key: sort.key, desc: !sort.desc });
    },
    manualSorting: true,
    manualFiltering: true,
    enableSortingRemoval: false,
    enableMultiSort: false,
    // Text columns sort A to Z first; the score, band, times and counts say which first themselves.
    sortDescFirst: false,
    getRowId: (c) => `${c.row.connectorId}:${c.row.hostId}`,
    getCoreRowModel: getCoreRowModel(),
  });
  const tableRows = table.getRowModel().rows;

  // Back to the top when a filter or the sort changes what is shown (not when the what-if only rescored).
  const shape = `${count}:${rows[0] ?? -1}:${sort.key}:${sort.desc}`;
  useEffect(() => {
    const el = scrollRef.current;
    if (el && el.scrollTop !== 0) el.scrollTo?.({ top: 0 });
    setActive(0);
  }, [shape]);

  useEffect(() => {
    if (!focusPending.current) return;
    const el = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${activeRow}"]`);
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

  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 600) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: activeRow + 1, ArrowUp: activeRow - 1, PageDown: activeRow + page, PageUp: activeRow - page, Home: 0, End: count - 1 };
    if (e.key in moves) {
      e.preventDefault();
      moveTo(moves[e.key]!);
    } else if ((e.key === 'Enter' || e.key === ' ') && activeRow < count) {
      e.preventDefault();
      onOpen(snapshotRow(shown, rows[activeRow]!));
    }
  };

  return (
    <div className={clsx('zta-scroll', stale && 'stale')} ref={scrollRef} data-testid="zta-scroll">
      <table className="table zta-table" aria-label="Assessment by host" aria-rowcount={count + 1} data-testid="zta-table">
        <thead>
          {table.getHeaderGroups().map((hg) => (
            <tr key={hg.id} className="zta-grid" style={{ gridTemplateColumns: template }} aria-rowindex={1}>
              {hg.headers.map((h) => {
                const dir = h.column.getIsSorted();
                const label = String(h.column.columnDef.header);
                return (
                  <th key={h.id} aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'} className={`col-${h.column.id}`}>
                    <button type="button" className="sort-button" onClick={h.column.getToggleSortingHandler()} title={h.column.columnDef.meta?.title ?? `Sort by ${label.toLowerCase()}`}>
                      <span>{flexRender(h.column.columnDef.header, h.getContext())}</span>
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
            const host = row.original.row;
            return (
              <tr
                key={row.id}
                className={clsx('zta-grid', 'zta-row', item.index === activeRow && 'active', row.original.stored && 'zta-row-changed')}
                style={{ gridTemplateColumns: template, transform: `translateY(${item.start}px)` }}
                data-index={item.index}
                data-testid="zta-row"
                data-host={host.hostId}
                aria-rowindex={item.index + 2}
                tabIndex={item.index === activeRow ? 0 : -1}
                onClick={() => {
                  setActive(item.index);
                  onOpen(host);
                }}
                onFocus={() => item.index !== activeRow && setActive(item.index)}
              >
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={`col-${cell.column.id}`}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
      {count === 0 ? <p className="zta-none muted">No host matches these filters.</p> : null}
    </div>
  );
});
