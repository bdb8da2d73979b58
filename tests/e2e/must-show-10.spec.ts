/**
 * Issue 10's "Must show" that no other spec proves, in Chromium against browser mode and the demo
 * workspace: Enter, Enter on a device opened from the table with the keyboard deploys nothing;
 * Escape on a typed Add connection or Add connector form asks "Discard changes?"; the first visit
 * to Devices fetches, with its progress, without Refresh. The other two are proven elsewhere:
 * an empty connector form names each field in words (validation.spec.ts), a reload returns to the
 * same page with its filters and opened device (address.spec.ts).
 */
import type { Locator, Page } from '@playwright/test';
import { DEVICES_PATH } from '@northbound/simulators/internal/device-routes';
import { withFaults } from '@northbound/simulators/testing';
import type { DeviceView } from '../../shared/model/inventory';
import { expect, openDemoWorkspace, test, type Northbound } from './support/fixtures';

test.use({ appOptions: { demoInventory: { devices: 1_200, organizations: 12 }, edr: { firstPullDelayMs: 600_000 } } });

const heading = (page: Page, name: string) => expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
const deploys = (nb: Northbound) => nb.harness.app.demo.simulator!.stats.requests.filter((r) => r.method === 'POST' && r.path.startsWith(`${DEVICES_PATH}/device/deploy/`));

/** Presses Tab until `target` has the focus (at most `max` times): how a keyboard user gets there. */
async function tabTo(page: Page, target: Locator, max = 40) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`Tab did not reach ${String(target)} in ${max} presses`);
}

test('Enter, Enter on a device opened from the table with the keyboard deploys nothing', async ({ page, nb }) => {
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  const sim = nb.harness.app.demo.simulator!;
  await page.keyboard.press('Control+3');
  await heading(page, 'Devices');
  await expect(page.getByTestId('devices-count')).toHaveText(`${sim.inventory.deviceCount().toLocaleString('en')} devices`, { timeout: 20_000 });

  // Live devices only: a redeploy is what would hurt.
  await page.getByTestId('devices-filter-status').selectOption('deployed');
  await expect(page.getByTestId('devices-count')).toHaveText(/ of /);
  await page.getByTestId('devices-search').focus();
  await tabTo(page, page.getByTestId('device-row').first());
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowDown');
  const focused = page.locator('[data-testid="device-row"]:focus');
  await expect(focused).toHaveAttribute('aria-rowindex', '4');
  const name = (await focused.getAttribute('data-device'))!;
  const before = sim.inventory.device(name)!;
  expect(before.deploymentStatus).toBe('DEPLOYED');

  await page.keyboard.press('Enter');
  const details = page.getByTestId('device-details');
  await expect(details).toContainText(name);
  const redeploy = details.getByRole('button', { name: 'Redeploy…' });
  await expect(redeploy).toBeEnabled();
  await expect(redeploy).not.toBeFocused();

  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await expect(details).toBeVisible();
  await expect(page.getByTestId('confirm-dialog')).toHaveCount(0);
  await expect(redeploy).not.toBeFocused();
  // A later request to the node as a barrier: once its answer is shown, a deployment the Enters
  // had started would have reached the node before it.
  await details.getByRole('button', { name: 'Refresh from node' }).click();
  await expect.poll(() => sim.stats.requests.some((r) => r.method === 'GET' && r.path.endsWith(`/${name}`)), { timeout: 10_000 }).toBe(true);
  await expect(details.getByRole('button', { name: 'Refresh from node' })).toBeEnabled();
  expect(deploys(nb)).toEqual([]);
  expect(sim.inventory.runningTasks()).toBe(0);
  expect(sim.inventory.device(name)).toMatchObject({ deploymentStatus: 'DEPLOYED', lastTaskId: before.lastTaskId });
  await nb.shot(page, 'must-show-01-enter-enter-no-deploy');

  // Deploying takes a deliberate choice: the button, then the question's own button.
  await redeploy.focus();
  await page.keyboard.press('Enter');
  const ask = page.getByTestId('confirm-dialog');
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(ask).toHaveCount(0);
  expect(deploys(nb)).toEqual([]);
});

