/**
 * The ZTA table served in windows by the store (issue 25.3): the sort keys the table offers and what
 * each orders by, a window's question (filter, search, sort, offset, limit) and its answer (the rows
 * in view and how many match), and the counts by band and by customer → platform. The store answers
 * over the latest snapshot (each connector's newest completed cycle: the hosts `appendRows` gives).
 *
 * Order semantics (the renderer's, zta-index.ts): every key is compared first, then ties by hostname
 * (code units), then by connector and host ID (the snapshot's row order when its connectors are in
 * ID order). Descending reverses the key only, ties stay ascending — except `hostname` and `hostId`,
 * whose descending order is the ascending one reversed whole. With no sort, the default order:
 * riskiest first, hosts not assessed after all others, then by hostname (`rowsInOrder`).
 */
import { z } from 'zod';
import { Platform, RiskBand, Vendor } from './edr';
import { ZtaFilter, type BandCounts } from './zta';

export const ZTA_SORT_KEYS = [
  'hostId',
  'hostname',
  'vendor',
  'customer',
  'platform',
  'osAssessment',
  'sensorAssessment',
  'overallAssessment',
  'score',
  'band',
  'lastSeen',
  'riskLevel',
  'exposure',
  'health',
  'avStatus',
  'cves',
  'sensor',
] as const;
export const ZtaSortKey = z.enum(ZTA_SORT_KEYS);
export type ZtaSortKey = (typeof ZTA_SORT_KEYS)[number];
export const ZtaSort = z.object({ key: ZtaSortKey, desc: z.boolean() });
export type ZtaSort = z.infer<typeof ZtaSort>;

/** Rows a window may ask for at once. */
export const MAX_WINDOW = 1_000;

/**
 * How many hosts matching a search the store counts before it stops (C-79): past it, a window's
 * `total` and the counts are lower bounds (`exact: false`, shown as "at least N").
 */
export const COUNT_CAP = 10_000;

/** What the store is asked for: the dashboard's filter (with its search), and the counts' question. */
export const HostCountsQuery = z.object({ filter: ZtaFilter }).strict();
export type HostCountsQuery = z.infer<typeof HostCountsQuery>;

export const HostWindowQuery = z
  .object({
    filter: ZtaFilter,
    /** None: the default order (riskiest first, not assessed last, then hostname). */
    sort: ZtaSort.optional(),
    offset: z.number().int().min(0),
    limit: z.number().int().min(0).max(MAX_WINDOW),
    /**
     * The `customer` sort's order of customer IDs (the table sorts by a customer's name where one is
     * known, and names are the connectors', not the store's); customers not listed come after, by ID.
     */
    customerOrder: z.array(z.string().max(200)).max(100_000).optional(),
  })
  .strict();
export type HostWindowQuery = z.infer<typeof HostWindowQuery>;

const nnum = z.number().nullable();
const ntext = z.string().nullable();

/** One host of a window, as stored (the enums as their words; the caller makes a ZtaRow with its connectors' names). */
export const HostWindowRow = z.object({
  connectorId: z.string(),
  vendor: Vendor,
  hostId: z.string(),
  hostname: z.string(),
  customerId: z.string(),
  platform: Platform,
  /** Null for a host not assessed (EDR-N1). */
  score: nnum,
  band: RiskBand,
  lastSeen: ntext,
  osAssessment: nnum,
  sensorAssessment: nnum,
  overallAssessment: nnum,
  sensorRunning: nnum,
  reducedFunctionality: nnum,
  riskLevel: ntext,
  exposure: ntext,
  health: ntext,
  avStatus: ntext,
  onboarding: ntext,
  criticalCves: nnum,
  cveCount: nnum,
  maxCvss: nnum,
  cvss: ntext,
});
export type HostWindowRow = z.infer<typeof HostWindowRow>;

export interface HostWindow {
  /** The matching rows from `offset`, at most `limit`, in the order asked for. */
  rows: HostWindowRow[];
  /**
   * How many hosts match the filter and search (every page's total); with `exact` false, a lower
   * bound: at least this many (a search matching more than the store counts, C-79).
   */
  total: number;
  /** True when `total` is the exact number of matching hosts. */
  exact: boolean;
}

export interface PlatformCounts {
  platform: Platform;
  hosts: number;
  bands: BandCounts;
}

export interface CustomerCounts {
  customerId: string;
  hosts: number;
  bands: BandCounts;
  /** In PLATFORMS' order, only platforms with hosts. */
  platforms: PlatformCounts[];
}

export interface HostCounts {
  total: number;
  bands: BandCounts;
  /** By customer ID (code units), only customers with hosts. */
  customers: CustomerCounts[];
  /**
   * True when every number is exact. False for a search matching more hosts than the store counts
   * (C-79): then every number is a lower bound, the counts of `total` (the cap) of the matching hosts,
   * which ones the store's choice.
   */
  exact: boolean;
}

/**
 * The search as the store folds it: trimmed, ASCII letters in lower case (SQLite's `lower` and
 * PostgreSQL's in the "C" locale fold only those; C-76). Undefined: no search.
 */
export function storeSearch(q: string | undefined): string | undefined {
  const t = q?.trim();
  return t ? foldAscii(t) : undefined;
}

const foldAscii = (t: string) => t.replace(/[A-Z]/g, (c) => c.toLowerCase());

/** Whether a host's hostname or ID holds `search` (a `storeSearch` answer) as the store matches it. */
export const storeMatches = (search: string, hostname: string, hostId: string): boolean => foldAscii(hostname).includes(search) || foldAscii(hostId).includes(search);
