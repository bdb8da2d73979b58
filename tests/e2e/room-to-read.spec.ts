/**
 * Issue 22.7 in Chromium on the demo workspace: tables give room to what operators read. At
 * 1440×900 the ZTA hostnames are whole for a Falcon and a Defender connector and for both, the
 * Defender view needs no sideways scroll, customers are named (their IDs on hover), long IDs are
 * shortened; the alarm stream's device and object names are whole and the filters' placeholders
 * fit. At 1024×700 the sidebar starts collapsed, toggles by its button and by Ctrl+B and keeps the
 * choice over a reload, and the What-if opens over the dashboard with its form and actions in
 * view. Shot at both sizes, light and dark (tests/e2e/screenshots/room-*).
 */
import type { Locator, Page } from '@playwright/test';
import type { ZtaSnapshot } from '../../shared/model/zta';
import { expect, openDemoWorkspace, test, type Northbound } from './support/fixtures';
import { dismissToasts, shotInBothSchemes } from './support/shots';

test.use({ appOptions: { edr: { firstPullDelayMs: 300, publishDelayMs: 300 }, alarms: { pollIntervalMs: 300 } } });

/** The texts of the elements `cells` finds that are cut (wider than their box). */
const cut = (cells: Locator) => cells.evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth).map((e) => `${e.textContent} (${e.scrollWidth} > ${e.clientWidth} px)`));

/** Nothing scrolls sideways: the window, the page and the element `testId` names. */
async function expectNoSideScroll(page: Page, testId: string) {
  const sizes = await page.evaluate((id) => [document.documentElement, document.querySelector('.content'), document.querySelector(`[data-testid="${id}"]`)].map((el) => el && { name: el.className, scroll: el.scrollWidth, client: el.clientWidth }), testId);
  expect(sizes[2], `${testId} is on the page`).not.toBeNull();
  for (const s of sizes) if (s) expect(s.scroll, `${s.name} scrolls sideways`).toBeLessThanOrEqual(s.client);
}

async function openZta(page: Page, nb: Northbound): Promise<ZtaSnapshot> {
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  await expect(page.getByText('The demo workspace is ready.')).toBeVisible();
  await dismissToasts(page);
  await page.keyboard.press('Control+6');
  // The demo connectors poll 0.3 s after they are registered.
  await expect(page.getByTestId('zta-count')).toHaveText('500 hosts', { timeout: 60_000 });
  return nb.harness.call<ZtaSnapshot>('zta.snapshot');
}

const shot = (page: Page, nb: Northbound, name: string) => {
  const { width, height } = page.viewportSize()!;
  return shotInBothSchemes(page, nb, (scheme) => `room-${scheme}-${width}x${height}-${name}`);
};

