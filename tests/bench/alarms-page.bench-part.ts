/**
 * Issue 12's window figure: the Alarms page in Chromium while the node streams 2,000 alarm changes
 * per second. The real app in this process (browser mode, the built renderer), its demo node
 * seeded with 1,000 devices and publishing to a RabbitMQ node of the bench's own, the app's alarm
 * source consuming it into alarms.db and sending `alarms.changed` to the page, which follows with
 * windows of rows, counters and chart. Measured in the page over the streaming seconds: the long
 * tasks Chromium reports (≥ 50 ms) and the longest, the longest gap between two frames, and how
 * long a key typed into the search box takes to show (keydown to the next painted frame) while
 * the stream runs; then what the store holds, so the rate is known to have reached the app.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
import { build } from 'vite';
import { createNodeAdapters } from '../../electron/app/node-platform';
import { createApp } from '../../electron/app/services';
import { createMemoryLogger } from '../../electron/log';
import { startWebHost } from '../../electron/web/host';
import { startPrivateRabbitMq } from '../support/rabbitmq-node';
import { until } from '../support/until';
import { FRAMES_END, FRAMES_HELPER, FRAMES_START, mainThreadReport, PROFILE_CATEGORIES, TRACE_CATEGORIES, type FramesResult, type MainThreadReport } from './chromium-trace';

export interface AlarmPageBench {
  seconds: number;
  target: number;
  /** Changes the node emitted while the page was measured, and those the app stored meanwhile. */
  emitted: number;
  stored: number;
  source: string;
  longTasks: { count: number; longestMs: number; totalMs: number };
  longestFrameGapMs: number;
  /** The main thread over the measured seconds, from a Chromium trace: each long task's wall time, CPU time and contents. */
  mainThread: MainThreadReport;
  keystrokesMs: number[];
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/*
 * In-page (a string: tsx would wrap a function with helpers the page lacks). `__nbFrames(ms)`
 * (chromium-trace.ts) records long tasks and frame gaps for `ms`; `__nbKey()` arms `__nbKeyResult`:
 * the time from the next keydown to the frame after the search box shows it.
 */
const HELPERS = `${FRAMES_HELPER}
window.__nbKey = () => {
  const box = document.querySelector('[data-testid="alarm-search"]');
  const before = box.value;
  window.__nbKeyResult = new Promise((resolve) => {
    window.addEventListener('keydown', () => {
      const t0 = performance.now();
      const check = () => (box.value !== before ? requestAnimationFrame(() => resolve(performance.now() - t0)) : requestAnimationFrame(check));
      check();
    }, { capture: true, once: true });
  });
};`;

const progress = (what: string) => process.stderr.write(`alarms page: ${what}\n`);

