/**
 * The organizations as a table, in hierarchy order: parent, own plan, plan in force (and where it
 * comes from), children, devices. Virtualized with the app's one virtualized table (components/Table.tsx):
 * thousands of organizations, a search per keystroke, only the rows in view in the DOM.
 */
import type { OrganizationView } from '../../../shared/model/inventory';
import { formatCount } from '../../components/format';
import { Table, type TableColumn } from '../../components/Table';

const dash = <span className="muted">—</span>;
const notCounted = (
  <span className="muted" title="Refresh the devices to count them">
    —
  </span>
);

const baseColumns: TableColumn<OrganizationView>[] = [
  {
    id: 'name',
    header: 'Name',
    cell: (o) => (
      <span className="strong ellipsis" style={{ paddingLeft: o.depth * 14 }} title={o.name}>
        {o.name}
      </span>
    ),
  },
  { id: 'parent', header: 'Parent', className: 'col-parent', cell: (o) => (o.parent ? <span className="ellipsis" title={o.parent}>{o.parent}</span> : dash) },
  { id: 'plan', header: 'Own plan', className: 'col-own-plan', cell: (o) => (o.subscriptionPlan ? <span className="ellipsis" title={o.subscriptionPlan}>{o.subscriptionPlan}</span> : <span className="muted">none (inherits)</span>) },
  {
    id: 'effective',
    header: 'Plan in force',
    cell: (o) => (
      <span className="ellipsis" title={o.inheritedFrom ? `${o.effectivePlan ?? ''} · inherited from ${o.inheritedFrom}` : (o.effectivePlan ?? undefined)}>
        {o.effectivePlan ?? <span className="muted">no plan</span>}
        {o.inheritedFrom ? <span className="muted small"> · inherited from {o.inheritedFrom}</span> : null}
      </span>
    ),
  },
  { id: 'children', header: 'Children', className: 'num', cell: (o) => formatCount(o.children) },
];
const devicesColumn = (known: boolean): TableColumn<OrganizationView> => ({ id: 'devices', header: 'Devices', className: 'num', cell: (o) => (known ? formatCount(o.devices) : notCounted) });
// Stable per value: the memoized rows compare their columns by identity.
const columnsKnown = [...baseColumns, devicesColumn(true)];
const columnsUnknown = [...baseColumns, devicesColumn(false)];

export function OrgList({ orgs, devicesKnown = true, stale }: { orgs: readonly OrganizationView[]; devicesKnown?: boolean; stale?: boolean }) {
  if (orgs.length === 0) return <p className="empty">No organization matches.</p>;
  return (
    <Table
      label="Organizations"
      className="org-table"
      columns={devicesKnown ? columnsKnown : columnsUnknown}
      rows={orgs}
      rowKey={(o) => o.name}
      rowHeight={36}
      size="fill"
      stale={stale}
      testIds={{ scroll: 'org-list' }}
      rowTestId={(o) => `org-row-${o.name}`}
    />
  );
}
