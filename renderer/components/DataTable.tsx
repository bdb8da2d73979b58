/**
 * A sortable table over any number of rows (the devices table, the ZTA host table): TanStack
 * Table for the columns, headers and sort state, TanStack Virtual for the rows. The caller
 * filters and sorts row numbers on its own index; the table asks for the items of the rows in
 * view only (`rowAt`), so neither React nor TanStack ever builds the whole list, and the rows in
 * view are drawn from those items, not from TanStack's row model (`cellContext`). Keyboard: the
 * tables' one keyboard (row-keys.ts): the focused row moves, Enter opens it.
 *
 * The fast path (docs/architecture.md, "Typing never waits"): rows are keyed by a slot they keep
 * while in view (row-slots.ts) and memoized, so a new answer (a search, a filter) or a scroll of
 * a page rewrites the text of the rows in view instead of replacing their elements, and a render that changes nothing in a row (the
 * search box's own keystroke, `stale`) does not visit it. A new answer starts at its first row
 * without an effect or a second render (the focused row belongs to the answer it was chosen in),
 * and scrolls only when the table is not already at the top (a scroll forces a layout).
 * TanStack Table's state resets on new data are off (each cost a render).
 */
import { flexRender, getCoreRowModel, useReactTable, type CellContext, type Column, type ColumnDef, type HeaderGroup, type SortingState, type Table, type TableMeta, type Updater, type VisibilityState } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import clsx from 'clsx';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react';
import { onRowKeyDown } from './row-keys';
import { RowSlots } from './row-slots';

export interface DataSort<K extends string = string> {
  key: K;
  desc: boolean;
}

export interface DataTableProps<T, K extends string = string> {
  label: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's own type for a list of columns of mixed value types
  columns: ColumnDef<T, any>[];
  /** Rows in the answer. */
  count: number;
  /** The item at a position of the answer; asked for the rows in view only. */
  rowAt(index: number): T;
  /** Whether two items show the same (a row is drawn again only when not). Default: the same object. */
  sameItem?(a: T, b: T): boolean;
  /**
   * What the answer is (compared with Object.is): when it changes, the focused row goes back to
   * the first and the table to the top. A caller whose rows only get new values (the same hosts
   * rescored) keeps it.
   */
  answer: unknown;
  sort: DataSort<K>;
  onSort(sort: DataSort<K>): void;
  onOpen(item: T): void;
  columnVisibility?: VisibilityState;
  /** grid-template-columns of the header and every row; without it the stylesheet (`gridClass`) sets it. */
  template?: string;
  /** Read by the cells (`cell.getContext().table.options.meta`): a new object draws every row again. */
  meta?: TableMeta<T>;
  /** The rows shown are an older answer than the one asked for (a deferred search is being applied). */
  stale?: boolean;
  rowHeight: number;
  /** Class names: the scroller, the table, the grid of the header and rows, a row. */
  classes: { scroll: string; table: string; grid: string; row: string };
  testIds: { scroll: string; table: string; row: string };
  /** A row's own attributes (data-*), and its class. */
  rowAttributes?(item: T): { className?: string | undefined; data?: Record<`data-${string}`, string> };
  /** A header's hover text; default "Sort by <header>". */
  headerTitle?(column: Column<T>): string | undefined;
  /** Shown under the header when the answer is empty. */
  empty: ReactNode;
}

interface RowProps<T> {
  item: T;
  /** Position in the answer. */
  index: number;
  start: number;
  active: boolean;
  /** The columns shown (TanStack's array, new when the visibility changes). */
  columns: Column<T>[];
  table: Table<T>;
  meta: unknown;
  style: CSSProperties | undefined;
  className: string;
  testId: string;
  attributes: DataTableProps<T>['rowAttributes'];
  sameItem: ((a: T, b: T) => boolean) | undefined;
  onPick(index: number, item: T): void;
  onFocusRow(index: number): void;
}

/**
 * What a cell renderer is given: the item (`row.original`), its position (`row.index`), its value
 * (`getValue`), the column and the table; not a row of TanStack's row model. A TanStack row builds
 * dozens of closures and a cell object for every column, shown or not (about 18 KB a row): a
 * scroll of a page of rows each frame filled the young generation in about a second, and each
 * scavenge then held a frame for 30–40 ms. The columns of these tables read nothing else.
 */
