/**
 * Screenshots of every page (issue 10, "Must show") at 1440×900 and 1024×700, light and dark,
 * against the demo workspace with something on every page: devices and organizations fetched,
 * OAuth clients and a syslog server on the node, a polled connector, alarms (and one alarm's details). Written to
 * tests/e2e/screenshots/screens-<width>-<scheme>-<page>.png for a person to look at; each page
 * is waited for by its content, and the window logs no error on the way. layout.spec.ts checks
 * what must stay in view at these sizes; tour.spec.ts and the feature specs photograph dialogs.
 */
import type { Page } from '@playwright/test';
import { defaultOAuthClientBody } from '../../shared/model/oauth-client';
import { expect, openDemoWorkspace, test, type Northbound } from './support/fixtures';
import { dismissToasts, shotInBothSchemes } from './support/shots';

test.use({ appOptions: { demoInventory: { devices: 400, organizations: 30 }, edr: { firstPullDelayMs: 600_000, publishDelayMs: 50 } } });

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;

const heading = (page: Page, name: string) => expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();

/** The demo with data on every page, set up through main as the node and an operator would. */
async function seed(nb: Northbound) {
  const profileId = nb.harness.app.demo.status().oauthProfileId!;
  for (const name of ['ci-robot', 'backup-exporter']) {
    await nb.harness.call('oauthClients.create', { profileId, body: { ...defaultOAuthClientBody(), name, description: `${name} (screenshots)` } });
  }
  await nb.harness.call('syslog.create', { profileId, server: { host: 'syslog.example.net', port: 514, enabled: true } });
  // Alarms of every kind at once, then a still node: the pictures show rows, not highlights.
  const sim = nb.harness.app.demo.simulator!;
  sim.alarms.generator.stop(true);
  sim.alarms.generator.step(80);
  await expect.poll(async () => (await nb.harness.call<{ total: number }>('alarms.list', { profileId, filter: {}, limit: 1 })).total, { timeout: 15_000 }).toBeGreaterThan(20);
  await nb.harness.call('inventory.refresh', { profileId, what: 'all' });
  const connectors = () => nb.harness.call<Array<{ id: string; name: string; lastCycle?: { status: string } }>>('connectors.list');
  // The demo registers its connectors after the sign-in openDemoWorkspace waits for.
  await expect.poll(async () => (await connectors()).map((c) => c.name).sort(), { timeout: 15_000 }).toEqual(['Demo Defender tenant', 'Demo Falcon tenant']);
  const falcon = (await connectors()).find((c) => c.name === 'Demo Falcon tenant')!;
  await nb.harness.call('connectors.pollNow', { connectorId: falcon.id });
  await expect.poll(async () => (await connectors()).find((c) => c.id === falcon.id)?.lastCycle?.status, { timeout: 30_000 }).toBe('completed');
}

// One test a size: each walks with its own app, so the two run side by side (one walk of both
// sizes took 3 min under CI load, its whole budget).
for (const size of SIZES) {
  test(`every page at ${size.width}×${size.height} in light and dark`, async ({ page, nb }) => {
    test.setTimeout(180_000);
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    await page.setViewportSize(size);
    await page.goto(nb.host.url);
    await expect(page.getByRole('heading', { name: 'Welcome to Northbound' })).toBeVisible();
    await shotInBothSchemes(page, nb, (scheme) => `screens-${size.width}-${scheme}-welcome`);
    await openDemoWorkspace(page);
    await seed(nb);
    await page.keyboard.press('Control+2');
    await heading(page, 'Connections');
    await dismissToasts(page);
    const shot = async (name: string) => {
      // The pointer rests on the sidebar's empty foot: no row shows its hover state.
      await page.mouse.move(10, size.height - 10);
      await shotInBothSchemes(page, nb, (scheme) => `screens-${size.width}-${scheme}-${name}`);
    };

    await page.keyboard.press('Control+1');
    await heading(page, 'Overview');
    await expect(page.getByTestId('devices-total')).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('connector-health-Demo Falcon tenant')).toHaveAttribute('data-health', 'online');
    await shot('overview');
    await page.keyboard.press('Control+2');
    await heading(page, 'Connections');

    await page.getByRole('tab', { name: 'Profiles' }).click();
    await expect(page.getByTestId('profile-row-Demo node (OAuth)').getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in');
    await shot('connections');
    await page.getByRole('tab', { name: 'OAuth clients' }).click();
    await expect(page.getByTestId('oauth-client-row-backup-exporter')).toBeVisible();
    await shot('oauth-clients');
    await page.getByRole('tab', { name: 'Syslog servers' }).click();
    await expect(page.getByTestId('syslog-row-syslog.example.net:514')).toBeVisible();
    await shot('syslog');

    await page.keyboard.press('Control+3');
    await heading(page, 'Devices');
    await expect(page.getByTestId('devices-count')).toHaveText('400 devices');
    await shot('devices');

    await page.keyboard.press('Control+4');
    await heading(page, 'Organizations');
    await expect(page.getByTestId('org-tree')).toBeVisible();
    await shot('organizations');
    await page.getByRole('button', { name: 'List' }).click();
    await expect(page.getByTestId('org-list')).toBeVisible();
    await shot('organizations-list');
    await page.getByRole('button', { name: 'Tree' }).click();

    await page.keyboard.press('Control+5');
    await heading(page, 'Alarms');
    await expect(page.getByTestId('alarm-row').first()).toBeVisible();
    await expect(page.getByTestId('alarm-source')).toHaveAttribute('data-health', 'live');
    await expect(page.getByTestId('alarm-rate').locator('svg.recharts-surface')).toBeVisible();
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    await shot('alarms');
    await page.getByTestId('alarm-row').first().click();
    await expect(page.getByTestId('alarm-change').first()).toBeVisible();
    await shot('alarm-details');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('alarm-details')).toHaveCount(0);
    await page.keyboard.press('Control+6');
    await heading(page, 'ZTA');
    await shot('zta');

    await page.keyboard.press('Control+7');
    await heading(page, 'Connectors');
    await expect(page.getByTestId('connector-row-Demo Falcon tenant').getByTestId('connector-last-cycle').getByText('completed')).toBeVisible();
    await expect(page.getByTestId('connector-row-Demo Defender tenant')).toBeVisible();
    await shot('connectors');

    await page.keyboard.press('Control+8');
    await heading(page, 'Settings');
    await expect(page.getByTestId('app-info')).toContainText('Browser mode');
    await shot('settings');
    // The page scrolls inside its frame: its end is a second picture.
    await page.locator('.content').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
    await expect(page.getByRole('heading', { name: 'Data folder' })).toBeInViewport();
    await shot('settings-end');
    expect(problems).toEqual([]);
  });
}
