/**
 * Export of the ZTA dashboard's current view (issue 11.6, EDR-Z11): the rows the filters show, in
 * the table's columns, to CSV or JSON. Written in chunks with progress and cancel; a cancelled or
 * failed export leaves no file (it is written beside its destination and renamed when complete).
 * The rows stream from the store a chunk at a time (issue 25.3, C-86: zta-export-source.ts), never
 * the whole snapshot. CSV goes through the one CSV writer (`shared/csv.ts`): a hostname or tag comes
 * from an endpoint and must never run as a spreadsheet formula or carry a terminal escape. The CLI's
 * `zta export` writes the same bytes through `exportPieces`.
 */
import { randomUUID } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { ExportFormat, ExportJob } from '../../shared/contract-zta';
import { csvLine, toCsv } from '../../shared/csv';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { PRIVATE_DIR_MODE } from '../store/files';
import { EXPORT_COLUMNS, exportFileName, exportRecord, newestAsOf, rowsInOrder, type ZtaConnector, type ZtaFilter, type ZtaRow } from '../../shared/model/zta';
import type { ExportSource } from './zta-export-source';

export { EXPORT_CHUNK, storeExportSource, type ExportSource } from './zta-export-source';
const HEADER = EXPORT_COLUMNS;

/** The indexes of a snapshot's rows the filter passes, in the table's default order: what the streamed export lists (the tests' reference). */
export const exportedRows = rowsInOrder;

/** What the export's head says: the data's as-of and the connectors shown. */
export interface ExportHead {
  asOf: string | null;
  connectors: ZtaConnector[];
}

export const exportHead = (connectors: ZtaConnector[]): ExportHead => ({ asOf: newestAsOf(connectors), connectors });

/**
 * The export as successive pieces of text, each with the number of rows it carries: a head, one
 * piece per chunk of rows (as the source answers them), a tail. CSV: header line then records (CRLF,
 * formulas escaped). JSON: `{ exportedAt, asOf, filter, connectors, columns, rows }` (issue 22.8: it
 * says what made it).
 */
export async function* exportPieces(head: ExportHead, chunks: AsyncIterable<readonly ZtaRow[]>, format: ExportFormat, filter: ZtaFilter, exportedAt: Date): AsyncGenerator<{ text: string; rows: number }> {
  if (format === 'csv') {
    yield { text: csvLine(HEADER), rows: 0 };
    for await (const rows of chunks) {
      const chunk = rows.map(exportRecord);
      if (chunk.length) yield { text: toCsv(chunk.map((r) => HEADER.map((h) => r[h] ?? ''))), rows: chunk.length };
    }
    return;
  }
  const connectors = head.connectors
    .filter((c) => (filter.vendor === undefined || c.vendor === filter.vendor) && (filter.connector === undefined || c.connectorId === filter.connector))
    .map((c) => ({ name: c.name, vendor: c.vendor, tenantId: c.tenantId, asOf: c.asOf }));
  yield {
    text: `{"exportedAt":${JSON.stringify(exportedAt.toISOString())},"asOf":${JSON.stringify(head.asOf)},"filter":${JSON.stringify(filter)},"connectors":${JSON.stringify(connectors)},"columns":${JSON.stringify(HEADER)},"rows":[`,
    rows: 0,
  };
  let first = true;
  for await (const rows of chunks) {
    if (rows.length === 0) continue;
    yield { text: (first ? '\n' : ',\n') + rows.map((r) => JSON.stringify(exportRecord(r))).join(',\n'), rows: rows.length };
    first = false;
  }
  yield { text: '\n]}\n', rows: 0 };
}

export interface ExportDestination {
  /** Where the file goes. */
  file: string;
  name: string;
  /** Browser mode: offers the complete file for download and answers its address. */
  offer?: () => string;
}

export interface ExportServiceOptions {
  /** The connectors shown, the count and the rows (the store's: `ZtaService.exportSource()`). */
  source: ExportSource;
  /** Desktop: the operator picks the file in main's save dialog. Browser mode: a file in the data folder, downloaded once. */
  destination(jobId: string, suggestedName: string, format: ExportFormat): Promise<ExportDestination | undefined>;
  onProgress(job: ExportJob): void;
  now?: () => Date;
}

