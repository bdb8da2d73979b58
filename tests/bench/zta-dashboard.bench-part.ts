/**
 * The ZTA dashboard in Chromium with 100,000 stored hosts (issue 11): the real app on a data folder
 * whose edr.db holds two cycles of 100,000 Defender hosts (tests/bench/zta-seed.ts), served in
 * browser mode to Debian's Chromium. Measured in the page, from the input event until the table or
 * chart shows the answer and the next frame has started: the first render (navigation to the
 * table's rows), sorts, each key of a search, the longest main-thread stall while scrolling, the
 * what-if from a slider change to the updated chart, and the JS heap.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright';
import { build } from 'vite';
import { createNodeAdapters } from '../../electron/app/node-platform';
import type { Router } from '../../electron/app/router';
import { createApp, type App } from '../../electron/app/services';
import { createMemoryLogger, type Logger } from '../../electron/log';
import { startWebHost } from '../../electron/web/host';
import { FRAMES_END, FRAMES_HELPER, FRAMES_START, mainThreadReport, PROFILE_CATEGORIES, TRACE_CATEGORIES, type FramesResult, type MainThreadReport } from './chromium-trace';
import { SEED_PASSPHRASE, seedZtaDataDir } from './zta-seed';

/** Main's handlers a step asked: per channel, the calls and the longest (from the router's call to its answer). */
export type MainCalls = Array<{ channel: string; n: number; longestMs: number; what: string[] }>;
interface MainCall {
  channel: string;
  at: number;
  ms: number;
  /** zta.window: its offset and sort. */
  what?: string;
}

export interface DashboardBench {
  /** Where the hosts are stored (DashboardSetup.label), and the setup's own figures. */
  label: string;
  notes: string[];
  hosts: number;
  /** The search typed key by key. */
  query: string;
  firstRenderMs: number;
  /** Main's handlers during the first render. */
  firstRenderMain: MainCalls;
  /** Each measured from the input event to its answer in the table and the next frame, started on a settled page. */
  sorts: Array<{ column: string; ms: number; main: MainCalls }>;
  keystrokes: Array<{ query: string; ms: number; main: MainCalls }>;
  /** The longest gap between two frames while the table scrolls (a main-thread task holds the next frame). */
  scrollLongestFrameGapMs: number;
  /** Long tasks (≥ 50 ms) Chromium reported while scrolling, and the longest. */
  scrollLongTasks: { count: number; longestMs: number };
  /** The main thread while scrolling, from a Chromium trace: every task, not only those the Long Tasks API reports. */
  scrollMainThread: MainThreadReport;
  whatIfMs: number[];
  /** The JS heap after a GC: the page over the store's windows, and with a what-if's tenant read whole. */
  heapMb: number;
  heapWhatIfMb: number | undefined;
  /** Main's handlers from the What-if button to the tenant read. */
  whatIfMain: MainCalls;
  /** Why the what-if was not measured (whatIfMs is then empty). */
  whatIfSkipped?: string;
}

export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/*
 * In-page helpers as strings (tsx would wrap functions with helpers the page lacks). `__nbArm(kind,
 * watch)` starts on the next input event of that kind and resolves when `watch()` (a text the
 * answer changes) differs from its value before, and a frame was painted after it; `__nbFrames`
 * (chromium-trace.ts) runs the scroll loop.
 */
const HELPERS = `
window.__nbArm = (kind, watchSrc, timeoutMs) => {
  const watch = new Function('return (' + watchSrc + ')()');
  const before = watch();
  window.__nbResult = new Promise((resolve, reject) => {
    const start = () => {
      const t0 = performance.now();
      performance.mark('nb-measure-start');
      const finish = () => requestAnimationFrame(() => { performance.mark('nb-measure-end'); resolve(performance.now() - t0); });
      if (watch() !== before) return finish();
      const mo = new MutationObserver(() => {
        if (watch() !== before) { mo.disconnect(); clearTimeout(timer); finish(); }
      });
      mo.observe(document.querySelector('main'), { subtree: true, childList: true, characterData: true, attributes: true });
      const timer = setTimeout(() => { mo.disconnect(); reject(new Error('nothing changed within ' + timeoutMs + ' ms of the ' + kind + ': ' + before.slice(0, 300))); }, timeoutMs);
    };
    window.addEventListener(kind, start, { capture: true, once: true });
  });
};
${FRAMES_HELPER}`;

