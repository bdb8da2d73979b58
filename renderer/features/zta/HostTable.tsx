/**
 * The assessment-by-host table: the app's one virtualized table (components/Table.tsx, its fast
 * path) over the snapshot's index. Filtering and sorting run on the index
 * (zta-index.ts); the table asks for the hosts of the rows in view only (`snapshotRow` of ~40
 * rows), so 100,000 hosts cost nothing per render, and a new answer rewrites the rows in view in
 * place. Keyboard: the focused row moves with the arrows, Home/End and PageUp/PageDown; Enter
 * opens the host's details.
 */
import { memo, useCallback, useMemo } from 'react';
import { snapshotRow, type ZtaRow, type ZtaSnapshot } from '../../../shared/model/zta';
import { Table, type TableSort } from '../../components/Table';
import { useNow } from '../../components/useNow';
import { useTimeFormat } from '../../components/useTimeFormat';
import { HOST_COLUMNS, hostCell, sameHostCell, type HostCell, type HostMeta } from './host-columns';
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

const CLASSES = { scroll: 'zta-scroll', table: 'zta-table', grid: 'zta-grid', row: 'zta-row' };
const TEST_IDS = { scroll: 'zta-scroll', table: 'zta-table' };
const rowTestId = () => 'zta-row';
const rowAttributes = (c: HostCell) => ({ className: c.stored ? 'zta-row-changed' : undefined, data: { 'data-host': c.row.hostId } });
const none = <p className="zta-none muted">No host matches these filters.</p>;

/** Memoised: typing in the search box re-renders the page at once, the table only when its rows arrive. */
export const HostTable = memo(function HostTable({ shown, stored, rows, sort, onSort, onOpen, visible, stale }: HostTableProps) {
  const rowAt = useCallback((i: number) => hostCell(shown, stored, snapshotRow(shown, rows[i]!)), [shown, stored, rows]);
  const open = useCallback((c: HostCell) => onOpen(c.row), [onOpen]);
  const columns = useMemo(() => HOST_COLUMNS.filter((c) => visible.has(c.id)), [visible]);
  const template = useMemo(() => columns.map((c) => c.width).join(' '), [columns]);
  // The window's time formatter and clock, read once by the table rather than by every cell.
  const tf = useTimeFormat();
  const now = useNow();
  const meta = useMemo<HostMeta>(() => ({ tf, now }), [tf, now]);
  // Back to the top when a filter or the sort changes what is shown, not when the what-if only rescored.
  const answer = `${rows.length}:${rows[0] ?? -1}:${sort.key}:${sort.desc}`;
  return (
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
  );
});
