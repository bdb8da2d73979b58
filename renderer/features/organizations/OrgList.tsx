/** The organizations as a table, in hierarchy order: parent, own plan, plan in force (and where it comes from), children, devices. */
import type { OrganizationView } from '../../../shared/model/inventory';
import { formatCount } from '../../components/format';

export function OrgList({ orgs, devicesKnown = true }: { orgs: readonly OrganizationView[]; devicesKnown?: boolean }) {
  if (orgs.length === 0) return <p className="empty">No organization matches.</p>;
  return (
    <div className="table-wrap org-table-wrap">
      <table className="table org-table" aria-label="Organizations" data-testid="org-list">
        <thead>
          <tr>
            <th>Name</th>
            <th className="col-parent">Parent</th>
            <th className="col-own-plan">Own plan</th>
            <th>Plan in force</th>
            <th className="num">Children</th>
            <th className="num">Devices</th>
          </tr>
        </thead>
        <tbody>
          {orgs.map((o) => (
            <tr key={o.name} data-testid={`org-row-${o.name}`}>
              <td className="strong" style={{ paddingLeft: `${12 + o.depth * 14}px` }}>
                {o.name}
              </td>
              <td className="col-parent">{o.parent ?? <span className="muted">—</span>}</td>
              <td className="col-own-plan">{o.subscriptionPlan ?? <span className="muted">none (inherits)</span>}</td>
              <td>
                {o.effectivePlan ?? <span className="muted">no plan</span>}
                {o.inheritedFrom ? <span className="muted small"> · inherited from {o.inheritedFrom}</span> : null}
              </td>
              <td className="num">{formatCount(o.children)}</td>
              <td className="num">{devicesKnown ? formatCount(o.devices) : <span className="muted" title="Refresh the devices to count them">—</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