/** Escape on a typed form asks; Keep editing keeps the text; Escape then Discard closes it, nothing saved. */
async function expectDiscardQuestion(page: Page, form: Locator, field: Locator, typed: string) {
  await field.fill(typed);
  await page.keyboard.press('Escape');
  const ask = page.getByTestId('confirm-discard');
  await expect(ask).toBeVisible();
  await expect(ask).toHaveAccessibleName('Discard changes?');
  await expect(ask.getByRole('button', { name: 'Keep editing' })).toBeFocused();
  await ask.getByRole('button', { name: 'Keep editing' }).click();
  await expect(ask).toHaveCount(0);
  await expect(form).toBeVisible();
  await expect(field).toHaveValue(typed);
  // The close button asks too.
  await form.getByRole('button', { name: 'Close' }).click();
  await expect(ask).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(ask).toHaveCount(0);
  await expect(field).toHaveValue(typed);
  await field.focus();
  await page.keyboard.press('Escape');
  await ask.getByRole('button', { name: 'Discard' }).click();
  await expect(form).toHaveCount(0);
}

test('Escape on a typed Add connection or Add connector form asks "Discard changes?"', async ({ page, nb }) => {
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  const profilesBefore = (await nb.harness.call<unknown[]>('profiles.list')).length;

  await page.getByRole('button', { name: 'Add connection' }).click();
  const profileForm = page.getByTestId('profile-form');
  const name = profileForm.getByRole('textbox', { name: 'Name', exact: true });
  await expect(name).toBeFocused();
  await profileForm.getByRole('textbox', { name: 'Host' }).fill('lab-node.example.net');
  await expectDiscardQuestion(page, profileForm, name, 'Lab node');
  expect(await nb.harness.call<unknown[]>('profiles.list')).toHaveLength(profilesBefore);

  await page.keyboard.press('Control+7');
  await heading(page, 'Connectors');
  const connectorsBefore = (await nb.harness.call<unknown[]>('connectors.list')).length;
  await page.getByRole('button', { name: 'Add connector' }).first().click();
  const connectorForm = page.getByTestId('connector-form');
  await connectorForm.getByLabel(/Microsoft Defender/).check();
  await expectDiscardQuestion(page, connectorForm, connectorForm.getByLabel('Tenant ID'), 'contoso.onmicrosoft.com');
  expect(await nb.harness.call<unknown[]>('connectors.list')).toHaveLength(connectorsBefore);

  // An untouched form closes on Escape without a question.
  await page.getByRole('button', { name: 'Add connector' }).first().click();
  await expect(connectorForm).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(connectorForm).toHaveCount(0);
  await expect(page.getByTestId('confirm-discard')).toHaveCount(0);
});

test('the first visit to Devices fetches the list with its progress, without Refresh', async ({ page, nb }) => {
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  const sim = nb.harness.app.demo.simulator!;
  const profileId = nb.harness.app.demo.status().oauthProfileId!;
  // A fresh demo workspace: its devices were never fetched.
  expect((await nb.harness.call<{ fetchedAt: string | null }>('inventory.devices', { profileId })).fetchedAt).toBeNull();
  // Pages of 100 that take a moment each, so the progress is there to be seen.
  withFaults(sim).faults.pageCap = 100;
  withFaults(sim).faults.dataDelayMs = 150;
  const refreshes: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/invoke/inventory.refresh')) refreshes.push(r.postData() ?? '');
  });

  await page.keyboard.press('Control+3');
  await heading(page, 'Devices');
  const progress = page.getByTestId('devices-freshness').getByRole('status');
  await expect(progress).toContainText(/Refreshing devices \d[\d,]* \/ 1,200/);
  await expect(progress.getByRole('progressbar', { name: 'Refreshing devices' })).toBeVisible();
  await nb.shot(page, 'must-show-02-first-visit-progress');
  await expect(page.getByTestId('devices-count')).toHaveText('1,200 devices', { timeout: 30_000 });
  await expect(page.getByTestId('fetched-at')).toHaveText(/^Fetched /);
  await expect(page.getByTestId('device-row').first()).toBeVisible();
  expect(refreshes).toHaveLength(1);
  expect(JSON.parse(refreshes[0]!)).toMatchObject({ profileId, what: 'devices' });
  const stored = await nb.harness.call<{ items: DeviceView[]; fetchedAt: string | null }>('inventory.devices', { profileId });
  expect(stored.items).toHaveLength(1_200);
  expect(stored.fetchedAt).not.toBeNull();
  await nb.shot(page, 'must-show-03-first-visit-fetched');

  // A second visit does not fetch again by itself.
  await page.keyboard.press('Control+2');
  await heading(page, 'Connections');
  await page.keyboard.press('Control+3');
  await expect(page.getByTestId('devices-count')).toHaveText('1,200 devices');
  await expect(page.getByTestId('fetched-at')).toHaveText(/^Fetched /);
  expect(refreshes).toHaveLength(1);
});