function cellContext<T>(table: Table<T>, column: Column<T>, item: T, index: number): CellContext<T, unknown> {
  const getValue = () => column.accessorFn?.(item, index);
  return { table, column, row: { original: item, index, id: String(index) }, getValue, renderValue: getValue } as unknown as CellContext<T, unknown>;
}

function DataRowImpl<T>({ item, index, start, active, columns, table, style, className, testId, attributes, onPick, onFocusRow }: RowProps<T>) {
  const own = attributes?.(item);
  return (
    <tr
      className={clsx(className, active && 'active', own?.className)}
      data-index={index}
      data-testid={testId}
      {...own?.data}
      aria-rowindex={index + 2}
      tabIndex={active ? 0 : -1}
      style={{ ...style, transform: `translateY(${start}px)` }}
      onClick={() => onPick(index, item)}
      onFocus={() => onFocusRow(index)}
    >
      {columns.map((column) => (
        <td key={column.id} className={`col-${column.id}`}>
          {flexRender(column.columnDef.cell, cellContext(table, column, item, index))}
        </td>
      ))}
    </tr>
  );
}

interface HeadProps<T> {
  groups: HeaderGroup<T>[];
  sorting: SortingState;
  style: CSSProperties | undefined;
  gridClass: string;
  headerTitle: DataTableProps<T>['headerTitle'];
}

/** The header row: memoized, so a scroll (a render of the rows) does not draw it again. */
function HeadImpl<T>({ groups, sorting, style, gridClass, headerTitle }: HeadProps<T>) {
  const sorted = sorting[0];
  return (
    <thead>
      {groups.map((hg) => (
        <tr key={hg.id} className={gridClass} style={style} aria-rowindex={1}>
          {hg.headers.map((h) => {
            const dir = sorted?.id === h.column.id ? (sorted.desc ? 'desc' : 'asc') : false;
            const title = headerTitle?.(h.column) ?? `Sort by ${String(h.column.columnDef.header).toLowerCase()}`;
            return (
              <th key={h.id} aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'} className={`col-${h.column.id}`}>
                <button type="button" className="sort-button" onClick={h.column.getToggleSortingHandler()} title={title}>
                  <span>{flexRender(h.column.columnDef.header, h.getContext())}</span>
                  {dir === 'asc' ? <ArrowUp size={12} aria-hidden="true" /> : dir === 'desc' ? <ArrowDown size={12} aria-hidden="true" /> : <ArrowUpDown size={12} aria-hidden="true" className="sort-idle" />}
                </button>
              </th>
            );
          })}
        </tr>
      ))}
    </thead>
  );
}
const Head = memo(HeadImpl) as typeof HeadImpl;

/** One row: what it shows is its item. */
const DataRow = memo(
  DataRowImpl,
  (a, b) =>
    (a.item === b.item || (!!a.sameItem && a.sameItem === b.sameItem && a.sameItem(a.item, b.item))) &&
    a.index === b.index &&
    a.start === b.start &&
    a.active === b.active &&
    a.columns === b.columns &&
    a.table === b.table &&
    a.meta === b.meta &&
    a.style === b.style &&
    a.attributes === b.attributes &&
    a.onPick === b.onPick &&
    a.onFocusRow === b.onFocusRow,
) as typeof DataRowImpl;

const NO_ROWS: unknown[] = [];

