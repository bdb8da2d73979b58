/**
 * Pages have an address (issue 10, items 1, 6 and 11) in Chromium against browser mode and the
 * demo workspace: the Devices page with a filter, a search and an opened device comes back the
 * same after a reload; closing the device and going back returns to the previous page; Ctrl+K
 * opens a device by name. Screenshots of the header's connection picker, the command palette and
 * the shortcuts dialog in light and dark go to tests/e2e/screenshots/.
 */
import type { Page } from '@playwright/test';
import type { DeviceView } from '../../shared/model/inventory';
import { expect, openDemoWorkspace, test, type Northbound } from './support/fixtures';
import { dismissToasts, shotInBothSchemes } from './support/shots';

test.use({ appOptions: { demoInventory: { devices: 300, organizations: 12 } } });

const hash = (page: Page) => decodeURIComponent(new URL(page.url()).hash.replace(/\+/g, ' '));
/** The devices main stored for the demo's OAuth connection (what the Devices page lists). */
async function storedDevices(nb: Northbound): Promise<DeviceView[]> {
  const demo = await nb.harness.call<{ oauthProfileId: string }>('demo.status');
  return (await nb.harness.call<{ items: DeviceView[] }>('inventory.devices', { profileId: demo.oauthProfileId })).items;
}
const heading = (page: Page, name: string) => expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
/** The demo workspace open at 1280×800, toasts gone, and its devices fetched (the palette searches them). */
async function demoWithDevices(page: Page, nb: Northbound): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  await dismissToasts(page);
  // The first visit to Devices fetches the demo's devices.
  await page.keyboard.press('Control+3');
  await expect(page.getByTestId('devices-count')).toHaveText(/^\d[\d,]* devices$/, { timeout: 20_000 });
}

