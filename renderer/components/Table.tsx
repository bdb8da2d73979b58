/**
 * The app's one virtualized table (TanStack Virtual): the devices, the ZTA hosts, the alarm stream
 * and every smaller list (organizations, CSV rows, a host's facts, an alarm's history). Any number
 * of rows, only those in view in the DOM; the columns share one CSS grid template.
 *
 * - **Rows from positions.** The caller filters and sorts on its own index and answers the item at
 *   a position (`rowAt`) for the rows in view only, so neither React nor the table ever builds the
 *   whole list. An item not read yet (`undefined`: the alarm stream's windows) is a loading row.
 * - **The fast path** (docs/architecture.md, "Typing never waits"): rows are keyed by a slot they
 *   keep while in view (row-slots.ts) and memoized, so a new answer (a search, a filter) or a
 *   scroll of a page rewrites the text of the rows in view instead of replacing their elements, and
 *   a render that changes nothing in a row (the search box's own keystroke, `stale`) does not visit
 *   it. A row the caller marks `freshKey` is keyed by it instead, so it is drawn anew (the alarm
 *   stream's highlight plays once). Measured rows (`wrap`: each as tall as its wrapped text) are
 *   keyed by their item: a measured height belongs to an item.
 * - **Rows that take focus** (with `onOpen`): the tables' one keyboard (row-keys.ts); the focused
 *   row belongs to the answer it was chosen in, so a new answer starts at its first row with no
 *   effect and no second render, and the table goes back to the top (only if scrolled: a scroll
 *   forces a layout). Without `onOpen` the rows take no focus and the scroller itself does, when
 *   there is something to scroll (useScrollerFocus.ts).
 * - **Sorting** (with `sort`): each header is a button; a column sorts in its first direction
 *   (`descFirst`), and a second click turns it around.
 */
import { measureElement, useVirtualizer } from '@tanstack/react-virtual';
import clsx from 'clsx';
import { ArrowDown, ArrowUp, ArrowUpDown } from 'lucide-react';
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type CSSProperties, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { onRowKeyDown } from './row-keys';
import { RowSlots } from './row-slots';
import { useScrollerFocus } from './useScrollerFocus';

export interface TableColumn<T, M = undefined> {
  id: string;
  header: ReactNode;
  /** What a cell shows: its item, the table's `meta` (read once by the table, not by each cell) and the row's position. */
  cell(item: T, meta: M, index: number): ReactNode;
  /** On the header and every cell of the column (widths, container queries that hide it). */
  className?: string;
  /** What the header means, on hover (a sortable header's default: "Sort by <header>"). */
  title?: string;
  /** Sortable tables: the column sorts larger values first when first chosen. */
  descFirst?: boolean;
  /** A click in this cell is the cell's own (a checkbox): it does not open the row. */
  ownClicks?: boolean;
}

export interface TableSort<K extends string = string> {
  key: K;
  desc: boolean;
}

/** A row's own class and attributes (data-*, and whether it is selected). */
export interface RowAttributes {
  className?: string | undefined;
  data?: Record<`data-${string}`, string | undefined>;
  selected?: boolean;
}

/** The rows: a list, or a count and the item at a position (asked for the rows in view only). */
export type TableRows<T> =
  | { rows: readonly T[]; count?: never; rowAt?: never }
  | {
      rows?: never;
      /** Rows in the answer. */
      count: number;
      /** The item at a position of the answer. `undefined`: not read yet (a loading row). */
      rowAt(index: number): T | undefined;
    };

export type TableProps<T, M = undefined, K extends string = string> = TableRows<T> & TableOptions<T, M, K>;

