/**
 * Accessibility (issue 10, "Must show"): axe-core scans every page and every dialog of the real
 * app (browser mode, demo workspace) in light and in dark. A test per page group walks its pages
 * once and scans each stop in both schemes (the window follows the system's scheme, switched with
 * `emulateMedia`), so a failure names its page and scheme; each fails on any violation of impact
 * serious or critical, listing where it was seen, the rule, its impact, the elements and axe's help
 * text. Every rule axe runs by default is on (WCAG 2.x A/AA and best practices); none is disabled.
 * The schemes differ in colours only (app/theme.ts sets `data-theme`, the CSS variables follow; the
 * DOM is the same), so each stop runs every rule in the scheme it is in, and in the other scheme
 * the rules that read colours.
 */
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { defaultOAuthClientBody } from '../../shared/model/oauth-client';
import { expect, openDemoWorkspace, test, type Northbound } from './support/fixtures';
import { dismissToasts } from './support/shots';
import { rowAction } from './support/row-menu';

test.use({ appOptions: { demoInventory: { devices: 300, organizations: 20 }, edr: { firstPullDelayMs: 600_000, publishDelayMs: 50 } } });
// Each test walks a whole page with up to 30 axe scans (1-4 s each on 2 cores): up to 100 s alone,
// more on a loaded machine. The limit only guards against a hang; it is no performance target.
test.describe.configure({ timeout: 240_000 });

type Scheme = 'light' | 'dark';

/** axe's rules that read colours (the rest read the DOM and the accessibility tree). */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

/**
 * Scans the whole window as it is now, in both schemes; serious and critical violations are kept
 * with `where` and the scheme. The scheme it ends in is where the next scan starts, so each stop
 * switches once.
 */
class Scanner {
  readonly found: string[] = [];
  private scheme: Scheme = 'light';
  constructor(private readonly page: Page) {}

  async scan(where: string): Promise<void> {
    const order: Scheme[] = this.scheme === 'light' ? ['light', 'dark'] : ['dark', 'light'];
    for (const [i, scheme] of order.entries()) {
      if (scheme !== this.scheme) {
        await this.page.emulateMedia({ colorScheme: scheme });
        this.scheme = scheme;
      }
      await expect(this.page.locator('html')).toHaveAttribute('data-theme', scheme);
      await this.scanNow(`${scheme}: ${where}`, i === 0 ? undefined : COLOUR_RULES);
    }
  }

  private async scanNow(where: string, rules?: string[]): Promise<void> {
    // Nothing mid-transition: a colour or opacity on its way is not what the operator reads.
    await this.page.evaluate(() => Promise.all(document.getAnimations().filter((a) => a.effect?.getTiming().iterations !== Infinity).map((a) => a.finished.catch(() => undefined))));
    // Every rule axe runs by default, in the page itself (legacy mode: axe.run in the window; the
    // app has no frames) rather than a partial run finished in a second blank page per scan, and
    // only the violations reported in full: the same findings at a fraction of the cost.
    const axe = new AxeBuilder({ page: this.page }).setLegacyMode().options({ resultTypes: ['violations'] });
    const { violations } = await (rules ? axe.withRules(rules) : axe).analyze();
    for (const v of violations) {
      if (v.impact !== 'serious' && v.impact !== 'critical') continue;
      const nodes = v.nodes.map((n) => `      ${n.target.join(' > ')}\n        ${(n.failureSummary ?? '').replace(/\n\s*/g, ' ')}`).join('\n');
      this.found.push(`[${where}] ${v.id} (${v.impact}): ${v.help}\n${nodes}`);
    }
  }

  expectNone(): void {
    expect(this.found.length, `serious or critical violations:\n\n${this.found.join('\n\n')}`).toBe(0);
  }
}

async function start(page: Page, nb: Northbound): Promise<Scanner> {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  await dismissToasts(page);
  return new Scanner(page);
}

