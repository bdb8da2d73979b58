/**
 * The ZTA dashboard in Chromium against browser mode, on the demo workspace (a Defender and a
 * Falcon tenant of 250 hosts each, polled for real): filter Customer ID then Platform, open a host
 * and read why it has its band, change a weight in the what-if and see the distribution move, save
 * and see the rescored cycle, export CSV and JSON and check their rows against the table, then
 * restart without the simulators and review the same data offline, "as of" its cycle. Every step
 * is shot in light and in dark (tests/e2e/screenshots/zta-<scheme>-NN-<step>.png).
 */
import type { Download, Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import net from 'node:net';
import Papa from 'papaparse';
import type { ConnectorStatus } from '../../shared/contract';
import { BANDS, exportFileName, makeRowFilter, type ZtaHostDetail, type ZtaSnapshot } from '../../shared/model/zta';
import { exportedRows } from '../../electron/edr/zta-export';
import { expect, openApp, openDemoWorkspace, test } from './support/fixtures';
import { dismissToasts, shooter } from './support/shots';

test.use({ appOptions: { edr: { firstPullDelayMs: 300, publishDelayMs: 300 } } });

const shownHosts = (page: Page) => page.getByTestId('zta-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-host')));
const bandTotals = (page: Page) => page.getByTestId(/^band-total-/).evaluateAll((els) => els.map((e) => `${e.getAttribute('data-testid')}=${e.querySelector('strong')?.textContent}`));

async function downloaded(page: Page, button: string): Promise<{ download: Download; text: string }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: button }).click()]);
  return { download, text: await readFile((await download.path())!, 'utf8') };
}