interface Running {
  job: ExportJob;
  abort: AbortController;
  done: Promise<ExportJob>;
}

export class ZtaExports {
  private readonly jobs = new Map<string, Running>();

  constructor(private readonly o: ExportServiceOptions) {}

  /** Starts an export; answers at once with the job (progress and the end arrive as `zta.export.progress`). */
  async start(format: ExportFormat, filter: ZtaFilter): Promise<ExportJob> {
    const jobId = randomUUID();
    const now = this.o.now?.() ?? new Date();
    // The connectors first: the file's name says the filters and the data's "as of" (issue 22.8).
    const head = exportHead(await this.o.source.connectors());
    const suggested = exportFileName(head, filter, format);
    const dest = await this.o.destination(jobId, suggested, format);
    if (!dest) return { jobId, format, state: 'cancelled', done: 0, total: 0, name: suggested };
    const total = await this.o.source.count(filter, head.connectors);
    const job: ExportJob = { jobId, format, state: 'running', done: 0, total, name: dest.name };
    const abort = new AbortController();
    const done = this.write(job, dest, head, filter, now, abort.signal);
    this.jobs.set(jobId, { job, abort, done });
    void done.finally(() => setTimeout(() => this.jobs.delete(jobId), 10 * 60_000).unref());
    return { ...job };
  }

  cancel(jobId: string): ExportJob {
    const r = this.jobs.get(jobId);
    if (!r) throw new AppError(ErrorCodes.notFound, 'That export is no longer known.', 'Start the export again.');
    r.abort.abort();
    return { ...r.job };
  }

  /** Waits for an export to end (tests, the CLI). */
  finished(jobId: string): Promise<ExportJob> {
    const r = this.jobs.get(jobId);
    if (!r) throw new AppError(ErrorCodes.notFound, 'That export is no longer known.', 'Start the export again.');
    return r.done;
  }

  private async write(job: ExportJob, dest: ExportDestination, head: ExportHead, filter: ZtaFilter, now: Date, signal: AbortSignal): Promise<ExportJob> {
    const part = `${dest.file}.part`;
    let out: WriteStream | undefined;
    const emit = () => this.o.onProgress({ ...job });
    try {
      // A folder it has to create is owner-only; an existing one (the operator's pick) is left as it is.
      await mkdir(path.dirname(part), { recursive: true, mode: PRIVATE_DIR_MODE });
      out = createWriteStream(part, { mode: 0o600 });
      const stream = out;
      const ready = new Promise<void>((resolve, reject) => {
        stream.once('open', () => resolve());
        stream.once('error', reject);
      });
      await ready;
      // Leaving this loop early (a cancel, a failure) ends the store's read (its transaction or cursor).
      let done = 0;
      for await (const piece of exportPieces(head, this.o.source.rows(filter, head.connectors), job.format, filter, now)) {
        if (signal.aborted) throw new AppError(ErrorCodes.cancelled, 'The export was cancelled.', '');
        if (!stream.write(piece.text)) await new Promise<void>((r) => stream.once('drain', () => r()));
        if (piece.rows) {
          done += piece.rows;
          job.done = done;
          emit();
        }
        // Let other work (the window's requests, a cancel) in between chunks.
        await new Promise((r) => setImmediate(r));
      }
      await new Promise<void>((resolve, reject) => stream.end((e?: Error | null) => (e ? reject(e) : resolve())));
      await rename(part, dest.file);
      // Every row written (a commit between the count and the read may have moved the total).
      job.done = done;
      job.total = done;
      job.state = 'done';
      if (dest.offer) job.downloadUrl = dest.offer();
    } catch (e) {
      out?.destroy();
      await rm(part, { force: true });
      const cancelled = signal.aborted;
      job.state = cancelled ? 'cancelled' : 'failed';
      if (!cancelled) job.error = e instanceof Error ? e.message : String(e);
    }
    emit();
    return { ...job };
  }
}
