/**
 * A tour of every page of the real app (browser mode, demo workspace with its simulators and
 * EDR connectors), in light and in dark: each page shows its heading and its main content, and
 * the window logs no error on the way. Screenshots `tour-<scheme>-NN-<page>.png` go to
 * tests/e2e/screenshots/ for a person to look at (this replaces the old fake-backed preview).
 */
import type { Page } from '@playwright/test';
import { expect, openDemoWorkspace, test } from './support/fixtures';
import { rowAction } from './support/row-menu';
import { shotInBothSchemes } from './support/shots';

test.use({ appOptions: { demoInventory: { devices: 400, organizations: 30 }, edr: { publishDelayMs: 50 } } });

test(`every page renders in light and dark without window errors`, async ({ page, nb }) => {
  const problems: string[] = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`console: ${m.text()}`);
  });
  let n = 0;
  const shot = (name: string) => {
    const step = String(++n).padStart(2, '0');
    return shotInBothSchemes(page, nb, (scheme) => `tour-${scheme}-${step}-${name}`);
  };
  const heading = (name: string) => expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();

  await page.goto(nb.host.url);
  await expect(page.getByRole('heading', { name: 'Welcome to Northbound' })).toBeVisible();
  await shot('welcome');
  await openDemoWorkspace(page);
  await heading('Connections');
  await shot('connections');

  await rowAction(page.getByTestId('profile-row-Demo node (OAuth)'), 'OAuth clients');
  await expect(page.getByRole('button', { name: 'New client' })).toBeVisible();
  await shot('oauth-clients');
  await page.getByRole('button', { name: 'New client' }).click();
  await expect(page.getByRole('button', { name: 'Create client' })).toBeVisible();
  await shot('oauth-client-form');
  await page.keyboard.press('Escape');

  await page.keyboard.press('Control+3');
  await heading('Devices');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('devices-count')).toHaveText('400 devices', { timeout: 20_000 });
  await shot('devices');
  await page.getByTestId('device-row').first().click();
  await expect(page.getByTestId('device-details')).toBeVisible();
  await shot('device-details');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Onboard device' }).click();
  await expect(page.getByTestId('onboarding-wizard')).toBeVisible();
  await shot('onboarding-wizard');
  await page.keyboard.press('Escape');
  await closeDiscardPrompt(page);

  await page.keyboard.press('Control+4');
  await heading('Organizations');
  await expect(page.getByTestId('org-tree')).toBeVisible();
  await shot('organizations');

  await page.keyboard.press('Control+5');
  await heading('Alarms');
  await shot('alarms');
  await page.keyboard.press('Control+6');
  await heading('ZTA');
  await shot('zta');

  await page.keyboard.press('Control+7');
  await heading('Connectors');
  await expect(page.getByTestId(/^connector-row-/).first()).toBeVisible();
  await shot('connectors');

  await page.keyboard.press('Control+8');
  await heading('Settings');
  await expect(page.getByTestId('app-info')).toContainText('Browser mode');
  await shot('settings');

  expect(problems).toEqual([]);
});

/** The wizard asks before it drops what was typed; nothing was typed here, but answer if it asks. */
async function closeDiscardPrompt(page: Page) {
  const discard = page.getByRole('button', { name: /Discard/ });
  if (await discard.isVisible()) await discard.click();
  await expect(page.getByTestId('onboarding-wizard')).toHaveCount(0);
}
