/** The desktop's risk report PDF (a hidden twin of the main window) and save dialog, against a fake Electron. */
import { createMemoryLogger } from '../../../electron/log';
import { createReportPrinter, createSaveFile, reportUrl } from '../../../electron/platform/report-pdf';
import { mainWindowOptions, type BrowserWindowClass } from '../../../electron/platform/window';
import { createFakeElectron } from './fake-electron';

const PRELOAD = '/opt/northbound/app.asar/dist-electron/preload.cjs';
const ROUTE = '#/zta/report?band=High+Risk&print=1';

type FakeWindow = InstanceType<ReturnType<typeof createFakeElectron>['electron']['BrowserWindow']>;

function setup(opts: { answers?: unknown[]; timeoutMs?: number; prepare?: (win: FakeWindow) => void } = {}) {
  const fake = createFakeElectron({ userData: '/tmp/unused', ready: true });
  const logger = createMemoryLogger();
  // Every window the printer opens answers the probe from the same script.
  const Ctor = class extends fake.electron.BrowserWindow {
    constructor(o: Record<string, unknown>) {
      super(o);
      this.webContents.pageAnswers = [...(opts.answers ?? [])];
      opts.prepare?.(this);
    }
  };
  const print = createReportPrinter({
    BrowserWindow: Ctor as unknown as BrowserWindowClass,
    preload: PRELOAD,
    entryUrl: 'northbound://app/index.html',
    logger,
    pollMs: 1,
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
  });
  return { fake, print, logger };
}

describe('the risk report as PDF', () => {
  it('loads the route in a hidden window with the main window’s preferences, waits until the page is ready, prints A4 and destroys the window', async () => {
    const { fake, print } = setup({ answers: [undefined, null, 'true'] });
    const pdf = await print(ROUTE);
    expect(Buffer.from(pdf).toString()).toBe('%PDF-1.7 fake');
    expect(fake.windows).toHaveLength(1);
    const win = fake.windows[0]!;
    expect(win.options).toMatchObject({ show: false });
    expect(win.options.webPreferences).toEqual(mainWindowOptions({ preload: PRELOAD }).webPreferences);
    expect(win.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, preload: PRELOAD });
    expect(win.loadURL).toHaveBeenCalledWith(`northbound://app/index.html${ROUTE}`);
    // Probed until it said so, then printed once.
    expect(win.webContents.executeJavaScript).toHaveBeenCalledTimes(3);
    expect(win.webContents.executeJavaScript.mock.calls[0]![0]).toContain('dataset.reportReady');
    expect(win.webContents.printToPDF).toHaveBeenCalledExactlyOnceWith({ printBackground: true, pageSize: 'A4' });
    expect(win.destroy).toHaveBeenCalled();
  });

  it('gives up when the page says it cannot read the scores, and when it is never ready, destroying the window either way', async () => {
    const failed = setup({ answers: [undefined, 'failed'] });
    await expect(failed.print(ROUTE)).rejects.toThrow('The report could not read the stored scores.');
    expect(failed.fake.windows[0]!.webContents.printToPDF).not.toHaveBeenCalled();
    expect(failed.fake.windows[0]!.destroy).toHaveBeenCalled();
    expect(failed.logger.lines.some((l) => l.includes('the risk report could not be printed'))).toBe(true);

    const never = setup({ answers: [], timeoutMs: 20 });
    await expect(never.print(ROUTE)).rejects.toThrow('The report was not ready after 0 s.');
    expect(never.fake.windows[0]!.webContents.printToPDF).not.toHaveBeenCalled();
    expect(never.fake.windows[0]!.destroy).toHaveBeenCalled();
  });

  it('destroys the window when the page does not load or printing fails', async () => {
    const load = setup({ answers: ['true'], prepare: (w) => w.loadURL.mockRejectedValueOnce(new Error('ERR_FILE_NOT_FOUND')) });
    await expect(load.print(ROUTE)).rejects.toThrow('ERR_FILE_NOT_FOUND');
    expect(load.fake.windows[0]!.webContents.executeJavaScript).not.toHaveBeenCalled();
    expect(load.fake.windows[0]!.destroy).toHaveBeenCalled();

    const broken = setup({ answers: ['true'], prepare: (w) => w.webContents.printToPDF.mockRejectedValueOnce(new Error('Printing failed')) });
    await expect(broken.print(ROUTE)).rejects.toThrow('Printing failed');
    expect(broken.fake.windows[0]!.destroy).toHaveBeenCalled();

    // A page that never answers the probe is given up at the deadline too.
    const hung = setup({ timeoutMs: 20, prepare: (w) => w.webContents.executeJavaScript.mockReturnValue(new Promise(() => undefined)) });
    await expect(hung.print(ROUTE)).rejects.toThrow('The report was not ready after 0 s.');
    expect(hung.fake.windows[0]!.destroy).toHaveBeenCalled();
  });

  it('prints only routes of the window: anything else is refused before a window opens', async () => {
    const { fake, print } = setup({ answers: ['true'] });
    for (const bad of ['https://evil.example/', 'file:///etc/passwd', '/zta/report', '']) await expect(print(bad)).rejects.toThrow('A report route starts with "#/"');
    expect(fake.windows).toHaveLength(0);
    // The dev server's address keeps its own path; a fragment it had is replaced.
    expect(reportUrl('http://localhost:5173/#/devices', ROUTE)).toBe(`http://localhost:5173/${ROUTE}`);
  });
});

describe('main’s save dialog', () => {
  it('asks over the main window, starting in the documents folder, and answers the chosen file or nothing', async () => {
    const fake = createFakeElectron({ userData: '/tmp/unused', ready: true });
    const parent = new fake.electron.BrowserWindow({});
    const save = createSaveFile({ dialog: fake.electron.dialog as never, parent: () => parent as never, startDir: '/home/op/Documents' });
    const request = { title: 'Save the risk report', defaultName: 'northbound-risk-report.pdf', filters: [{ name: 'PDF', extensions: ['pdf'] }] };
    expect(await save(request)).toBe('/home/op/Documents/report.pdf');
    expect(fake.electron.dialog.showSaveDialog).toHaveBeenCalledWith(parent, {
      title: 'Save the risk report',
      defaultPath: '/home/op/Documents/northbound-risk-report.pdf',
      filters: [{ name: 'PDF', extensions: ['pdf'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
    fake.electron.dialog.showSaveDialog.mockResolvedValueOnce({ canceled: true, filePath: undefined });
    expect(await save(request)).toBeUndefined();
    // No window open (closed meanwhile): a dialog of its own.
    parent.destroy();
    await save(request);
    expect(fake.electron.dialog.showSaveDialog.mock.calls.at(-1)).toHaveLength(1);
  });
});
