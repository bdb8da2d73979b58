/**
 * The printable risk report (issue 11.6) in Chromium against browser mode, on the demo workspace:
 * two poll cycles of each demo tenant and a rescoring of the Defender one (so the trend has points
 * and the newest cycle has changes), then the report for a filter, checked against what zta.snapshot gives (the report reads windows, C-95)
 * and zta.overview, shot in light and dark, and printed to PDF as the desktop does (`print=1`,
 * A4 with backgrounds); the PDF is turned into PNG pages with pdftoppm. Everything lands in
 * tests/e2e/screenshots/.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import type { ZtaOverview, ZtaSnapshot } from '../../shared/model/zta';
import { BANDS, snapshotRow } from '../../shared/model/zta';
import { reportOfSnapshot } from '../support/report-oracle';
import { expect, openDemoWorkspace, SCREENSHOTS, test, type Northbound } from './support/fixtures';

test.use({ appOptions: { edr: { firstPullDelayMs: 600_000, publishDelayMs: 50 } } });

const FILTER = { platform: 'Windows' } as const;

/** Runs a cycle of every demo connector and waits until each completed. */
async function pollAll(nb: Northbound): Promise<void> {
  const connectors = await nb.harness.call<Array<{ id: string }>>('connectors.list');
  expect(connectors).toHaveLength(2);
  const cycles = await Promise.all(connectors.map((c) => nb.harness.call<{ cycleId: number }>('connectors.pollNow', { connectorId: c.id })));
  for (const { cycleId } of cycles) await expect.poll(async () => (await nb.harness.app.edr.store.cycle(cycleId))?.status, { timeout: 60_000 }).toBe('completed');
}

/** The demo with two polled cycles of each tenant and the Defender one rescored under other weights. */
async function demoWithHistory(page: Page, nb: Northbound): Promise<void> {
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  await expect.poll(async () => (await nb.harness.call<unknown[]>('connectors.list')).length, { timeout: 15_000 }).toBe(2);
  await pollAll(nb);
  await pollAll(nb);
  const defender = (await nb.harness.call<Array<{ id: string; vendor: string }>>('connectors.list')).find((c) => c.vendor === 'defender')!;
  const { cycleId } = await nb.harness.call<{ cycleId: number }>('zta.applyRisk', { connectorId: defender.id, risk: { weights: { critical: 85, operational: 15 } } });
  await expect.poll(async () => (await nb.harness.app.edr.store.cycle(cycleId))?.status, { timeout: 60_000 }).toBe('completed');
  // The demo's toasts would cover the report in the shots.
  await expect(page.getByRole('button', { name: 'Close toast' })).toHaveCount(0, { timeout: 20_000 });
}

const reportAt = (nb: Northbound, search: string) => `${nb.host.url.split('#')[0]}#/zta/report?${search}`;

