/**
 * EDR connectors in Chromium against browser mode: the demo workspace brings a Defender and a
 * Falcon tenant (simulators inside the app). Poll one to completion and publication, watch the
 * progress bar of a slow cycle and cancel it, test a connector, import the bulk document the
 * demo node serves, and see a refused form keep what was typed. No connector secret reaches the
 * browser. Screenshots go to tests/e2e/screenshots/.
 */
import { expect, test } from './support/fixtures';

test.use({ appOptions: { edr: { firstPullDelayMs: 600_000, publishDelayMs: 300 } } });

test('demo connectors: poll and publish, progress and cancel, test, bulk import, form errors', async ({ page, nb }) => {
  const received: string[] = [];
  page.on('websocket', (ws) => ws.on('framereceived', (f) => received.push(String(f.payload))));
  page.on('response', async (r) => {
    if (r.url().includes('/api/')) received.push(await r.text().catch(() => ''));
  });

  await page.goto(nb.host.url);
  await page.getByRole('button', { name: 'Open demo workspace' }).click();
  await expect(page.getByTestId('profile-row-Demo node (OAuth)').getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in');
  await page.keyboard.press('Control+6');
  await expect(page.getByRole('heading', { name: 'Connectors', level: 1 })).toBeVisible();

  const falcon = page.getByTestId('connector-row-Demo Falcon tenant');
  const defender = page.getByTestId('connector-row-Demo Defender tenant');
  await expect(falcon).toBeVisible();
  await expect(defender).toBeVisible();
  await expect(falcon.getByText('No cycle yet')).toBeVisible();
  await nb.shot(page, '10-connectors');

  // A whole cycle: polled, scored, stored, then published to the demo node.
  await falcon.getByRole('button', { name: 'Poll now' }).click();
  const last = falcon.getByTestId('connector-last-cycle');
  await expect(last.getByText('completed')).toBeVisible({ timeout: 30_000 });
  await expect(last.getByText('250 hosts')).toBeVisible();
  await expect(last.getByText('published', { exact: true })).toBeVisible({ timeout: 15_000 });
  await nb.shot(page, '11-connector-polled');
  const edr = nb.harness.app.demo.edr!;
  const mgmt = nb.harness.app.demo.simulator!;
  expect(mgmt.receivedScores.filter((r) => r.message.vendor === 'falcon')).toHaveLength(1);

  // A slow Defender cycle: the progress bar, then cancel.
  edr.simulators.defender!.faults.delayMs = 1_500;
  await defender.getByRole('button', { name: 'Poll now' }).click();
  await expect(defender.getByRole('progressbar', { name: 'Poll progress' })).toBeVisible();
  await nb.shot(page, '12-connector-progress');
  await defender.getByRole('button', { name: 'Cancel poll' }).click();
  await expect(defender.getByTestId('connector-last-cycle').getByText('cancelled', { exact: true })).toBeVisible({ timeout: 10_000 });
  await expect(defender.getByRole('progressbar')).toHaveCount(0);
  edr.simulators.defender!.faults.delayMs = 0;

  // Test: token and the five permissions.
  await defender.getByRole('button', { name: 'Test' }).click();
  const testDialog = page.getByTestId('connector-test-dialog');
  await expect(testDialog.getByText('All checks passed.')).toBeVisible({ timeout: 20_000 });
  await expect(testDialog.getByTestId('check-Machine.Read.All')).toBeVisible();
  await nb.shot(page, '13-connector-test');
  await testDialog.getByRole('button', { name: 'Close' }).last().click();

  // The bulk push from the demo node updates both connectors.
  await page.getByRole('button', { name: 'Import…' }).click();
  const importDialog = page.getByTestId('import-connectors-dialog');
  await expect(importDialog.getByLabel('Management node')).toBeChecked();
  await importDialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(importDialog.getByTestId('import-summary')).toHaveText(/2 entries: 0 created, 2 updated, 0 refused\./);
  await nb.shot(page, '14-connectors-imported');
  await importDialog.getByRole('button', { name: 'Done' }).click();
  await expect(falcon.getByText('bulk', { exact: true })).toBeVisible();

  // A Defender connector without a poll interval is refused in place; nothing typed is lost.
  await page.getByRole('button', { name: 'Add connector' }).click();
  const form = page.getByTestId('connector-form');
  await form.getByLabel(/Microsoft Defender/).check();
  await form.getByLabel('Tenant ID').fill('contoso.onmicrosoft.com');
  await form.getByLabel('Client ID').fill('8a7c2f4e-0000-4000-8000-000000000001');
  await form.getByLabel('Client secret').fill('E2e-Unused-Defender-Secret-551');
  await form.getByLabel('Poll interval (minutes)').fill('');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText('Enter the poll interval in minutes (10 to 1440).')).toBeVisible();
  await expect(form.getByLabel('Tenant ID')).toHaveValue('contoso.onmicrosoft.com');
  await nb.shot(page, '15-connector-form-error');
  await form.getByLabel('Poll interval (minutes)').fill('5');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByText("Poll at most every 10 minutes (the vendors' limits).")).toBeVisible();
  await page.keyboard.press('Escape');

  // Nothing secret reached the browser.
  const secrets = edr.bulkDocument().connectors.map((c) => String(c.clientSecret));
  expect(secrets).toHaveLength(2);
  for (const secret of [...secrets, 'E2e-Unused-Defender-Secret-551']) {
    expect(received.some((t) => t.includes(secret))).toBe(false);
  }
});