export interface TableOptions<T, M = undefined, K extends string = string> {
  label: string;
  columns: readonly TableColumn<T, M>[];
  /** Read by the cells: a new object draws every row in view again. */
  meta?: M;
  /** Whether two items show the same (a row is drawn again only when not). Default: the same object. */
  sameItem?(a: T, b: T): boolean;
  /**
   * What the answer is (compared with Object.is): when it changes, the focused row goes back to
   * the first and the table to the top. A caller whose rows only get new values keeps it.
   */
  answer?: unknown;
  sort?: TableSort<K>;
  onSort?(sort: TableSort<K>): void;
  /** Rows take focus and Enter (or a click) opens one. */
  onOpen?(item: T, index: number): void;
  /** Space on the focused row (toggles its selection). */
  onSelect?(item: T, index: number): void;
  /** The table's own letters on the focused row (the alarm stream's `a`). */
  ownKeys?: readonly string[];
  onOwnKey?(key: string, item: T, index: number): void;
  /** Default 32 px. */
  rowHeight?: number;
  overscan?: number;
  /** Rows grow with their text (wrapped, measured as drawn) instead of one line each; keyed by `rowKey`. */
  wrap?: boolean;
  /** Which item a row shows (`data-row-key`). */
  rowKey?(item: T): string | number;
  /** A row keyed by this instead of its slot is drawn anew (its CSS animation plays once). */
  freshKey?(item: T, index: number): string | undefined;
  /**
   * How tall the scroller is: `{ maxHeight }` grows with the rows up to it, `fill` grows with the
   * page (a flex column); without it the stylesheet (`classes.scroll`) sizes it.
   */
  size?: { maxHeight: number } | 'fill';
  /** grid-template-columns of the header and every row; without it the stylesheet (`classes.grid`) sets it. */
  template?: string;
  /** The rows shown are an older answer than the one asked for (a deferred search is being applied). */
  stale?: boolean;
  /** Class names: the scroller (default `virtual-table-wrap`), the table (default `virtual-table`), the grid of the header and rows, a row, a loading row. */
  classes?: { scroll?: string; table?: string; grid?: string; row?: string; loading?: string };
  /** More classes on the scroller. */
  className?: string;
  testIds?: { scroll?: string; table?: string };
  rowTestId?(item: T): string;
  rowAttributes?(item: T, index: number): RowAttributes;
  /** Shown under the header when the answer is empty. */
  empty?: ReactNode;
  /** The rows in view changed (the alarm stream reads its windows from them). */
  onRange?(range: { start: number; end: number }): void;
}

const stopClick = (e: MouseEvent) => e.stopPropagation();

/** What a table whose rows take focus gives useScrollerFocus: no scroller (its rows take the focus). */
const NO_SCROLLER = { current: null };

interface RowProps<T, M> {
  item: T | undefined;
  /** Position in the answer. */
  index: number;
  start: number;
  height: number;
  /** Rows that take focus: this one is focused (tabIndex 0). Undefined: the rows take no focus. */
  active: boolean | undefined;
  columns: readonly TableColumn<T, M>[];
  meta: M;
  style: CSSProperties | undefined;
  className: string;
  loadingClass: string | undefined;
  rowKey: string | number | undefined;
  testId: string | undefined;
  attributes: TableOptions<T, M>['rowAttributes'];
  sameItem: ((a: T, b: T) => boolean) | undefined;
  /** Measured rows (wrap): the height is a minimum and the virtualizer reads the drawn one. */
  measure: ((el: Element | null) => void) | undefined;
  handlers: RowHandlers<T> | undefined;
}

interface RowHandlers<T> {
  onPick(index: number, item: T): void;
  onFocusRow(index: number): void;
}

function TableRowImpl<T, M>({ item, index, start, height, active, columns, meta, style, className, loadingClass, rowKey, testId, attributes, measure, handlers }: RowProps<T, M>) {
  const place: CSSProperties = { ...style, ...(measure ? { minHeight: height } : { height }), transform: `translateY(${start}px)` };
  if (item === undefined) {
    return (
      <tr className={clsx(className, loadingClass)} style={place} data-index={index} aria-rowindex={index + 2}>
        <td className="col-loading muted">Loading…</td>
      </tr>
    );
  }
  const own = attributes?.(item, index);
  return (
    <tr
      ref={measure}
      className={clsx(className, active && 'active', own?.selected && 'selected', own?.className)}
      data-index={index}
      data-row-key={rowKey}
      data-testid={testId}
      {...own?.data}
      aria-rowindex={index + 2}
      aria-selected={own?.selected}
      tabIndex={active === undefined ? undefined : active ? 0 : -1}
      style={place}
      onClick={handlers ? () => handlers.onPick(index, item) : undefined}
      onFocus={handlers ? () => handlers.onFocusRow(index) : undefined}
    >
      {columns.map((column) => (
        <td key={column.id} className={column.className} onClick={column.ownClicks ? stopClick : undefined}>
          {column.cell(item, meta, index)}
        </td>
      ))}
    </tr>
  );
}

/** One row: what it shows is its item (and the table's meta). */
const TableRow = memo(
  TableRowImpl,
  (a, b) =>
    (a.item === b.item || (a.item !== undefined && b.item !== undefined && !!a.sameItem && a.sameItem === b.sameItem && a.sameItem(a.item, b.item))) &&
    a.index === b.index &&
    a.start === b.start &&
    a.height === b.height &&
    a.active === b.active &&
    a.columns === b.columns &&
    a.meta === b.meta &&
    a.style === b.style &&
    a.className === b.className &&
    a.attributes === b.attributes &&
    a.rowKey === b.rowKey &&
    a.testId === b.testId &&
    a.measure === b.measure &&
    a.handlers === b.handlers,
) as typeof TableRowImpl;

