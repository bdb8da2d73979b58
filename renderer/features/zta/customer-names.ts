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
import type { ZtaConnector, ZtaSnapshot } from '../../../shared/model/zta';
import { shortId } from '../../components/ids';

/** A connector's name, the tenant ID at its end shortened when it is the default name. */
export function connectorLabel(c: { name: string; tenantId: string }): string {
  const tail = ` · ${c.tenantId}`;
  return c.name.endsWith(tail) && c.tenantId.length > 0 ? `${c.name.slice(0, -tail.length)} · ${shortId(c.tenantId)}` : c.name;
}

/** The name of each of `s.customers` (same index), undefined where none is known. One pass over the rows. */
export function customerNames(s: Pick<ZtaSnapshot, 'customers' | 'connectors'> & { rows: Pick<ZtaSnapshot['rows'], 'customer' | 'connector'> }): Array<string | undefined> {
  const { customer, connector } = s.rows;
  const pairs: Array<[number, number]> = [];
  const seen = new Set<number>();
  for (let i = 0; i < customer.length; i++) {
    const key = customer[i]! * 65_536 + connector[i]!;
    if (seen.has(key)) continue;
    seen.add(key);
    pairs.push([customer[i]!, connector[i]!]);
  }
  return customerNamesOf(s.customers, s.connectors, pairs);
}

/**
 * The name of each customer (same index), from the pairs of a customer and a connector that has
 * hosts of it (indexes into `customers` and `connectors`): the snapshot's rows, or the store's
 * counts by connector and customer (zta.facets).
 */
export function customerNamesOf(customers: readonly string[], connectors: ReadonlyArray<Pick<ZtaConnector, 'name' | 'tenantId' | 'vendor'>>, pairs: Iterable<readonly [number, number]>): Array<string | undefined> {
  const byCustomer = customers.map(() => new Set<number>());
  const byConnector = connectors.map(() => new Set<number>());
  for (const [cu, co] of pairs) {
    byCustomer[cu]?.add(co);
    byConnector[co]?.add(cu);
  }
  const tenants = new Map<string, number>();
  connectors.forEach((c, k) => tenants.set(`${c.vendor}:${tenantOf(c.vendor, c.tenantId)}`, k));
  return customers.map((id, k) => {
    const mine = [...byCustomer[k]!];
    if (mine.length > 0 && mine.every((c) => byConnector[c]!.size === 1)) {
      return [...new Set(mine.map((c) => connectorLabel(connectors[c]!)))].sort().join(', ');
    }
    for (const c of mine) {
      const own = tenants.get(`${connectors[c]!.vendor}:${tenantOf(connectors[c]!.vendor, id)}`);
      if (own !== undefined) return connectorLabel(connectors[own]!);
    }
    return undefined;
  });
}
