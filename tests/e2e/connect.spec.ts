/**
 * The operator's first session, in Chromium against browser mode: open the demo workspace, add a
 * profile for a management node, trust its certificate after comparing the fingerprint, sign in
 * with OAuth, create an OAuth client, sign out. Then: nothing secret reached the browser, the
 * logs or the files. Screenshots go to tests/e2e/screenshots/.
 */
import type { Page } from '@playwright/test';
import { startMgmtSimulator, type MgmtSimulator } from '@northbound/simulators/testing';
import { expect, openDemoWorkspace, recordReceived, test } from './support/fixtures';
import { rowAction } from './support/row-menu';

const ADMIN_PW = 'E2e-Admin-Password-4471';
const CLIENT_SECRET = 'E2e-Bootstrap-Client-Secret-8812';
let sim: MgmtSimulator;

test.beforeEach(async () => {
  sim = await startMgmtSimulator({ users: [{ username: 'admin', password: ADMIN_PW, role: 'admin' }], bootstrapClient: { clientSecret: CLIENT_SECRET } });
});
test.afterEach(async () => {
  await sim.close();
});

async function addLabProfile(page: Page, button = 'Add connection') {
  await page.getByRole('button', { name: button }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill('Lab node');
  await dialog.getByLabel('Host', { exact: true }).fill('127.0.0.1');
  await dialog.getByLabel('Basic port', { exact: true }).fill(String(sim.basicPort));
  await dialog.getByLabel('OAuth port', { exact: true }).fill(String(sim.oauthPort));
  await dialog.getByLabel('Auth mode', { exact: true }).selectOption('oauth');
  await dialog.getByLabel('Username', { exact: true }).fill('admin');
  await dialog.getByLabel('Password', { exact: true }).fill(ADMIN_PW);
  await dialog.getByLabel('OAuth client ID', { exact: true }).fill(sim.bootstrapClient.clientId);
  await dialog.getByLabel('OAuth client secret', { exact: true }).fill(CLIENT_SECRET);
  await dialog.getByLabel('Pin certificate (trust on first use)', { exact: true }).check();
  return dialog;
}

test('demo workspace, add a node, trust its certificate, OAuth sign-in, create a client, sign out', async ({ page, nb }) => {
  const received = recordReceived(page);
  await page.goto(nb.host.url);
  await expect(page).not.toHaveURL(/token=/);

  // First run: the demo workspace is offered.
  const openDemo = page.getByRole('button', { name: 'Open demo workspace' });
  await expect(openDemo).toBeVisible();
  await nb.shot(page, '01-welcome');
  await openDemoWorkspace(page);
  await nb.shot(page, '02-demo-workspace');

  // Add a profile for another node.
  const dialog = await addLabProfile(page);
  await nb.shot(page, '03-add-connection');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  const row = page.getByTestId('profile-row-Lab node');
  await expect(row).toBeVisible();

  // Signing in meets an unknown certificate: the trust dialog shows its fingerprint to compare.
  await row.getByRole('button', { name: 'Sign in' }).click();
  const trust = page.getByTestId('trust-dialog');
  await expect(trust).toBeVisible();
  await expect(trust.getByTestId('cert-fingerprint')).toHaveAttribute('data-fingerprint', sim.fingerprint256);
  expect(sim.stats.count('POST', '/auth/token')).toBe(0);
  await nb.shot(page, '04-trust-certificate');
  await trust.getByRole('button', { name: 'Trust this certificate' }).click();
  await expect(trust).toBeHidden();
  await expect(row.getByText(/Pinned/i)).toBeVisible();

  // OAuth sign-in.
  if (await row.getByRole('button', { name: 'Sign in' }).isVisible()) await row.getByRole('button', { name: 'Sign in' }).click();
  await expect(row.getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in');
  await expect(row.getByTestId('session-badge')).toContainText(/expires in|no expiry/i);
  await nb.shot(page, '05-signed-in');

  // Create an OAuth client; the secret is shown once.
  await rowAction(row, 'OAuth clients');
  await page.getByRole('button', { name: 'New client' }).click();
  const form = page.getByRole('dialog');
  await form.getByLabel('Name', { exact: true }).fill('ci-robot');
  await form.getByLabel('Description', { exact: true }).fill('Nightly CI pipeline');
  await nb.shot(page, '06-new-client');
  await form.getByRole('button', { name: 'Create client' }).click();
  const secret = page.getByTestId('created-client-secret');
  await expect(secret).toBeVisible();
  const clientId = (await page.getByTestId('created-client-id').innerText()).trim();
  const createdSecret = (await secret.innerText()).trim();
  expect(createdSecret.length).toBeGreaterThan(10);
  expect(sim.getClient(clientId)).toMatchObject({ name: 'ci-robot', description: 'Nightly CI pipeline' });
  await expect(page.getByRole('button', { name: 'Copy secret' })).toBeVisible();
  await nb.shot(page, '07-client-created');
  await page.keyboard.press('Escape');
  await expect(secret).toBeHidden();
  await expect(page.getByTestId('oauth-client-row-ci-robot')).toBeVisible();
  await expect(page.getByText(createdSecret)).toHaveCount(0);

  // Sign out: the token is revoked on the node.
  await page.getByRole('tab', { name: 'Profiles' }).click();
  expect(sim.liveTokenCount(sim.bootstrapClient.clientId, 'admin')).toBeGreaterThan(0);
  await row.getByRole('button', { name: 'Sign out' }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Sign out' }).click();
  await expect(row.getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-out');
  expect(sim.liveTokenCount(sim.bootstrapClient.clientId, 'admin')).toBe(0);
  await nb.shot(page, '08-signed-out');

  // No secret reached the browser, a log line or a file (the new client's secret only in its one answer).
  const demoSim = nb.harness.app.demo.simulator!;
  const secrets = [ADMIN_PW, CLIENT_SECRET, demoSim.bootstrapClient.clientSecret, ...demoSim.users.map((u) => u.password)];
  const files = await nb.harness.files();
  const sources: Array<[string, string[]]> = [
    ['sent by the host', nb.sent],
    ['received by the page', received],
    ['log', nb.harness.logs],
    ['file', files.map((f) => `${f.file}\n${f.text}`)],
  ];
  for (const [where, texts] of sources) {
    expect(texts.length, `${where} recorded`).toBeGreaterThan(0);
    for (const text of texts) for (const s of secrets) expect(text.includes(s), `a secret in ${where}`).toBe(false);
  }
  expect(nb.sent.filter((t) => t.includes(createdSecret))).toHaveLength(1);
  for (const text of [...nb.harness.logs, ...files.map((f) => f.text)]) expect(text.includes(createdSecret)).toBe(false);
});

test('a pinned certificate that changed is refused with a clear warning', async ({ page, nb }) => {
  await page.goto(nb.host.url);
  const dialog = await addLabProfile(page, 'Add a management node');
  await dialog.getByRole('button', { name: 'Save' }).click();
  const row = page.getByTestId('profile-row-Lab node');
  await rowAction(row, 'Trust certificate');
  const trust = page.getByTestId('trust-dialog');
  const pinned = sim.fingerprint256;
  await expect(trust.getByTestId('cert-fingerprint')).toHaveAttribute('data-fingerprint', pinned);
  await trust.getByRole('button', { name: 'Trust this certificate' }).click();
  await expect(trust).toBeHidden();

  // The node now presents another certificate.
  await sim.rotateCertificate();
  const tokenCalls = sim.stats.count('POST', '/auth/token');
  await row.getByRole('button', { name: 'Sign in' }).click();
  const warning = page.getByTestId('pin-mismatch-dialog');
  await expect(warning).toBeVisible();
  await expect(warning).toContainText(/changed|different/i);
  await expect(warning.getByTestId('pin-expected')).toHaveAttribute('data-fingerprint', pinned);
  await expect(warning.getByTestId('pin-actual')).toHaveAttribute('data-fingerprint', sim.fingerprint256);
  expect(sim.stats.count('POST', '/auth/token')).toBe(tokenCalls);
  await nb.shot(page, '09-pin-mismatch');
  await expect(row.getByTestId('session-badge')).not.toHaveAttribute('data-state', 'signed-in');
});
