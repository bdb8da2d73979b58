/**
 * The ZTA dashboard's channels and events (issue 11), spread into the one contract table
 * (contract.ts). Everything here reads the stored scores, so it works offline.
 */
import { z } from 'zod';
import { RiskOverridesView } from './model/connector';
import { ZtaFilter, ZtaHostDetail, ZtaOverview, ZtaSnapshot } from './model/zta';

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

export const ztaChannels = {
  'zta.snapshot': { request: Empty, response: ZtaSnapshot, description: 'The latest score of every host of every connector (columnar), with each connector’s as-of and health.' },
  'zta.host': {
    request: z.object({ connectorId: id('connector'), hostId: id('host') }).strict(),
    response: ZtaHostDetail,
    description: 'One host: its record, why it has its band, its profiles and its score at each cycle.',
  },
  'zta.overview': { request: ZtaFilter, response: ZtaOverview, description: 'Band counts per cycle and what changed in the newest cycles, for the filters given.' },
  'zta.applyRisk': {
    request: z.object({ connectorId: id('connector'), risk: RiskOverridesView }).strict(),
    response: z.object({ cycleId: z.number().nullable() }),
    description: 'Store a tenant’s risk settings and rescore its stored hosts as a cycle of its own (published like a poll).',
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
