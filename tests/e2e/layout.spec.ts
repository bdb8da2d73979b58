/**
 * Layouts that hold (issue 10 item 8): Connections, OAuth clients, Devices, Organizations and
 * Connectors at 1440×900 and 1024×700, in light and in dark, against the demo workspace. At each
 * size the page has no horizontal scrollbar, and what must stay visible does: the Status column
 * and the row actions of every table, within the window; the header keeps its title, the Go to…
 * button and the chosen connection's name. The pages' screenshots at these sizes are
 * screens.spec.ts's (`screens-<width>-<scheme>-<page>.png`); this one adds the open row menu
 * (`layout-<scheme>-<width>-connections-menu.png`).
 */
import type { Locator, Page } from '@playwright/test';
import { defaultOAuthClientBody } from '../../shared/model/oauth-client';
import { expect, openDemoWorkspace, test } from './support/fixtures';
import { shotInBothSchemes } from './support/shots';

test.use({ appOptions: { demoInventory: { devices: 400, organizations: 30 } } });

const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;

/** Neither the window nor the page's own scroller scrolls sideways. */
async function expectNoHorizontalScroll(page: Page) {
  const overflow = await page.evaluate(() =>
    [document.documentElement, document.querySelector('.content')].filter((el): el is Element => el !== null).map((el) => ({ name: el.className || el.tagName, scroll: el.scrollWidth, client: el.clientWidth })),
  );
  for (const o of overflow) expect.soft(o.scroll, `${o.name} scrolls sideways`).toBeLessThanOrEqual(o.client);
}

/** The header holds its page title, the Go to… button on one line and the chosen connection's whole name (long titles: Connections, Organizations). */
async function expectHeaderHolds(page: Page) {
  // The button's height is fixed: a wrapped label shows as a label taller than one line.
  const label = await page.getByRole('button', { name: /^Go to/ }).getByText('Go to…').boundingBox();
  expect.soft(label?.height, 'Go to… on one line').toBeLessThanOrEqual(20);
  const cut = await page.getByTestId('active-connection').evaluate((el) => el.scrollWidth > el.clientWidth);
  expect.soft(cut, "the connection's name is cut").toBe(false);
}

/** Visible and entirely inside the window (not cut off by a scroller either). Soft: one run reports every problem. */
async function expectInView(page: Page, target: Locator) {
  await expect.soft(target).toBeVisible();
  await expect.soft(target).toBeInViewport({ ratio: 1 });
  const box = await target.boundingBox();
  expect.soft(box && box.x + box.width, 'right edge inside the window').toBeLessThanOrEqual(page.viewportSize()!.width);
}

// The schemes differ in colours only (renderer/styles/tokens.css): the layout is checked once,
// and each picture is taken in light and in dark.
test(`pages hold at 1440×900 and 1024×700`, async ({ page, nb }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(SIZES[0]);
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  const oauthProfileId = nb.harness.app.demo.status().oauthProfileId!;
  for (const name of ['ci-robot', 'backup-exporter-with-a-long-name']) {
    await nb.harness.call('oauthClients.create', { profileId: oauthProfileId, body: { ...defaultOAuthClientBody(), name, description: `${name} for the layout test` } });
  }
  await nb.harness.call('inventory.refresh', { profileId: oauthProfileId, what: 'all' });
  // The demo's welcome toast would cover the corner of every screenshot.
  await page.locator('[data-sonner-toast]').getByRole('button', { name: /close/i }).click();
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);

  for (const size of SIZES) {
    await page.setViewportSize(size);
    const narrow = size.width < 1440;
    // A window this narrow starts with the sidebar collapsed (C-55); expanded, as an operator may
    // choose, it leaves the pages their narrowest room, which is what is checked here.
    const sidebar = page.getByRole('navigation', { name: 'Sections' });
    await expect(sidebar).toHaveAttribute('data-collapsed', String(narrow));
    if (narrow) await sidebar.getByRole('button', { name: 'Expand the sidebar' }).click();
    await expect(sidebar).toHaveAttribute('data-collapsed', 'false');
    /** The least important columns give way first in the narrow window (C-27), and only there. */
    const givesWay = async (header: Locator) => (narrow ? expect(header).toBeHidden() : expect(header).toBeVisible());
    const shot = (name: string) => shotInBothSchemes(page, nb, (scheme) => `layout-${scheme}-${size.width}-${name}`);

    await page.keyboard.press('Control+2');
    await page.getByRole('tab', { name: 'Profiles' }).click();
    const rows = page.getByTestId(/^profile-row-/);
    await expect(rows.first()).toBeVisible();
    await expectNoHorizontalScroll(page);
    await expectHeaderHolds(page);
    for (const row of await rows.all()) {
      await expectInView(page, row.getByTestId('session-badge'));
      await expectInView(page, row.getByRole('button', { name: /^(Sign in|Sign out)$/ }));
      await expectInView(page, row.getByRole('button', { name: 'More actions' }));
    }
    // The menu opens inside the window, beside its button; Escape gives the focus back.
    const more = rows.first().getByRole('button', { name: 'More actions' });
    await more.click();
    await expectInView(page, page.getByRole('menu'));
    await shot('connections-menu');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu')).toHaveCount(0);
    await expect(more).toBeFocused();

    await page.getByRole('tab', { name: 'OAuth clients' }).click();
    const client = page.getByTestId('oauth-client-row-backup-exporter-with-a-long-name');
    await expect(client).toBeVisible();
    await expectNoHorizontalScroll(page);
    await expectInView(page, page.getByRole('columnheader', { name: 'Status' }));
    await expectInView(page, client.getByRole('button', { name: /^Edit/ }));
    await givesWay(page.getByRole('columnheader', { name: 'Source' }));
    await expect(page.getByRole('columnheader', { name: 'Client ID' })).toBeVisible();

    await page.keyboard.press('Control+3');
    await expect(page.getByTestId('devices-count')).toHaveText('400 devices', { timeout: 20_000 });
    await expectNoHorizontalScroll(page);
    await expectInView(page, page.getByRole('columnheader', { name: 'Status', exact: true }));
    await expectInView(page, page.getByTestId('device-row').first().locator('.status-chip').first());
    await expectInView(page, page.getByRole('button', { name: 'Onboard device' }));
    for (const column of ['Country', 'Serial number', 'Device group']) await givesWay(page.getByRole('columnheader', { name: column }));
    await expect(page.getByRole('columnheader', { name: 'Organization' })).toBeVisible();

    await page.keyboard.press('Control+4');
    await expect(page.getByTestId('org-tree')).toBeVisible();
    await expectNoHorizontalScroll(page);
    await expectHeaderHolds(page);
    await page.getByRole('button', { name: 'List' }).click();
    await expect(page.getByTestId('org-list')).toBeVisible();
    await expectNoHorizontalScroll(page);
    await givesWay(page.getByRole('columnheader', { name: 'Parent' }));
    await expectInView(page, page.getByRole('columnheader', { name: 'Devices' }));
    await page.getByRole('button', { name: 'Tree' }).click();

    await page.keyboard.press('Control+7');
    const connector = page.getByTestId(/^connector-row-/).first();
    await expect(connector).toBeVisible();
    await expectNoHorizontalScroll(page);
    for (const row of await page.getByTestId(/^connector-row-/).all()) {
      await expectInView(page, row.getByRole('button', { name: /^(Poll now|Cancel poll)$/ }));
      await expectInView(page, row.getByRole('button', { name: 'More actions' }));
    }
  }
});
