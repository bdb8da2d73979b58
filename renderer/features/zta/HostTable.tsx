/**
 * The assessment-by-host table: the app's one virtualized table (components/Table.tsx, its fast
 * path) over the snapshot's index. Filtering and sorting run on the index
 * (zta-index.ts); the table asks for the hosts of the rows in view only (`snapshotRow` of ~40
 * rows), so 100,000 hosts cost nothing per render, and a new answer rewrites the rows in view in
 * place. Keyboard: the focused row moves with the arrows, Home/End and PageUp/PageDown; Enter
 * opens the host's details.
 */
import { memo, useCallback, useLayoutEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { Vendor } from '../../../shared/model/edr';
import { snapshotRow, type ZtaRow, type ZtaSnapshot } from '../../../shared/model/zta';
import { Table, type TableSort } from '../../components/Table';
import { useNow } from '../../components/useNow';
import { useTimeFormat } from '../../components/useTimeFormat';
import { fitColumns, HOST_COLUMNS, hostCell, sameHostCell, type HostCell, type HostColumn, type HostMeta } from './host-columns';
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
  /** The columns shown (ids of HOST_COLUMNS), those that fit the table's width. */
  visible: ReadonlySet<ZtaSortKey>;
  /** The name of each of the snapshot's customers where one is known (customer-names.ts). */
  customerNames: ReadonlyArray<string | undefined>;
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
export const HostTable = memo(function HostTable({ shown, stored, rows, sort, onSort, onOpen, visible, customerNames, vendor, stale }: HostTableProps) {
  const rowAt = useCallback((i: number) => hostCell(shown, stored, snapshotRow(shown, rows[i]!)), [shown, stored, rows]);
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
  const ids = shown.customers;
  const customers = useMemo(() => new Map(ids.map((id, k) => [id, customerNames[k]])), [ids, customerNames]);
  const meta = useMemo<HostMeta>(() => ({ tf, now, customers }), [tf, now, customers]);
  // Back to the top when a filter or the sort changes what is shown, not when the what-if only rescored.
  const answer = `${rows.length}:${rows[0] ?? -1}:${sort.key}:${sort.desc}`;
  return (
    <div className="zta-frame" ref={frame} style={frameStyle}>
      <Table<HostCell, HostMeta, ZtaSortKey>
        label="Assessment by host"
        columns={columns}
        count={rows.length}
        rowAt={rowAt}
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
