/**
 * End-to-end fixture: a fresh data folder, the whole app in this process (browser mode), the
 * built renderer served on 127.0.0.1, and a record of everything sent to the browser, every log
 * line and every file written — so a test can prove no secret left main.
 */
import { test as base, expect, type Page } from '@playwright/test';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../../electron/log';
import { startWebHost, type WebHost } from '../../../electron/web/host';
import type { CreateAppOptions } from '../../../electron/app/services';
import { startAppHarness, type AppHarness } from '../../support/app-harness';

export interface Northbound {
  harness: AppHarness;
  host: WebHost;
  /** Every HTTP answer and WebSocket message the host sent to the browser. */
  sent: string[];
  shot(page: Page, name: string): Promise<string>;
  /**
   * Quits the app (web host and harness) and starts it again on the same data folder with `app`
   * (e.g. the EDR simulators off, as after a restart without network); `harness` and `host` are
   * then the new ones, and the page must go to the new `host.url`. `between` runs after the old
   * app stopped and before the new one starts (e.g. holding a port its simulator freed).
   */
  restart(app: CreateAppOptions, between?: () => Promise<void>): Promise<void>;
}

export const SCREENSHOTS = path.resolve('tests/e2e/screenshots');

/** Browser mode for `harness`'s app: the built renderer and its API on 127.0.0.1, everything sent recorded in `sent`. */
export function serveApp(harness: AppHarness, sent: string[] = []): Promise<WebHost> {
  return startWebHost({
    router: harness.app.router,
    events: harness.app.events,
    logger: createLogger((l) => harness.logs.push(JSON.stringify(l)), { level: 'debug' }),
    staticDir: path.resolve('dist/renderer'),
    onSend: (t) => sent.push(t),
    downloads: harness.app.downloads,
  });
}

/** One more browser-mode app beside the test's `nb` (a second console): a data folder of its own, removed by `close`. */
export interface BrowserConsole {
  harness: AppHarness;
  host: WebHost;
  /** The app's address with its token, without a route: `${base}#/overview`. */
  base: string;
  close(): Promise<void>;
}

export async function startBrowserConsole(app: CreateAppOptions = {}): Promise<BrowserConsole> {
  // The harness makes the data folder and removes it at close.
  const harness = await startAppHarness({ app });
  const host = await serveApp(harness).catch(async (e: unknown) => {
    await harness.close();
    throw e;
  });
  return {
    harness,
    host,
    base: host.url.split('#')[0]!,
    async close() {
      await host.close();
      await harness.close();
    },
  };
}

export const test = base.extend<{ nb: Northbound; appOptions: CreateAppOptions }>({
  /** Options of the app under test (`test.use({ appOptions: … })`), e.g. shorter EDR delays. */
  appOptions: [{}, { option: true }],
  nb: async ({ appOptions }, use) => {
    // The fixture owns the data folder, so that a restart can start on it again.
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nb-e2e-'));
    const sent: string[] = [];
    const startHost = (harness: AppHarness) => serveApp(harness, sent);
    const harness = await startAppHarness({ dataDir, app: appOptions });
    const nb: Northbound = {
      harness,
      host: await startHost(harness),
      sent,
      async shot(page, name) {
        const file = path.join(SCREENSHOTS, `${name}.png`);
        await page.screenshot({ path: file, fullPage: true });
        return file;
      },
      async restart(app, between) {
        await nb.host.close();
        await nb.harness.close();
        await between?.();
        nb.harness = await startAppHarness({ dataDir, app });
        nb.host = await startHost(nb.harness);
      },
    };
    await mkdir(SCREENSHOTS, { recursive: true });
    await use(nb);
    await nb.host.close();
    await nb.harness.close();
    await rm(dataDir, { recursive: true, force: true });
  },
});

/** Everything the page received from the host: invoke answers and socket frames. */
export function recordReceived(page: Page): string[] {
  const received: string[] = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => received.push(String(f.payload))));
  page.on('response', async (r) => {
    if (r.url().includes('/api/')) received.push(await r.text().catch(() => ''));
  });
  return received;
}

/** Opens the app at the host's address and waits for its first page: a shortcut pressed earlier is lost. */
export async function openApp(page: Page, nb: Northbound): Promise<void> {
  await page.goto(nb.host.url);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
}

/**
 * Clicks "Open demo workspace" on the welcome page and waits until the demo's OAuth connection is
 * signed in. The demo starts its simulators first (loaded on first use), which on a busy machine
 * takes longer than an expectation's default 5 s; the first start in a Playwright worker also
 * compiles the simulators' sources (two workers starting at once took over 15 s in CI).
 */
export async function openDemoWorkspace(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Open demo workspace' }).click();
  await expect(page.getByTestId('profile-row-Demo node (OAuth)').getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in', { timeout: 45_000 });
}

export { expect };