test('a reload returns to the same page, filters and opened device; back goes to the previous page; Ctrl+K opens a device by name', async ({ page, nb }) => {
  await page.goto(nb.host.url);
  await openDemoWorkspace(page);
  await heading(page, 'Connections');
  const sim = nb.harness.app.demo.simulator!;

  await page.keyboard.press('Control+3');
  await heading(page, 'Devices');
  await expect(page.getByTestId('devices-count')).toHaveText(`${sim.inventory.deviceCount()} devices`, { timeout: 20_000 });
  expect(hash(page)).toMatch(/^#\/devices\?connection=/);

  // A device of an organization, found by part of its name.
  const devices = await storedDevices(nb);
  const device = devices.find((d) => d.orgName && /\d$/.test(d.deviceName))!;
  const org = device.orgName!;
  await page.getByTestId('devices-filter-org').selectOption(org);
  await page.getByTestId('devices-search').fill(device.deviceName);
  await expect(page.getByTestId('device-row')).toHaveCount(1);
  await expect.poll(() => hash(page)).toContain(`q=${device.deviceName}`);
  expect(hash(page)).toContain(`org=${org}`);
  await page.getByTestId('device-row').first().click();
  const details = page.getByTestId('device-details');
  await expect(details).toContainText(device.deviceName);
  expect(hash(page)).toContain(`device=${device.deviceName}`);

  await page.reload();
  await heading(page, 'Devices');
  await expect(page.getByTestId('device-details')).toContainText(device.deviceName);
  await expect(page.getByTestId('devices-filter-org')).toHaveValue(org);
  await expect(page.getByTestId('devices-search')).toHaveValue(device.deviceName);
  await expect(page.getByTestId('connection-picker')).toContainText('Demo node (OAuth)');
  await nb.shot(page, 'address-01-devices-after-reload');

  // Closing the device goes back to the page without it; back again is the page before (Connections).
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('device-details')).toHaveCount(0);
  expect(hash(page)).not.toContain('device=');
  await expect(page.getByTestId('devices-filter-org')).toHaveValue(org);
  await page.goBack();
  await heading(page, 'Connections');
  await page.goForward();
  await heading(page, 'Devices');
  await expect(page.getByTestId('devices-search')).toHaveValue(device.deviceName);

  // Ctrl+K, a device's name, Enter: its details, from any page.
  await page.keyboard.press('Control+4');
  await heading(page, 'Organizations');
  const other = devices.find((d) => d.deviceName !== device.deviceName && /\d$/.test(d.deviceName))!;
  await page.keyboard.press('Control+k');
  const palette = page.getByTestId('command-palette');
  await expect(palette).toBeVisible();
  await palette.getByRole('combobox').fill(other.deviceName);
  await expect(palette.getByRole('option', { name: new RegExp(`^${other.deviceName}`) })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  await heading(page, 'Devices');
  await expect(page.getByTestId('device-details')).toContainText(other.deviceName);
  expect(hash(page)).toContain(`device=${other.deviceName}`);
});

test(`the connection picker, the command palette and the shortcuts dialog in light and dark`, async ({ page, nb }) => {
  const shot = (name: string) => shotInBothSchemes(page, nb, (scheme) => `address-${scheme}-${name}`);
  await demoWithDevices(page, nb);

  await page.getByTestId('connection-picker').click();
  const list = page.getByTestId('connection-picker-list');
  await expect(list.getByRole('option')).toHaveCount(2);
  await expect(list.getByRole('option', { name: /Demo node \(OAuth\)/ })).toHaveAttribute('aria-selected', 'true');
  await shot('02-connection-picker');
  // Choosing the other connection puts it in the header and the address, and focus back on the picker.
  await list.getByRole('combobox').fill('basic');
  await page.keyboard.press('Enter');
  await expect(list).toHaveCount(0);
  await expect(page.getByTestId('active-connection')).toHaveText('Demo node (basic auth)');
  await expect(page.getByTestId('connection-picker')).toBeFocused();
  const demo = await nb.harness.call<{ profileId: string; oauthProfileId: string }>('demo.status');
  expect(hash(page)).toContain(`connection=${demo.profileId}`);

  // The palette chooses a connection too.
  await page.keyboard.press('Control+k');
  const palette = page.getByTestId('command-palette');
  await palette.getByRole('combobox').fill('Demo node (OAuth)');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('active-connection')).toHaveText('Demo node (OAuth)');
  expect(hash(page)).toContain(`connection=${demo.oauthProfileId}`);

  await page.keyboard.press('Control+k');
  await palette.getByRole('combobox').fill('ams');
  await expect(palette.getByRole('option').first()).toBeVisible();
  await shot('03-command-palette');
  await page.keyboard.press('Escape');
  await expect(palette).toHaveCount(0);

  await page.getByRole('heading', { level: 1 }).click();
  await page.keyboard.press('?');
  await expect(page.getByTestId('shortcuts-dialog')).toBeVisible();
  await shot('04-shortcuts');
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('shortcuts-dialog')).toHaveCount(0);

  // The header holds its title, the palette button and the picker in a narrow window too.
  await page.setViewportSize({ width: 1024, height: 700 });
  await page.keyboard.press('Control+3');
  await expect(page.getByTestId('devices-count')).toBeVisible();
  const header = await page.getByRole('banner').boundingBox();
  const picker = await page.getByTestId('connection-picker').boundingBox();
  expect(picker!.x + picker!.width).toBeLessThanOrEqual(header!.x + header!.width);
  await shot('05-devices-1024');
});

test('Enter right after typing in the palette goes to what was typed, even on a slow machine', async ({ page, nb }) => {
  await demoWithDevices(page, nb);
  const devices = await storedDevices(nb);
  const target = devices[devices.length - 1]!;
  // A slow machine: the palette's results lag the typing (they follow a deferred query). An Enter
  // that came before them ran what an earlier list had highlighted (a CI run: the other connection).
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
  for (const [typed, expected] of [
    ['Demo node (basic auth)', { connection: 'Demo node (basic auth)' }],
    ['Demo node (OAuth)', { connection: 'Demo node (OAuth)' }],
    // The OAuth connection's devices (the basic one is signed out).
    [target.deviceName, { device: target.deviceName }],
  ] as const) {
    await page.keyboard.press('Control+k');
    await page.getByTestId('command-palette').getByRole('combobox').fill(typed);
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('command-palette')).toHaveCount(0, { timeout: 15_000 });
    if ('connection' in expected) await expect(page.getByTestId('active-connection')).toHaveText(expected.connection, { timeout: 15_000 });
    else await expect(page.getByTestId('device-details')).toContainText(expected.device, { timeout: 15_000 });
  }
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
});
