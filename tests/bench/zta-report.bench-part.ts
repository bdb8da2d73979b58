/**
 * The printable risk report in Chromium over 100,000 stored hosts (issue 25.3, C-95), the report
 * before C-95 (it read the whole zta.snapshot) beside the report now (facets, counts, a window of
 * the 20 riskiest, the overview): the same app and data folder (zta-seed.ts, SQLite), served in
 * browser mode to Debian's Chromium, one renderer build of each. The old one is built from the
 * commit before C-95 (`git archive`, with this checkout's node_modules), so what is compared is the
 * code that ran, not a copy of it. Measured: from navigation to `<html data-report-ready="true">`
 * (what the desktop's PDF window waits for), the JS heap after a GC with the report shown, and
 * main's handlers meanwhile. Runs alternate old, new, old, new, each on a fresh page.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser } from 'playwright';
import { build } from 'vite';
import type { Router } from '../../electron/app/router';
import { startWebHost } from '../../electron/web/host';
import { CHROMIUM_ARGS, sqliteDashboard, type MainCalls } from './zta-dashboard.bench-part';

/** The commit before the report read windows (C-95): its renderer is the "before" side. */
export const REPORT_BEFORE_COMMIT = '29dbf71';

export interface ReportRun {
  build: 'before' | 'now';
  readyMs: number;
  heapMb: number;
  main: MainCalls;
}

/** The renderer of `commit` built into a temporary folder (its renderer/, shared/ and build config, this checkout's node_modules). */
async function buildAt(commit: string | undefined, outDir: string): Promise<void> {
  let root = process.cwd();
  let tree: string | undefined;
  if (commit) {
    tree = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-report-src-'));
    const tar = execFileSync('git', ['archive', '--format=tar', commit, 'renderer', 'shared', 'vite.config.ts', 'tsconfig.json'], { maxBuffer: 256 * 1024 * 1024 });
    execFileSync('tar', ['-x', '-C', tree], { input: tar });
    await symlink(path.resolve('node_modules'), path.join(tree, 'node_modules'), 'dir');
    root = tree;
  }
  try {
    await build({ root: path.join(root, 'renderer'), configFile: path.join(root, 'vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true, sourcemap: false } });
  } finally {
    if (tree) await rm(tree, { recursive: true, force: true });
  }
}

export async function benchZtaReport(hosts: number): Promise<ReportRun[]> {
  const before = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-report-before-'));
  const now = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-report-now-'));
  const setup = await sqliteDashboard(hosts);
  const hostsOf: Array<Awaited<ReturnType<typeof startWebHost>>> = [];
  let browser: Browser | undefined;
  try {
    await buildAt(REPORT_BEFORE_COMMIT, before);
    await buildAt(undefined, now);
    const calls: Array<{ channel: string; at: number; ms: number }> = [];
    const router: Router = {
      async invoke(channel, request) {
        const t = performance.now();
        try {
          return await setup.app.router.invoke(channel, request);
        } finally {
          calls.push({ channel, at: t, ms: performance.now() - t });
        }
      },
    };
    const mainSince = (since: number): MainCalls => {
      const by = new Map<string, { n: number; ms: number }>();
      for (const c of calls) {
        if (c.at < since) continue;
        const b = by.get(c.channel) ?? { n: 0, ms: 0 };
        by.set(c.channel, { n: b.n + 1, ms: Math.max(b.ms, c.ms) });
      }
      return [...by].map(([channel, b]) => ({ channel, n: b.n, longestMs: b.ms, what: [] }));
    };
    const served = { before: await startWebHost({ router, events: setup.app.events, logger: setup.logger, staticDir: before, downloads: setup.app.downloads }), now: await startWebHost({ router, events: setup.app.events, logger: setup.logger, staticDir: now, downloads: setup.app.downloads }) };
    hostsOf.push(served.before, served.now);
    browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
    const runs: ReportRun[] = [];
    for (const which of ['before', 'now', 'before', 'now'] as const) {
      const host = served[which];
      const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
      // The token becomes a cookie on a first page; the report is then opened cold.
      await page.goto(host.url);
      await page.waitForLoadState('domcontentloaded');
      const since = performance.now();
      const t0 = Date.now();
      await page.goto(`${host.origin}/#/zta/report`);
      await page.locator('html[data-report-ready="true"]').waitFor({ state: 'attached', timeout: 120_000 });
      const readyMs = Date.now() - t0;
      const main = mainSince(since);
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('HeapProfiler.collectGarbage');
      const heapMb = ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize / 1024 / 1024;
      runs.push({ build: which, readyMs, heapMb, main });
      await page.close();
    }
    return runs;
  } finally {
    await browser?.close();
    for (const h of hostsOf) await h.close();
    await setup.close();
    await rm(before, { recursive: true, force: true });
    await rm(now, { recursive: true, force: true });
  }
}