const heading = (page: Page, name: string) => expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();

/** Escape the topmost dialog; answer "Discard" if it asks. */
async function closeDialog(page: Page, dialog: Locator) {
  await page.keyboard.press('Escape');
  const discard = page.getByTestId('confirm-discard');
  if (await discard.isVisible().catch(() => false)) await discard.getByRole('button', { name: 'Discard' }).click();
  await expect(dialog).toHaveCount(0);
}

test(`welcome page, command palette and shortcuts dialog`, async ({ page, nb }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(nb.host.url);
  await expect(page.getByRole('heading', { name: 'Welcome to Northbound' })).toBeVisible();
  const a = new Scanner(page);
  await a.scan('welcome');
  await openDemoWorkspace(page);
  await dismissToasts(page);
  await page.keyboard.press('Control+k');
  const palette = page.getByTestId('command-palette');
  await expect(palette).toBeVisible();
  await a.scan('command palette');
  await palette.getByRole('combobox').fill('dev');
  await expect(palette.getByRole('option').first()).toBeVisible();
  await a.scan('command palette, filtered');
  await page.keyboard.press('Escape');
  await expect(palette).toHaveCount(0);
  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('?');
  await expect(page.getByTestId('shortcuts-dialog')).toBeVisible();
  await a.scan('shortcuts dialog');
  await page.keyboard.press('Escape');
  await page.getByTestId('connection-picker').click();
  await expect(page.getByTestId('connection-picker-list')).toBeVisible();
  await a.scan('connection picker');
  a.expectNone();
});

test(`Connections: profiles, row menu, connection form, trust, pin mismatch, confirmations`, async ({ page, nb }) => {
  const a = await start(page, nb);
  await heading(page, 'Connections');
  await a.scan('connections');
  const oauthRow = page.getByTestId('profile-row-Demo node (OAuth)');
  await oauthRow.getByRole('button', { name: 'More actions' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await a.scan('row "More actions" menu');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toHaveCount(0);

  await page.getByRole('button', { name: 'Add connection' }).click();
  const form = page.getByTestId('profile-form');
  await a.scan('add connection');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByRole('textbox', { name: 'Name', exact: true })).toHaveAttribute('aria-invalid', 'true');
  await a.scan('add connection, errors');
  await form.getByRole('textbox', { name: 'Name', exact: true }).fill('Lab');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('confirm-discard')).toBeVisible();
  await a.scan('discard question');
  await page.getByTestId('confirm-discard').getByRole('button', { name: 'Discard' }).click();
  await expect(form).toHaveCount(0);

  await rowAction(oauthRow, 'Edit');
  await expect(form).toBeVisible();
  await a.scan('edit connection');
  await closeDialog(page, form);

  await rowAction(oauthRow, 'Trust certificate');
  const trust = page.getByTestId('trust-dialog');
  await expect(trust.getByTestId('cert-fingerprint')).toBeVisible();
  await a.scan('trust certificate');
  await closeDialog(page, trust);

  await rowAction(oauthRow, 'Delete');
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await a.scan('delete connection');
  await closeDialog(page, page.getByRole('alertdialog'));

  await oauthRow.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByTestId('confirm-dialog')).toBeVisible();
  await a.scan('sign-out confirmation');
  await closeDialog(page, page.getByTestId('confirm-dialog'));

  // The node presents another certificate: the basic connection's sign-in meets the pin.
  await nb.harness.app.demo.simulator!.rotateCertificate();
  await page.getByTestId('profile-row-Demo node (basic auth)').getByRole('button', { name: 'Sign in' }).click();
  const mismatch = page.getByTestId('pin-mismatch-dialog');
  await expect(mismatch).toBeVisible();
  await a.scan('pin mismatch');
  await closeDialog(page, mismatch);
  await a.scan('connections after sign-in failure');
  a.expectNone();
});

