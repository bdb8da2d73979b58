/**
 * The Settings page in Chromium against browser mode (issue 10.9, 10.12): the RabbitMQ address
 * saved with a password that never reaches the browser again, the time zone switched to UTC and
 * followed by a deployment's step log, light and dark. Screenshots go to tests/e2e/screenshots/.
 */
import { expect, openDemoWorkspace, recordReceived, test } from './support/fixtures';

const PASSWORD = 'E2e-rabbit-Pa55word';

test('Settings: publication address with a write-only password, time zone, data folder; light and dark', async ({ page, nb }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  const received = recordReceived(page);
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  await page.getByRole('link', { name: /Settings/ }).click();
  const publication = page.getByTestId('publication-settings');
  await expect(publication.getByTestId('publication-status')).toContainText('RabbitMQ not configured');
  await expect(page.getByTestId('data-folder-path')).toHaveText(nb.harness.dataDir);

  // A mistake is named before anything is sent.
  await publication.getByLabel('RabbitMQ address').fill('rabbit.example.com:5672');
  await publication.getByRole('button', { name: 'Save address' }).click();
  await expect(publication.getByText('Start the address with amqp:// or amqps://', { exact: false })).toBeVisible();

  await publication.getByLabel('RabbitMQ address').fill('amqp://scores@rabbit.example.com:5672/zta');
  await publication.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await publication.getByRole('button', { name: 'Save address' }).click();
  await expect(publication.getByTestId('publication-status')).toContainText('amqp://scores@rabbit.example.com:5672/zta with a stored password');
  await expect(publication.getByLabel('Password', { exact: true })).toHaveAttribute('placeholder', '•••• stored');
  // The toasts would cover the data folder in the screenshots: wait until they have gone (they close
  // on their own after a few seconds; clicking stacked, animating ones raced their removal).
  await expect(page.getByRole('button', { name: 'Close toast' })).toHaveCount(0, { timeout: 20_000 });

  await page.getByLabel('Theme').selectOption('light');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await nb.shot(page, '60-settings-light');
  await page.getByTestId('app-info').scrollIntoViewIfNeeded();
  await nb.shot(page, '60b-settings-light-data-folder');
  await page.getByRole('heading', { name: 'Appearance' }).scrollIntoViewIfNeeded();
  await page.getByLabel('Theme').selectOption('dark');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  // A new host: the form says the stored password goes.
  await publication.getByLabel('RabbitMQ address').fill('amqp://scores@other.example.net:5672/zta');
  await expect(publication.getByTestId('publication-password-dropped')).toBeVisible();
  await nb.shot(page, '61-settings-dark');

  // The password went to main once, in the request; nothing sent back to the browser holds it.
  expect(received.join('\n')).not.toContain(PASSWORD);
  expect(nb.sent.join('\n')).not.toContain(PASSWORD);
  expect((await nb.harness.call<{ amqp: { hasPassword: boolean } }>('publication.get')).amqp.hasPassword).toBe(true);
});

test('times in UTC: the deployment step log, 24-hour with seconds, the zone said', async ({ page, nb }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  await page.getByRole('link', { name: /Settings/ }).click();
  await page.getByLabel('Time zone').selectOption('utc');
  await expect(page.getByTestId('time-example')).toHaveText(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);

  await page.keyboard.press('Control+3');
  await expect(page.getByRole('heading', { name: 'Devices', level: 1 })).toBeVisible();
  const sim = nb.harness.app.demo.simulator!;
  await expect(page.getByTestId('devices-count')).toHaveText(`${sim.inventory.deviceCount()} devices`, { timeout: 20_000 });
  await expect(page.getByTestId('fetched-at')).toHaveAttribute('title', /^Fetched at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/);
  await page.getByTestId('device-row').first().click();
  const details = page.getByTestId('device-details');
  await details.getByRole('button', { name: /Deploy…|Redeploy…/ }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: /^(Deploy|Redeploy)$/ }).click();
  const progress = details.getByTestId('task-progress');
  await expect(progress).toHaveAttribute('data-state', 'completed', { timeout: 20_000 });
  const steps = progress.getByRole('list', { name: 'Task messages' }).getByRole('listitem');
  await expect(steps.first().locator('time')).toHaveText(/^\d{2}:\d{2}:\d{2}$/);
  expect(await steps.count()).toBeGreaterThanOrEqual(5);
  await expect(progress).toContainText('Times in UTC');
  await expect(progress).toContainText(/started \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/);
  await nb.shot(page, '62-deployment-steps-utc');
});
