/**
 * A simple read-only table whose rows are virtualized (TanStack Virtual): any number of rows,
 * only the visible ones in the DOM. Columns share one CSS grid template. With `wrap`, long text
 * wraps and each row is as tall as its text (rows are measured as they are drawn) instead of
 * being cut to one line.
 */
import { measureElement, useVirtualizer } from '@tanstack/react-virtual';
import type { ReactNode } from 'react';
import { useRef } from 'react';

export interface VirtualColumn<T> {
  id: string;
  header: string;
  cell(row: T): ReactNode;
}

export interface VirtualTableProps<T> {
  label: string;
  columns: readonly VirtualColumn<T>[];
  rows: readonly T[];
  rowKey(row: T): string | number;
  /** grid-template-columns of every row. */
  template: string;
  rowHeight?: number;
  /** Rows grow with their text (wrapped), instead of one line each. */
  wrap?: boolean;
  maxHeight?: number;
  testId?: string;
  rowTestId?(row: T): string;
}

export function VirtualTable<T>({ label, columns, rows, rowKey, template, rowHeight = 32, wrap = false, maxHeight = 320, testId, rowTestId }: VirtualTableProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  // No React Compiler here: reading the virtualizer during render is how TanStack Virtual works.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => ref.current,
    estimateSize: () => rowHeight,
    // A drawn row is never 0 px tall; where nothing is laid out (tests) it keeps its estimate.
    ...(wrap ? { measureElement: (el: Element, entry: ResizeObserverEntry | undefined, v: Parameters<typeof measureElement>[2]) => measureElement(el, entry, v) || rowHeight } : {}),
    getItemKey: (i) => rowKey(rows[i]!),
    overscan: 6,
    initialRect: { width: 700, height: maxHeight },
  });
  const height = Math.min(maxHeight, virtualizer.getTotalSize() + 34);
  return (
    <div className="virtual-table-wrap" ref={ref} style={{ maxHeight, height }} data-testid={testId}>
      <table className={wrap ? 'table virtual-table virtual-table-wraps' : 'table virtual-table'} aria-label={label} aria-rowcount={rows.length + 1}>
        <thead>
          <tr style={{ gridTemplateColumns: template }}>
            {columns.map((c) => (
              <th key={c.id}>{c.header}</th>
            ))}
          </tr>
        </thead>
        <tbody style={{ height: virtualizer.getTotalSize() }}>
          {virtualizer.getVirtualItems().map((item) => {
            const row = rows[item.index]!;
            return (
              <tr
                key={rowKey(row)}
                ref={wrap ? virtualizer.measureElement : undefined}
                data-index={item.index}
                aria-rowindex={item.index + 2}
                style={{ gridTemplateColumns: template, ...(wrap ? { minHeight: rowHeight } : { height: rowHeight }), transform: `translateY(${item.start}px)` }}
                data-testid={rowTestId?.(row)}
              >
                {columns.map((c) => (
                  <td key={c.id}>{c.cell(row)}</td>
                ))}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