export function DataTable<T, K extends string = string>(props: DataTableProps<T, K>) {
  const { label, columns, count, rowAt, sameItem, answer, sort, onSort, onOpen, columnVisibility, template, meta, stale, rowHeight, classes, testIds, rowAttributes, headerTitle, empty } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  // The focused row belongs to the answer it was chosen in: a new answer (search, filter, sort)
  // starts at its first row, with no effect and no second render.
  const [focus, setFocus] = useState({ answer, index: 0 });
  const setActive = (index: number) => setFocus({ answer, index });
  const focusPending = useRef(false);
  const activeRow = Object.is(focus.answer, answer) ? Math.min(focus.index, Math.max(0, count - 1)) : 0;

  // No React Compiler here: reading the virtualizer during render is how TanStack Virtual works.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan: 4,
    initialRect: { width: 1000, height: 600 },
  });
  const items = virtualizer.getVirtualItems();
  // One slot per row in view, kept while the row stays in view (row-slots.ts): the rows' keys.
  const [slots] = useState(() => new RowSlots());
  const keys = useMemo(() => slots.keysFor(items.map((it) => it.index)), [slots, items]);
  const windowData = useMemo(() => items.map((it) => rowAt(it.index)), [items, rowAt]);

  const sorting = useMemo<SortingState>(() => [{ id: sort.key, desc: sort.desc }], [sort]);
  const table = useReactTable<T>({
    ...(meta ? { meta } : {}),
    // The rows are drawn from `rowAt` (DataRow), not from TanStack's row model: it only holds the columns and the sort.
    data: NO_ROWS as T[],
    columns,
    state: { sorting, ...(columnVisibility ? { columnVisibility } : {}) },
    onSortingChange: (u: Updater<SortingState>) => {
      const next = typeof u === 'function' ? u(sorting) : u;
      const first = next[0];
      onSort(first ? { key: first.id as K, desc: first.desc } : { key: sort.key, desc: !sort.desc });
    },
    manualSorting: true,
    manualFiltering: true,
    // Nothing here pages or expands: without this every new window of rows would queue a state
    // reset and render the table a second time.
    autoResetAll: false,
    enableSortingRemoval: false,
    enableMultiSort: false,
    // Text columns sort A to Z first; a column whose larger values matter says so (sortDescFirst).
    sortDescFirst: false,
    getCoreRowModel: getCoreRowModel(),
  });
  const shownColumns = table.getVisibleLeafColumns();

  // Back to the top when the answer changes (only if scrolled: scrolling forces a layout).
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && virtualizer.scrollOffset) el.scrollTop = 0;
  }, [answer, virtualizer]);

  useEffect(() => {
    if (!focusPending.current) return;
    const el = scrollRef.current?.querySelector<HTMLElement>(`[data-index="${activeRow}"]`);
    if (el) {
      focusPending.current = false;
      el.focus();
    }
  });

  // Stable for the memoized rows; they read the latest props through the ref.
  const latest = useRef({ onOpen, answer });
  useLayoutEffect(() => {
    latest.current = { onOpen, answer };
  });
  const [rowHandlers] = useState(() => ({
    onPick: (i: number, item: T) => {
      setFocus({ answer: latest.current.answer, index: i });
      latest.current.onOpen(item);
    },
    onFocusRow: (i: number) => setFocus((f) => (Object.is(f.answer, latest.current.answer) && f.index === i ? f : { answer: latest.current.answer, index: i })),
  }));

  // One style object per template: the memoized rows compare it by identity.
  const rowStyle = useMemo<CSSProperties | undefined>(() => (template ? { gridTemplateColumns: template } : undefined), [template]);

  const moveTo = (next: number) => {
    const target = Math.max(0, Math.min(count - 1, next));
    setActive(target);
    focusPending.current = true;
    virtualizer.scrollToIndex(target, { align: 'auto' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 600) / rowHeight) - 1);
    onRowKeyDown(e, { active: activeRow, count, page }, { moveTo, open: (i) => onOpen(rowAt(i)) });
  };

  return (
    <div className={clsx(classes.scroll, stale && 'stale')} ref={scrollRef} data-testid={testIds.scroll}>
      <table className={clsx('table', classes.table)} aria-label={label} aria-rowcount={count + 1} data-testid={testIds.table}>
        <Head groups={table.getHeaderGroups()} sorting={sorting} style={rowStyle} gridClass={classes.grid} headerTitle={headerTitle} />
        <tbody style={{ height: virtualizer.getTotalSize() }} onKeyDown={onKeyDown}>
          {windowData.map((item, k) => {
            const at = items[k]!;
            // Keyed by slot: a new answer, or a scroll, updates the rows' elements in place.
            return (
              <DataRow
                key={keys[k]}
                item={item}
                index={at.index}
                start={at.start}
                active={at.index === activeRow}
                columns={shownColumns}
                table={table}
                meta={meta}
                style={rowStyle}
                className={clsx(classes.grid, classes.row)}
                testId={testIds.row}
                attributes={rowAttributes}
                sameItem={sameItem}
                onPick={rowHandlers.onPick}
                onFocusRow={rowHandlers.onFocusRow}
              />
            );
          })}
        </tbody>
      </table>
      {count === 0 ? empty : null}
    </div>
  );
}
