/**
 * Issue 7.1 as an operator meets it, in Chromium against browser mode: editing a connection's
 * port or trust says before saving that the stored password stays behind; switching the demo
 * node to a custom CA file (picked in the window, its PEM sent) and typing the password again
 * signs in. Screenshots: tests/e2e/screenshots/30-*.png.
 */
import { expect, test } from './support/fixtures';
import { rowAction } from './support/row-menu';

test('moving a connection to another port or trust asks for its password again; a picked CA file works', async ({ page, nb }) => {
  await page.goto(nb.host.url);
  await page.getByRole('button', { name: 'Open demo workspace' }).click();
  const row = page.getByTestId('profile-row-Demo node (basic auth)');
  await expect(row.getByTestId('session-badge')).toBeVisible();
  await rowAction(row, 'Edit');
  const dialog = page.getByTestId('profile-form');
  const basicPort = dialog.getByLabel('Basic port', { exact: true });
  const original = await basicPort.inputValue();
  await expect(dialog.getByTestId('secrets-dropped-notice')).toHaveCount(0);

  await basicPort.fill('18443');
  await expect(dialog.getByTestId('secrets-dropped-notice')).toContainText('Saving removes the stored password.');
  await nb.shot(page, '30-connection-port-changed');
  await basicPort.fill(original);
  await expect(dialog.getByTestId('secrets-dropped-notice')).toHaveCount(0);

  // Trust the demo node's certificate as a custom CA, picked as a file.
  const sim = nb.harness.app.demo.simulator!;
  await dialog.getByLabel('Custom CA file', { exact: true }).check();
  await expect(dialog.getByTestId('secrets-dropped-notice')).toBeVisible();
  await dialog.getByLabel('CA certificate file (PEM)').setInputFiles({ name: 'demo-node-ca.pem', mimeType: 'application/x-pem-file', buffer: Buffer.from(sim.certificatePem) });
  await expect(dialog.getByText('demo-node-ca.pem')).toBeVisible();
  const operator = sim.users.find((u) => u.role === 'operator')!;
  await dialog.getByLabel('Password', { exact: true }).fill(operator.password);
  await nb.shot(page, '31-connection-custom-ca-picked');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);

  const stored = nb.harness.app.profiles.list().find((p) => p.name === 'Demo node (basic auth)')!;
  expect(stored.tls).toMatchObject({ mode: 'custom-ca', caName: 'demo-node-ca.pem', caPem: sim.certificatePem });
  await row.getByRole('button', { name: 'Sign in' }).click();
  await expect(row.getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in');
  await nb.shot(page, '32-connection-custom-ca-signed-in');
});