test('the risk report shows the filtered snapshot, its trend, riskiest hosts with reasons and changes; light, dark and PDF', async ({ page, nb }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await demoWithHistory(page, nb);

  await page.goto(reportAt(nb, 'platform=Windows'));
  await expect(page.locator('html')).toHaveAttribute('data-report-ready', 'true', { timeout: 30_000 });
  await expect(page).toHaveTitle('Northbound risk report');
  const snapshot = await nb.harness.call<ZtaSnapshot>('zta.snapshot');
  const overview = await nb.harness.call<ZtaOverview>('zta.overview', FILTER);
  const expected = reportOfSnapshot(snapshot, FILTER);
  expect(expected.total).toBeGreaterThan(100);

  await expect(page.getByTestId('report-scope')).toHaveText('Hosts: Windows');
  await expect(page.getByTestId('report-asof')).toContainText(`${expected.total} host(s)`);
  await expect(page.getByTestId('report-connectors').locator('tbody tr')).toHaveCount(2);
  // Band counts: the snapshot's, through the dashboard's filter rule.
  for (const band of BANDS) await expect(page.getByTestId('report-band-counts').locator(`tr[data-band="${band}"] td`).nth(1)).toHaveText(expected.bands[band].toLocaleString('en-US'));
  // The charts are drawn, without animation: one bar per band that has hosts, one area per band.
  await expect(page.getByTestId('report-band-chart').locator('.recharts-bar-rectangle path')).toHaveCount(BANDS.filter((b) => expected.bands[b] > 0).length);
  await expect(page.getByTestId('report-trend-chart').locator('.recharts-area-area')).toHaveCount(BANDS.length);
  expect(overview.trend.length).toBeGreaterThanOrEqual(3);
  // The riskiest hosts, in the table's order, each with the reason that adds most first.
  const ids = await page.getByTestId('report-riskiest').locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-host-id')));
  expect(ids).toEqual(expected.riskiest.map((r) => r.hostId));
  expect(ids).toHaveLength(20);
  const first = expected.riskiest[0]!;
  const detail = await nb.harness.call<{ contributions: Array<{ detail: string; scoreShare: number }> }>('zta.host', { connectorId: first.connectorId, hostId: first.hostId });
  const top = [...detail.contributions].sort((a, b) => b.scoreShare - a.scoreShare)[0]!;
  await expect(page.getByTestId('report-riskiest').locator('tbody tr').first().locator('.report-reasons li').first()).toHaveText(`${top.detail} (+${top.scoreShare.toFixed(1)})`);
  // What changed in the newest cycles: the rescoring moved scores; the lists hold Windows hosts only.
  expect(overview.changes.moved).toBeGreaterThan(0);
  await expect(page.getByTestId('report-moved')).toHaveText(`${overview.changes.moved.toLocaleString('en-US')} host(s) of these connectors changed score in the newest cycle.`);
  const windows = new Set(snapshot.rows.hostId.filter((_, i) => snapshotRow(snapshot, i).platform === 'Windows'));
  const movers = overview.changes.biggestMovers.filter((m) => windows.has(m.hostId)).map((m) => m.hostId);
  expect(movers.length).toBeGreaterThan(0);
  await expect(page.getByTestId('report-entered').locator('.count')).toHaveText(String(overview.changes.enteredHighRisk.filter((m) => windows.has(m.hostId)).length));
  expect(await page.getByTestId('report-movers').locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-host-id')))).toEqual(movers);

  // The page scrolls inside the window's frame: one shot at the top, one at the riskiest hosts.
  await page.emulateMedia({ colorScheme: 'light' });
  await nb.shot(page, 'zta-report-light');
  await page.getByTestId('report-section-riskiest').scrollIntoViewIfNeeded();
  await nb.shot(page, 'zta-report-light-riskiest');
  await page.evaluate(() => (document.documentElement.dataset.theme = 'dark'));
  await nb.shot(page, 'zta-report-dark-riskiest');
  await page.getByTestId('report-section-trend').scrollIntoViewIfNeeded();
  await nb.shot(page, 'zta-report-dark-trend');
  // On paper the window's frame and the toolbar are gone, and the colours are the light ones even in dark.
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('.sidebar')).toBeHidden();
  await expect(page.getByRole('button', { name: 'Print report' })).toBeHidden();
  expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(255, 255, 255)');
  await page.emulateMedia({ media: 'screen' });

  // The desktop's hidden window: a fresh page at print=1, no frame on screen either; printed A4 as printToPDF does.
  const hidden = await page.context().newPage();
  await hidden.goto(reportAt(nb, 'platform=Windows&print=1'));
  await expect(hidden.locator('html')).toHaveAttribute('data-report-ready', 'true', { timeout: 30_000 });
  await expect(hidden.locator('.sidebar')).toBeHidden();
  await expect(hidden.getByRole('link', { name: 'Back to the dashboard' })).toHaveCount(0);
  await expect(hidden.getByTestId('report-riskiest').locator('tbody tr')).toHaveCount(20);
  const pdf = path.join(SCREENSHOTS, 'zta-report.pdf');
  await hidden.pdf({ path: pdf, format: 'A4', printBackground: true });
  for (const f of readdirSync(SCREENSHOTS)) if (f.startsWith('zta-report-pdf-')) rmSync(path.join(SCREENSHOTS, f));
  execFileSync('pdftoppm', ['-png', '-r', '60', pdf, path.join(SCREENSHOTS, 'zta-report-pdf')]);
  const pages = readdirSync(SCREENSHOTS).filter((f) => f.startsWith('zta-report-pdf-') && f.endsWith('.png'));
  // Overview on the first page, the riskiest hosts from the second, the changes after them.
  expect(pages.length).toBeGreaterThanOrEqual(2);
  expect(pages.length).toBeLessThanOrEqual(6);

  // A filter nothing matches: the scope and the connectors, and says so.
  await hidden.goto(reportAt(nb, 'customer=nobody'));
  await expect(hidden.getByTestId('report-scope')).toHaveText('Hosts: customer nobody');
  await expect(hidden.getByTestId('report-section-bands')).toContainText('No host matches these filters.');
  await expect(hidden.getByTestId('report-asof')).toContainText('0 host(s)');
});

test('the report without stored scores asks for a connector', async ({ page, nb }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(nb.host.url);
  await page.goto(reportAt(nb, 'band=High+Risk'));
  await expect(page.locator('html')).toHaveAttribute('data-report-ready', 'true', { timeout: 30_000 });
  await expect(page.getByText('No connector has stored scores yet.')).toBeVisible();
  await expect(page.getByTestId('report-scope')).toHaveText('Hosts: High Risk');
  await nb.shot(page, 'zta-report-empty');
});
