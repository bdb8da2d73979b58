import { createNodeAdapters } from '../../electron/app/node-platform';
import { createApp } from '../../electron/app/services';
import { createMemoryLogger } from '../../electron/log';
import { startWebHost } from '../../electron/web/host';
import { chromium } from 'playwright';
import path from 'node:path';
import { SEED_PASSPHRASE, seedZtaDataDir } from './zta-seed';
const { dataDir } = await seedZtaDataDir(2000);
const logger = createMemoryLogger('warn');
const adapters = await createNodeAdapters({ dataDir, passphrase: SEED_PASSPHRASE, logger, mode: 'browser', demoPorts: { basic: 0, oauth: 0 } });
const app = await createApp(adapters, { edr: { firstPullDelayMs: 3_600_000 } });
const host = await startWebHost({ router: app.router, events: app.events, logger, staticDir: path.resolve('dist/renderer'), downloads: app.downloads });
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
await page.goto(host.url); await page.waitForLoadState('domcontentloaded');
await page.goto(`${host.origin}/#/zta`);
await page.getByTestId('zta-row').first().waitFor({ timeout: 60_000 });
const count = async (l: string) => console.log(l, await page.getByTestId('zta-count').textContent(), page.url());
await count('first');
await page.waitForTimeout(1000); await count('after 1s');
for (const column of ['Hostname', 'Host ID', 'Risk score']) {
  const header = page.getByRole('columnheader', { name: new RegExp(`^${column}`) }).getByRole('button');
  await header.click(); await page.waitForTimeout(500); await count(column);
}
await page.screenshot({ path: '/tmp/probe.png' });
await browser.close(); await host.close(); await app.shutdown();
