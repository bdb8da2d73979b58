/**
 * The assessment-by-host table: the app's one virtualized table (components/Table.tsx, its fast
 * path) over a source of cells: the store's windows (useHostWindow.ts: filtered, searched and
 * sorted in the store, only the pages in view read), or under a what-if the tenant's rescored
 * snapshot (its index, zta-index.ts). The table asks for the rows in view only, so a million hosts
 * cost nothing per render, and a new answer rewrites the rows in view in place. Keyboard: the focused row moves with the arrows, Home/End and PageUp/PageDown; Enter
 * opens the host's details.
 */
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { Vendor } from '../../../shared/model/edr';
import type { ZtaRow } from '../../../shared/model/zta';
import { Table, type TableSort } from '../../components/Table';
import { useNow } from '../../components/useNow';
import { useTimeFormat } from '../../components/useTimeFormat';
import { fitColumns, HOST_COLUMNS, sameHostCell, type HostCell, type HostColumn, type HostMeta } from './host-columns';
import type { ZtaSort, ZtaSortKey } from './zta-index';

export const ROW_HEIGHT = 36;

export interface HostTableProps {
  /** Rows in the answer. */
  count: number;
  /** The cell at a position of the answer; undefined: not read yet (a loading row). */
  cellAt(index: number): HostCell | undefined;
  /** What the rows answer: when it changes the table goes back to the top (not when the what-if only rescored). */
  answer: string;
  /** The rows in view changed (the windows read those pages). */
  onRange?(range: { start: number; end: number }): void;
  sort: ZtaSort;
  onSort(sort: ZtaSort): void;
  onOpen(row: ZtaRow): void;
  /** The columns shown (ids of HOST_COLUMNS), those that fit the table's width. */
  visible: ReadonlySet<ZtaSortKey>;
  /** Customer ID → its name where one is known (customer-names.ts). */
  customerNames: ReadonlyMap<string, string | undefined>;
  /** The one vendor of the hosts the filters choose (its words head the assessment columns). */
  vendor?: Vendor | undefined;
  /** True while a newer filter is being applied (the rows shown are the previous answer). */
  stale?: boolean;
}

const CLASSES = { scroll: 'zta-scroll', table: 'zta-table', grid: 'zta-grid', row: 'zta-row' };
const TEST_IDS = { scroll: 'zta-scroll', table: 'zta-table' };
const rowTestId = () => 'zta-row';
const rowAttributes = (c: HostCell) => ({ className: c.stored ? 'zta-row-changed' : undefined, data: { 'data-host': c.row.hostId } });
const none = <p className="zta-none muted">No host matches these filters.</p>;

/** Memoised: typing in the search box re-renders the page at once, the table only when its rows arrive. */
export const HostTable = memo(function HostTable({ count, cellAt, answer, onRange, sort, onSort, onOpen, visible, customerNames: customers, vendor, stale }: HostTableProps) {
  const open = useCallback((c: HostCell) => onOpen(c.row), [onOpen]);
  const frame = useRef<HTMLDivElement>(null);
  const width = useFrameWidth(frame);
  const chosen = useMemo(() => HOST_COLUMNS.filter((c) => visible.has(c.id)).map((c) => headedFor(c, vendor)), [visible, vendor]);
  const fit = useMemo(() => fitColumns(chosen, width), [chosen, width]);
  const columns = fit.columns;
  const template = useMemo(() => columns.map((c) => c.width).join(' '), [columns]);
  const frameStyle = useMemo(() => ({ '--zta-min': `${fit.min}px` }) as CSSProperties, [fit.min]);
  // The window's time formatter and clock, and the customers' names, read once by the table rather than by every cell.
  const tf = useTimeFormat();
  const now = useNow();
  const meta = useMemo<HostMeta>(() => ({ tf, now, customers }), [tf, now, customers]);
  return (
    <div className="zta-frame" ref={frame} style={frameStyle} data-answer={stale ? undefined : answer}>
      <Table<HostCell, HostMeta, ZtaSortKey>
        label="Assessment by host"
        columns={columns}
        count={count}
        rowAt={cellAt}
        onRange={onRange}
        sameItem={sameHostCell}
        answer={answer}
        sort={sort as TableSort<ZtaSortKey>}
        onSort={onSort}
        onOpen={open}
        template={template}
        meta={meta}
        stale={stale}
        rowHeight={ROW_HEIGHT}
        classes={CLASSES}
        testIds={TEST_IDS}
        rowTestId={rowTestId}
        rowAttributes={rowAttributes}
        empty={none}
      />
    </div>
  );
});

/** A column headed by its vendor's word, and as narrow as that needs, when the rows are all of one vendor. */
function headedFor(c: HostColumn, vendor: Vendor | undefined): HostColumn {
  const own = vendor ? c.byVendor?.[vendor] : undefined;
  return own ? { ...c, header: own.header, min: own.min, width: `${own.min}px` } : c;
}

/**
 * The width the table's rows have (its scroller's, less its border and scrollbar), followed as the
 * window or a side panel changes it; 0 until measured (every column is kept then).
 */
function useFrameWidth(frame: { current: HTMLDivElement | null }): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const scroller = frame.current?.querySelector<HTMLElement>('.zta-scroll');
    if (!scroller) return;
    const read = () => setWidth(scroller.clientWidth);
    read();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(read);
    observer.observe(scroller);
    return () => observer.disconnect();
  }, [frame]);
  return width;
}