interface HeadProps<T, M, K extends string> {
  columns: readonly TableColumn<T, M>[];
  sort: TableSort<K> | undefined;
  onSort: ((sort: TableSort<K>) => void) | undefined;
  style: CSSProperties | undefined;
  gridClass: string | undefined;
}

/** The header row: memoized, so a scroll (a render of the rows) does not draw it again. */
function HeadImpl<T, M, K extends string>({ columns, sort, onSort, style, gridClass }: HeadProps<T, M, K>) {
  return (
    <thead>
      <tr className={gridClass} style={style} aria-rowindex={1}>
        {columns.map((c) => {
          if (!sort || !onSort) {
            return (
              <th key={c.id} className={c.className} title={c.title}>
                {c.header}
              </th>
            );
          }
          const dir = sort.key === c.id ? (sort.desc ? 'desc' : 'asc') : false;
          const title = c.title ?? `Sort by ${typeof c.header === 'string' ? c.header.toLowerCase() : c.id}`;
          return (
            <th key={c.id} aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : 'none'} className={c.className}>
              <button type="button" className="sort-button" onClick={() => onSort(sort.key === c.id ? { key: c.id as K, desc: !sort.desc } : { key: c.id as K, desc: !!c.descFirst })} title={title}>
                <span>{c.header}</span>
                {dir === 'asc' ? <ArrowUp size={12} aria-hidden="true" /> : dir === 'desc' ? <ArrowDown size={12} aria-hidden="true" /> : <ArrowUpDown size={12} aria-hidden="true" className="sort-idle" />}
              </button>
            </th>
          );
        })}
      </tr>
    </thead>
  );
}
const Head = memo(HeadImpl) as typeof HeadImpl;