test(`Connections: OAuth clients and Syslog servers tabs, client form, created client`, async ({ page, nb }) => {
  const a = await start(page, nb);
  const profileId = nb.harness.app.demo.status().oauthProfileId!;
  await nb.harness.call('oauthClients.create', { profileId, body: { ...defaultOAuthClientBody(), name: 'ci-robot', description: 'Nightly CI' } });
  await rowAction(page.getByTestId('profile-row-Demo node (OAuth)'), 'OAuth clients');
  await expect(page.getByTestId('oauth-client-row-ci-robot')).toBeVisible();
  await a.scan('OAuth clients');
  await page.getByRole('button', { name: 'New client' }).click();
  const form = page.getByRole('dialog');
  await expect(form.getByRole('button', { name: 'Create client' })).toBeVisible();
  await a.scan('OAuth client form');
  await form.getByRole('button', { name: 'Create client' }).click();
  await expect(form.locator('[aria-invalid="true"]').first()).toBeVisible();
  await a.scan('OAuth client form, errors');
  await form.getByLabel('Name', { exact: true }).fill('a11y-robot');
  await form.getByRole('button', { name: 'Create client' }).click();
  await expect(page.getByTestId('created-client-secret')).toBeVisible();
  await a.scan('created client');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('created-client-secret')).toHaveCount(0);
  await page.getByRole('button', { name: 'Edit ci-robot' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await a.scan('edit OAuth client');
  await closeDialog(page, page.getByRole('dialog'));

  await page.getByRole('tab', { name: 'Syslog servers' }).click();
  await expect(page.getByTestId('syslog-form')).toBeVisible();
  await expect(page.getByText(/Reading the syslog servers/)).toHaveCount(0);
  await a.scan('Syslog servers');
  await page.getByTestId('syslog-form').getByRole('button', { name: 'Add server' }).click();
  await expect(page.getByTestId('syslog-form').getByLabel('Host')).toHaveAttribute('aria-invalid', 'true');
  await a.scan('Syslog servers, form errors');
  a.expectNone();
});

test(`Devices: table, device details, deploy confirmation, onboarding wizard steps, bulk CSV`, async ({ page, nb }) => {
  const a = await start(page, nb);
  const sim = nb.harness.app.demo.simulator!;
  await page.keyboard.press('Control+3');
  await heading(page, 'Devices');
  await expect(page.getByTestId('devices-count')).toHaveText(`${sim.inventory.deviceCount()} devices`, { timeout: 20_000 });
  await a.scan('devices');
  await page.getByTestId('devices-filter-status').selectOption('deployed');
  await page.getByTestId('devices-search').fill('zzz-nothing');
  await expect(page.getByText('No device matches.')).toBeVisible();
  await a.scan('devices, nothing matches');
  await page.getByRole('button', { name: 'Clear filters' }).click();

  await page.getByTestId('device-row').first().click();
  const details = page.getByTestId('device-details');
  await expect(details).toBeVisible();
  await a.scan('device details');
  await details.getByRole('button', { name: /^(Deploy|Redeploy)…$/ }).click();
  await expect(page.getByTestId('confirm-dialog')).toBeVisible();
  await a.scan('deploy confirmation');
  await closeDialog(page, page.getByTestId('confirm-dialog'));
  await closeDialog(page, details);

  // The wizard, step by step, with a device it onboards and the deploy step.
  const org = sim.inventory.organizations().find((o) => o.parent !== null)!;
  await page.getByRole('button', { name: 'Onboard device' }).click();
  const wizard = page.getByTestId('onboarding-wizard');
  await expect(wizard.getByRole('combobox', { name: 'Organization' })).toBeVisible();
  await a.scan('wizard: organization');
  await wizard.getByRole('combobox', { name: 'Organization' }).fill(org.name);
  await wizard.getByRole('option').filter({ hasText: org.name }).first().click();
  await a.scan('wizard: organization chosen');
  await wizard.getByRole('button', { name: /Next/ }).click();
  await expect(wizard.getByLabel('Device name')).toBeVisible();
  await wizard.getByRole('button', { name: /Next/ }).click();
  await expect(wizard.getByLabel('Device name')).toHaveAttribute('aria-invalid', 'true');
  await a.scan('wizard: identity, errors');
  await wizard.getByLabel('Device name').fill('a11y-branch-01');
  await wizard.getByLabel('Serial number').fill('SN-A11Y-1');
  await wizard.getByRole('button', { name: /Next/ }).click();
  await expect(wizard.getByRole('combobox', { name: 'Country' })).toBeVisible();
  await wizard.getByRole('combobox', { name: 'Country' }).fill('Germany');
  await page.keyboard.press('Enter');
  await wizard.getByLabel('Latitude').fill('52.52');
  await wizard.getByLabel('Longitude').fill('13.405');
  await expect(wizard.getByTestId('world-preview')).toContainText('Germany');
  await a.scan('wizard: location');
  await wizard.getByRole('button', { name: /Next/ }).click();
  await expect(wizard.getByRole('textbox', { name: 'Device group' })).toBeVisible();
  await wizard.getByRole('textbox', { name: 'Device group' }).fill('a11y-branches');
  await a.scan('wizard: device group');
  await wizard.getByRole('button', { name: /Next/ }).click();
  await expect(wizard.getByTestId('wizard-review')).toBeVisible();
  await a.scan('wizard: review');
  await wizard.getByRole('button', { name: 'Onboard' }).click();
  await expect(wizard.getByTestId('wizard-deploy')).toBeVisible({ timeout: 10_000 });
  await a.scan('wizard: deploy');
  await wizard.getByRole('button', { name: 'Close' }).last().click();
  await expect(wizard).toHaveCount(0);

  await page.getByRole('button', { name: 'Bulk onboard (CSV)…' }).click();
  const bulk = page.getByTestId('bulk-onboarding');
  await expect(bulk).toBeVisible();
  await a.scan('bulk CSV dialog');
  const csv = ['deviceName,siteId,orgName,serialNumber,deviceGroup,country,latitude,longitude', `a11y-shop-1,9001,${org.name},SN-1,shops,FR,48.8566,2.3522`, `a11y-shop-2,9002,${org.name},SN-2,shops,XX,48.8566,2.3522`, `"a11y-shop-3,9003`].join('\n');
  await bulk.getByTestId('csv-file').setInputFiles({ name: 'shops.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(bulk.getByTestId('csv-summary')).toBeVisible();
  await a.scan('bulk CSV dialog, file read with problems');
  await bulk.getByTestId('bulk-start').click();
  await expect(page.getByTestId('confirm-dialog')).toBeVisible();
  await a.scan('bulk start confirmation');
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Start' }).click();
  await expect(bulk.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed', { timeout: 30_000 });
  await a.scan('bulk CSV dialog, results');
  a.expectNone();
});

test(`Organizations: tree and list`, async ({ page, nb }) => {
  const a = await start(page, nb);
  await page.keyboard.press('Control+4');
  await heading(page, 'Organizations');
  await expect(page.getByTestId('org-tree')).toBeVisible({ timeout: 20_000 });
  await a.scan('organizations tree');
  const expandable = page.getByTestId('org-tree').locator('[aria-expanded="false"]').first();
  await expandable.locator('.org-node').first().click();
  await expect(page.getByTestId('org-tree').locator('[aria-expanded="true"]').first()).toBeVisible();
  await a.scan('organizations tree, opened');
  await page.getByRole('button', { name: 'List' }).click();
  await expect(page.getByTestId('org-list')).toBeVisible();
  await a.scan('organizations list');
  a.expectNone();
});

test(`Overview: before and after the connectors' first cycle, alarms per organization`, async ({ page, nb }) => {
  const a = await start(page, nb);
  await page.keyboard.press('Control+1');
  await heading(page, 'Overview');
  // The connectors here wait 10 min for their first poll: the risk tiles say so.
  await expect(page.getByTestId('tile-risk').getByTestId('tile-empty')).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('devices-total')).toBeVisible({ timeout: 20_000 });
  await a.scan('overview, connectors never polled');
  const connectors = await nb.harness.call<Array<{ id: string }>>('connectors.list');
  for (const c of connectors) await nb.harness.call('connectors.pollNow', { connectorId: c.id });
  await expect(page.getByTestId('risk-hosts')).toHaveText(/^500\s*hosts$/, { timeout: 60_000 });
  await a.scan('overview');
  const byOrg = page.getByTestId('tile-alarms').getByRole('button', { name: /By organization/ });
  if (await byOrg.isVisible()) {
    await byOrg.click();
    await expect(page.getByTestId('alarms-orgs')).toBeVisible();
    await a.scan('overview, alarms per organization');
  }
  a.expectNone();
});

test(`Alarms: stream, source details, alarm details, acknowledge, clear; and ZTA`, async ({ page, nb }) => {
  const a = await start(page, nb);
  // Alarms of every severity, one of them acknowledged, and a paused stream with "N new".
  // The test steps the node itself, so that what is scanned is what it set up.
  const sim = nb.harness.app.demo.simulator!;
  sim.alarms.generator.stop(true);
  sim.alarms.generator.step(60);
  await page.keyboard.press('Control+5');
  await heading(page, 'Alarms');
  await expect(page.getByTestId('alarm-row').first()).toBeVisible({ timeout: 15_000 });
  await a.scan('alarms');
  await page.getByTestId('alarm-pause').click();
  sim.alarms.generator.step(5);
  await expect(page.getByTestId('alarm-new')).toBeVisible({ timeout: 15_000 });
  await page.getByTestId('alarm-row').nth(1).getByRole('checkbox').click();
  await a.scan('alarms paused, a row selected');
  await page.getByTestId('alarm-source').click();
  await expect(page.getByTestId('alarm-source-details')).toBeVisible();
  await a.scan('alarm source details');
  await page.getByTestId('alarm-source').click();
  await page.getByTestId('alarm-new').click();

  await page.getByTestId('alarm-row').first().click();
  const details = page.getByTestId('alarm-details');
  await expect(details.getByTestId('alarm-change').first()).toBeVisible();
  await a.scan('alarm details');
  await details.getByRole('button', { name: /Acknowledge/ }).click();
  const ack = page.getByTestId('alarm-ack-dialog');
  await ack.getByLabel('Note').fill('x'.repeat(1001));
  await ack.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(ack.locator('.field-error')).toBeVisible();
  await a.scan('acknowledge, a note too long');
  await ack.getByLabel('Note').fill('Looked at it');
  await ack.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(ack).toHaveCount(0);
  await expect(details.getByTestId('alarm-handling')).toHaveCount(1);
  await a.scan('alarm details with a handling');
  await details.getByRole('button', { name: /Clear/ }).click();
  const clear = page.getByTestId('alarm-clear-dialog');
  await expect(clear).toBeVisible();
  await a.scan('clear confirmation');
  await closeDialog(page, clear);
  await closeDialog(page, details);

  await page.keyboard.press('Control+6');
  await heading(page, 'ZTA');
  await a.scan('ZTA');
  a.expectNone();
});

test(`Connectors: list, row menu, form with risk settings, test result, import, delete`, async ({ page, nb }) => {
  const a = await start(page, nb);
  await page.keyboard.press('Control+7');
  await heading(page, 'Connectors');
  const defender = page.getByTestId('connector-row-Demo Defender tenant');
  await expect(defender).toBeVisible({ timeout: 15_000 });
  await expect(page.getByTestId('connector-row-Demo Falcon tenant')).toBeVisible({ timeout: 15_000 });
  await a.scan('connectors');
  await defender.getByRole('button', { name: 'More actions' }).click();
  await expect(page.getByRole('menu')).toBeVisible();
  await a.scan('connector row menu');
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Add connector' }).first().click();
  const form = page.getByTestId('connector-form');
  await a.scan('add connector (Falcon)');
  await form.getByLabel(/Microsoft Defender/).check();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form.getByLabel('Tenant ID')).toHaveAttribute('aria-invalid', 'true');
  await form.getByRole('button', { name: 'Advanced' }).click();
  await form.getByRole('button', { name: 'Risk scoring' }).click();
  await expect(form.locator('#connector-risk')).toBeVisible();
  await a.scan('add connector (Defender), errors, advanced and risk scoring open');
  await closeDialog(page, form);

  await rowAction(page.getByTestId('connector-row-Demo Falcon tenant'), 'Edit');
  await expect(form).toBeVisible();
  await form.getByRole('button', { name: 'Risk scoring' }).click();
  await expect(form.locator('#connector-risk')).toBeVisible();
  await a.scan('edit connector (Falcon), risk scoring open');
  await closeDialog(page, form);

  await rowAction(defender, 'Test');
  const tested = page.getByTestId('connector-test-dialog');
  await expect(tested.getByRole('list', { name: 'Checks' })).toBeVisible({ timeout: 30_000 });
  await a.scan('connector test result');
  await closeDialog(page, tested);

  await page.getByRole('button', { name: 'Import…' }).click();
  const imp = page.getByTestId('import-connectors-dialog');
  await expect(imp).toBeVisible();
  await a.scan('import connectors');
  await imp.getByRole('button', { name: 'Import', exact: true }).click();
  await expect(imp.getByTestId('import-summary')).toBeVisible({ timeout: 15_000 });
  await a.scan('import connectors, results');
  await closeDialog(page, imp);

  await rowAction(defender, 'Delete');
  await expect(page.getByRole('alertdialog')).toBeVisible();
  await a.scan('delete connector');
  await closeDialog(page, page.getByRole('alertdialog'));

  await defender.getByRole('button', { name: 'Poll now' }).click();
  await expect(defender.getByTestId('connector-last-cycle').getByText('completed')).toBeVisible({ timeout: 30_000 });
  await a.scan('connectors after a cycle');
  a.expectNone();
});

test(`Settings`, async ({ page, nb }) => {
  const a = await start(page, nb);
  await page.keyboard.press('Control+8');
  await heading(page, 'Settings');
  await expect(page.getByTestId('app-info')).toContainText('Browser mode');
  await a.scan('settings');
  a.expectNone();
});

test(`a narrow window: the sidebar collapsed to its icons, and the What-if over the dashboard`, async ({ page, nb }) => {
  const a = await start(page, nb);
  await page.setViewportSize({ width: 1024, height: 700 });
  // The demo registers its two connectors while the connections sign in: both, then a poll of each.
  const connectors = () => nb.harness.call<Array<{ id: string }>>('connectors.list');
  await expect.poll(async () => (await connectors()).length, { timeout: 20_000 }).toBe(2);
  for (const c of await connectors()) await nb.harness.call('connectors.pollNow', { connectorId: c.id });
  await page.keyboard.press('Control+6');
  await heading(page, 'ZTA');
  await expect(page.getByTestId('zta-count')).toHaveText('500 hosts', { timeout: 60_000 });
  await expect(page.getByRole('navigation', { name: 'Sections' })).toHaveAttribute('data-collapsed', 'true');
  // No toast on its way out while axe reads the colours (a fading one read 4.0:1 in dark).
  await dismissToasts(page);
  await a.scan('ZTA at 1024 px, the sidebar collapsed');
  await page.getByRole('button', { name: 'What-if', exact: true }).click();
  await expect(page.getByTestId('zta-whatif-changed')).toBeVisible();
  await dismissToasts(page);
  await a.scan('the What-if over the dashboard at 1024 px');
  a.expectNone();
});