/** Each frame of the scroll loop moves the table 1,500 px on (wrapping at the end). */
const SCROLL_STEP = `(() => {
  const el = document.querySelector('[data-testid="zta-scroll"]');
  return () => { el.scrollTop = (el.scrollTop + 1500) % Math.max(1, el.scrollHeight - el.clientHeight); };
})()`;

// The table's answer (its filter, search and sort: HostTable's data-answer), the last one shown: a stale render (the
// attribute gone while the next answer loads) keeps the one before, so a step ends when its own answer is shown, not at
// the render that marks the old rows stale (which, with a slow store, is all a first key or click would have measured).
const ANSWER = `() => { const a = document.querySelector('.zta-frame')?.getAttribute('data-answer'); if (a !== null && a !== undefined) window.__nbAnswer = a; return window.__nbAnswer ?? ''; }`;
// The chart alone: the summary is drawn first and the chart in a transition after it, so a step
// measured to the summary left its chart to be drawn while the next step was measured.
const WHATIF = `() => document.querySelector('[data-testid="zta-distribution"]')?.textContent ?? ''`;

/** `timeoutMs`: how long the answer is waited for before the step fails. */
async function measure(page: Page, kind: 'keydown' | 'click' | 'input', watch: string, act: () => Promise<void>, timeoutMs = 5_000): Promise<number> {
  await page.evaluate(`window.__nbArm(${JSON.stringify(kind)}, ${JSON.stringify(watch)}, ${timeoutMs})`);
  await act();
  return (await page.evaluate('window.__nbResult')) as number;
}

/** What the dashboard is measured over: the app (its router and events), served by the bench to Chromium. */
export interface DashboardSetup {
  /** Printed with the figures: where the hosts are stored. */
  label: string;
  app: App;
  logger: Logger;
  /** The hosts the table shows in all (the count waited for). */
  hosts: number;
  /** Typed key by key into the search box: a part of the seeded hostnames. */
  query: string;
  /** How long a sort or a keystroke's answer is waited for (5 s unless said: a store far from its targets still gives figures). */
  answerTimeoutMs?: number;
  /** The hosts of the what-if's tenant (the first connector with hosts). */
  whatIfTenantHosts: number;
  /** Why the what-if is not measured here (undefined: it is). */
  whatIfSkipped?: string;
  /** Prefix of the trace files' names. */
  traceName: string;
  /** Extra figures of the setup (the load), printed as they are. */
  notes: string[];
  /** Shuts the app down and removes what the setup made. */
  close(): Promise<void>;
}

