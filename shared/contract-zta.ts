/**
 * The ZTA dashboard's channels and events (issue 11), spread into the one contract table
 * (contract.ts). Everything here reads the stored scores, so it works offline.
 */
import { z } from 'zod';
import { RiskOverridesView } from './model/connector';
import { Platform } from './model/edr';
import { BandCounts, ZtaConnector, ZtaFilter, ZtaHostDetail, ZtaOverview, ZtaSnapshot } from './model/zta';
import { HostCountsQuery, HostWindowQuery, HostWindowRow } from './model/zta-window';

const Empty = z.object({}).strict();
const id = (what: string) => z.string().min(1, `Choose a ${what}.`).max(500, `That ${what} is not one of ours.`);

export const ExportFormat = z.enum(['csv', 'json']);
export type ExportFormat = z.infer<typeof ExportFormat>;

/** An export of the dashboard's current view (EDR-Z11), written by main with progress and cancel. */
export const ExportJob = z.object({
  jobId: z.string(),
  format: ExportFormat,
  state: z.enum(['running', 'done', 'failed', 'cancelled']),
  done: z.number().int(),
  total: z.number().int(),
  /** The file's name (desktop: where the operator saved it; browser mode: the download's name). */
  name: z.string(),
  /** Browser mode, once done: where the window downloads the file from (once). */
  downloadUrl: z.string().optional(),
  error: z.string().optional(),
});
export type ExportJob = z.infer<typeof ExportJob>;

/**
 * What the dashboard shows before any host (C-78): every connector with its as-of and health, and
 * its newest cycle's hosts by customer and platform (from the stored band counts: no host is read),
 * from which the window makes its filter choices, the customers' names and the columns shown.
 */
export const ZtaFacets = z.object({
  asOf: z.string().nullable(),
  connectors: z.array(ZtaConnector),
  /** `connector`: an index into `connectors`. */
  groups: z.array(z.object({ connector: z.number().int().min(0), customerId: z.string(), platform: Platform, hosts: z.number().int() })),
});
export type ZtaFacets = z.infer<typeof ZtaFacets>;

/** A window of the table (issue 25.3): the rows in view, how many match, and whether that count is exact (false: at least). */
export const ZtaWindow = z.object({ rows: z.array(HostWindowRow), total: z.number().int(), exact: z.boolean() });
export type ZtaWindow = z.infer<typeof ZtaWindow>;

const PlatformCounts = z.object({ platform: Platform, hosts: z.number().int(), bands: BandCounts });
/** The matching hosts by band and by customer → platform; `exact` false: counted only up to a bound (at least). */
export const ZtaCounts = z.object({
  total: z.number().int(),
  bands: BandCounts,
  customers: z.array(z.object({ customerId: z.string(), hosts: z.number().int(), bands: BandCounts, platforms: z.array(PlatformCounts) })),
  exact: z.boolean(),
});
export type ZtaCounts = z.infer<typeof ZtaCounts>;

/**
 * What the what-if's Save did: on a desk, the rescore cycle it ran (null: no stored hosts, the next
 * poll scores with the settings). In a team (C-93) the console runs no cycle: `rescore` says a
 * worker was asked to rescore the stored hosts (when, and how many workers are alive to take it).
 */
export const ApplyRiskResult = z.object({
  cycleId: z.number().nullable(),
  rescore: z.object({ requestedAt: z.string(), workersAlive: z.number().int() }).optional(),
});
export type ApplyRiskResult = z.infer<typeof ApplyRiskResult>;

export const ztaChannels = {
  'zta.snapshot': {
    request: z.object({ connectorId: id('connector').optional() }).strict(),
    response: ZtaSnapshot,
    description: 'The latest score of every host of every connector, or of one connector (the what-if), columnar, with each connector’s as-of and health.',
  },
  'zta.facets': { request: Empty, response: ZtaFacets, description: 'Every connector with its as-of and health, and its newest cycle’s hosts by customer and platform (no host read).' },
  'zta.window': { request: HostWindowQuery, response: ZtaWindow, description: 'The hosts in view: filtered, searched and sorted in the store, with how many match.' },
  'zta.counts': { request: HostCountsQuery, response: ZtaCounts, description: 'The hosts the filters and search choose, by band and by customer → platform.' },
  'zta.host': {
    request: z.object({ connectorId: id('connector'), hostId: id('host') }).strict(),
    response: ZtaHostDetail,
    description: 'One host: its record, why it has its band, its profiles and its score at each cycle.',
  },
  'zta.overview': { request: ZtaFilter, response: ZtaOverview, description: 'Band counts per cycle and what changed in the newest cycles, for the filters given.' },
  'zta.applyRisk': {
    request: z.object({ connectorId: id('connector'), risk: RiskOverridesView }).strict(),
    response: ApplyRiskResult,
    description: 'Store a tenant’s risk settings and rescore its stored hosts as a cycle of its own (published like a poll); in a team, an admin’s, rescored by a worker (C-93).',
  },
  'zta.export.start': {
    request: z.object({ format: ExportFormat, filter: ZtaFilter }).strict(),
    response: ExportJob,
    description: 'Export the hosts the filters show, to CSV or JSON (desktop: a file the operator picks in main’s dialog; browser mode: a download).',
  },
  'zta.export.cancel': { request: z.object({ jobId: id('export') }).strict(), response: ExportJob, description: 'Stop an export; nothing partial is left.' },
  'zta.report.pdf': {
    request: z.object({ filter: ZtaFilter }).strict(),
    response: z.object({ saved: z.boolean(), name: z.string().optional() }),
    description: 'Desktop: the printable risk report as a PDF, saved where the operator picks.',
  },
} as const;

export const ztaEvents = {
  'zta.export.progress': ExportJob,
} as const;