test('ZTA dashboard: filter, explain, what-if and save, export, then review offline after a restart', async ({ page, nb }) => {
  test.setTimeout(240_000);
  const shot = shooter(page, nb, 'zta', { restPointer: false });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  await expect(page.getByText('The demo workspace is ready.')).toBeVisible();
  await dismissToasts(page);
  await page.keyboard.press('Control+6');
  await expect(page.getByRole('heading', { name: 'ZTA', level: 1 })).toBeVisible();
  // The demo connectors poll 0.3 s after they are registered.
  await expect(page.getByTestId('zta-count')).toHaveText('500 hosts', { timeout: 60_000 });
  await expect(page.getByTestId('zta-connector-Demo Defender tenant')).toContainText('250 hosts');
  await shot('dashboard');

  // Customer ID first, then Platform: the Defender tenant's Windows hosts, with Defender's attributes in view.
  const s = await nb.harness.call<ZtaSnapshot>('zta.snapshot');
  const falcon = s.connectors.findIndex((c) => c.vendor === 'falcon');
  const defenderIndex = s.connectors.findIndex((c) => c.vendor === 'defender');
  const customer = s.customers[s.rows.customer[s.rows.connector.indexOf(defenderIndex)]!]!;
  await page.getByLabel('Customer ID', { exact: true }).selectOption(customer);
  await page.getByLabel('Platform', { exact: true }).selectOption('Windows');
  const windows = exportedRows(s, { customer, platform: 'Windows' }).map((i) => s.rows.hostId[i]!);
  await expect(page.getByTestId('zta-count')).toHaveText(`${windows.length} of 500`);
  for (const column of ['Risk level', 'Exposure', 'Health', 'AV status', 'CVEs']) await expect(page.getByRole('columnheader', { name: new RegExp(`^${column}`) })).toBeVisible();
  await expect(page.getByRole('columnheader', { name: /^Platform/ })).toHaveCount(0);
  await expect(page.getByRole('columnheader', { name: /^Customer/ })).toHaveCount(0);
  expect(await shownHosts(page)).toEqual(windows.slice(0, (await shownHosts(page)).length));
  await expect(page).toHaveURL(/customer=.*platform=Windows/);
  await shot('customer-then-platform');

  // A host and why it has its band.
  await page.getByTestId('zta-row').first().click();
  const dialog = page.getByTestId('zta-host');
  const d = await nb.harness.call<ZtaHostDetail>('zta.host', { connectorId: s.connectors[defenderIndex]!.connectorId, hostId: windows[0] });
  expect(d.contributions.filter((c) => c.scoreShare > 0).length).toBeGreaterThan(1);
  await expect(dialog.getByTestId('zta-why').getByRole('heading')).toHaveText(`Why this host is ${d.band}`);
  const counted = d.contributions.filter((c) => c.scoreShare > 0).sort((a, b) => b.scoreShare - a.scoreShare);
  await expect(dialog.getByTestId('zta-reason').locator('strong')).toHaveText(counted.map((c) => c.detail));
  await expect(dialog.getByTestId('zta-history').locator('svg.recharts-surface')).toBeVisible();
  await expect(dialog.getByTestId('zta-history-point')).toHaveCount(d.history.length);
  await expect(page).toHaveURL(new RegExp(`host=${windows[0]}`));
  await shot('host-why-its-band');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // What-if on the Defender tenant: a weight moves the distribution, live.
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByTestId('zta-count')).toHaveText('500 hosts');
  const stored = await bandTotals(page);
  await page.getByRole('button', { name: 'What-if' }).click();
  const panel = page.getByTestId('zta-whatif');
  await panel.getByTestId('zta-whatif-tenant').selectOption({ label: 'Demo Defender tenant' });
  await expect(panel.getByTestId('zta-whatif-changed')).toHaveText('0 hosts change band, 0 change score.');
  await panel.getByLabel('Critical risk (%)').fill('95');
  await expect(panel.getByText('Weights must total 100 %; critical 95 + operational 40 = 135.')).toBeVisible();
  await panel.getByLabel('Operational health (%)').fill('5');
  await expect(panel.getByTestId('risk-weights-total')).toHaveText('Total 100 %.');
  await expect.poll(() => bandTotals(page)).not.toEqual(stored);
  // While its what-if is open the page shows the tenant's hosts alone (C-78).
  const defenderId = s.connectors[defenderIndex]!.connectorId;
  await expect.poll(async () => (await bandTotals(page)).reduce((n, t) => n + Number(t.split('=')[1]!.replace(/,/g, '')), 0)).toBe(s.connectors[defenderIndex]!.hosts);
  const previewed = await bandTotals(page);
  await expect(panel.getByTestId('zta-whatif-changed')).not.toHaveText(/^0 hosts change band/);
  await shot('what-if');

  // Save: the tenant's hosts are rescored as a cycle of their own, and the page shows it.
  await panel.getByRole('button', { name: 'Save and rescore' }).click();
  const ask = page.getByTestId('zta-whatif-confirm');
  await expect(ask.getByTestId('zta-whatif-consequences')).toContainText('hosts change band');
  await expect(ask.getByTestId('zta-whatif-consequences')).toContainText('published to the SD-WAN');
  await shot('what-if-confirm');
  await ask.getByRole('button', { name: 'Save and rescore' }).click();
  await expect(panel).toHaveCount(0, { timeout: 30_000 });
  await expect(page.getByTestId('zta-connector-Demo Defender tenant').getByText('rescored')).toBeVisible();
  // The tenant's stored bands are what the what-if showed; the page shows every tenant again.
  const storedBands = (snap: ZtaSnapshot) => BANDS.map((b, k) => `band-total-${b}=${snap.rows.band.filter((x) => x === k).length.toLocaleString('en-US')}`);
  expect(storedBands(await nb.harness.call<ZtaSnapshot>('zta.snapshot', { connectorId: defenderId }))).toEqual(previewed);
  const all = storedBands(await nb.harness.call<ZtaSnapshot>('zta.snapshot', {}));
  await expect.poll(() => bandTotals(page)).toEqual(all);
  // The trend is the fleet over time: the two tenants' first polls ended together (one moment), the rescore is a second point,
  // placed at their times, counted on round steps from 0 (issue 22.5).
  const trend = await nb.harness.call<{ trend: Array<{ at: string }> }>('zta.overview', {});
  expect(trend.trend).toHaveLength(2);
  await expect(page.getByTestId('zta-trend-points')).toHaveText('2 points');
  await expect(page.getByTestId('zta-trend').getByTestId('trend-chart')).toHaveAttribute('data-ticks', '0/150/300/450/600');
  // Seconds apart: the time axis reads in seconds, its first and last ticks the points' own times.
  const tickTexts = () => page.getByTestId('zta-trend').locator('.recharts-cartesian-axis-tick-value').allTextContents();
  await expect.poll(async () => (await tickTexts()).filter((t) => /^\d\d:\d\d:\d\d$/.test(t)).length).toBeGreaterThan(0);
  // Every tick is a time (x) or a round count (y): no cycle numbers, no dates squeezed in.
  for (const t of await tickTexts()) expect(t).toMatch(/^(\d\d:\d\d:\d\d|0|150|300|450|600)$/);
  await expect(page.getByTestId('zta-changes')).not.toContainText('0 hosts moved');
  const after = await nb.harness.call<ZtaSnapshot>('zta.snapshot');
  expect(after.connectors.find((c) => c.vendor === 'defender')).toMatchObject({ kind: 'rescore' });
  await dismissToasts(page);
  await shot('rescored');

  // Export what the filters show, to CSV and JSON: the table's rows, in the table's order.
  const defender = after.connectors.find((c) => c.vendor === 'defender')!;
  await page.getByLabel('Vendor', { exact: true }).selectOption('defender');
  await page.getByLabel('Band', { exact: true }).selectOption('Low Risk');
  const filter = { vendor: 'defender', band: 'Low Risk' } as const;
  const expected = exportedRows(after, filter).map((i) => after.rows.hostId[i]!);
  await expect(page.getByTestId('zta-count')).toHaveText(`${expected.length} of 500`);
  const table = await shownHosts(page);
  expect(table).toEqual(expected.slice(0, table.length));
  const csv = await downloaded(page, 'Export CSV');
  // The file says what made it: the filters and the data's as-of, in its name (issue 22.8).
  expect(csv.download.suggestedFilename()).toBe(exportFileName(after, filter, 'csv'));
  expect(csv.download.suggestedFilename()).toMatch(/^northbound-zta-vendor-defender-band-low-risk-asof-\d{8}-\d{4}z\.csv$/);
  const csvRows = Papa.parse<Record<string, string>>(csv.text.trim(), { header: true }).data;
  expect(csvRows.map((r) => r.host_id)).toEqual(expected);
  expect(new Set(csvRows.map((r) => r.band))).toEqual(new Set(['Low Risk']));
  expect(csvRows.every((r) => r.vendor === 'defender' && r.as_of === defender.asOf && r.connector === 'Demo Defender tenant')).toBe(true);
  // Defender's words under defender_* columns; Falcon's number columns empty for its hosts.
  expect(csvRows.every((r) => r.defender_health_status !== '' && r.falcon_overall_assessment === '')).toBe(true);
  const json = await downloaded(page, 'Export JSON');
  const doc = JSON.parse(json.text) as { filter: unknown; asOf: string; connectors: Array<{ name: string }>; rows: Array<Record<string, unknown>> };
  expect(doc.filter).toEqual(filter);
  expect(doc.connectors.map((c) => c.name)).toEqual(['Demo Defender tenant']);
  expect(json.download.suggestedFilename()).toBe(exportFileName(after, filter, 'json'));
  expect(doc.rows.map((r) => r.host_id)).toEqual(expected);
  // The first rows' scores and bands read the same in the table and in the file.
  const firstCells = await page.getByTestId('zta-row').first().getByRole('cell').allTextContents();
  expect(firstCells).toEqual(expect.arrayContaining([Number(csvRows[0]!.score).toFixed(1), 'Low Risk']));
  await expect(page.getByTestId('zta-export-progress')).toHaveCount(0);
  await shot('exported');

  // Restart without network (no simulators, no scheduled poll): the same data, as of its cycles.
  // The Falcon simulator's port is held by a listener that drops every connection, from the moment
  // the simulator freed it: a server started meanwhile (this app's next demo node, another test's)
  // could otherwise take the port and answer the poll, which then fails otherwise than unreachable.
  const falconUrl = (await nb.harness.call<ConnectorStatus[]>('connectors.list')).find((c) => c.vendor === 'falcon')!.apiUrl!;
  const unreachable = net.createServer((socket) => socket.destroy());
  await nb.restart({ demoEdr: false, edr: { firstPullDelayMs: 600_000 } }, () => new Promise<void>((resolve, reject) => unreachable.once('error', reject).listen(Number(new URL(falconUrl).port), '127.0.0.1', () => resolve())));
  // A poll now fails: the vendor cannot be reached, the connector is offline, its data stands.
  const { cycleId } = await nb.harness.call<{ cycleId: number }>('connectors.pollNow', { connectorId: s.connectors[falcon]!.connectorId });
  await expect.poll(() => nb.harness.pushed.some((p) => p.includes(`"cycleId":${cycleId}`) && p.includes('"phase":"failed"')), { timeout: 60_000 }).toBe(true);
  await openApp(page, nb);
  await page.keyboard.press('Control+6');
  await expect(page.getByTestId('zta-count')).toHaveText('500 hosts', { timeout: 15_000 });
  const offline = page.getByTestId('zta-connector-Demo Falcon tenant');
  await expect(offline).toHaveAttribute('data-health', 'offline');
  await expect(offline).toContainText(/offline, last good data as of \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  await expect(offline.locator('time')).toHaveAttribute('datetime', s.connectors[falcon]!.asOf!);
  await expect(page.getByTestId('zta-asof')).toContainText(/as of \d{4}-\d{2}-\d{2}/);
  const again = await nb.harness.call<ZtaSnapshot>('zta.snapshot');
  expect(again.rows.hostId).toEqual(after.rows.hostId);
  expect(again.rows.score).toEqual(after.rows.score);
  const keep = makeRowFilter(again, {});
  expect(again.rows.hostId.filter((_, i) => keep(i))).toHaveLength(500);
  await shot('offline-after-restart');
  await new Promise((resolve) => unreachable.close(resolve));
});
