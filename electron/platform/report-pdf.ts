/**
 * The desktop's file adapters for the ZTA report and exports (issue 11.6, EDR-Z7): the risk
 * report printed to PDF in a hidden window, and main's own save dialog. The hidden window is the
 * main window's twin (the same secure webPreferences and preload, the app's origin, so the same
 * IPC and navigation rules); it loads the report's route, waits until the page says it has all
 * its data (`<html data-report-ready="true">`), prints, and is destroyed whatever happens.
 * Functions receive the Electron objects they use, so plain Node tests pass fakes.
 */
import type { BrowserWindow, Dialog, SaveDialogOptions } from 'electron';
import path from 'node:path';
import type { PlatformAdapters } from '../app/ports';
import type { Logger } from '../log';
import { mainWindowOptions, type BrowserWindowClass } from './window';

/** How long the report may take to load and gather its data (a 100,000-host snapshot included). */
export const REPORT_READY_TIMEOUT_MS = 60_000;
const READY_POLL_MS = 100;

/** Read in the page: 'true' once the report has all its data, 'failed' when it cannot get it. */
const READY_PROBE = 'document.documentElement.dataset.reportReady ?? null';

export interface ReportPdfDeps {
  BrowserWindow: BrowserWindowClass;
  /** Absolute path of dist-electron/preload.cjs (the main window's). */
  preload: string;
  /** The page the main window loads: `northbound://app/index.html`, or the dev server. */
  entryUrl: string;
  logger: Logger;
  timeoutMs?: number;
  pollMs?: number;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** `p`, or a rejection with `message` at `at` (ms since the epoch), whichever comes first. */
function before<T>(p: Promise<T>, at: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), Math.max(0, at - Date.now()));
  });
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** The report's address: the app's page with the route (`#/zta/report?…`) in place of its fragment. */
export function reportUrl(entryUrl: string, route: string): string {
  if (!route.startsWith('#/')) throw new Error(`A report route starts with "#/", not ${JSON.stringify(route.slice(0, 20))}.`);
  return `${entryUrl.split('#')[0]}${route}`;
}

/** `printToPdf` of the platform adapters: a hidden twin of the main window prints one route. */
export function createReportPrinter(d: ReportPdfDeps): NonNullable<PlatformAdapters['printToPdf']> {
  const timeoutMs = d.timeoutMs ?? REPORT_READY_TIMEOUT_MS;
  const pollMs = d.pollMs ?? READY_POLL_MS;
  return async (route) => {
    const url = reportUrl(d.entryUrl, route);
    const { webPreferences } = mainWindowOptions({ preload: d.preload });
    // A4 at 96 dpi, so the page lays out as it prints.
    const win: BrowserWindow = new d.BrowserWindow({ show: false, width: 794, height: 1123, paintWhenInitiallyHidden: true, webPreferences });
    const started = Date.now();
    // One deadline for loading and gathering (a hung page never answers the probe), another for printing.
    const late = `The report was not ready after ${Math.round(timeoutMs / 1000)} s.`;
    const readyBy = started + timeoutMs;
    try {
      await before(win.loadURL(url), readyBy, late);
      for (;;) {
        if (win.isDestroyed()) throw new Error('The report window closed before the report was ready.');
        const state: unknown = await before(win.webContents.executeJavaScript(READY_PROBE, true), readyBy, late);
        if (state === 'true') break;
        if (state === 'failed') throw new Error('The report could not read the stored scores.');
        if (Date.now() >= readyBy) throw new Error(late);
        await delay(pollMs);
      }
      const pdf = await before(win.webContents.printToPDF({ printBackground: true, pageSize: 'A4' }), Date.now() + timeoutMs, 'Printing the report to PDF did not finish.');
      d.logger.info('risk report printed', { bytes: pdf.length, ms: Date.now() - started });
      return new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
    } catch (e) {
      d.logger.warn('the risk report could not be printed', { error: e instanceof Error ? e.message : String(e) });
      throw e;
    } finally {
      if (!win.isDestroyed()) win.destroy();
    }
  };
}

export interface SaveDialogDeps {
  dialog: Pick<Dialog, 'showSaveDialog'>;
  /** The window the dialog belongs to (sheet on macOS); none while no window is open. */
  parent(): BrowserWindow | undefined;
  /** Where the dialog starts (the user's documents folder). */
  startDir?: string;
}

/** `saveFile` of the platform adapters: main's save dialog; the window never names the path. */
export function createSaveFile(d: SaveDialogDeps): NonNullable<PlatformAdapters['saveFile']> {
  return async (o) => {
    const options: SaveDialogOptions = {
      title: o.title,
      defaultPath: d.startDir ? path.join(d.startDir, o.defaultName) : o.defaultName,
      filters: o.filters,
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    };
    const parent = d.parent();
    const r = parent && !parent.isDestroyed() ? await d.dialog.showSaveDialog(parent, options) : await d.dialog.showSaveDialog(options);
    return r.canceled || !r.filePath ? undefined : r.filePath;
  };
}
