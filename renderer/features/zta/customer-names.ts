/**
 * The names of a snapshot's customers (issue 22.7: customer and tenant names where known). The
 * vendors send a customer ID only (Falcon's CID, Defender's Entra tenant ID); the name is the
 * operator's own, the connector's: a customer whose hosts all come from connectors that carry no
 * other customer is named by them, and so is a customer ID that is a connector's tenant (a Falcon
 * parent's own CID among its children's). Otherwise the customer has no known name and the views
 * show its shortened ID. A connector named by default ("CrowdStrike Falcon · <tenant ID>") is named
 * with the ID shortened.
 */
import { tenantOf } from '../../../shared/model/connector-secret';
import type { ZtaSnapshot } from '../../../shared/model/zta';
import { shortId } from '../../components/ids';

/** A connector's name, the tenant ID at its end shortened when it is the default name. */
export function connectorLabel(c: { name: string; tenantId: string }): string {
  const tail = ` · ${c.tenantId}`;
  return c.name.endsWith(tail) && c.tenantId.length > 0 ? `${c.name.slice(0, -tail.length)} · ${shortId(c.tenantId)}` : c.name;
}

/** The name of each of `s.customers` (same index), undefined where none is known. One pass over the rows. */
export function customerNames(s: Pick<ZtaSnapshot, 'customers' | 'connectors'> & { rows: Pick<ZtaSnapshot['rows'], 'customer' | 'connector'> }): Array<string | undefined> {
  const { customer, connector } = s.rows;
  const byCustomer = s.customers.map(() => new Set<number>());
  const byConnector = s.connectors.map(() => new Set<number>());
  for (let i = 0; i < customer.length; i++) {
    byCustomer[customer[i]!]?.add(connector[i]!);
    byConnector[connector[i]!]?.add(customer[i]!);
  }
  const tenants = new Map<string, number>();
  s.connectors.forEach((c, k) => tenants.set(`${c.vendor}:${tenantOf(c.vendor, c.tenantId)}`, k));
  return s.customers.map((id, k) => {
    const connectors = [...byCustomer[k]!];
    if (connectors.length > 0 && connectors.every((c) => byConnector[c]!.size === 1)) {
      return [...new Set(connectors.map((c) => connectorLabel(s.connectors[c]!)))].sort().join(', ');
    }
    for (const c of connectors) {
      const own = tenants.get(`${s.connectors[c]!.vendor}:${tenantOf(s.connectors[c]!.vendor, id)}`);
      if (own !== undefined) return connectorLabel(s.connectors[own]!);
    }
    return undefined;
  });
}
