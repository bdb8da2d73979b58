/**
 * The Alarms page in Chromium against browser mode, on the demo workspace (its node raises a
 * change about every 2 s, collected by polling): the stream follows the node live; then, with the
 * node's generator stopped and stepped by the test, the counters and the chart move, pause holds
 * the rows back with "N new", filters reach the address, and acknowledge with a note and clear
 * round-trip to the node (checked in the simulator's record). Every step is shot in light and in
 * dark (tests/e2e/screenshots/alarms-<scheme>-NN-<step>.png).
 */
import type { Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import type { AlarmPage, AlarmSummary } from '../../shared/model/alarms';
import type { MgmtSimulator } from '@northbound/simulators/demo';
import { expect, openDemoWorkspace, test } from './support/fixtures';
import { dismissToasts, shooter } from './support/shots';

test.use({ appOptions: { demoEdr: false, demoInventory: { devices: 60, organizations: 8 }, alarms: { pollIntervalMs: 300, changedEveryMs: 100, statusEveryMs: 200 } } });

const shownIds = (page: Page) => page.getByTestId('alarm-row').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-alarm'))));
const freshIds = (page: Page) => page.locator('[data-testid="alarm-row"][data-fresh="true"]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-alarm'))));
/** The critical count of all organizations (a link, or a plain 0). */
const criticalCount = (page: Page) => page.getByTestId('alarm-counts-all').locator('td').first();
const params = (page: Page) => new URLSearchParams(new URL(page.url()).hash.split('?')[1] ?? '');

