/**
 * Issue 22.1 in Chromium on the demo workspace: the Falcon tenant's hosts without a Zero Trust
 * Assessment are Not assessed, counted apart on the Overview, the dashboard and the report, never
 * High Risk or among the riskiest; a host's details say why and what its connector publishes for
 * it; the Connectors page states the choice and the form changes it. Shot at 1440×900 and
 * 1024×700, light and dark (tests/e2e/screenshots/not-assessed-*).
 */
import type { Locator, Page } from '@playwright/test';
import { BANDS, NOT_ASSESSED_INDEX, type ZtaSnapshot } from '../../shared/model/zta';
import { reportOfSnapshot } from '../support/report-oracle';
import { expect, openDemoWorkspace, test, type Northbound } from './support/fixtures';
import { rowAction } from './support/row-menu';
import { dismissToasts, shotInBothSchemes } from './support/shots';

test.use({ appOptions: { edr: { firstPullDelayMs: 300, publishDelayMs: 300 } } });

const count = (n: number) => n.toLocaleString('en-US');

/** Shots at both sizes and schemes; `show` is scrolled into view at each size. */
async function shots(page: Page, nb: Northbound, name: string, show?: Locator): Promise<void> {
  for (const [w, h] of [
    [1440, 900],
    [1024, 700],
  ] as const) {
    await page.setViewportSize({ width: w, height: h });
    await page.mouse.move(5, h - 5);
    // Centred: a dialog's sticky actions would cover a field only just in view.
    await show?.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    await shotInBothSchemes(page, nb, (scheme) => `not-assessed-${scheme}-${w}x${h}-${name}`);
  }
  await page.setViewportSize({ width: 1440, height: 900 });
}

test('hosts not assessed are counted apart on the Overview, the dashboard and the report, explained, and published as the connector says', async ({ page, nb }) => {
  test.setTimeout(240_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  await dismissToasts(page);
  await page.goto(`${nb.host.url.split('#')[0]}#/overview`);
  await expect(page.getByTestId('risk-hosts')).toContainText('500', { timeout: 60_000 });

  const s = await nb.harness.call<ZtaSnapshot>('zta.snapshot');
  const unassessed = s.rows.band.filter((b) => b === NOT_ASSESSED_INDEX).length;
  const high = s.rows.band.filter((b) => b === BANDS.indexOf('High Risk')).length;
  expect(unassessed).toBeGreaterThan(0);

  // Overview: High Risk is the hosts scored High Risk; Not assessed is a number of its own, and in the band list after a rule.
  await expect(page.getByTestId('risk-high')).toHaveText(`${count(high)} in High Risk`);
  await expect(page.getByTestId('risk-not-assessed')).toHaveText(`${count(unassessed)} not assessed`);
  await expect(page.getByTestId('risk-band-Not assessed')).toContainText(count(unassessed));
  const badge = page.getByTestId('nav-badge-zta');
  if (high > 0) await expect(badge).toHaveText(`${count(high)}, ${count(high)} host${high === 1 ? '' : 's'} in High Risk`);
  else await expect(badge).toHaveCount(0);
  await shots(page, nb, '01-overview');

  // The dashboard, filtered from the Overview's number: every row Not assessed, no score, none among the riskiest.
  await page.getByTestId('risk-not-assessed').click();
  await expect(page).toHaveURL(/band=Not(\+|%20)assessed/);
  await expect(page.getByTestId('zta-count')).toHaveText(`${count(unassessed)} of 500`);
  await expect(page.getByTestId('band-total-Not assessed')).toContainText(count(unassessed));
  const rows = page.getByTestId('zta-row');
  await expect(rows.first()).toContainText('Not assessed');
  await expect(rows.first().locator('.zta-score')).toHaveText('—');
  await expect(page.getByTestId('zta-riskiest')).toContainText('none is among the riskiest');
  await shots(page, nb, '02-dashboard');

  // One of them: why, and what its connector publishes.
  await rows.first().click();
  const dialog = page.getByTestId('zta-host');
  await expect(dialog.getByRole('heading', { name: 'Why this host is Not assessed' })).toBeVisible();
  await expect(dialog.getByTestId('zta-not-assessed-reason')).toContainText('Falcon has no Zero Trust Assessment for this host yet');
  await expect(dialog.getByTestId('zta-not-assessed-published')).toContainText('Published to the SD-WAN as High Risk (score 100): fail-closed');
  await shots(page, nb, '03-host');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // The report: a row of its own in the band counts, none among the riskiest.
  const expected = reportOfSnapshot(s, {});
  await page.goto(`${nb.host.url.split('#')[0]}#/zta/report`);
  await expect(page.locator('html')).toHaveAttribute('data-report-ready', 'true', { timeout: 30_000 });
  await expect(page.getByTestId('report-band-counts').locator('tr[data-band="Not assessed"] td').nth(1)).toHaveText(count(unassessed));
  const riskiest = await page.getByTestId('report-riskiest').locator('tbody tr').evaluateAll((trs) => trs.map((r) => r.getAttribute('data-host-id')));
  expect(riskiest).toEqual(expected.riskiest.map((r) => r.hostId));
  const naIds = new Set(s.rows.hostId.filter((_, i) => s.rows.band[i] === NOT_ASSESSED_INDEX));
  expect(riskiest.some((id) => naIds.has(id!))).toBe(false);
  await shots(page, nb, '04-report', page.getByTestId('report-band-counts'));

  // The Connectors page states each connector's choice; the form changes it.
  await page.goto(`${nb.host.url.split('#')[0]}#/connectors`);
  const row = page.getByTestId('connector-row-Demo Falcon tenant');
  await expect(row.getByTestId('connector-not-assessed')).toHaveText('Not assessed: published as High Risk');
  await rowAction(row, 'Edit');
  const form = page.getByTestId('connector-form');
  await form.getByLabel('Hosts not assessed').selectOption('withhold');
  await expect(form).toContainText('the SD-WAN’s own rule for a host without a score applies');
  await shots(page, nb, '05-form', form.getByLabel('Hosts not assessed'));
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toHaveCount(0);
  await expect(row.getByTestId('connector-not-assessed')).toHaveText('Not assessed: withheld');
  const falcon = (await nb.harness.call<Array<{ vendor: string; notAssessed?: string }>>('connectors.list')).find((c) => c.vendor === 'falcon');
  expect(falcon?.notAssessed).toBe('withhold');
});
