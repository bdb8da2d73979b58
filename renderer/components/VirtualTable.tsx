/**
 * A read-only table whose rows are virtualized (TanStack Virtual): any number of rows, only the
 * visible ones in the DOM. Columns share one CSS grid template.
 *
 * The fast path every list of the app shares (the devices table does the same with its sort
 * headers): rows are keyed by their place in the window and memoized on their item, so a new
 * answer (a search, a filter) rewrites the text of the rows in view instead of replacing their
 * elements, and a render that changes nothing in a row (the search box's own keystroke) does not
 * visit it. Pair it with `useDeferredSearch` (search.ts): typing never waits for the table.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import clsx from 'clsx';
import type { CSSProperties, ReactNode } from 'react';
import { memo, useRef } from 'react';

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
  columns: readonly VirtualColumn<T>[];
  style: CSSProperties | undefined;
  rowKey: string | number;
  testId: string | undefined;
}

function VirtualRowImpl<T>({ row, index, start, height, columns, style, rowKey, testId }: RowProps<T>) {
  return (
    <tr aria-rowindex={index + 2} style={{ ...style, height, transform: `translateY(${start}px)` }} data-row-key={rowKey} data-testid={testId}>
      {columns.map((c) => (
        <td key={c.id} className={c.className}>
          {c.cell(row)}
        </td>
      ))}
    </tr>
  );
}
const VirtualRow = memo(VirtualRowImpl) as typeof VirtualRowImpl;

export function VirtualTable<T>({ label, columns, rows, rowKey, template, rowHeight = 32, maxHeight = 320, fill, stale, className, testId, rowTestId }: VirtualTableProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  // No React Compiler here: reading the virtualizer during render is how TanStack Virtual works.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({ count: rows.length, getScrollElement: () => ref.current, estimateSize: () => rowHeight, overscan: 6, initialRect: { width: 700, height: maxHeight } });
  const height = Math.min(maxHeight, rowHeight * rows.length + 34);
  // One style object for every row and render: the memoized rows compare it by identity.
  const templateStyle = useRef<{ template: string | undefined; style: CSSProperties | undefined }>({ template: undefined, style: undefined });
  if (templateStyle.current.template !== template || (template && !templateStyle.current.style)) templateStyle.current = { template, style: template ? { gridTemplateColumns: template } : undefined };
  const rowStyle = templateStyle.current.style;
  return (
    <div className={clsx('virtual-table-wrap', fill && 'virtual-table-fill', stale && 'stale', className)} ref={ref} style={fill ? undefined : { maxHeight, height }} data-testid={testId}>
      <table className="table virtual-table" aria-label={label} aria-rowcount={rows.length + 1}>
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
            // Keyed by place in the window, not by rowKey: a new answer updates the rows in view in place.
            return <VirtualRow key={item.index} row={row} index={item.index} start={item.start} height={rowHeight} columns={columns} style={rowStyle} rowKey={rowKey(row)} testId={rowTestId?.(row)} />;
          })}
        </tbody>
      </table>
    </div>
  );
}
