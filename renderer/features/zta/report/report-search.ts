/**
 * The report's address (`#/zta/report?customer=…&platform=…&print=1`): the dashboard's filters
 * (ZtaFilter, the same names) and `print=1` when it is laid out for printing only (the desktop's
 * hidden PDF window, electron/app/zta-handlers.ts `reportRoute`). Like every address it is typed
 * by people: a bad value falls back to "no filter" (zod `.catch`).
 */
import { z } from 'zod';
import { Platform, RiskBand, Vendor } from '../../../../shared/model/edr';
import type { ZtaFilter } from '../../../../shared/model/zta';

const text = z.string().trim().min(1).max(200).optional().catch(undefined);

export const reportSearch = z.object({
  customer: text,
  platform: Platform.optional().catch(undefined),
  band: RiskBand.optional().catch(undefined),
  vendor: Vendor.optional().catch(undefined),
  connector: text,
  q: text,
  print: z.literal('1').optional().catch(undefined),
});
export type ReportSearch = z.infer<typeof reportSearch>;

const FILTER_KEYS = ['customer', 'platform', 'band', 'vendor', 'connector', 'q'] as const satisfies ReadonlyArray<keyof ZtaFilter>;

/** The filters of a report address (what zta.overview and the row filter take); the rest (print, the page's connection) is not one. */
export function reportFilter(s: ReportSearch & Record<string, unknown>): ZtaFilter {
  const out: Record<string, string> = {};
  for (const k of FILTER_KEYS) if (s[k] !== undefined) out[k] = s[k];
  return out as ZtaFilter;
}

/** The report's address for the dashboard's filters (the "Print report" link). */
export function reportSearchOf(filter: ZtaFilter): ReportSearch {
  const out: ReportSearch = {};
  for (const [k, v] of Object.entries(filter) as Array<[keyof ZtaFilter, string | undefined]>) if (v !== undefined && v !== '') (out as Record<string, string>)[k] = v;
  return reportSearch.parse(out);
}