export function Table<T, M = undefined, K extends string = string>(props: TableProps<T, M, K>) {
  const { label, columns, meta, sameItem, answer, sort, onSort, onOpen, onSelect, ownKeys, onOwnKey, rowHeight = 32, overscan = 4, wrap = false, rowKey, freshKey, size, template, stale, classes = {}, className, testIds = {}, rowTestId, rowAttributes, empty, onRange } = props;
  const list = props.rows;
  const count = list ? list.length : props.count;
  const given = props.rowAt;
  const rowAt = useMemo(() => given ?? ((i: number) => list![i]), [given, list]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const focusable = onOpen !== undefined;
  // A list whose rows take no focus: the scroller takes it, when there is something to scroll.
  useScrollerFocus(focusable ? NO_SCROLLER : scrollRef);
  // The focused row belongs to the answer it was chosen in: a new answer (search, filter, sort)
  // starts at its first row, with no effect and no second render.
  const [focus, setFocus] = useState({ answer, index: 0 });
  const focusPending = useRef(false);
  const activeRow = Object.is(focus.answer, answer) ? Math.min(focus.index, Math.max(0, count - 1)) : 0;

  const latest = useRef({ onOpen, answer, rowAt, onRange });
  useLayoutEffect(() => {
    latest.current = { onOpen, answer, rowAt, onRange };
  });

  // No React Compiler here: reading the virtualizer during render is how TanStack Virtual works.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => rowHeight,
    overscan,
    initialRect: { width: 1000, height: size && size !== 'fill' ? size.maxHeight : 600 },
    // Measured rows are cached by item. Only then: a new key function per render makes the
    // virtualizer recompute every row's place, which the fixed-height fast path does not need.
    // A drawn row is never 0 px tall; where nothing is laid out (tests) it keeps its estimate.
    ...(wrap
      ? {
          measureElement: (el: Element, entry: ResizeObserverEntry | undefined, v: Parameters<typeof measureElement>[2]) => measureElement(el, entry, v) || rowHeight,
          getItemKey: (i: number) => {
            const item = latest.current.rowAt(i);
            return item !== undefined && rowKey ? rowKey(item) : i;
          },
        }
      : {}),
    ...(onRange
      ? {
          onChange: (v: { getVirtualItems(): Array<{ index: number }> }) => {
            const items = v.getVirtualItems();
            latest.current.onRange?.({ start: items[0]?.index ?? 0, end: items[items.length - 1]?.index ?? 0 });
          },
        }
      : {}),
  });
  const items = virtualizer.getVirtualItems();
  // One slot per row in view, kept while the row stays in view (row-slots.ts): the rows' keys.
  const [slots] = useState(() => new RowSlots());
  const keys = useMemo(() => slots.keysFor(items.map((it) => it.index)), [slots, items]);
  const windowData = useMemo(() => items.map((it) => rowAt(it.index)), [items, rowAt]);

  // Back to the top when the answer changes (only if scrolled: scrolling forces a layout).
  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && virtualizer.scrollOffset) el.scrollTop = 0;
  }, [answer, virtualizer]);

  useEffect(() => {
    if (!focusPending.current) return;
    const el = scrollRef.current?.querySelector<HTMLElement>(`tr[data-index="${activeRow}"]`);
    if (el) {
      focusPending.current = false;
      el.focus();
    }
  });

  // Stable for the memoized rows; they read the latest props through the ref.
  const [rowHandlers] = useState<RowHandlers<T>>(() => ({
    onPick: (i: number, item: T) => {
      setFocus({ answer: latest.current.answer, index: i });
      latest.current.onOpen?.(item, i);
    },
    onFocusRow: (i: number) => setFocus((f) => (Object.is(f.answer, latest.current.answer) && f.index === i ? f : { answer: latest.current.answer, index: i })),
  }));

  // One style object per template: the memoized rows compare it by identity.
  const rowStyle = useMemo<CSSProperties | undefined>(() => (template ? { gridTemplateColumns: template } : undefined), [template]);

  const moveTo = (next: number) => {
    const target = Math.max(0, Math.min(count - 1, next));
    setFocus({ answer, index: target });
    focusPending.current = true;
    virtualizer.scrollToIndex(target, { align: 'auto' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTableSectionElement>) => {
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 600) / rowHeight) - 1);
    // A row still loading takes no action.
    const loaded = (i: number, act: (item: T) => void) => {
      const item = rowAt(i);
      if (item !== undefined) act(item);
    };
    onRowKeyDown(
      e,
      { active: activeRow, count, page, ...(ownKeys ? { own: ownKeys } : {}) },
      {
        moveTo,
        open: (i) => loaded(i, (item) => onOpen?.(item, i)),
        ...(onSelect ? { select: (i: number) => loaded(i, (item) => onSelect(item, i)) } : {}),
        ...(onOwnKey ? { own: (key: string, i: number) => loaded(i, (item) => onOwnKey(key, item, i)) } : {}),
      },
    );
  };

  const rowClass = clsx(classes.grid, classes.row);
  const measure = wrap ? virtualizer.measureElement : undefined;
  const total = virtualizer.getTotalSize();
  const scrollStyle = size === undefined || size === 'fill' ? undefined : { maxHeight: size.maxHeight, height: Math.min(size.maxHeight, total + 34) };
  return (
    <div className={clsx(classes.scroll ?? 'virtual-table-wrap', size === 'fill' && 'virtual-table-fill', stale && 'stale', className)} ref={scrollRef} style={scrollStyle} data-testid={testIds.scroll}>
      <table className={clsx('table', classes.table ?? 'virtual-table', wrap && 'virtual-table-wraps')} aria-label={label} aria-rowcount={count + 1} data-testid={testIds.table}>
        <Head columns={columns} sort={sort} onSort={onSort} style={rowStyle} gridClass={classes.grid} />
        <tbody style={{ height: total }} onKeyDown={focusable ? onKeyDown : undefined}>
          {windowData.map((item, k) => {
            const at = items[k]!;
            const fresh = item !== undefined ? freshKey?.(item, at.index) : undefined;
            const key = item !== undefined && rowKey ? rowKey(item) : undefined;
            // Keyed by slot (a new answer, or a scroll, updates the rows' elements in place), except
            // a fresh row (drawn anew) and a measured one (keyed by its item, see the header).
            return (
              <TableRow
                key={fresh ?? (wrap && key !== undefined ? `item:${key}` : keys[k])}
                item={item}
                index={at.index}
                start={at.start}
                height={rowHeight}
                active={focusable ? at.index === activeRow : undefined}
                columns={columns}
                meta={meta as M}
                style={rowStyle}
                className={rowClass}
                loadingClass={classes.loading}
                rowKey={key}
                testId={item !== undefined ? rowTestId?.(item) : undefined}
                attributes={rowAttributes}
                sameItem={sameItem}
                measure={measure}
                handlers={focusable ? rowHandlers : undefined}
              />
            );
          })}
        </tbody>
      </table>
      {count === 0 ? empty : null}
    </div>
  );
}
