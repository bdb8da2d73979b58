/**
 * The devices table: the app's one virtualized table (components/Table.tsx, its fast
 * path described there) over the store's windows. Search, filters and sorting run in the store
 * (issue 25.3, C-99; useDeviceWindow.ts); the table asks for the devices of the rows in view only,
 * and a row not read yet is a loading row.
 * Narrow containers hide the least important columns first (container queries in
 * devices-table.css; the name, Status and Reachability always stay).
 */
import type { ReactNode } from 'react';
import type { DeviceView } from '../../../shared/model/inventory';
import { Table, type TableColumn } from '../../components/Table';
import { countryLabel, serialOf, type DeviceSort, type SortKey } from '../../../shared/model/device-window';
import { ReachChip, StatusChip, SyncChip } from '../../components/StatusChip';

export const ROW_HEIGHT = 36;
/** A column whose cells and header carry `col-<id>` (the widths and container queries of devices-table.css). */
const col = (id: SortKey, header: string, cell: (d: DeviceView) => ReactNode): TableColumn<DeviceView> => ({ id, header, cell, className: `col-${id}` });

/** A value the node did not send (a real node's list carries no organization, group or serial). */
const unknown = <span className="muted" title="Not in the node's list; open the device to fetch its record">—</span>;
const orUnknown = (v: string | null, className?: string) => (v ? <span className={className} title={v}>{v}</span> : unknown);

const columns: readonly TableColumn<DeviceView>[] = [
  col('deviceName', 'Device name', (d) => <span className="strong">{d.deviceName}</span>),
  col('siteId', 'Site ID', (d) => orUnknown(d.siteId, 'mono')),
  col('orgName', 'Organization', (d) => orUnknown(d.orgName)),
  col('deviceGroup', 'Device group', (d) => orUnknown(d.deviceGroup)),
  col('country', 'Country', (d) => orUnknown(countryLabel(d.locationInfo?.country ?? ''))),
  col('serialNumber', 'Serial number', (d) => orUnknown(serialOf(d), 'mono')),
  col('deploymentStatus', 'Status', (d) => <StatusChip status={d.deploymentStatus} />),
  col('reachability', 'Reachability', (d) => <ReachChip value={d.appliance?.reachability} />),
  col('configSync', 'Config sync', (d) => <SyncChip value={d.appliance?.configSync} />),
];

export interface DevicesTableProps {
  /** Devices matching. */
  count: number;
  /** The device at a position; undefined: not read yet. */
  rowAt(index: number): DeviceView | undefined;
  /** What the rows answer (a new one goes back to the top). */
  answer: string;
  /** The rows in view changed (the window reads their pages). */
  onRange(range: { start: number; end: number }): void;
  sort: DeviceSort;
  onSort(sort: DeviceSort): void;
  onOpen(device: DeviceView): void;
  /** True while a newer search is being applied (the shown rows are the previous answer). */
  stale?: boolean;
}

const CLASSES = { scroll: 'devices-scroll', table: 'devices-table', grid: 'devices-grid', row: 'device-row' };
const TEST_IDS = { scroll: 'devices-scroll', table: 'devices-table' };
const rowTestId = () => 'device-row';
const rowAttributes = (d: DeviceView) => ({ data: { 'data-device': d.deviceName } });
const none = <p className="devices-none muted">No device matches.</p>;

export function DevicesTable({ count, rowAt, answer, onRange, sort, onSort, onOpen, stale }: DevicesTableProps) {
  return (
    <Table<DeviceView, undefined, SortKey>
      label="Devices"
      columns={columns}
      count={count}
      rowAt={rowAt}
      answer={answer}
      onRange={onRange}
      sort={sort}
      onSort={onSort}
      onOpen={onOpen}
      stale={stale}
      rowHeight={ROW_HEIGHT}
      classes={CLASSES}
      testIds={TEST_IDS}
      rowTestId={rowTestId}
      rowAttributes={rowAttributes}
      empty={none}
    />
  );
}