/** The SQLite desk's store: a data folder whose edr.db holds two cycles of `hosts` hosts of one Defender tenant (zta-seed.ts). */
export async function sqliteDashboard(hosts: number): Promise<DashboardSetup> {
  const { dataDir } = await seedZtaDataDir(hosts);
  const logger = createMemoryLogger('warn');
  const adapters = await createNodeAdapters({ dataDir, passphrase: SEED_PASSPHRASE, logger, mode: 'browser', demoPorts: { basic: 0, oauth: 0 } });
  const app = await createApp(adapters, { edr: { firstPullDelayMs: 3_600_000 } });
  return {
    label: 'SQLite',
    app,
    logger,
    hosts,
    query: 'ws-1234',
    whatIfTenantHosts: hosts,
    traceName: 'zta',
    notes: [],
    async close() {
      await app.shutdown();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * `traceDir`: also write the Chromium traces (open them in DevTools' Performance panel) of the
 * search keys, of the scrolling and of the what-if steps there, with the JavaScript sampled, from an unminified build
 * (function names readable; the numbers of such a run are not comparable with a plain one).
 * `setup`: the app over its stored hosts (SQLite: `sqliteDashboard`; a team's PostgreSQL: zta-table-pg.bench-part.ts).
 */
export async function benchZtaDashboard(setup: () => Promise<DashboardSetup>, traceDir?: string): Promise<DashboardBench> {
  const staticDir = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-zta-ui-'));
  await build({ configFile: path.resolve('vite.config.ts'), logLevel: 'error', build: { outDir: staticDir, emptyOutDir: true, sourcemap: false, ...(traceDir ? { minify: false } : {}) } });
  if (traceDir) await mkdir(traceDir, { recursive: true });
  let s: DashboardSetup | undefined;
  let host: Awaited<ReturnType<typeof startWebHost>> | undefined;
  let browser: Browser | undefined;
  try {
    s = await setup();
    const { app, logger, hosts, query } = s;
    const answerMs = s.answerTimeoutMs ?? 5_000;
    const trace = (name: string) => path.join(traceDir!, `${s!.traceName}-${name}.json`);
    // Main's handlers timed (the store's answer and what main adds), to tell a slow step's main side from the page's.
    const calls: MainCall[] = [];
    const router: Router = {
      async invoke(channel, request) {
        const t = performance.now();
        try {
          return await app.router.invoke(channel, request);
        } finally {
          const q = request as { offset?: unknown; sort?: { key?: unknown; desc?: unknown } } | undefined;
          const what = channel === 'zta.window' ? `${String(q?.offset)}${q?.sort ? ` ${String(q.sort.key)}${q.sort.desc ? ' desc' : ''}` : ''}` : undefined;
          calls.push({ channel, at: t, ms: performance.now() - t, ...(what ? { what } : {}) });
        }
      },
    };
    /** The calls that started from `since` on: per channel, how many and the longest. */
    const mainSince = (since: number) => {
      const by = new Map<string, { n: number; ms: number; what: string[] }>();
      for (const c of calls) {
        if (c.at < since) continue;
        const b = by.get(c.channel) ?? { n: 0, ms: 0, what: [] };
        by.set(c.channel, { n: b.n + 1, ms: Math.max(b.ms, c.ms), what: c.what ? [...b.what, c.what] : b.what });
      }
      return [...by].map(([channel, b]) => ({ channel, n: b.n, longestMs: b.ms, what: b.what }));
    };
    host = await startWebHost({ router, events: app.events, logger, staticDir, downloads: app.downloads });
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // The token becomes a cookie on a first page; the dashboard is then opened cold.
    await page.goto(host.url);
    await page.waitForLoadState('domcontentloaded');
    const t0 = Date.now();
    const m0 = performance.now();
    await page.goto(`${host.origin}/#/zta`);
    await page.getByTestId('zta-row').first().waitFor({ timeout: 120_000 });
    const firstRenderMs = Date.now() - t0;
    const firstRenderMain = mainSince(m0);
    // Each step starts on a settled page (the table showing its answer, none loading), with main's calls it made.
    const settled = () => page.locator('.zta-frame[data-answer]').waitFor({ timeout: answerMs });
    const step = async (run: () => Promise<number>) => {
      await settled();
      const since = performance.now();
      const ms = await run();
      return { ms, main: mainSince(since) };
    };
    await page.getByTestId('zta-count').filter({ hasText: hosts.toLocaleString('en-US') }).waitFor({ timeout: 60_000 });
    await page.evaluate(HELPERS);

    const sorts: DashboardBench['sorts'] = [];
    // Risk score last (as before C-104): the search below is typed in an order an index holds.
    for (const column of ['Last seen', 'Risk level', 'Hostname', 'Host ID', 'Risk score']) {
      const header = page.getByRole('columnheader', { name: new RegExp(`^${column}`) }).getByRole('button');
      for (const dir of ['first', 'second']) sorts.push({ column: `${column} (${dir} click)`, ...(await step(() => measure(page, 'click', ANSWER, () => header.click(), answerMs))) });
    }

    const keystrokes: DashboardBench['keystrokes'] = [];
    const search = page.getByTestId('zta-search');
    await search.focus();
    if (traceDir) await browser.startTracing(page, { categories: PROFILE_CATEGORIES });
    for (let i = 0; i < query.length; i++) {
      keystrokes.push({ query: query.slice(0, i + 1), ...(await step(() => measure(page, 'keydown', ANSWER, () => page.keyboard.press(query[i]!), answerMs))) });
    }
    for (let i = 0; i < 3; i++) keystrokes.push({ query: `⌫ ${query.slice(0, query.length - i - 1)}`, ...(await step(() => measure(page, 'keydown', ANSWER, () => page.keyboard.press('Backspace'), answerMs))) });
    if (traceDir) await writeFile(trace('keys'), await browser.stopTracing());
    await search.fill('');
    await page.getByTestId('zta-count').filter({ hasText: hosts.toLocaleString('en-US') }).waitFor();

    // Traced: the frame gaps the page sees do not say whether its main thread held them.
    await browser.startTracing(page, { categories: traceDir ? PROFILE_CATEGORIES : TRACE_CATEGORIES });
    const scroll = (await page.evaluate(`window.__nbFrames(3000, ${JSON.stringify(SCROLL_STEP)})`)) as FramesResult;
    const scrollTrace = await browser.stopTracing();
    if (traceDir) await writeFile(trace('scroll'), scrollTrace);
    const scrollMainThread = mainThreadReport(scrollTrace, FRAMES_START, FRAMES_END);

    const cdp = await page.context().newCDPSession(page);
    const heapNow = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize / 1024 / 1024;
    };
    // The page over the store's windows, before a what-if reads its tenant whole.
    const heapMb = await heapNow();

    const whatIfMs: number[] = [];
    let heapWhatIfMb: number | undefined;
    let whatIfMain: MainCalls = [];
    let whatIfSkipped = s.whatIfSkipped;
    if (whatIfSkipped === undefined) {
      try {
        // Traced from the panel's opening (the first rescoring): starting a trace costs the page a long task of its own.
        if (traceDir) await browser.startTracing(page, { categories: PROFILE_CATEGORIES });
        const since = performance.now();
        await page.getByRole('button', { name: 'What-if' }).click();
        const slider = page.getByTestId('zta-whatif-slider');
        await slider.waitFor({ timeout: 120_000 });
        // The tenant read whole (zta.snapshot of its connector) before the first step: a step measured while it loads ends when it arrives.
        for (const end = performance.now() + 120_000; !calls.some((c) => c.channel === 'zta.snapshot' && c.at >= since); ) {
          if (performance.now() > end) throw new Error("the what-if's tenant (zta.snapshot) not read within 120 s");
          await new Promise((r) => setTimeout(r, 100));
        }
        // …and shown: the page's count is the tenant's ("N of N"; the store's view says "N hosts" or the whole store's total).
        const tenantHosts = s.whatIfTenantHosts.toLocaleString('en-US');
        await page.getByTestId('zta-count').filter({ hasText: new RegExp(`(^| )of ${tenantHosts}$`) }).waitFor({ timeout: 120_000 });
        whatIfMain = mainSince(since);
        await slider.focus();
        // Steps of 10 up from the default 60 %: a step of 1 may move no host across a band edge, and below 50 % the bands of
        // the seeded hosts stop moving (40 and 50 draw the same chart), and then there is nothing to wait for.
        // A step whose chart did not change within 5 s counts as NaN (printed as such) rather than ending the part.
        for (const key of ['PageUp', 'PageUp', 'PageDown', 'PageUp']) whatIfMs.push(await measure(page, 'input', WHATIF, () => page.keyboard.press(key)).catch(() => NaN));
        if (traceDir) await writeFile(trace('whatif'), await browser.stopTracing());
        heapWhatIfMb = await heapNow();
      } catch (e) {
        // The figures before it are kept.
        whatIfSkipped = `failed: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
      }
    }
    return {
      label: s.label,
      notes: s.notes,
      hosts,
      query,
      firstRenderMs,
      firstRenderMain,
      sorts,
      keystrokes,
      scrollLongestFrameGapMs: scroll.gap,
      scrollLongTasks: { count: scroll.long.length, longestMs: Math.max(0, ...scroll.long) },
      scrollMainThread,
      whatIfMs,
      heapMb,
      heapWhatIfMb,
      whatIfSkipped,
      whatIfMain,
    };
  } finally {
    await browser?.close();
    await host?.close();
    await s?.close();
    await rm(staticDir, { recursive: true, force: true });
  }
}
