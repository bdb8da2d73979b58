/**
 * Issue 10.4 in Chromium against browser mode: validation speaks the operator's language before
 * the round trip. An empty connector form names each field in words and sends nothing; a refused
 * bulk document names the entry and the field in words. Screenshots go to tests/e2e/screenshots/.
 */
import type { Page } from '@playwright/test';
import { expect, openDemoWorkspace, test } from './support/fixtures';

test.use({ appOptions: { edr: { firstPullDelayMs: 600_000 } } });

/**
 * The connector requests the page sent, in order (browser mode POSTs each to /api/invoke/<channel>).
 * Reads other parts of the window refresh on their own (the nav badges follow the demo's events,
 * the list follows `connectors.changed`) are not the form's: only what the form could send counts.
 */
function recordFormRequests(page: Page): string[] {
  const invoked: string[] = [];
  page.on('request', (r) => {
    const m = /\/api\/invoke\/([^/?]+)/.exec(r.url());
    const channel = m ? decodeURIComponent(m[1]!) : '';
    if (channel.startsWith('connectors.') && channel !== 'connectors.list') invoked.push(channel);
  });
  return invoked;
}

const OLD_WORDS = /Invalid input|expected string|received undefined|Invalid discriminator|Invalid option/;

test('an empty connector form names each field in words, with no request', async ({ page, nb }) => {
  const invoked = recordFormRequests(page);
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  await page.keyboard.press('Control+7');
  await expect(page.getByRole('heading', { name: 'Connectors', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Add connector' }).click();
  const form = page.getByTestId('connector-form');
  await form.getByLabel(/Microsoft Defender/).check();
  const before = invoked.length;
  await form.getByRole('button', { name: 'Save' }).click();

  const sentences: Array<[string, string]> = [
    ['Tenant ID', 'Enter the tenant ID.'],
    ['Client ID', 'Enter the client ID.'],
    ['Client secret', 'Enter the client secret.'],
    ['Poll interval (minutes)', 'Enter the poll interval in minutes (10 to 1440).'],
  ];
  for (const [label, sentence] of sentences) {
    await expect(form.getByLabel(label)).toHaveAttribute('aria-invalid', 'true');
    await expect(form.getByLabel(label)).toHaveAccessibleDescription(new RegExp(sentence.replace(/[.()]/g, '\\$&')));
  }
  await expect(form).not.toContainText(OLD_WORDS);
  await nb.shot(page, '40-connector-form-empty');
  expect(invoked.slice(before)).toEqual([]);

  // A value of the wrong form is named in words too, still before any request.
  await form.getByLabel('Tenant ID').fill('not a tenant');
  await form.getByLabel('Poll interval (minutes)').fill('5');
  await expect(form.getByText('Enter the Entra tenant ID (a GUID) or one of its verified domains (contoso.onmicrosoft.com).')).toBeVisible();
  await expect(form.getByText("The poll interval is at least 10 minutes (the vendors' limits).")).toBeVisible();
  expect(invoked.slice(before)).toEqual([]);
});

test('a refused connector document names the entry and the field in words', async ({ page, nb }) => {
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  await page.keyboard.press('Control+7');
  await page.getByRole('button', { name: 'Import…' }).click();
  const dialog = page.getByTestId('import-connectors-dialog');
  await dialog.getByLabel('JSON file').check();
  const doc = {
    version: 1,
    connectors: [
      { name: 'Lab Defender', vendor: 'defender', tenantId: 'lab.onmicrosoft.com', clientSecret: 'E2e-Unused-Secret-1', pollIntervalMinutes: 5 },
      { name: 'Old tool', vendor: 'crowdstrike', tenantId: 'cid-x', clientId: 'c', clientSecret: 'E2e-Unused-Secret-2' },
    ],
  };
  await dialog.getByLabel('Connector document').setInputFiles({ name: 'connectors.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(doc)) });
  await dialog.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(dialog.getByTestId('import-summary')).toHaveText(/2 entries: 0 created, 0 updated, 2 refused\./);
  const lab = dialog.getByTestId('import-result-1');
  await expect(lab).toContainText('Lab Defender');
  await expect(lab).toContainText('Enter the client ID.');
  await expect(lab).toContainText("The poll interval is at least 10 minutes (the vendors' limits).");
  await expect(dialog.getByTestId('import-result-2')).toContainText('Choose a vendor: CrowdStrike Falcon or Microsoft Defender.');
  await expect(dialog).not.toContainText(OLD_WORDS);
  await nb.shot(page, '41-connector-import-refused');
});
