/**
 * Devices, onboarding and organizations in Chromium against browser mode and the demo
 * workspace's management node simulator (real HTTPS): the wizard's happy path through a
 * deployment, a taken site ID refused under Site ID with the form intact, a CSV of 100 rows with
 * 3 bad ones (3 reported, 97 onboarded), a broken CSV (one problem per broken line, wrapped) and a
 * workbook refused as such, and the organization tree with inherited plans.
 * Screenshots go to tests/e2e/screenshots/.
 */
import type { Page } from '@playwright/test';
import { expect, openDemoWorkspace, test } from './support/fixtures';
import { dismissToasts } from './support/shots';
import type { Northbound } from './support/fixtures';

/** Opens the demo workspace and waits until its OAuth connection is signed in. */
async function openDemo(page: Page, nb: Northbound) {
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
}

async function openDemoDevices(page: Page, nb: Northbound) {
  await openDemo(page, nb);
  await page.keyboard.press('Control+3');
  await expect(page.getByRole('heading', { name: 'Devices', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Refresh' }).click();
  const sim = nb.harness.app.demo.simulator!;
  await expect(page.getByTestId('devices-count')).toHaveText(`${sim.inventory.deviceCount()} devices`, { timeout: 20_000 });
  return sim;
}

test('the wizard refuses a taken site ID under Site ID on Next, keeps the form, then onboards and deploys', async ({ page, nb }) => {
  const sim = await openDemoDevices(page, nb);
  await nb.shot(page, '20-devices');
  const org = sim.inventory.organizations().find((o) => o.parent !== null && o.subscriptionPlan === null)!;
  const taken = sim.inventory.device(`${org.name.toLowerCase()}-berlin-00001`) ?? undefined;
  const takenSiteId = taken?.siteId ?? '5';

  await page.getByRole('button', { name: 'Onboard device' }).click();
  const wizard = page.getByTestId('onboarding-wizard');
  await wizard.getByRole('combobox', { name: 'Organization' }).fill(org.name);
  await wizard.getByRole('option').filter({ hasText: org.name }).first().click();
  await page.keyboard.press('Enter');

  const next = String(sim.inventory.deviceCount() + 1);
  await expect(wizard.getByLabel('Site ID')).toHaveValue(next);
  await wizard.getByLabel('Device name').fill('e2e-branch-01');
  await wizard.getByLabel('Site ID').fill(takenSiteId);
  await wizard.getByLabel('Serial number').fill('SN-E2E-0001');
  await page.keyboard.press('Enter');

  // The site ID a stored device holds is refused at its field on Next, before anything is sent (issue 22.11); everything typed stays.
  await expect(wizard.getByTestId('site-id-error')).toHaveText(new RegExp(`^Site ID ${takenSiteId} is already used by [a-z0-9-]+ on Demo node \\(OAuth\\) \\(as last fetched\\)\\. Use next free, or another number\\.$`));
  await expect(wizard.locator('[aria-current="step"]')).toContainText('Identity');
  await expect(wizard.getByLabel('Device name')).toHaveValue('e2e-branch-01');
  await expect(wizard.getByLabel('Serial number')).toHaveValue('SN-E2E-0001');
  await nb.shot(page, '22-wizard-site-id-taken');

  await wizard.getByRole('button', { name: 'Use next free' }).click();
  await expect(wizard.getByLabel('Site ID')).toHaveValue(next);
  await wizard.getByRole('button', { name: /Next/ }).click(); // Enter would press Use next free, which has the focus

  await wizard.getByRole('combobox', { name: 'Country' }).fill('Germany');
  await page.keyboard.press('Enter');
  await wizard.getByLabel('Latitude').fill('52.52');
  await wizard.getByLabel('Longitude').fill('13.405');
  await expect(wizard.getByTestId('world-preview')).toContainText('Germany');
  await nb.shot(page, '21-wizard-location');
  await wizard.getByRole('button', { name: /Next/ }).click();

  await wizard.getByRole('textbox', { name: 'Device group' }).fill('e2e-branches');
  await page.keyboard.press('Enter');
  await expect(wizard.getByTestId('wizard-review')).toContainText('e2e-branch-01');
  await wizard.getByRole('button', { name: 'Onboard' }).click();
  await expect(wizard.getByTestId('wizard-deploy')).toContainText('e2e-branch-01', { timeout: 10_000 });
  expect(sim.inventory.device('e2e-branch-01')).toMatchObject({ siteId: next, orgName: org.name, deploymentStatus: 'SAVED', locationInfo: { country: 'DE' } });

  await wizard.getByRole('button', { name: 'Deploy now…' }).click();
  const ask = page.getByTestId('confirm-dialog');
  await expect(ask.getByRole('button', { name: 'Cancel' })).toBeFocused();
  await nb.shot(page, '23a-confirm-deploy');
  await ask.getByRole('button', { name: 'Deploy' }).click();
  const progress = wizard.getByTestId('task-progress');
  await expect(progress).toHaveAttribute('data-state', /pending|in-progress/);
  await nb.shot(page, '23-wizard-deploying');
  await expect(progress).toHaveAttribute('data-state', 'completed', { timeout: 20_000 });
  await expect(progress).toContainText('e2e-branch-01 is deployed.');
  await nb.shot(page, '24-wizard-deployed');
  expect(sim.inventory.device('e2e-branch-01')?.deploymentStatus).toBe('DEPLOYED');
  await wizard.getByRole('button', { name: 'Done' }).click();
  await page.getByTestId('devices-search').fill('e2e-branch');
  await expect(page.getByTestId('device-row')).toHaveCount(1);
  await expect(page.getByTestId('device-row')).toContainText('deployed');
});

function csv100(org: string): string {
  const lines = ['deviceName,siteId,orgName,serialNumber,deviceGroup,country,latitude,longitude'];
  for (let i = 1; i <= 100; i++) {
    const name = `e2e-shop-${String(i).padStart(3, '0')}`;
    let row = [name, String(5000 + i), org, `SN-SHOP-${i}`, 'e2e-shops', 'FR', '48.8566', '2.3522'];
    if (i === 9) row = [name, String(5000 + i), org, `SN-SHOP-${i}`, 'e2e-shops', 'XX', '48.8566', '2.3522']; // no such country
    if (i === 40) row = [name, String(5000 + i), org, `SN-SHOP-${i}`, 'e2e-shops', 'FR', '123.5', '2.3522']; // latitude out of range
    if (i === 77) row = [name, String(5000 + i), org, '', 'e2e-shops', 'FR', '48.8566', '2.3522']; // no serial number
    lines.push(row.join(','));
  }
  return `${lines.join('\n')}\n`;
}

test('a CSV of 100 rows with 3 bad ones reports the 3 and onboards the other 97', async ({ page, nb }) => {
  const sim = await openDemoDevices(page, nb);
  const before = sim.inventory.deviceCount();
  const org = sim.inventory.organizations().find((o) => o.parent !== null)!.name;

  await page.getByRole('button', { name: 'Bulk onboard (CSV)…' }).click();
  const dialog = page.getByTestId('bulk-onboarding');
  await dialog.getByTestId('csv-file').setInputFiles({ name: 'shops.csv', mimeType: 'text/csv', buffer: Buffer.from(csv100(org)) });
  await expect(dialog.getByTestId('csv-summary')).toContainText('100 rows, 97 valid, 3 with errors');
  const issues = dialog.getByTestId('csv-issues');
  await expect(issues.getByTestId('csv-issue-10')).toContainText('country');
  await expect(issues.getByTestId('csv-issue-41')).toContainText('latitude');
  await expect(issues.getByTestId('csv-issue-78')).toContainText('serialNumber');
  await nb.shot(page, '25-csv-errors');

  await dialog.getByRole('button', { name: 'Start (97 devices)' }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Start' }).click();
  await expect(dialog.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
  await expect(dialog.getByTestId('bulk-counts')).toContainText('97 created');
  await expect(dialog.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100');
  await page.waitForTimeout(400); // the bar's width transition
  await nb.shot(page, '26-csv-results');
  expect(sim.inventory.deviceCount()).toBe(before + 97);
  expect(sim.inventory.device('e2e-shop-009')).toBeUndefined();
  expect(sim.inventory.device('e2e-shop-010')).toMatchObject({ siteId: '5010', locationInfo: { country: 'FR' } });
});

test('a CSV that would change a device that exists is flagged in the dry run and skipped unless the operator chose replace', async ({ page, nb }) => {
  const sim = await openDemoDevices(page, nb);
  const org = sim.inventory.organizations().find((o) => o.parent !== null)!.name;
  const csv = (serial: string) => Buffer.from(`deviceName,siteId,orgName,serialNumber,deviceGroup,country,latitude,longitude\ne2e-replace-01,5901,${org},${serial},e2e-shops,FR,48.8566,2.3522\n`);
  const dialog = page.getByTestId('bulk-onboarding');
  const confirmDialog = page.getByTestId('confirm-dialog');
  const row = dialog.getByTestId('bulk-row-2');
  const choose = async (serial: string) => {
    await dialog.getByTestId('csv-file').setInputFiles({ name: `replace-${serial}.csv`, mimeType: 'text/csv', buffer: csv(serial) });
    await expect(dialog.getByTestId('csv-summary')).toContainText('1 row');
  };

  // The device is created by a first file.
  await page.getByRole('button', { name: 'Bulk onboard (CSV)…' }).click();
  await choose('SN-OLD');
  await dialog.getByRole('button', { name: 'Start (1 device)' }).click();
  await confirmDialog.getByRole('button', { name: 'Start' }).click();
  await expect(row).toContainText('created', { timeout: 20_000 });
  expect(sim.inventory.device('e2e-replace-01')).toMatchObject({ serialNumber: 'SN-OLD' });

  // A second file with another serial: the dry run flags the row with what differs.
  await dialog.getByRole('button', { name: 'Another file' }).click();
  await choose('SN-NEW');
  await dialog.getByRole('checkbox', { name: /^Dry run/ }).check();
  await dialog.getByRole('button', { name: 'Start dry run (1 device)' }).click();
  await expect(row).toContainText('skipped (exists)', { timeout: 20_000 });
  await expect(row).toContainText('serial number SN-OLD → SN-NEW');
  await dismissToasts(page);
  await nb.shot(page, '26b-csv-dry-run-exists');

  // Onboard for real without replace: the confirmation says it is left alone, and it is.
  await dialog.getByRole('button', { name: 'Onboard for real' }).click();
  await expect(confirmDialog.getByTestId('bulk-confirm-replace')).toContainText('left as they are');
  await expect(confirmDialog.getByTestId('bulk-confirm-replace')).toContainText('the dry run found 1 such row');
  await confirmDialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed', { timeout: 20_000 });
  await expect(row).toContainText('skipped (exists)');
  await expect(dialog.getByTestId('bulk-counts')).toContainText('1 skipped (exists)');
  expect(sim.inventory.device('e2e-replace-01')).toMatchObject({ serialNumber: 'SN-OLD' });

  // With "Replace devices that exist" chosen, it is replaced and says so.
  await dialog.getByRole('button', { name: 'Another file' }).click();
  await choose('SN-NEW');
  await dialog.getByRole('checkbox', { name: /^Dry run/ }).uncheck(); // the dialog kept the dry run's choice
  await dialog.getByRole('checkbox', { name: /^Replace devices that exist/ }).check();
  await dialog.getByRole('button', { name: 'Start (1 device)' }).click();
  await expect(confirmDialog.getByTestId('bulk-confirm-replace')).toContainText('Devices already on the node with another record are replaced');
  await nb.shot(page, '26c-csv-confirm-replace');
  await confirmDialog.getByRole('button', { name: 'Start' }).click();
  await expect(dialog.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed', { timeout: 20_000 });
  await expect(row).toContainText('replaced');
  await expect(row).toContainText('Replaced (serial number SN-OLD → SN-NEW).');
  await expect(dialog.getByTestId('bulk-counts')).toContainText('1 replaced');
  expect(sim.inventory.device('e2e-replace-01')).toMatchObject({ serialNumber: 'SN-NEW' });
  await nb.shot(page, '26d-csv-replaced');
});

test('the organization tree shows the hierarchy and where each plan comes from', async ({ page, nb }) => {
  await openDemo(page, nb);
  await page.keyboard.press('Control+4');
  await expect(page.getByRole('heading', { name: 'Organizations', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Refresh' }).click();
  const sim = nb.harness.app.demo.simulator!;
  const orgs = sim.inventory.organizations();
  const inherits = orgs.find((o) => o.subscriptionPlan === null && o.parent !== null)!;
  const parent = orgs.find((o) => o.name === inherits.parent)!;
  const tree = page.getByTestId('org-tree');
  await expect(tree).toBeVisible({ timeout: 20_000 });
  // Open the path down to the inheriting organization.
  const chain: string[] = [];
  for (let o: typeof inherits | undefined = parent; o; o = orgs.find((x) => x.name === o!.parent)) chain.unshift(o.name);
  for (const name of chain) {
    const node = tree.getByTestId(`org-node-${name}`);
    if ((await node.getAttribute('aria-expanded')) === 'false') await node.locator('.org-node').first().click();
    await expect(node).toHaveAttribute('aria-expanded', 'true');
  }
  const leaf = tree.getByTestId(`org-node-${inherits.name}`);
  await expect(leaf.getByTestId('org-plan').first()).toContainText(`inherited from ${inherits.parent}`);
  await expect(leaf.locator('.org-meta').first()).toContainText('devices not fetched');
  // With the devices fetched, each organization counts its own.
  await page.keyboard.press('Control+3');
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('devices-count')).toHaveText(`${sim.inventory.deviceCount()} devices`, { timeout: 20_000 });
  await page.keyboard.press('Control+4');
  const stored = await nb.harness.call<{ items: Array<{ orgName: string }> }>('inventory.devices', { profileId: nb.harness.app.demo.status().oauthProfileId });
  const own = stored.items.filter((d) => d.orgName === inherits.name).length;
  expect(stored.items).toHaveLength(sim.inventory.deviceCount());
  await expect(leaf.locator('.org-meta').first()).toContainText(`${own} device`);
  if ((await leaf.getAttribute('aria-expanded')) === 'false') await leaf.locator('.org-node').first().click();
  await nb.shot(page, '27-org-tree');
});

/** 40 rows with problems of every depth: broken quotes, a line with a value too many or too few, bad values. */
function brokenCsv(org: string): string {
  const lines = ['deviceName,siteId,orgName,serialNumber,deviceGroup,country,latitude,longitude'];
  for (let i = 1; i <= 40; i++) {
    const line = i + 1;
    const name = `e2e-broken-${String(i).padStart(2, '0')}`;
    let row = [name, String(7000 + i), org, `SN-BROKEN-${i}`, 'e2e-shops', 'FR', '48.8566', '2.3522'].join(',');
    if (line === 7) row = row.replace(`,${org},`, `,"${org},`); // a quoted value not closed
    if (line === 9) row = row.replace(`,${org},`, `,${org}, Paris Region,`); // a comma without quotes
    if (line === 12) row = row.split(',').slice(0, 6).join(','); // latitude and longitude missing
    if (line === 15) row = row.replace(`,${org},`, `,"${org} "North" Office",`); // a quote inside quotes
    if (line >= 20 && line <= 33) row = row.replace(',FR,', ',XX,'); // no such country
    lines.push(row);
  }
  return `${lines.join('\n')}\n`;
}

test('a broken CSV: one problem per broken line, in words, wrapped; a workbook is refused as such', async ({ page, nb }) => {
  const sim = await openDemoDevices(page, nb);
  const org = sim.inventory.organizations().find((o) => o.parent !== null)!.name;
  await page.getByRole('button', { name: 'Bulk onboard (CSV)…' }).click();
  const dialog = page.getByTestId('bulk-onboarding');
  await dialog.getByTestId('csv-file').setInputFiles({ name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from(brokenCsv(org)) });
  await expect(dialog.getByTestId('csv-summary')).toContainText('40 rows, 22 valid, 18 with errors');
  await expect(dialog.getByTestId('csv-issue-count')).toHaveText(/^18 problems below\./);
  const issues = dialog.getByTestId('csv-issues');
  await expect(issues.getByTestId('csv-issue-7')).toHaveCount(1);
  await expect(issues.getByTestId('csv-issue-7')).toContainText('A quoted value is not closed — add the closing " or remove the opening one.');
  await expect(issues.getByTestId('csv-issue-9')).toContainText('The line has 9 values but the header has 8 columns.');
  await expect(issues.getByTestId('csv-issue-12')).toContainText('latitude and longitude have no value');
  await expect(issues.getByTestId('csv-issue-15')).toContainText('write a quote inside a value as two quotes');
  await expect(dialog).not.toContainText('Quoted field unterminated');
  // Long problems wrap: the cell is taller than a line and nothing runs out of it.
  const problem = issues.getByTestId('csv-issue-9').locator('td').last();
  const box = await problem.evaluate((td) => ({ overflow: td.scrollWidth - td.clientWidth, height: td.getBoundingClientRect().height }));
  expect(box.overflow).toBeLessThanOrEqual(0);
  expect(box.height).toBeGreaterThan(40);
  await nb.shot(page, '25b-csv-broken-file');
  // The list scrolls: its last problem is reached by scrolling, not cut off.
  await issues.getByTestId('csv-issue-list').evaluate((el) => el.scrollTo({ top: el.scrollHeight }));
  await expect(issues.getByTestId('csv-issue-33')).toContainText('This is not an ISO 3166-1 country code.');
  await nb.shot(page, '25c-csv-broken-file-scrolled');

  // An Excel workbook, chosen instead of its CSV: refused before a row is read.
  const xlsx = Buffer.concat(['[Content_Types].xml', 'xl/workbook.xml'].map((name) => {
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(name.length, 26);
    return Buffer.concat([header, Buffer.from(name)]);
  }));
  await dialog.getByTestId('csv-file').setInputFiles({ name: 'devices.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: xlsx });
  await expect(dialog.getByTestId('csv-file-error')).toHaveText(/^This is an Excel workbook; save it as CSV \(UTF-8\) first/);
  await expect(dialog.getByTestId('csv-issues')).toHaveCount(0);
  await expect(dialog.getByTestId('bulk-start')).toBeDisabled();
  await nb.shot(page, '25d-csv-workbook-refused');
});
