/**
 * The band distribution the Risk bands chart draws (EDR-Z5), computed in the window from the rows
 * the filters show — all filters but the band, so every band stays visible and the chosen one is
 * highlighted. Per customer: the 12 largest, the rest summed into one bar, each named where the
 * name is known, else by its shortened ID (issue 22.7); per platform: all four.
 */
import type { Platform, RiskBand } from '../../../shared/model/edr';
import { BANDS, PLATFORMS, emptyBandCounts, type BandCounts, type ZtaSnapshot } from '../../../shared/model/zta';
import { nameOrId } from '../../components/ids';

export type DistributionBy = 'customer' | 'platform';
export const TOP_CUSTOMERS = 12;

/** A bar: `label` is what the axis shows (a customer's name where known, else its shortened ID), `title` the whole of it. */
export type DistributionGroup = { key: string; label: string; title: string; total: number; other?: true } & Record<RiskBand, number>;

export interface Distribution {
  groups: DistributionGroup[];
  totals: BandCounts;
  hosts: number;
}

const group = (key: string, label: string, title = label): DistributionGroup => ({ key, label, title, total: 0, ...emptyBandCounts() });

/** The counts `distributionOf` draws: hosts by customer → platform and band (the store's zta.counts, or `countsOfRows`). */
export interface CountsByCustomer {
  /** False: the store stopped counting a search's matches (C-79), every number a lower bound. */
  exact?: boolean;
  customers: ReadonlyArray<{ customerId: string; bands: BandCounts; platforms: ReadonlyArray<{ platform: Platform; bands: BandCounts }> }>;
}

/** The rows' hosts counted as the store counts them (zta.counts): by customer (in ID order) → platform and band. */
export function countsOfRows(s: ZtaSnapshot, rows: Int32Array): CountsByCustomer & { total: number; bands: BandCounts } {
  const { customer, platform, band } = s.rows;
  const cells = new Map<number, Int32Array>();
  for (let p = 0; p < rows.length; p++) {
    const i = rows[p]!;
    const key = customer[i]! * PLATFORMS.length + platform[i]!;
    let c = cells.get(key);
    if (!c) cells.set(key, (c = new Int32Array(BANDS.length)));
    c[band[i]!]! += 1;
  }
  const byCustomer = new Map<string, { customerId: string; bands: BandCounts; platforms: Array<{ platform: Platform; bands: BandCounts }> }>();
  const bands = emptyBandCounts();
  for (const [key, c] of [...cells].sort((a, b) => a[0] - b[0])) {
    const id = s.customers[Math.floor(key / PLATFORMS.length)]!;
    let cu = byCustomer.get(id);
    if (!cu) byCustomer.set(id, (cu = { customerId: id, bands: emptyBandCounts(), platforms: [] }));
    const pb = emptyBandCounts();
    BANDS.forEach((b, j) => {
      pb[b] += c[j]!;
      cu!.bands[b] += c[j]!;
      bands[b] += c[j]!;
    });
    cu.platforms.push({ platform: PLATFORMS[key % PLATFORMS.length]!, bands: pb });
  }
  const customers = [...byCustomer.values()].sort((a, b) => (a.customerId < b.customerId ? -1 : a.customerId > b.customerId ? 1 : 0));
  return { customers, bands, total: rows.length };
}

/** `names`: the customers' names where known (customer-names.ts), same index as `s.customers`. */
export function distribution(s: ZtaSnapshot, rows: Int32Array, by: DistributionBy, names: ReadonlyArray<string | undefined> = []): Distribution {
  const nameOf = new Map(s.customers.map((id, k) => [id, names[k]]));
  return distributionOf(countsOfRows(s, rows), by, nameOf);
}

/** The chart's bars from counts by customer → platform; `nameOf`: a customer's name where known. */
export function distributionOf(counts: CountsByCustomer, by: DistributionBy, nameOf: ReadonlyMap<string, string | undefined> = new Map()): Distribution {
  const totals = emptyBandCounts();
  let all: DistributionGroup[];
  if (by === 'platform') {
    all = PLATFORMS.map((k) => group(k, k));
    for (const c of counts.customers)
      for (const p of c.platforms) {
        const g = all[PLATFORMS.indexOf(p.platform)]!;
        for (const b of BANDS) g[b] += p.bands[b];
      }
  } else {
    all = counts.customers.map((c) => {
      const { text, title } = nameOrId(c.customerId, nameOf.get(c.customerId));
      const g = group(c.customerId, text, title);
      for (const b of BANDS) g[b] += c.bands[b];
      return g;
    });
  }
  for (const g of all)
    for (const b of BANDS) {
      g.total += g[b];
      totals[b] += g[b];
    }
  let groups: DistributionGroup[];
  if (by === 'platform') groups = all;
  else {
    const sorted = all.filter((g) => g.total > 0).sort((a, b) => b.total - a.total || (a.key < b.key ? -1 : 1));
    groups = sorted.slice(0, TOP_CUSTOMERS);
    const rest = sorted.slice(TOP_CUSTOMERS);
    if (rest.length) {
      const other = group('', `${rest.length} more customers`);
      other.other = true;
      for (const g of rest) {
        for (const b of BANDS) other[b] += g[b];
        other.total += g.total;
      }
      groups.push(other);
    }
  }
  return { groups, totals, hosts: BANDS.reduce((n, b) => n + totals[b], 0) };
}
