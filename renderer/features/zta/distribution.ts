/**
 * The band distribution the Risk bands chart draws (EDR-Z5), computed in the window from the rows
 * the filters show — all filters but the band, so every band stays visible and the chosen one is
 * highlighted. Per customer: the 12 largest, the rest summed into one bar, each named where the
 * name is known, else by its shortened ID (issue 22.7); per platform: all four.
 */
import type { RiskBand } from '../../../shared/model/edr';
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

/** `names`: the customers' names where known (customer-names.ts), same index as `s.customers`. */
export function distribution(s: ZtaSnapshot, rows: Int32Array, by: DistributionBy, names: ReadonlyArray<string | undefined> = []): Distribution {
  const col = by === 'customer' ? s.rows.customer : s.rows.platform;
  const keys = by === 'customer' ? s.customers : PLATFORMS;
  const counts = keys.map(() => new Int32Array(BANDS.length));
  const band = s.rows.band;
  for (let p = 0; p < rows.length; p++) {
    const i = rows[p]!;
    counts[col[i]!]![band[i]!]! += 1;
  }
  const totals = emptyBandCounts();
  const all = keys.map((k, g) => {
    const { text, title } = by === 'customer' ? nameOrId(k, names[g]) : { text: k, title: k };
    const out = group(k, text, title);
    BANDS.forEach((b, j) => {
      out[b] = counts[g]![j]!;
      out.total += out[b];
      totals[b] += out[b];
    });
    return out;
  });
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
  return { groups, totals, hosts: rows.length };
}
