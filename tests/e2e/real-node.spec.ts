/**
 * Issue 8 in Chromium: a connection to a node that replays the answers recorded from live nodes
 * (tests/fixtures/mgmt-node). The devices page lists 19 of 19 with their deployed state and the
 * appliance list's reachability and sync; the organization tree shows both organizations with
 * parent and plan. Screenshots: tests/e2e/screenshots/40-*.png.
 */
import { mgmtFixtures, startReplayNode, type ReplayNode } from '../support/replay-node';
import { expect, openApp, test } from './support/fixtures';

let node: ReplayNode;
test.beforeEach(async () => {
  node = await startReplayNode();
});
test.afterEach(async () => {
  await node.close();
});

test('a real node’s devices with their state, and its organizations with parent and plan', async ({ page, nb }) => {
  const profile = await nb.harness.call<{ id: string }>('profiles.save', {
    name: 'Replayed node',
    host: '127.0.0.1',
    basicPort: node.basicPort,
    oauthPort: node.basicPort,
    authMode: 'basic',
    username: 'Administrator',
    password: 'any-password-1',
    tls: { mode: 'custom-ca', caName: 'replay.pem', caPem: node.certificatePem },
  });
  await nb.harness.call('session.signIn', { profileId: profile.id });
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page, nb);
  await page.keyboard.press('Control+3');
  await expect(page.getByRole('heading', { name: 'Devices', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Refresh' }).click();
  await expect(page.getByTestId('devices-count')).toHaveText('19 devices', { timeout: 20_000 });
  const rows = page.getByTestId('device-row');
  await expect(rows).toHaveCount(19);
  await expect(page.locator('[data-testid="device-row"] .col-deploymentStatus')).toHaveText(Array(19).fill('deployed'));
  const appliances = mgmtFixtures.applianceList['mgmt.ApplianceStatusResult'].appliances;
  const unreachable = appliances.filter((a) => a['ping-status'] === 'UNREACHABLE').map((a) => a.name);
  const cpe = page.locator('[data-testid="device-row"][data-device="CPE10"]');
  await expect(cpe.locator('.col-reachability')).toHaveText('unreachable');
  await expect(page.locator('[data-testid="device-row"][data-device="fra-branch01"] .col-reachability')).toHaveText('reachable');
  await expect(page.getByTestId('devices-state-age')).toContainText('State:');
  await nb.shot(page, '40-real-node-devices');

  await page.getByTestId('devices-filter-reach').selectOption('unreachable');
  await expect(page.getByTestId('devices-count')).toHaveText(`${unreachable.length} of 19`);
  await nb.shot(page, '41-real-node-unreachable');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  // The whole list back before a row is clicked (rows still moving could put another device under the click).
  await expect(page.getByTestId('devices-count')).toHaveText('19 devices');
  await expect(rows).toHaveCount(19);

  await cpe.click();
  const details = page.getByTestId('device-details');
  await expect(details.getByTestId('appliance-state')).toContainText('unreachable');
  await expect(details.getByTestId('device-record-partial')).toBeVisible();
  await details.getByRole('button', { name: 'Refresh from node' }).click();
  await expect(details.getByTestId('device-record-partial')).toHaveCount(0);
  await nb.shot(page, '42-real-node-device-details');
  await page.keyboard.press('Escape');
  // The section keys are not taken while a dialog is open: Ctrl+4 once the details are gone.
  await expect(details).toHaveCount(0);

  await page.keyboard.press('Control+4');
  await expect(page.getByRole('heading', { level: 1, name: 'Organizations' })).toBeVisible();
  await page.getByRole('button', { name: 'Refresh' }).click();
  const tree = page.getByTestId('org-tree');
  await expect(tree).toBeVisible({ timeout: 20_000 });
  const [child, root] = mgmtFixtures.organizationList.organizations;
  const rootNode = tree.getByTestId(`org-node-${root!.name}`);
  if ((await rootNode.getAttribute('aria-expanded')) === 'false') await rootNode.locator('.org-node').first().click();
  await expect(tree.getByTestId(`org-node-${child!.name}`)).toBeVisible();
  await expect(tree.getByTestId(`org-node-${child!.name}`)).toContainText(child!.plan);
  await expect(rootNode).toContainText(root!.plan);
  await nb.shot(page, '43-real-node-organizations');
});
