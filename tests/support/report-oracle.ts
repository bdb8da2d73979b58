/**
 * The risk report as it was computed before issue 25.3 (C-95) from the whole snapshot (zta.snapshot),
 * kept as the tests' reference: the report now reads the store's facets, counts, a window and the
 * overview, and must print what this computes from every host. Built on the shared rules the snapshot
 * views use (makeRowFilter, rowsInOrder, snapshotRow, customerNames), not on the report's code.
 */
import { BANDS, NOT_ASSESSED_INDEX, emptyBandCounts, makeRowFilter, newestAsOf, rowsInOrder, snapshotRow, type ZtaChanges, type ZtaFilter, type ZtaSnapshot } from '../../shared/model/zta';
import { customerNames } from '../../renderer/features/zta/customer-names';
import { CUSTOMERS_LISTED, RISKIEST, type CustomerBands, type ReportModel } from '../../renderer/features/zta/report/report-model';

export function reportOfSnapshot(s: ZtaSnapshot, filter: ZtaFilter): ReportModel {
  const connectors = s.connectors.filter((c) => (filter.vendor === undefined || c.vendor === filter.vendor) && (filter.connector === undefined || c.connectorId === filter.connector));
  const keep = makeRowFilter(s, filter);
  const bands = emptyBandCounts();
  const perCustomer = new Map<number, CustomerBands>();
  const names = customerNames(s);
  let total = 0;
  for (let i = 0; i < s.rows.hostId.length; i++) {
    if (!keep(i)) continue;
    total += 1;
    const band = BANDS[s.rows.band[i]!] ?? 'Trustworthy';
    bands[band] += 1;
    const ci = s.rows.customer[i]!;
    let c = perCustomer.get(ci);
    if (!c) perCustomer.set(ci, (c = { customerId: s.customers[ci] ?? '', ...(names[ci] ? { name: names[ci] } : {}), total: 0, bands: emptyBandCounts() }));
    c.total += 1;
    c.bands[band] += 1;
  }
  const customers = [...perCustomer.values()].sort((a, b) => b.total - a.total || a.customerId.localeCompare(b.customerId));
  const riskiest = rowsInOrder(s, filter)
    .filter((i) => s.rows.band[i] !== NOT_ASSESSED_INDEX)
    .slice(0, RISKIEST)
    .map((i) => snapshotRow(s, i));
  const named = new Map<string, string>();
  s.customers.forEach((id, k) => names[k] && named.set(id, names[k]));
  return { connectors, asOf: newestAsOf(connectors), total, exact: true, bands, customers: customers.slice(0, CUSTOMERS_LISTED), moreCustomers: Math.max(0, customers.length - CUSTOMERS_LISTED), riskiest, customerNames: named };
}

/** The changes whose host's current row (in the snapshot) passes the filter; `moved` unchanged. */
export function changesOfSnapshot(s: ZtaSnapshot, filter: ZtaFilter, changes: ZtaChanges): ZtaChanges {
  const keep = makeRowFilter(s, filter);
  const shown = new Set<string>();
  for (let i = 0; i < s.rows.hostId.length; i++) if (keep(i)) shown.add(`${s.connectors[s.rows.connector[i]!]!.connectorId}\u0000${s.rows.hostId[i]}`);
  const inScope = (list: ZtaChanges['enteredHighRisk']) => list.filter((m) => shown.has(`${m.connectorId}\u0000${m.hostId}`));
  return { enteredHighRisk: inScope(changes.enteredHighRisk), leftHighRisk: inScope(changes.leftHighRisk), biggestMovers: inScope(changes.biggestMovers), moved: changes.moved };
}
