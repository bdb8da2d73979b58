/** The zta.* channels of the contract (issue 11). */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { ApplyRiskResult, ZtaCounts, ZtaFacets, ZtaWindow } from '../../shared/contract-zta';
import type { HostCountsQuery, HostWindowQuery } from '../../shared/model/zta-window';
import type { ZtaFilter, ZtaHostDetail, ZtaOverview, ZtaSnapshot } from '../../shared/model/zta';
import type { ZtaExports } from '../edr/zta-export';
import type { PlatformAdapters } from './ports';
import type { Handlers } from './router';

type ZtaHandlers = Pick<Handlers, 'zta.snapshot' | 'zta.facets' | 'zta.window' | 'zta.counts' | 'zta.host' | 'zta.overview' | 'zta.applyRisk' | 'zta.export.start' | 'zta.export.cancel' | 'zta.report.pdf'>;

/** The report's route in the window, with the dashboard's filters (renderer/features/zta/report). */
export function reportRoute(filter: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined) q.set(k, v);
  q.set('print', '1');
  return `#/zta/report?${q.toString()}`;
}

/** The dashboard's reads of edr.db and the what-if's Save (edr/zta-service.ts). */
export interface ZtaReader {
  snapshot(connectorId?: string): Promise<ZtaSnapshot>;
  facets(): Promise<ZtaFacets>;
  window(q: HostWindowQuery): Promise<ZtaWindow>;
  counts(q: HostCountsQuery): Promise<ZtaCounts>;
  hostDetail(connectorId: string, hostId: string): Promise<ZtaHostDetail>;
  overview(filter: ZtaFilter): Promise<ZtaOverview>;
  applyRisk(connectorId: string, risk: unknown): Promise<ApplyRiskResult>;
}

/** What these channels need: the dashboard's reads, the export jobs, and (desktop) main's PDF printer and save dialog. */
export interface ZtaHandlerDeps extends Pick<PlatformAdapters, 'printToPdf' | 'saveFile'> {
  zta: ZtaReader;
  exports: Pick<ZtaExports, 'start' | 'cancel'>;
}

export function createZtaHandlers(d: ZtaHandlerDeps): ZtaHandlers {
  const { zta, exports } = d;
  return {
    'zta.snapshot': async ({ connectorId }) => zta.snapshot(connectorId),
    'zta.facets': async () => zta.facets(),
    'zta.window': async (q) => zta.window(q),
    'zta.counts': async (q) => zta.counts(q),
    'zta.host': async ({ connectorId, hostId }) => zta.hostDetail(connectorId, hostId),
    'zta.overview': async (filter) => zta.overview(filter),
    'zta.applyRisk': async ({ connectorId, risk }) => zta.applyRisk(connectorId, risk),
    'zta.export.start': async ({ format, filter }) => exports.start(format, filter),
    'zta.export.cancel': async ({ jobId }) => exports.cancel(jobId),
    'zta.report.pdf': async ({ filter }) => {
      if (!d.printToPdf || !d.saveFile) {
        throw new AppError(ErrorCodes.validation, 'PDF reports are made by the desktop app.', 'In the browser, use Print report and choose “Save as PDF”.');
      }
      const pdf = await d.printToPdf(reportRoute(filter));
      const file = await d.saveFile({ title: 'Save the risk report', defaultName: `northbound-risk-report-${new Date().toISOString().slice(0, 10)}.pdf`, filters: [{ name: 'PDF', extensions: ['pdf'] }] });
      if (!file) return { saved: false };
      await writeFile(file, pdf);
      return { saved: true, name: path.basename(file) };
    },
  };
}