/** A page that stops answering is a result too: every wait on it is bounded. */
function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the page did not answer within ${ms / 1000} s: ${what}`)), ms)));
  return Promise.race([p, late]).finally(() => clearTimeout(timer));
}

/** `traceDir`: also write the Chromium trace with the JavaScript sampled, from an unminified build (for reading; its numbers are not comparable). */
export async function benchAlarmPage(perSecond = 2_000, seconds = 20, traceDir?: string): Promise<AlarmPageBench> {
  progress('building the renderer');
  const staticDir = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-alarms-ui-'));
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-alarms-data-'));
  await build({ configFile: path.resolve('vite.config.ts'), logLevel: 'error', build: { outDir: staticDir, emptyOutDir: true, sourcemap: false, ...(traceDir ? { minify: false } : {}) } });
  if (traceDir) await mkdir(traceDir, { recursive: true });
  progress('starting a RabbitMQ node');
  const rabbit = await startPrivateRabbitMq();
  progress('starting the app and its demo node');
  const logger = createMemoryLogger('warn');
  const adapters = await createNodeAdapters({ dataDir, passphrase: 'bench-alarms-passphrase', logger, mode: 'browser', demoPorts: { basic: 0, oauth: 0 } });
  // The demo node publishes to the broker the app consumes from (NORTHBOUND_AMQP_URL, C-22).
  const app = await createApp(adapters, { openDemo: true, demoEdr: false, demoInventory: { devices: 1_000, organizations: 20 }, edr: { env: { NORTHBOUND_AMQP_URL: rabbit.url } } });
  const host = await startWebHost({ router: app.router, events: app.events, logger, staticDir, downloads: app.downloads });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const sim = app.demo.simulator!;
    const profileId = app.demo.status().oauthProfileId!;
    const status = () => app.alarms.status(profileId);
    await until('the alarm source to be live', async () => (await status()).state === 'live', 60_000);
    const live = await status();
    progress(`source ${live.source} ${live.state}; opening the page`);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // The token becomes a cookie on a first page; the Alarms page is then opened.
    await page.goto(host.url);
    await page.waitForLoadState('domcontentloaded');
    sim.alarms.generator.step(2_000);
    await page.goto(`${host.origin}/#/alarms?connection=${profileId}`);
    await page.getByTestId('alarm-row').first().waitFor({ timeout: 60_000 });
    await page.evaluate(HELPERS);

    progress('streaming');
    const firstId = sim.alarms.lastMessageId();
    const storedBefore = (await status()).stored.changes;
    sim.alarms.generator.setRate(perSecond);
    sim.alarms.generator.start();
    // Settle into the stream for a second, then measure; a key every 2 s in the search box.
    await new Promise((r) => setTimeout(r, 1_000));
    // Traced: a long task's wall time beside the CPU its thread got says whether the page or a busy machine made it long.
    await browser.startTracing(page, { categories: traceDir ? PROFILE_CATEGORIES : TRACE_CATEGORIES });
    const watching = page.evaluate(`window.__nbFrames(${seconds * 1000}, '')`) as Promise<FramesResult>;
    // Awaited below; a failure on the way must not surface first as an unhandled rejection.
    watching.catch(() => undefined);
    const keystrokesMs: number[] = [];
    await page.getByTestId('alarm-search').focus();
    const keys = 'tunnel-';
    const t0 = performance.now();
    for (const key of keys) {
      if (performance.now() - t0 > (seconds - 3) * 1000) break;
      // Armed before the key is sent (an evaluate still on its way could miss the keydown).
      await page.evaluate('window.__nbKey()');
      const result = page.evaluate('window.__nbKeyResult') as Promise<number>;
      result.catch(() => undefined);
      await within(10_000, `pressing ${key}`, page.keyboard.press(key));
      keystrokesMs.push(await within(10_000, `the search box showing ${key}`, result));
      progress(`key ${key}: ${Math.round(keystrokesMs[keystrokesMs.length - 1]!)} ms`);
      await new Promise((r) => setTimeout(r, 2_000));
    }
    const watched = await within(seconds * 1000 + 20_000, 'the frames and long tasks', watching);
    const trace = await browser.stopTracing();
    if (traceDir) await writeFile(path.join(traceDir, 'alarms-page.json'), trace);
    sim.alarms.generator.stop(true);
    const s = await status();
    return {
      seconds,
      target: perSecond,
      emitted: sim.alarms.lastMessageId() - firstId,
      stored: s.stored.changes - storedBefore,
      source: `${s.source} ${s.state}`,
      longTasks: { count: watched.long.length, longestMs: Math.max(0, ...watched.long), totalMs: watched.long.reduce((a, b) => a + b, 0) },
      longestFrameGapMs: watched.gap,
      mainThread: mainThreadReport(trace, FRAMES_START, FRAMES_END),
      keystrokesMs,
    };
  } finally {
    await browser.close();
    await host.close();
    await app.shutdown();
    await rabbit.destroy();
    await rm(staticDir, { recursive: true, force: true });
    await rm(dataDir, { recursive: true, force: true });
  }
}
