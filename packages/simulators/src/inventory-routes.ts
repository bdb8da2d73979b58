/**
 * The inventory's HTTP routes on the management node simulator: organizations (custom and YANG),
 * devices and tasks (device-routes.ts), appliances (appliances.ts) and syslog servers. The model
 * they serve is SimInventory (inventory.ts), which knows nothing of HTTP.
 */
import { applianceRoutes } from './appliances';
import { deviceRoutes } from './device-routes';
import { organizationRecord, plansInForce } from './device-wire';
import { compareNames } from './devices';
import type { SimInventory } from './inventory';
import { listReply, pageOf } from './paging';
import type { Handler, Route, SimContext } from './routes';
import { syslogRoute } from './syslog';

export function inventoryRoutes(ctx: SimContext, inv: SimInventory): { mgmt: Route[]; api: Route[] } {
  // Issue 8: the recorded list order (case-insensitive by name, so children may come before their
  // parents) and record shape (device-wire.ts); seeds never change, so this is computed once.
  const plans = plansInForce(inv.organizations);
  const wireOrgs = [...inv.organizations].sort((a, b) => compareNames(a.name, b.name)).map((o) => organizationRecord(o, plans.get(o.name) ?? null));
  const listOrgs: Handler = (req) => {
    let page: Array<Record<string, unknown>> = pageOf(req.query, ctx.faults, (offset, size) => wireOrgs.slice(offset, offset + size));
    if (Number(req.query.get('offset') ?? 0) === 0) page = ctx.faults.firstPage('organizations', page);
    return listReply(ctx, page.length === 0, { totalCount: wireOrgs.length, organizations: page });
  };

  // MN-35, MN-46: kebab-case; an inherited plan is not sent at all.
  const yangOrgs: Handler = () => {
    const organization = inv.organizations.map((o) => ({
      name: o.name,
      uuid: o.uuid,
      ...(o.parent ? { 'parent-org': o.parent } : {}),
      ...(o.subscriptionPlan !== null ? { 'subscription-plan': o.subscriptionPlan } : {}),
    }));
    return listReply(ctx, organization.length === 0, { organization });
  };

  return {
    mgmt: [{ pattern: '/mgmt/organization/orgs', style: 'custom', auth: 'data', methods: { GET: listOrgs } }, ...deviceRoutes(ctx, inv), ...applianceRoutes(ctx, inv)],
    api: [{ pattern: '/api/config/nms/provider/organizations/organization', style: 'yang', auth: 'data', methods: { GET: yangOrgs } }, syslogRoute(inv.syslogServers)],
  };
}
