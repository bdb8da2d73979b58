/**
 * EDR connectors in Chromium against browser mode: the demo workspace brings a Defender and a
 * Falcon tenant (simulators inside the app). One test per scenario, each on its own app: poll one
 * to completion and publication, watch the progress bar of a slow cycle and cancel it, test a
 * connector, import the bulk document the demo node serves, and see a refused form keep what was
 * typed. No connector secret reaches the browser in any of them. Screenshots go to
 * tests/e2e/screenshots/.
 */
import type { Locator, Page } from '@playwright/test';
import { expect, openDemoWorkspace, recordReceived, test, type Northbound } from './support/fixtures';
import { withFaults } from '@northbound/simulators/testing/defender';
import { rowAction } from './support/row-menu';

test.use({ appOptions: { edr: { firstPullDelayMs: 600_000, publishDelayMs: 300 } } });

/** Opens the demo workspace and the Connectors page; answers the two demo connector rows. */
async function openConnectors(page: Page, nb: Northbound): Promise<{ falcon: Locator; defender: Locator }> {
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  await page.keyboard.press('Control+7');
  await expect(page.getByRole('heading', { name: 'Connectors', level: 1 })).toBeVisible();
  const falcon = page.getByTestId('connector-row-Demo Falcon tenant');
  const defender = page.getByTestId('connector-row-Demo Defender tenant');
  // The demo signs in first, then starts its EDR simulators and registers their connectors.
  await expect(falcon).toBeVisible({ timeout: 15_000 });
  await expect(defender).toBeVisible({ timeout: 15_000 });
  return { falcon, defender };
}

/** Opens "Add connector", picks Defender and fills the Contoso tenant with this client, secret and poll interval; answers the form. */
async function fillDefenderForm(page: Page, v: { clientId: string; secret: string; poll: string }): Promise<Locator> {
  await page.getByRole('button', { name: 'Add connector' }).click();
  const form = page.getByTestId('connector-form');
  await form.getByLabel(/Microsoft Defender/).check();
  await form.getByLabel('Tenant ID').fill('contoso.onmicrosoft.com');
  await form.getByLabel('Client ID').fill(v.clientId);
  await form.getByLabel('Client secret').fill(v.secret);
  await form.getByLabel('Poll interval (minutes)').fill(v.poll);
  return form;
}

/** No connector secret (nor `extra`) is in anything the host sent. */
function expectNoSecrets(nb: Northbound, received: string[], extra: string[] = []) {
  const secrets = nb.harness.app.demo.edr!.bulkDocument().connectors.map((c) => String(c.clientSecret));
  expect(secrets).toHaveLength(2);
  expect(received.length).toBeGreaterThan(0);
  for (const secret of [...secrets, ...extra]) expect(received.some((t) => t.includes(secret))).toBe(false);
}

test('a Falcon poll runs to completion and is published to the demo node', async ({ page, nb }) => {
  const received = recordReceived(page);
  const { falcon } = await openConnectors(page, nb);
  await expect(falcon.getByText('No cycle yet')).toBeVisible();
  await nb.shot(page, '10-connectors');
  await falcon.getByRole('button', { name: 'Poll now' }).click();
  const last = falcon.getByTestId('connector-last-cycle');
  await expect(last.getByText('completed')).toBeVisible({ timeout: 30_000 });
  await expect(last.getByText('250 hosts')).toBeVisible();
  await expect(last.getByText('published', { exact: true })).toBeVisible({ timeout: 15_000 });
  await nb.shot(page, '11-connector-polled');
  expect(nb.harness.app.demo.simulator!.receivedScores.filter((r) => r.message.vendor === 'falcon')).toHaveLength(1);
  expectNoSecrets(nb, received);
});

test('a slow Defender poll shows its progress bar and can be cancelled', async ({ page, nb }) => {
  const received = recordReceived(page);
  const { defender } = await openConnectors(page, nb);
  withFaults(nb.harness.app.demo.edr!.simulators.defender!).faults.delayMs = 1_500;
  await defender.getByRole('button', { name: 'Poll now' }).click();
  await expect(defender.getByRole('progressbar', { name: 'Poll progress' })).toBeVisible();
  await nb.shot(page, '12-connector-progress');
  await defender.getByRole('button', { name: 'Cancel poll' }).click();
  await expect(defender.getByTestId('connector-last-cycle').getByText('cancelled', { exact: true })).toBeVisible({ timeout: 10_000 });
  await expect(defender.getByRole('progressbar')).toHaveCount(0);
  expectNoSecrets(nb, received);
});

