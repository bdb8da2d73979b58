/**
 * What the dashboard knows before any host is read (zta.facets, C-78): each connector's newest
 * cycle's hosts by customer and platform, from the store's band counts. From them: the filters'
 * choices and their counts, the customers' names (customer-names.ts), how many hosts there are,
 * and which columns the structural filters bring into view (EDR-Z3) — the rows themselves come in
 * windows from the store (useHostWindow.ts).
 */
import type { ZtaFacets } from '../../../shared/contract-zta';
import type { Vendor } from '../../../shared/model/edr';
import { PLATFORMS, type ZtaFilter } from '../../../shared/model/zta';
import { shortId } from '../../components/ids';
import { connectorLabel, customerNamesOf } from './customer-names';
import type { AttributeColumn, SharedValues } from './host-columns';

export interface FilterFacets {
  customers: Array<{ id: string; label: string; hosts: number }>;
  /** Hosts per platform (PLATFORMS' order), of all customers and of each one. */
  platforms: Int32Array;
  byCustomer: ReadonlyMap<string, Int32Array>;
}

export interface FacetView {
  facets: ZtaFacets;
  /** Hosts in every connector's newest cycle. */
  total: number;
  /** Customer ID → its name where known (customer-names.ts). */
  names: ReadonlyMap<string, string | undefined>;
  /** The customer sort's order of customer IDs: by name where known, else by ID (as the table sorts them). */
  customerOrder: string[];
  filters: FilterFacets;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function facetView(f: ZtaFacets): FacetView {
  const ids: string[] = [];
  const index = new Map<string, number>();
  const pairs: Array<[number, number]> = [];
  const platforms = new Int32Array(PLATFORMS.length);
  const byCustomer = new Map<string, Int32Array>();
  const hosts = new Map<string, number>();
  const connectorsOf = new Map<string, Set<string>>();
  const labels = f.connectors.map(connectorLabel);
  let total = 0;
  for (const g of f.groups) {
    let k = index.get(g.customerId);
    if (k === undefined) {
      k = ids.push(g.customerId) - 1;
      index.set(g.customerId, k);
      byCustomer.set(g.customerId, new Int32Array(PLATFORMS.length));
      connectorsOf.set(g.customerId, new Set());
    }
    pairs.push([k, g.connector]);
    const p = PLATFORMS.indexOf(g.platform);
    platforms[p]! += g.hosts;
    byCustomer.get(g.customerId)![p]! += g.hosts;
    hosts.set(g.customerId, (hosts.get(g.customerId) ?? 0) + g.hosts);
    connectorsOf.get(g.customerId)!.add(labels[g.connector] ?? '');
    total += g.hosts;
  }
  const known = customerNamesOf(ids, f.connectors, pairs);
  const names = new Map(ids.map((id, k) => [id, known[k]]));
  const customers = ids
    .map((id, k) => ({ id, label: known[k] ? `${known[k]} (${shortId(id)})` : `${shortId(id)} — ${[...connectorsOf.get(id)!].join(', ')}`, hosts: hosts.get(id)! }))
    .sort((a, b) => byText(a.label, b.label));
  const customerOrder = [...ids].sort((a, b) => byText(names.get(a) ?? a, names.get(b) ?? b) || byText(a, b));
  return { facets: f, total, names, customerOrder, filters: { customers, platforms, byCustomer } };
}

/** The attribute columns each vendor's connectors fill (the vendors' records: Defender's machine and vulnerability fields, Falcon's sensor state). */
const VENDOR_COLUMNS: Record<Vendor, readonly AttributeColumn[]> = {
  defender: ['riskLevel', 'exposure', 'health', 'avStatus', 'cves'],
  falcon: ['sensor'],
};

/**
 * What the structural filters (customer, platform, vendor, connector) leave in view, from the
 * facets: the attribute columns its hosts' vendors fill, and whether they share one customer, one
 * platform, one vendor (EDR-Z3; with the rows in the store, decided by the groups, not the rows).
 */
export function structuralShape(v: FacetView, f: Pick<ZtaFilter, 'customer' | 'platform' | 'vendor' | 'connector'>): { presence: Set<AttributeColumn>; shared: SharedValues } {
  const customers = new Set<string>();
  const platforms = new Set<string>();
  const vendors = new Set<Vendor>();
  for (const g of v.facets.groups) {
    const c = v.facets.connectors[g.connector];
    if (!c) continue;
    if (f.customer !== undefined && g.customerId !== f.customer) continue;
    if (f.platform !== undefined && g.platform !== f.platform) continue;
    if (f.vendor !== undefined && c.vendor !== f.vendor) continue;
    if (f.connector !== undefined && c.connectorId !== f.connector) continue;
    customers.add(g.customerId);
    platforms.add(g.platform);
    vendors.add(c.vendor);
  }
  const presence = new Set<AttributeColumn>();
  for (const x of vendors) for (const col of VENDOR_COLUMNS[x]) presence.add(col);
  return { presence, shared: { customer: customers.size === 1, platform: platforms.size === 1, vendor: vendors.size === 1 ? [...vendors][0] : undefined } };
}
