/**
 * A read-only table whose rows are virtualized (TanStack Virtual): any number of rows, only the
 * visible ones in the DOM. Columns share one CSS grid template.
 *
 * The fast path every list of the app shares (the devices table does the same with its sort
 * headers): rows are keyed by their place in the window and memoized on their item, so a new
 * answer (a search, a filter) rewrites the text of the rows in view instead of replacing their
 * elements, and a render that changes nothing in a row (the search box's own keystroke) does not
 * visit it. Pair it with `useDeferredSearch` (search.ts): typing never waits for the table.
 *
 * With `wrap`, long text wraps and each row is as tall as its text (rows are measured as they are
 * drawn) instead of being cut to one line. A measured height belongs to an item, so those rows
 * are keyed by the item (`rowKey`): an element reused for another item of the same height would
 * never be measured again and keep the first one's height.
 */
import { measureElement, useVirtualizer } from '@tanstack/react-virtual';
import clsx from 'clsx';
import type { CSSProperties, ReactNode } from 'react';
import { memo, useRef } from 'react';
import { useScrollerFocus } from './useScrollerFocus';

export interface VirtualColumn<T> {
  id: string;
  header: string;
  cell(row: T): ReactNode;
  /** On the header and every cell of the column, e.g. for container queries that hide it. */
  className?: string;
}

export interface VirtualTableProps<T> {
  label: string;
  columns: readonly VirtualColumn<T>[];
  rows: readonly T[];
  /** Which item a row shows (`data-row-key`): the row elements are reused for other items. */
  rowKey(row: T): string | number;
  /** grid-template-columns of every row; without it the stylesheet (className) sets it. */
  template?: string;
  rowHeight?: number;
  /** Rows grow with their text (wrapped), instead of one line each. */
  wrap?: boolean;
  maxHeight?: number;
  /** Grow with the page (a flex column) instead of stopping at maxHeight. */
  fill?: boolean;
  /** The rows shown are an older answer than the query (a deferred search is being applied). */
  stale?: boolean;
  className?: string;
  testId?: string;
  rowTestId?(row: T): string;
}

interface RowProps<T> {
  row: T;
  index: number;
  start: number;
  height: number;
  /** Measured rows (wrap): the height is a minimum and the virtualizer reads the drawn one. */
  measure: ((el: Element | null) => void) | undefined;
  columns: readonly VirtualColumn<T>[];
  style: CSSProperties | undefined;
  rowKey: string | number;
  testId: string | undefined;
}

function VirtualRowImpl<T>({ row, index, start, height, measure, columns, style, rowKey, testId }: RowProps<T>) {
  return (
    <tr
      ref={measure}
      data-index={index}
      aria-rowindex={index + 2}
      style={{ ...style, ...(measure ? { minHeight: height } : { height }), transform: `translateY(${start}px)` }}
      data-row-key={rowKey}
      data-testid={testId}
    >
      {columns.map((c) => (
        <td key={c.id} className={c.className}>
          {c.cell(row)}
        </td>
      ))}
    </tr>
  );
}
const VirtualRow = memo(VirtualRowImpl) as typeof VirtualRowImpl;

export function VirtualTable<T>({ label, columns, rows, rowKey, template, rowHeight = 32, wrap = false, maxHeight = 320, fill, stale, className, testId, rowTestId }: VirtualTableProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  // Its rows take no focus: the scroller itself does, when there is something to scroll.
  useScrollerFocus(ref);
  // No React Compiler here: reading the virtualizer during render is how TanStack Virtual works.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => ref.current,
    estimateSize: () => rowHeight,
    // Measured rows are cached by item. Only then: a new key function per render makes the
    // virtualizer recompute every row's place, which the fixed-height fast path does not need.
    // A drawn row is never 0 px tall; where nothing is laid out (tests) it keeps its estimate.
    ...(wrap
      ? {
          measureElement: (el: Element, entry: ResizeObserverEntry | undefined, v: Parameters<typeof measureElement>[2]) => measureElement(el, entry, v) || rowHeight,
          getItemKey: (i: number) => rowKey(rows[i]!),
        }
      : {}),
    overscan: 6,
    initialRect: { width: 700, height: maxHeight },
  });
  const height = Math.min(maxHeight, virtualizer.getTotalSize() + 34);
  // One style object for every row and render: the memoized rows compare it by identity.
  const templateStyle = useRef<{ template: string | undefined; style: CSSProperties | undefined }>({ template: undefined, style: undefined });
  if (templateStyle.current.template !== template || (template && !templateStyle.current.style)) templateStyle.current = { template, style: template ? { gridTemplateColumns: template } : undefined };
  const rowStyle = templateStyle.current.style;
  const measure = wrap ? virtualizer.measureElement : undefined;
  return (
    <div className={clsx('virtual-table-wrap', fill && 'virtual-table-fill', stale && 'stale', className)} ref={ref} style={fill ? undefined : { maxHeight, height }} data-testid={testId}>
      <table className={clsx('table virtual-table', wrap && 'virtual-table-wraps')} aria-label={label} aria-rowcount={rows.length + 1}>
        <thead>
          <tr style={rowStyle}>
            {columns.map((c) => (
              <th key={c.id} className={c.className}>
                {c.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            const key = rowKey(row);
            // Keyed by place in the window (a new answer updates the rows in view in place), except
            // measured rows (wrap): those are keyed by their item, see the header.
            return <VirtualRow key={wrap ? key : item.index} row={row} index={item.index} start={item.start} height={rowHeight} measure={measure} columns={columns} style={rowStyle} rowKey={key} testId={rowTestId?.(row)} />;
          })}
        </tbody>
      </table>
    </div>
  );
}
