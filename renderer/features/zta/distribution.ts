/**
 * The band distribution the Risk bands chart draws (EDR-Z5), computed in the window from the rows
 * the filters show — all filters but the band, so every band stays visible and the chosen one is
 * highlighted. Per customer: the 12 largest, the rest summed into one bar; per platform: all four.
 */
import type { RiskBand } from '../../../shared/model/edr';
import { BANDS, PLATFORMS, emptyBandCounts, type BandCounts, type ZtaSnapshot } from '../../../shared/model/zta';

export type DistributionBy = 'customer' | 'platform';
export const TOP_CUSTOMERS = 12;

export type DistributionGroup = { key: string; label: string; total: number; other?: true } & Record<RiskBand, number>;

export interface Distribution {
  groups: DistributionGroup[];
  totals: BandCounts;
  hosts: number;
}

const group = (key: string, label: string): DistributionGroup => ({ key, label, total: 0, ...emptyBandCounts() });

export function distribution(s: ZtaSnapshot, rows: Int32Array, by: DistributionBy): Distribution {
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
    const out = group(k, k);
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
