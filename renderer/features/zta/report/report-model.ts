/**
 * What the printable risk report shows (EDR-Z6), from the store's answers the dashboard reads too
 * (issue 25.3, C-95): the connectors (zta.facets) in scope, the band distribution overall and per
 * customer (zta.counts of the report's filter), and the riskiest hosts (the first rows of zta.window
 * in the default order). Nothing here reads every host. Pure, so tests give it the answers.
 */
import type { ZtaCounts, ZtaFacets, ZtaWindow } from '../../../../shared/contract-zta';
import type { Contribution, RiskBand } from '../../../../shared/model/edr';
import { type BandCounts, type ZtaChanges, type ZtaConnector, type ZtaFilter, type ZtaRow, newestAsOf } from '../../../../shared/model/zta';
import { storeMatches, storeSearch } from '../../../../shared/model/zta-window';
import { facetView } from '../facets';
import { connectorsById, riskiestRows } from '../useHostWindow';

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
  /** Hosts the filter shows; with `exact` false, at least this many (a search the store stopped counting, C-79). */
  total: number;
  /** False: `total`, `bands` and `customers` are lower bounds, the counts of `total` of the matching hosts. */
  exact: boolean;
  bands: BandCounts;
  /** Per customer, most hosts first (at most CUSTOMERS_LISTED); `more` customers are left out. */
  customers: CustomerBands[];
  moreCustomers: number;
  /** The riskiest hosts, in the table's order. */
  riskiest: ZtaRow[];
  /** Customer ID → name, where known (issue 22.7: names before IDs). */
  customerNames: ReadonlyMap<string, string>;
}

/** What the report is made of: the store's answers for its filter. */
export interface ReportSources {
  facets: ZtaFacets;
  /** zta.counts of the report's filter. */
  counts: ZtaCounts;
  /** zta.window of the report's filter in the default order, the first RISKIEST rows. */
  top: ZtaWindow;
}

export function buildReport({ facets, counts, top }: ReportSources, filter: ZtaFilter): ReportModel {
  const connectors = facets.connectors.filter((c) => (filter.vendor === undefined || c.vendor === filter.vendor) && (filter.connector === undefined || c.connectorId === filter.connector));
  const { names } = facetView(facets);
  const customers = counts.customers
    .map((c): CustomerBands => {
      const name = names.get(c.customerId);
      return { customerId: c.customerId, ...(name ? { name } : {}), total: c.hosts, bands: c.bands };
    })
    .sort((a, b) => b.total - a.total || a.customerId.localeCompare(b.customerId));
  // Hosts not assessed are counted in their own band, never among the riskiest (EDR-N1).
  const riskiest = riskiestRows(top.rows, RISKIEST, connectorsById(facets.connectors));
  const named = new Map<string, string>();
  for (const [id, name] of names) if (name) named.set(id, name);
  return {
    connectors,
    asOf: newestAsOf(connectors),
    total: counts.total,
    exact: counts.exact,
    bands: counts.bands,
    customers: customers.slice(0, CUSTOMERS_LISTED),
    moreCustomers: Math.max(0, customers.length - CUSTOMERS_LISTED),
    riskiest,
    customerNames: named,
  };
}

/**
 * The changes of the newest cycles limited to the hosts the filters show: zta.overview narrows
 * them by connector and customer, the report by platform, band and text too, from each move itself
 * (a move is of its connector's newest cycle, so its hostname, band and platform are the host's
 * current ones; the text matched as the store matches it). `moved` stays the count over the
 * connectors and customer in scope.
 */
export function changesInScope(filter: ZtaFilter, changes: ZtaChanges): ZtaChanges {
  const q = storeSearch(filter.q);
  const keep = (m: ZtaChanges['enteredHighRisk'][number]) =>
    (filter.customer === undefined || m.customerId === filter.customer) &&
    (filter.connector === undefined || m.connectorId === filter.connector) &&
    (filter.platform === undefined || m.platform === filter.platform) &&
    (filter.band === undefined || m.to.band === filter.band) &&
    (q === undefined || storeMatches(q, m.hostname, m.hostId));
  return { enteredHighRisk: changes.enteredHighRisk.filter(keep), leftHighRisk: changes.leftHighRisk.filter(keep), biggestMovers: changes.biggestMovers.filter(keep), moved: changes.moved };
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