test('Test checks the token and the five Defender permissions', async ({ page, nb }) => {
  const received = recordReceived(page);
  const { defender } = await openConnectors(page, nb);
  await rowAction(defender, 'Test');
  const testDialog = page.getByTestId('connector-test-dialog');
  await expect(testDialog.getByText('All checks passed.')).toBeVisible({ timeout: 20_000 });
  await expect(testDialog.getByTestId('check-Machine.Read.All')).toBeVisible();
  await nb.shot(page, '13-connector-test');
  await testDialog.getByRole('button', { name: 'Close' }).last().click();
  expectNoSecrets(nb, received);
});

test('a connector whose sign-in host does not resolve fails Test within 2 s, and no check that did not run passes', async ({ page, nb }) => {
  const received = recordReceived(page);
  await openConnectors(page, nb);
  const form = await fillDefenderForm(page, { clientId: '8a7c2f4e-0000-4000-8000-000000000002', secret: 'E2e-Unresolvable-Defender-Secret-552', poll: '60' });
  await form.getByLabel('Name').fill('Unresolvable tenant');
  await form.getByRole('button', { name: 'Advanced' }).click();
  await form.getByLabel('Identity provider URL').fill('https://login.no-such-tenant.invalid');
  await form.getByRole('button', { name: 'Save' }).click();
  const row = page.getByTestId('connector-row-Unresolvable tenant');
  await expect(row).toBeVisible();
  await rowAction(row, 'Test');
  const testDialog = page.getByTestId('connector-test-dialog');
  // The name does not resolve: answered at once, not after retries.
  await expect(testDialog.getByText('1 of 1 checks failed; 3 not run.')).toBeVisible({ timeout: 2_000 });
  await expect(testDialog.getByTestId('check-Token')).toHaveAttribute('data-state', 'failed');
  await expect(testDialog.getByTestId('check-Token')).toContainText('does not resolve');
  await expect(testDialog.getByTestId('check-Token')).toContainText('Microsoft Entra ID sign-in');
  for (const name of ['Permissions', 'Devices API', 'Vulnerabilities export API']) await expect(testDialog.getByTestId(`check-${name}`)).toHaveAttribute('data-state', 'not-run');
  await expect(testDialog.locator('[data-state="passed"]')).toHaveCount(0);
  await expect(testDialog).not.toContainText(/\bnode\b/);
  await nb.shot(page, '13b-connector-test-unresolvable');
  await testDialog.getByRole('button', { name: 'Close' }).last().click();
  expectNoSecrets(nb, received, ['E2e-Unresolvable-Defender-Secret-552']);
});

test('the bulk push from the demo node updates both connectors', async ({ page, nb }) => {
  const received = recordReceived(page);
  const { falcon } = await openConnectors(page, nb);
  await page.getByRole('button', { name: 'Import…' }).click();
  const importDialog = page.getByTestId('import-connectors-dialog');
  await expect(importDialog.getByLabel('Management node')).toBeChecked();
  await importDialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(importDialog.getByTestId('import-summary')).toHaveText(/2 entries: 0 created, 2 updated, 0 refused\./);
  await nb.shot(page, '14-connectors-imported');
  await importDialog.getByRole('button', { name: 'Done' }).click();
  await expect(falcon.getByText('bulk', { exact: true })).toBeVisible();
  expectNoSecrets(nb, received);
});

test('a Defender connector without a valid poll interval is refused in place; nothing typed is lost', async ({ page, nb }) => {
  const received = recordReceived(page);
  await openConnectors(page, nb);
  const form = await fillDefenderForm(page, { clientId: '8a7c2f4e-0000-4000-8000-000000000001', secret: 'E2e-Unused-Defender-Secret-551', poll: '' });
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Enter the poll interval in minutes (10 to 1440).')).toBeVisible();
  await expect(form.getByLabel('Tenant ID')).toHaveValue('contoso.onmicrosoft.com');
  await nb.shot(page, '15-connector-form-error');
  await form.getByLabel('Poll interval (minutes)').fill('5');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText("The poll interval is at least 10 minutes (the vendors' limits).")).toBeVisible();
  await page.keyboard.press('Escape');
  expectNoSecrets(nb, received, ['E2e-Unused-Defender-Secret-551']);
});
