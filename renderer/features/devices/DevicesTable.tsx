/**
 * The devices table: the shared sortable virtualized table (components/DataTable.tsx, its fast
 * path described there) over the devices' index. Search, filters and sorting run on the
 * precomputed index (device-index.ts); the table asks for the devices of the rows in view only.
 * Narrow containers hide the least important columns first (container queries in
 * devices-table.css; the name, Status and Reachability always stay).
 */
import { createColumnHelper } from '@tanstack/react-table';
import { useCallback } from 'react';
import type { DeviceView } from '../../../shared/model/inventory';
import { DataTable } from '../../components/DataTable';
import { countryLabel, serialOf, type DeviceIndex, type DeviceSort, type SortKey } from './device-index';
import { ReachChip, StatusChip, SyncChip } from '../../components/StatusChip';

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

const CLASSES = { scroll: 'devices-scroll', table: 'devices-table', grid: 'devices-grid', row: 'device-row' };
const TEST_IDS = { scroll: 'devices-scroll', table: 'devices-table', row: 'device-row' };
const rowAttributes = (d: DeviceView) => ({ data: { 'data-device': d.deviceName } });
const none = <p className="devices-none muted">No device matches.</p>;

export function DevicesTable({ index, rows, sort, onSort, onOpen, stale }: DevicesTableProps) {
  const rowAt = useCallback((i: number) => index.devices[rows[i]!]!, [index, rows]);
  return (
    <DataTable<DeviceView, SortKey>
      label="Devices"
      columns={columns}
      count={rows.length}
      rowAt={rowAt}
      answer={rows}
      sort={sort}
      onSort={onSort}
      onOpen={onOpen}
      stale={stale}
      rowHeight={ROW_HEIGHT}
      classes={CLASSES}
      testIds={TEST_IDS}
      rowAttributes={rowAttributes}
      empty={none}
    />
  );
}