test('Alarms: a live stream, counters and chart, pause, filters, acknowledge with a note and clear on the node', async ({ page, nb }) => {
  test.setTimeout(180_000);
  const shot = shooter(page, nb, 'alarms', { settle: true });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  await dismissToasts(page);
  const sim: MgmtSimulator = nb.harness.app.demo.simulator!;
  const profileId = nb.harness.app.demo.status().oauthProfileId!;
  const list = (filter: Record<string, unknown> = {}) => nb.harness.call<AlarmPage>('alarms.list', { profileId, filter, limit: 500 });
  const storedChanges = async () => (await nb.harness.call<{ stored: { changes: number } }>('alarms.status', { profileId })).stored.changes;
  const onNodeChanges = () => sim.alarms.model.all().reduce((k, a) => k + a.changes.length, 0);
  /** `n` changes on the node, and until main stored them all. */
  const step = async (n: number) => {
    sim.alarms.generator.step(n);
    await expect.poll(storedChanges, { timeout: 15_000 }).toBeGreaterThanOrEqual(onNodeChanges());
  };

  await page.keyboard.press('Control+5');
  await expect(page.getByRole('heading', { name: 'Alarms', level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/#\/alarms/);
  await expect(page.getByTestId('alarm-source')).toHaveAttribute('data-health', 'live', { timeout: 15_000 });
  await expect(page.getByTestId('alarm-source')).toContainText('Live (polling)');
  await step(40);

  // Live: the demo node's own changes (about one every 2 s) reach the top of the stream.
  await expect.poll(async () => (await list()).total, { timeout: 15_000 }).toBeGreaterThan(0);
  const first = await list();
  await expect(page.getByTestId('alarm-count')).toHaveText(String(first.total), { timeout: 10_000 });
  const seqBefore = first.headSeq;
  await expect.poll(async () => (await list()).headSeq, { timeout: 20_000 }).toBeGreaterThan(seqBefore);
  await expect.poll(async () => {
    const now = await list();
    const shown = await shownIds(page);
    return shown.length > 0 && shown.every((id, i) => now.rows[i]?.id === id);
  }, { timeout: 10_000 }).toBe(true);
  await shot('stream');

  // From here the test steps the node itself: every expectation is exact.
  sim.alarms.generator.stop(true);
  await step(0);

  // Counters and chart move with a new critical alarm.
  const summary = () => nb.harness.call<AlarmSummary>('alarms.summary', { profileId });
  const s0 = await summary();
  await expect(page.getByTestId('alarm-count-all-total')).toHaveText(String(s0.totals.total));
  const rateText = await page.getByTestId('alarm-rate-total').textContent();
  const device = sim.alarms.model.all()[0]!.deviceName;
  const key = { deviceName: device, object: 'ge-0/0/47', type: 'interface-down', specificProblem: 'e2e: link down' };
  sim.alarms.model.change(key, 'critical', 'Interface ge-0/0/47 down (e2e)');
  await step(0);
  await expect(criticalCount(page)).toHaveText(String(s0.totals.critical + 1));
  await expect(page.getByTestId('alarm-count-all-total')).toHaveText(String(s0.totals.total + 1));
  await expect(page.getByTestId('alarm-rate-total')).not.toHaveText(rateText ?? '');
  await expect(page.getByTestId('alarm-rate').locator('svg.recharts-surface')).toBeVisible();
  const raised = (await list()).rows[0]!;
  expect(raised).toMatchObject({ object: 'ge-0/0/47', severity: 'critical' });
  await expect(page.getByTestId('alarm-row').first()).toHaveAttribute('data-alarm', String(raised.id));
  await expect.poll(() => freshIds(page)).toContain(raised.id);
  await shot('counters-and-chart');

  // Pause: the rows hold still while the node moves on; "N new" counts what changed since.
  await page.getByTestId('alarm-pause').click();
  await expect(page.getByTestId('alarm-pause')).toHaveAttribute('aria-pressed', 'true');
  const held = await shownIds(page);
  const beforePause = await list();
  // Eight changes on other alarms (the demo's own steps may clear any active alarm, this test's too).
  for (let i = 0; i < 8; i++) sim.alarms.model.change({ ...key, object: `ge-0/1/${i}`, specificProblem: 'e2e: other link' }, 'minor', `Interface ge-0/1/${i} down (e2e)`);
  await step(0);
  const changedSince = await list({ afterSeq: beforePause.headSeq });
  expect(changedSince.total).toBeGreaterThan(0);
  await expect(page.getByTestId('alarm-new')).toHaveText(`${changedSince.total} new`);
  expect(await shownIds(page)).toEqual(held);
  await shot('paused-n-new');
  await page.getByTestId('alarm-new').click();
  await expect(page.getByTestId('alarm-pause')).toHaveAttribute('aria-pressed', 'false');
  const resumed = await list();
  await expect.poll(async () => (await shownIds(page)).slice(0, 10)).toEqual(resumed.rows.slice(0, 10).map((r) => r.id));

  // Filters reach the address: critical alarms whose words match the raised one.
  await page.getByTestId('alarm-filter-severity-critical').check();
  await expect.poll(() => params(page).get('severity')).toBe('critical');
  const critical = await list({ severity: ['critical'] });
  await expect(page.getByTestId('alarm-count')).toHaveText(String(critical.total));
  await page.getByTestId('alarm-search').fill('ge-0/0/47');
  await expect.poll(() => params(page).get('q')).toBe('ge-0/0/47');
  await expect.poll(() => shownIds(page)).toEqual([raised.id]);
  await shot('filtered');

  // Acknowledge with a note, from the details: the node records who and why.
  await page.getByTestId('alarm-row').first().click();
  const details = page.getByTestId('alarm-details');
  await expect(details.getByRole('heading', { name: `interface-down on ${device}` })).toBeVisible();
  await expect.poll(() => params(page).get('alarm')).toBe(String(raised.id));
  await details.getByRole('button', { name: /Acknowledge/ }).click();
  const ack = page.getByTestId('alarm-ack-dialog');
  await expect(ack.getByLabel('Note')).toBeFocused();
  await ack.getByLabel('Note').fill('Fibre cut on the ring, crew on site');
  await shot('acknowledge');
  await ack.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(ack).toHaveCount(0);
  const handling = sim.alarms.model.get(key)!.handlings.at(-1)!;
  expect(handling).toMatchObject({ state: 'ack', description: 'Fibre cut on the ring, crew on site' });
  await expect(details.getByTestId('alarm-detail-handling')).toContainText(`acknowledged by ${handling.user}`);
  await expect(details.getByTestId('alarm-handling')).toHaveCount(1);
  await expect(details.getByTestId('alarm-handling').first()).toContainText('Fibre cut on the ring, crew on site');
  await dismissToasts(page);
  await shot('details-acknowledged');

  // Clear asks first; the node marks it cleared, keeps its text, and records who cleared it and why; it leaves the open stream.
  await details.getByRole('button', { name: /Clear/ }).click();
  const confirm = page.getByTestId('alarm-clear-dialog');
  await expect(confirm.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await confirm.getByLabel('Note').fill('Optic replaced');
  await shot('clear-confirm');
  await confirm.getByRole('button', { name: 'Clear' }).click();
  await expect(confirm).toHaveCount(0);
  expect(sim.alarms.model.get(key)!.changes.at(-1)).toMatchObject({ perceivedSeverity: 'cleared', alarmText: 'Interface ge-0/0/47 down (e2e)' });
  expect(sim.alarms.model.get(key)!.handlings.at(-1)).toMatchObject({ state: 'closed', user: handling.user, description: 'Optic replaced' });
  await expect(details.getByTestId('alarm-detail-text')).toHaveText('Interface ge-0/0/47 down (e2e)');
  await expect(details.getByTestId('alarm-detail-handling')).toContainText(`by ${handling.user}`);
  await expect(details.getByTestId('alarm-detail-handling')).toContainText('“Optic replaced”');
  await expect(details.getByTestId('alarm-change')).toHaveCount(2);
  await expect(details.getByTestId('alarm-handling')).toHaveCount(2);
  await expect(details.getByRole('button', { name: /Clear/ })).toBeDisabled();
  await dismissToasts(page);
  await shot('details-cleared');
  await page.keyboard.press('Escape');
  await expect(details).toHaveCount(0);
  await expect(page.getByTestId('alarm-none')).toBeVisible();
  // The counters follow: the critical count is the store's again (the pause's steps moved it too).
  await expect(criticalCount(page)).toHaveText(String((await summary()).totals.critical));
  await shot('cleared-gone');

  // `alarms export` carries the clear: the alarm's own text, who closed it and the note.
  const exported = cli(['alarms', 'export', '--data-dir', nb.harness.dataDir, '--format', 'jsonl'])
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { id: number; text: string; handling: { state: string; user: string; description: string } | null });
  expect(exported.find((a) => a.id === raised.id)).toMatchObject({ text: 'Interface ge-0/0/47 down (e2e)', handling: { state: 'closed', user: handling.user, description: 'Optic replaced' } });

  // The activity log lists both writes, newest first, with the desk's account and the node's; `audit export` prints them.
  await page.goto(`${nb.host.url.split('#')[0]}#/activity`);
  const rows = page.getByTestId('activity-row');
  await expect(rows.first()).toHaveAttribute('data-action', 'alarms.clear');
  await expect(rows.first()).toContainText('Cleared 1 alarm');
  await expect(rows.first()).toContainText('Optic replaced');
  await expect(rows.first()).toContainText(os.userInfo().username);
  await expect(page.locator('[data-testid="activity-row"][data-action="alarms.acknowledge"]').first()).toContainText('Fibre cut on the ring, crew on site');
  await page.getByLabel('Search the activity').fill('optic');
  await expect(rows).toHaveCount(1);
  await page.getByLabel('Search the activity').fill('');
  await shot('activity');
  const audit = cli(['audit', 'export', '--data-dir', nb.harness.dataDir])
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { action: string; detail: string; outcome: string });
  expect(audit.filter((e) => e.action.startsWith('alarms.')).slice(-2)).toEqual([
    expect.objectContaining({ action: 'alarms.acknowledge', detail: 'Fibre cut on the ring, crew on site', outcome: 'ok' }),
    expect.objectContaining({ action: 'alarms.clear', detail: 'Optic replaced', outcome: 'ok' }),
  ]);
});

/** The CLI on this data folder (its stdout), as an operator runs it. */
function cli(args: string[]): string {
  return execFileSync(process.execPath, [path.resolve('bin/northbound.mjs'), ...args], { encoding: 'utf8' });
}
