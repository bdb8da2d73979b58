/** The zta.* channels of the contract (issue 11). */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { ZtaExports } from '../edr/zta-export';
import type { EdrService } from './edr-service';
import type { PlatformAdapters } from './ports';
import type { Handlers } from './router';

type ZtaHandlers = Pick<Handlers, 'zta.snapshot' | 'zta.host' | 'zta.overview' | 'zta.applyRisk' | 'zta.export.start' | 'zta.export.cancel' | 'zta.report.pdf'>;

/** The report's route in the window, with the dashboard's filters (renderer/features/zta/report). */
export function reportRoute(filter: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(filter)) if (v !== undefined) q.set(k, v);
  q.set('print', '1');
  return `#/zta/report?${q.toString()}`;
}

export function createZtaHandlers(edr: EdrService, exports: ZtaExports, adapters: PlatformAdapters): ZtaHandlers {
  return {
    'zta.snapshot': async () => edr.zta.snapshot(),
    'zta.host': async ({ connectorId, hostId }) => edr.zta.hostDetail(connectorId, hostId),
    'zta.overview': async (filter) => edr.zta.overview(filter),
    'zta.applyRisk': async ({ connectorId, risk }) => edr.zta.applyRisk(connectorId, risk),
    'zta.export.start': async ({ format, filter }) => exports.start(format, filter),
    'zta.export.cancel': async ({ jobId }) => exports.cancel(jobId),
    'zta.report.pdf': async ({ filter }) => {
      if (!adapters.printToPdf || !adapters.saveFile) {
        throw new AppError(ErrorCodes.validation, 'PDF reports are made by the desktop app.', 'In the browser, use Print report and choose “Save as PDF”.');
      }
      const pdf = await adapters.printToPdf(reportRoute(filter));
      const file = await adapters.saveFile({ title: 'Save the risk report', defaultName: `northbound-risk-report-${new Date().toISOString().slice(0, 10)}.pdf`, filters: [{ name: 'PDF', extensions: ['pdf'] }] });
      if (!file) return { saved: false };
      await writeFile(file, pdf);
      return { saved: true, name: path.basename(file) };
    },
  };
}
