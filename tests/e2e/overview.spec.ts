/**
 * The Overview (issue 13) in Chromium against browser mode, on the demo workspace (its node raising
 * alarms, a Defender and a Falcon tenant of 250 hosts each, polled for real): the numbers match the
 * pages they link to (each tile clicked, the filtered page's count compared, Back returning to the
 * Overview), then a restart without the simulators reopens it offline with "as of" on every tile.
 * Shot in light and in dark (tests/e2e/screenshots/overview-<scheme>-NN-<step>.png).
 */
import type { Page } from '@playwright/test';
import type { Overview } from '../../shared/model/overview';
import { expect, openDemoWorkspace, test } from './support/fixtures';
import { dismissToasts, shooter } from './support/shots';

test.use({ appOptions: { edr: { firstPullDelayMs: 300, publishDelayMs: 300 } } });

const tile = (page: Page, id: string) => page.getByTestId(`tile-${id}`);
/** The first number of a text: "1,234 hosts" → 1234. */
const numberIn = async (page: Page, testId: string) => Number((await page.getByTestId(testId).first().innerText()).replace(/,/g, '').match(/\d+/)![0]);

async function backToOverview(page: Page) {
  await page.goBack();
  await expect(page).toHaveURL(/#\/overview/);
  await expect(tile(page, 'risk')).toBeVisible();
}

test('the Overview: live numbers that match the pages they open, then offline after a restart with "as of" on every tile', async ({ page, nb }) => {
  test.setTimeout(240_000);
  const shot = shooter(page, nb, 'overview');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(nb.host.url);
  // Nothing configured: the window opens on Connections and its welcome.
  await expect(page.getByRole('heading', { name: 'Welcome to Northbound' })).toBeVisible();
  await expect(page).toHaveURL(/#\/connections/);
  await openDemoWorkspace(page);
  await dismissToasts(page);
  const profileId = nb.harness.app.demo.status().oauthProfileId!;

  await page.keyboard.press('Control+1');
  await expect(page.getByRole('heading', { name: 'Overview', level: 1 })).toBeVisible();
  // The demo connectors poll 0.3 s after they are registered; the devices tile fetches the devices once.
  await expect(page.getByTestId('risk-hosts')).toHaveText(/^500\s*hosts$/, { timeout: 60_000 });
  await expect(page.getByTestId('devices-total')).toHaveText(/^\d[\d,]*\s*devices$/, { timeout: 30_000 });
  await expect(page.getByTestId('alarms-active')).toBeVisible({ timeout: 30_000 });
  await expect(tile(page, 'connectors').getByTestId('connector-health-Demo Falcon tenant')).toHaveAttribute('data-health', 'online');
  for (const id of ['alarms', 'risk', 'entered', 'devices', 'connectors']) await expect(tile(page, id).getByTestId('tile-asof')).toBeVisible();
  await shot('live');

  // Alarms: what the tile counts is what main's alarm list has; a number opens Alarms with its
  // filter and the page counts the same. The node's generator is stopped so that both hold still.
  const sim = nb.harness.app.demo.simulator!;
  sim.alarms.generator.stop(true);
  // Main first stores every change the node made (a change raised just before the stop was still
  // on its way: both counts could agree on the number before it, then both move).
  const onNodeChanges = sim.alarms.model.all().reduce((k, a) => k + a.changes.length, 0);
  await expect
    .poll(async () => (await nb.harness.call<{ stored: { changes: number } }>('alarms.status', { profileId })).stored.changes, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(onNodeChanges);
  await expect
    .poll(
      async () => {
        const rows = (await nb.harness.call<{ rows: Array<{ severity: string }> }>('alarms.list', { profileId, filter: { severity: ['critical'] }, limit: 1000 })).rows;
        return (await numberIn(page, 'alarms-critical')) === rows.length;
      },
      { timeout: 20_000 },
    )
    .toBe(true);
  const critical = await numberIn(page, 'alarms-critical');
  await page.getByTestId('alarms-critical').click();
  await expect(page).toHaveURL(/#\/alarms\?/);
  await expect(page.getByTestId('alarm-count')).toHaveText(critical.toLocaleString('en'), { timeout: 15_000 });
  const alarmsAddress = new URLSearchParams(page.url().split('?')[1]);
  expect(alarmsAddress.get('severity')).toBe('critical');
  // Open (not cleared) is the Alarms page's default state: the address leaves it out.
  expect(alarmsAddress.get('state')).toBeNull();
  await backToOverview(page);

  // Risk: each band opens the ZTA dashboard filtered to it, with as many hosts as the tile said.
  const total = await numberIn(page, 'risk-hosts');
  const high = await numberIn(page, 'risk-high');
  expect(high).toBe(await numberIn(page, 'risk-band-High Risk'));
  await expect(page.getByTestId('nav-badge-zta')).toHaveAttribute('title', `${high} hosts in High Risk`);
  await page.getByTestId('risk-high').click();
  await expect(page).toHaveURL(/#\/zta\?.*band=High(\+|%20)Risk/);
  await expect(page.getByTestId('zta-count')).toHaveText(`${high.toLocaleString('en')} of ${total.toLocaleString('en')}`, { timeout: 15_000 });
  await shot('zta-high-risk');
  await backToOverview(page);
  const low = await numberIn(page, 'risk-band-Low Risk');
  await page.getByTestId('risk-band-Low Risk').click();
  await expect(page.getByTestId('zta-count')).toHaveText(`${low.toLocaleString('en')} of ${total.toLocaleString('en')}`, { timeout: 15_000 });
  await backToOverview(page);
  await page.getByTestId('risk-hosts').click();
  await expect(page.getByTestId('zta-count')).toHaveText(`${total.toLocaleString('en')} hosts`, { timeout: 15_000 });
  await backToOverview(page);

  // Devices: every count opens the devices page filtered to that status.
  const devices = await numberIn(page, 'devices-total');
  for (const status of ['failed', 'deployed', 'saved'] as const) {
    const n = await numberIn(page, `devices-${status}`);
    await page.getByTestId(`devices-${status}`).click();
    await expect(page).toHaveURL(new RegExp(`#/devices\\?.*status=${status}`));
    const [shown, all] = [n.toLocaleString('en'), devices.toLocaleString('en')];
    await expect(page.getByTestId('devices-count')).toHaveText(n === devices ? `${all} devices` : `${shown} of ${all}`, { timeout: 15_000 });
    if (status === 'failed') await shot('devices-failed');
    await backToOverview(page);
  }
  await page.getByTestId('devices-total').click();
  await expect(page.getByTestId('devices-count')).toHaveText(`${devices.toLocaleString('en')} devices`);
  await backToOverview(page);

  // Connectors: the tile lists each one as the Connectors page does.
  await tile(page, 'connectors').getByRole('link', { name: 'Connectors' }).click();
  for (const name of ['Demo Defender tenant', 'Demo Falcon tenant']) await expect(page.getByTestId(`connector-row-${name}`)).toBeVisible();
  await backToOverview(page);

  // A second cycle of the Defender tenant with stricter band edges: hosts enter High Risk.
  const connectors = await nb.harness.call<Array<{ id: string; vendor: string }>>('connectors.list');
  const defender = connectors.find((c) => c.vendor === 'defender')!;
  await nb.harness.call('zta.applyRisk', { connectorId: defender.id, risk: { bands: [5, 10, 15, 20] } });
  await expect(page.getByTestId('entered-count')).toHaveText(/^\d[\d,]* hosts? since the last cycle/, { timeout: 30_000 });
  const entered = await nb.harness.call<{ changes: { enteredHighRisk: unknown[] } }>('zta.overview', {});
  expect(await numberIn(page, 'entered-count')).toBe(entered.changes.enteredHighRisk.length);
  await expect(page.getByTestId('nav-badge-zta')).toHaveAttribute('title', `${await numberIn(page, 'risk-high')} hosts in High Risk`);
  await shot('entered-high-risk');
  const before = await nb.harness.call<Overview>('overview.get', { profileId });

  // Restart without network (no simulators, no scheduled poll): the window reopens on the
  // Overview, every tile "as of" its stored data.
  await nb.restart({ demoEdr: false, edr: { firstPullDelayMs: 600_000 } });
  // The demo node's simulator starts again with the app (it lives in this process): stopped too.
  await nb.harness.app.demo.close();
  // A poll now fails: the vendor cannot be reached, the connector is offline, its data stands.
  const { cycleId } = await nb.harness.call<{ cycleId: number }>('connectors.pollNow', { connectorId: defender.id });
  await expect.poll(() => nb.harness.pushed.some((p) => p.includes(`"cycleId":${cycleId}`) && p.includes('"phase":"failed"')), { timeout: 60_000 }).toBe(true);
  await page.goto(nb.host.url);
  await expect(page).toHaveURL(/#\/overview/, { timeout: 15_000 });
  await expect(page.getByTestId('risk-hosts')).toHaveText(/^500\s*hosts$/, { timeout: 15_000 });
  for (const id of ['alarms', 'risk', 'entered', 'devices', 'connectors']) {
    await expect(tile(page, id).getByTestId('tile-asof')).toHaveText(/^(as of|fetched|checked) \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
  }
  const after = await nb.harness.call<Overview>('overview.get', { profileId });
  if (before.risk.state !== 'known' || after.risk.state !== 'known' || before.devices.state !== 'known' || after.devices.state !== 'known') throw new Error('not known after the restart');
  expect(after.risk.bands).toEqual(before.risk.bands);
  expect(after.devices.total).toBe(before.devices.total);
  await expect(tile(page, 'risk').getByTestId('tile-asof').locator('time').first()).toHaveAttribute('datetime', after.risk.asOf);
  await expect(page.getByTestId('devices-total')).toHaveText(`${after.devices.total.toLocaleString('en')} devices`);
  await expect(page.getByTestId('connector-health-Demo Defender tenant')).toHaveAttribute('data-health', 'offline');
  await expect(tile(page, 'alarms').getByTestId('tile-asof')).not.toContainText('live');
  await shot('offline-after-restart');
});