test('at 1440×900 hostnames, customers, device and object names are whole and the Defender view fits', async ({ page, nb }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  const s = await openZta(page, nb);
  await expect(page.getByRole('navigation', { name: 'Sections' })).toHaveAttribute('data-collapsed', 'false');
  const hostnames = page.locator('.zta-table td.col-hostname');

  // Both vendors: every hostname whole; the customers by their connectors' names, the whole ID on hover.
  await expect(hostnames.first()).toBeVisible();
  expect(await cut(hostnames)).toEqual([]);
  await expectNoSideScroll(page, 'zta-scroll');
  const headers = page.getByRole('columnheader');
  await expect(headers.first()).toHaveText(/^Hostname/);
  await expect(headers.nth(1)).toHaveText(/^Customer/);
  for (const c of s.connectors) {
    const customer = s.customers[s.rows.customer[s.rows.connector.indexOf(s.connectors.indexOf(c))]!]!;
    await expect(page.locator('.zta-table td.col-customer span').filter({ hasText: c.name }).first()).toHaveAttribute('title', `${c.name} (${customer})`);
    const bar = page.getByTestId('zta-distribution-label').filter({ hasText: c.name });
    await expect(bar).toHaveCount(1);
    await expect(bar.locator('title')).toHaveText(`${c.name} (${customer})`);
  }
  await shot(page, nb, '01-zta-both');

  for (const [vendor, name] of [
    ['falcon', '02-zta-falcon'],
    ['defender', '03-zta-defender'],
  ] as const) {
    const connector = s.connectors.find((c) => c.vendor === vendor)!;
    await page.getByTestId('zta-filter-connector').selectOption(connector.connectorId);
    await expect(page.getByTestId('zta-count')).toHaveText(`${connector.hosts} of 500`);
    await expect(hostnames.first()).toBeVisible();
    expect(await cut(hostnames), `${vendor}: hostnames cut`).toEqual([]);
    await expectNoSideScroll(page, 'zta-scroll');
    // The host ID after the names, shortened, whole on hover.
    const id = page.getByTestId('zta-row').first().locator('td.col-hostId .zta-hostid');
    const hostId = (await page.getByTestId('zta-row').first().getAttribute('data-host'))!;
    await expect(id).toHaveText(`${hostId.slice(0, 8)}…`);
    await expect(id).toHaveAttribute('title', hostId);
    expect(await cut(page.locator('.zta-table td.col-hostId')), `${vendor}: host IDs cut`).toEqual([]);
    if (vendor === 'defender') {
      // Defender's words head the assessment columns, and are not repeated after them.
      for (const h of ['Exposure', 'Health', 'Risk level', 'AV status', 'CVEs']) await expect(page.getByRole('columnheader', { name: new RegExp(`^${h}`) })).toHaveCount(1);
    }
    await shot(page, nb, name);
  }

  // Alarms: device and object names whole; every filter's placeholder fits its box.
  const sim = nb.harness.app.demo.simulator!;
  sim.alarms.generator.stop(true);
  sim.alarms.generator.step(200);
  await page.keyboard.press('Control+5');
  await expect(page.getByTestId('alarm-row').nth(20)).toBeVisible({ timeout: 15_000 });
  const names = page.locator('.alarm-table td.col-device > span, .alarm-table td.col-object > span');
  await expect(page.locator('.alarm-table td.col-object').first()).toBeVisible();
  expect(await names.count()).toBeGreaterThan(40);
  expect(await cut(names)).toEqual([]);
  await expectNoSideScroll(page, 'alarm-scroll');
  const placeholders = await page.locator('.alarm-filters input[placeholder], .zta-filters input[placeholder]').evaluateAll((inputs) =>
    inputs.map((el) => {
      const input = el as HTMLInputElement;
      const css = getComputedStyle(input);
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.font = `${css.fontStyle} ${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
      return { placeholder: input.placeholder, text: Math.ceil(ctx.measureText(input.placeholder).width), room: input.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) };
    }),
  );
  expect(placeholders.map((p) => p.placeholder)).toEqual(['Device (exact name)', 'Type, e.g. interface-down', 'Text, object, device or type']);
  for (const p of placeholders) expect(p.text, `"${p.placeholder}" fits`).toBeLessThanOrEqual(p.room);
  await page.mouse.move(700, 890);
  await shot(page, nb, '04-alarms');
  // The ZTA search's placeholder too.
  await page.keyboard.press('Control+6');
  const search = await page.getByTestId('zta-search').evaluate((el) => {
    const input = el as HTMLInputElement;
    const css = getComputedStyle(input);
    const ctx = document.createElement('canvas').getContext('2d')!;
    ctx.font = `${css.fontStyle} ${css.fontWeight} ${css.fontSize} ${css.fontFamily}`;
    return { text: Math.ceil(ctx.measureText(input.placeholder).width), room: input.clientWidth - parseFloat(css.paddingLeft) - parseFloat(css.paddingRight) };
  });
  expect(search.text).toBeLessThanOrEqual(search.room);
});

test('at 1024×700 the sidebar collapses and toggles, remembered over a reload, and the What-if opens over the dashboard, usable', async ({ page, nb }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1024, height: 700 });
  await openZta(page, nb);
  const nav = page.getByRole('navigation', { name: 'Sections' });
  const width = async () => (await nav.boundingBox())!.width;

  // A narrow window starts collapsed: icons, each link still named by its page.
  await expect(nav).toHaveAttribute('data-collapsed', 'true');
  expect(await width()).toBeLessThanOrEqual(60);
  await expect(nav.getByRole('link', { name: 'ZTA' })).toBeVisible();
  const toggle = nav.getByTestId('sidebar-toggle');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await expect(toggle).toHaveAccessibleName('Expand the sidebar');
  // By its button, and the choice survives a reload at this width.
  await toggle.click();
  await expect(nav).toHaveAttribute('data-collapsed', 'false');
  expect(await width()).toBeGreaterThan(200);
  await page.reload();
  await expect(page.getByTestId('zta-count')).toHaveText('500 hosts', { timeout: 20_000 });
  await expect(nav).toHaveAttribute('data-collapsed', 'false');
  // By Ctrl+B (the focus on the toggle: reached from the keyboard), and again over a reload.
  await toggle.focus();
  await page.keyboard.press('Control+b');
  await expect(nav).toHaveAttribute('data-collapsed', 'true');
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await page.reload();
  await expect(page.getByTestId('zta-count')).toHaveText('500 hosts', { timeout: 20_000 });
  await expect(nav).toHaveAttribute('data-collapsed', 'true');
  await page.mouse.move(5, 695);
  await shot(page, nb, '01-zta');

  // The ZTA table fits the narrow frame: hostnames whole, no sideways scroll.
  expect(await cut(page.locator('.zta-table td.col-hostname'))).toEqual([]);
  await expectNoSideScroll(page, 'zta-scroll');

  // What-if: a drawer over the dashboard, which keeps its width; the form whole, its actions in view.
  const frame = page.getByTestId('zta-scroll');
  const before = (await frame.boundingBox())!.width;
  const open = page.getByRole('button', { name: 'What-if', exact: true });
  await open.click();
  const panel = page.getByTestId('zta-whatif');
  await expect(panel).toBeFocused();
  await panel.getByTestId('zta-whatif-tenant').selectOption({ label: 'Demo Defender tenant' });
  await expect(panel.getByTestId('zta-whatif-changed')).toHaveText('0 hosts change band, 0 change score.');
  expect((await frame.boundingBox())!.width).toBe(before);
  expect(before).toBeGreaterThan(800);
  await expect(panel.getByRole('button', { name: 'Save and rescore' })).toBeInViewport({ ratio: 1 });
  await expect(panel.getByRole('button', { name: 'Back to stored' })).toBeInViewport({ ratio: 1 });
  await expect(panel.getByTestId('zta-whatif-tenant')).toBeInViewport({ ratio: 1 });
  const box = (await panel.boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(1024);
  expect(box.y + box.height).toBeLessThanOrEqual(700);
  // Every box of the form lies within the panel's width, not cut at its edge.
  const fields = panel.locator('input:not([type="hidden"]), select');
  expect(await fields.count()).toBeGreaterThan(10);
  for (const f of await fields.all()) {
    const b = (await f.boundingBox())!;
    expect(b.x).toBeGreaterThanOrEqual(box.x);
    expect(b.x + b.width).toBeLessThanOrEqual(box.x + box.width);
    expect(b.width).toBeGreaterThanOrEqual(60);
  }
  // A change previews and the action becomes available, in view.
  const critical = panel.getByLabel('Critical risk (%)');
  await critical.scrollIntoViewIfNeeded();
  await critical.fill('80');
  await panel.getByLabel('Operational health (%)').fill('20');
  await expect(panel.getByRole('button', { name: 'Save and rescore' })).toBeEnabled();
  await expect(panel.getByRole('button', { name: 'Save and rescore' })).toBeInViewport({ ratio: 1 });
  await panel.evaluate((el) => el.scrollTo(0, 0));
  await page.mouse.move(5, 695);
  await shot(page, nb, '02-whatif');
  // Escape closes it and the focus is back on the button.
  await critical.focus();
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(open).toBeFocused();

  // Alarms at this size: the device names whole, nothing scrolls sideways.
  await page.keyboard.press('Control+5');
  await expect(page.getByTestId('alarm-row').first()).toBeVisible({ timeout: 15_000 });
  expect(await cut(page.locator('.alarm-table td.col-device > span'))).toEqual([]);
  await expectNoSideScroll(page, 'alarm-scroll');
  await page.mouse.move(5, 695);
  await shot(page, nb, '03-alarms');

  // And the What-if at 1440: beside the dashboard.
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.keyboard.press('Control+6');
  await page.getByRole('button', { name: 'What-if', exact: true }).click();
  await expect(page.getByTestId('zta-whatif-changed')).toHaveText(/change band/);
  await expect(page.getByTestId('zta-whatif').getByRole('button', { name: 'Save and rescore' })).toBeInViewport({ ratio: 1 });
  await page.mouse.move(5, 895);
  await shot(page, nb, '05-whatif');
});
