/**
 * What the printable risk report shows (EDR-Z6), computed from the dashboard's snapshot with the
 * dashboard's own filter rule and order (shared/model/zta.ts): the connectors in scope, the band
 * distribution (overall and per customer), and the riskiest hosts. Pure, so tests compute the
 * expected report from the same snapshot.
 */
import { customerNames } from '../customer-names';
import type { Contribution, RiskBand } from '../../../../shared/model/edr';
import { BANDS, NOT_ASSESSED_INDEX, emptyBandCounts, makeRowFilter, rowsInOrder, snapshotRow, type BandCounts, type ZtaChanges, type ZtaConnector, type ZtaFilter, type ZtaRow, type ZtaSnapshot } from '../../../../shared/model/zta';

/** How many of the riskiest hosts the report lists, each with its reasons. */
export const RISKIEST = 20;
/** Customers listed in the per-customer distribution (the ones with the most hosts). */
export const CUSTOMERS_LISTED = 12;
/** Reasons given per host (its largest contributions). */
export const REASONS = 3;
/**
 * The most characters of one field from the network (a host name, a tenant, a connector's error)
 * the report prints; longer ones end with a visible mark (shared/text.ts `clipText`). One 1 MB host
 * name made the page too large to print (issue 20.6).
 */
export const REPORT_FIELD_MAX = 200;

/** The dashboard's band colours in the light theme (styles/zta.css `--band-0…4`): paper is light, so the report keeps them in both themes. */
export const BAND_COLORS: Readonly<Record<RiskBand, string>> = {
  Trustworthy: '#1f8a4c',
  'Low Risk': '#2f7fc1',
  'Moderate Risk': '#b88a00',
  Suspicious: '#d9661a',
  'High Risk': '#c62f36',
  'Not assessed': '#6b7280',
};

export interface CustomerBands {
  customerId: string;
  /** The customer's name where known (customer-names.ts), else undefined: the ID is shown. */
  name?: string;
  total: number;
  bands: BandCounts;
}

export interface ReportModel {
  /** The connectors the filter keeps (vendor, connector), with their as-of and health. */
  connectors: ZtaConnector[];
  /** The newest as-of among them; null when none has data. */
  asOf: string | null;
  /** Hosts the filter shows. */
  total: number;
  bands: BandCounts;
  /** Per customer, most hosts first (at most CUSTOMERS_LISTED); `more` customers are left out. */
  customers: CustomerBands[];
  moreCustomers: number;
  /** The riskiest hosts, in the table's order. */
  riskiest: ZtaRow[];
  /** Customer ID → name, where known (issue 22.7: names before IDs). */
  customerNames: ReadonlyMap<string, string>;
}

export function buildReport(s: ZtaSnapshot, filter: ZtaFilter): ReportModel {
  const connectors = s.connectors.filter((c) => (filter.vendor === undefined || c.vendor === filter.vendor) && (filter.connector === undefined || c.connectorId === filter.connector));
  const asOf = connectors.reduce<string | null>((max, c) => (c.asOf && (!max || c.asOf > max) ? c.asOf : max), null);
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
  // Hosts not assessed have no score: they are counted in their own band, never among the riskiest (EDR-N1).
  const riskiest = rowsInOrder(s, filter)
    .filter((i) => s.rows.band[i] !== NOT_ASSESSED_INDEX)
    .slice(0, RISKIEST)
    .map((i) => snapshotRow(s, i));
  const named = new Map<string, string>();
  s.customers.forEach((id, k) => names[k] && named.set(id, names[k]));
  return { connectors, asOf, total, bands, customers: customers.slice(0, CUSTOMERS_LISTED), moreCustomers: Math.max(0, customers.length - CUSTOMERS_LISTED), riskiest, customerNames: named };
}

/**
 * The changes of the newest cycles limited to the hosts the filters show: zta.overview narrows
 * them by connector and customer only, the report's platform, band and text too (a host is kept
 * when its current row passes). `moved` stays the count over the connectors and customer in scope.
 */
export function changesInScope(s: ZtaSnapshot, filter: ZtaFilter, changes: ZtaChanges): ZtaChanges {
  const keep = makeRowFilter(s, filter);
  const shown = new Set<string>();
  for (let i = 0; i < s.rows.hostId.length; i++) if (keep(i)) shown.add(`${s.connectors[s.rows.connector[i]!]!.connectorId}\u0000${s.rows.hostId[i]}`);
  const inScope = (list: ZtaChanges['enteredHighRisk']) => list.filter((m) => shown.has(`${m.connectorId}\u0000${m.hostId}`));
  return { enteredHighRisk: inScope(changes.enteredHighRisk), leftHighRisk: inScope(changes.leftHighRisk), biggestMovers: inScope(changes.biggestMovers), moved: changes.moved };
}

/** Why a host has its score: its contributions that add points, largest first (at most REASONS). */
export function reasonsOf(contributions: readonly Contribution[]): Contribution[] {
  return contributions
    .filter((c) => c.scoreShare > 0)
    .sort((a, b) => b.scoreShare - a.scoreShare)
    .slice(0, REASONS);
}

const PLATFORM_WORD: Readonly<Record<string, string>> = { Mac: 'macOS' };

/** The filters in words: "Customer contoso · Windows · High Risk hosts", or "All hosts". */
export function scopeWords(filter: ZtaFilter, connectors: readonly ZtaConnector[]): string {
  const parts: string[] = [];
  if (filter.connector) parts.push(connectors.find((c) => c.connectorId === filter.connector)?.name ?? 'one connector');
  if (filter.vendor) parts.push(filter.vendor === 'falcon' ? 'CrowdStrike Falcon' : 'Microsoft Defender');
  if (filter.customer) parts.push(`customer ${filter.customer}`);
  if (filter.platform) parts.push(PLATFORM_WORD[filter.platform] ?? filter.platform);
  if (filter.band) parts.push(filter.band);
  if (filter.q) parts.push(`matching “${filter.q}”`);
  return parts.length ? `Hosts: ${parts.join(' · ')}` : 'All hosts';
}

/** A share of a total as a whole percent ("<1 %" for a few hosts of many). */
export function percent(n: number, total: number): string {
  if (!total || !n) return '0 %';
  const p = (n / total) * 100;
  return p < 1 ? '<1 %' : `${Math.round(p)} %`;
}
