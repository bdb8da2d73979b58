// @vitest-environment jsdom
/**
 * Keyboard all the way (issue 10, item 11): the skip link, the command palette (Ctrl+K: pages,
 * connections, devices by name) and `?` for the list of shortcuts.
 */
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEVICE_RESULTS } from '../../../renderer/app/palette/providers';
import { serialOf } from '../../../shared/model/device-window';
import type { DeviceView } from '../../../shared/model/inventory';
import { MainBridge } from './support/main-bridge';
import { stubScrollerSize } from './support/layout';
import { address, renderApp } from './support/render';

let restore: () => void;
beforeEach(() => (restore = stubScrollerSize(600)));
afterEach(() => restore());

const nav = () => screen.getByRole('navigation', { name: 'Sections' });
const params = () => new URLSearchParams(window.location.hash.split('?')[1] ?? '');
const palette = () => screen.queryByRole('dialog', { name: 'Command palette' });

describe('keyboard', () => {
  // 2,000 devices on one signed-in connection, read by every test here and changed by none.
  let main: MainBridge;
  let opsId: string;
  let all: DeviceView[];
  beforeAll(async () => {
    main = await MainBridge.start({}, { shared: true });
    const node = await main.node({ seedDevices: 2000, seedOrganizations: 10 });
    opsId = (await main.addNodeProfile(node, { name: 'Ops node' })).id;
    await main.call('inventory.refresh', { profileId: opsId });
    all = (await main.call('inventory.devices', { profileId: opsId })).items;
  });
  afterAll(() => main?.close());

  it('the first Tab stop is "Skip to content", which moves focus to the page', async () => {
    const { user } = renderApp(main, { at: '/connections' });
    await screen.findByTestId('profile-row-Ops node');
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.getByRole('main')).toHaveFocus();
    // The address still names the page (the link's #content is not a route).
    expect(address()).toMatch(/^\/connections/);
    await user.tab();
    expect(within(screen.getByRole('main')).getByRole('tab', { name: 'Profiles' })).toHaveFocus();
  });

  it('Ctrl+K opens the palette; typing and Enter go to a page; Escape closes it and focus returns', async () => {
    const { user } = renderApp(main, { at: '/connections' });
    await screen.findByTestId('profile-row-Ops node');
    const settings = within(nav()).getByRole('link', { name: /Settings/ });
    settings.focus();

    await user.keyboard('{Control>}k{/Control}');
    const box = within(palette()!).getByRole('combobox');
    expect(box).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(palette()).toBeNull();
    expect(settings).toHaveFocus();

    await user.keyboard('{Control>}k{/Control}');
    await user.keyboard('organ');
    const option = await within(palette()!).findByRole('option', { name: /Organizations/ });
    await waitFor(() => expect(option).toHaveAttribute('aria-selected', 'true'));
    await user.keyboard('{Enter}');
    expect(palette()).toBeNull();
    await waitFor(() => expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Organizations'));
    expect(address()).toBe(`/organizations?connection=${opsId}`);
    // ⌘K on macOS is the same key; a second press closes it.
    fireEvent.keyDown(window, { key: 'k', metaKey: true });
    expect(palette()).not.toBeNull();
    fireEvent.keyDown(document.activeElement!, { key: 'k', metaKey: true });
    expect(palette()).toBeNull();
  });

  it('finds a device by name among 2,000, at most a screenful, and opens its details', async () => {
    const { user } = renderApp(main, { at: '/settings' });
    await screen.findByLabelText('Theme');
    await user.keyboard('{Control>}k{/Control}');
    // Many matches: a capped list and how many more there are.
    // The palette searches as the Devices page does: name, site ID and serial.
    const broad = all.filter((d) => [d.deviceName, d.siteId ?? '', serialOf(d) ?? ''].some((t) => t.toLowerCase().includes('1')));
    expect(broad.length).toBeGreaterThan(DEVICE_RESULTS);
    await user.keyboard('1');
    const p = palette()!;
    // The devices list is read from main when the palette first needs it.
    await waitFor(() => expect(within(p).getAllByRole('option').filter((o) => o.getAttribute('data-value')?.startsWith('device:'))).toHaveLength(DEVICE_RESULTS), { timeout: 5000 });
    expect(p).toHaveTextContent(`${(broad.length - DEVICE_RESULTS).toLocaleString('en')} more — keep typing.`);

    const device = all[1234]!;
    await user.clear(within(p).getByRole('combobox'));
    await user.keyboard(device.deviceName);
    const option = await within(p).findByRole('option', { name: new RegExp(`^${device.deviceName}`) });
    await waitFor(() => expect(option).toHaveAttribute('aria-selected', 'true'));
    await user.keyboard('{Enter}');
    const details = await screen.findByTestId('device-details');
    expect(within(details).getByRole('heading', { name: device.deviceName })).toBeVisible();
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Devices');
    expect(params().get('device')).toBe(device.deviceName);
    // Focus is in the details, not left behind on the page.
    expect(details.contains(document.activeElement)).toBe(true);
    // Opened from the palette, closing stays on the Devices page.
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('device-details')).toBeNull());
    await waitFor(() => expect(params().has('device')).toBe(false));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Devices');
  });

  it('an Enter pressed before the store answered the typed search waits for it and opens that device', async () => {
    // The store's answers to the palette's device search are held until the Enter was pressed.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const invoke = main.invoke.bind(main);
    const searched: string[] = [];
    main.invoke = async (channel, request) => {
      const q = channel === 'inventory.window' ? (request as { filter?: { q?: string } }).filter?.q : undefined;
      if (q) {
        searched.push(q);
        await held;
      }
      return invoke(channel, request);
    };
    try {
      const { user } = renderApp(main, { at: '/settings' });
      await screen.findByLabelText('Theme');
      await user.keyboard('{Control>}k{/Control}');
      const device = all[777]!;
      await user.keyboard(device.deviceName);
      await waitFor(() => expect(searched).toContain(device.deviceName));
      await user.keyboard('{Enter}');
      // Nothing run yet: the answer for what was typed has not come.
      expect(palette()).not.toBeNull();
      release();
      const details = await screen.findByTestId('device-details');
      expect(within(details).getByRole('heading', { name: device.deviceName })).toBeVisible();
      expect(palette()).toBeNull();
    } finally {
      release();
      main.invoke = invoke;
    }
  });

  it('the palette chooses a connection for the window', async () => {
    const own = await MainBridge.start();
    const node = await own.node({ seedDevices: 3 });
    const a = await own.addNodeProfile(node, { name: 'Alpha' });
    const b = await own.addNodeProfile(node, { name: 'Bravo', signIn: false });
    const { user } = renderApp(own, { at: `/connections?connection=${a.id}` });
    await waitFor(() => expect(screen.getByTestId('active-connection')).toHaveTextContent('Alpha'));
    await user.keyboard('{Control>}k{/Control}');
    await user.keyboard('bravo');
    const option = await within(palette()!).findByRole('option', { name: /^Bravo/ });
    expect(option).toHaveTextContent('Signed out');
    await waitFor(() => expect(option).toHaveAttribute('aria-selected', 'true'));
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.getByTestId('active-connection')).toHaveTextContent('Bravo'));
    expect(params().get('connection')).toBe(b.id);
  });

  it('? lists every shortcut, outside a text field only', async () => {
    const { user } = renderApp(main, { at: '/devices' });
    const search = await screen.findByTestId('devices-search', {}, { timeout: 5000 });
    await user.click(search);
    await user.keyboard('?');
    expect(search).toHaveValue('?');
    expect(screen.queryByTestId('shortcuts-dialog')).toBeNull();

    await user.click(screen.getByRole('heading', { level: 1 }));
    await user.keyboard('?');
    const dialog = await screen.findByTestId('shortcuts-dialog');
    expect(within(dialog).getByRole('heading', { name: 'Keyboard shortcuts' })).toBeVisible();
    for (const text of ['Open the command palette', 'Go to Overview', 'Go to Devices', 'Go to Settings', 'Show these shortcuts', 'Open the focused device’s details']) expect(dialog).toHaveTextContent(text);
    // The pages in sidebar order: Overview first.
    const chordOf = (what: string) => within(dialog).getByText(what).previousElementSibling?.textContent;
    expect(['Go to Overview', 'Go to Connections', 'Go to ZTA', 'Go to Settings'].map(chordOf)).toEqual(['Ctrl+1', 'Ctrl+2', 'Ctrl+6', 'Ctrl+8']);
    expect(dialog).toHaveTextContent('Ctrl+K');
    // Other shortcuts wait while it is open (a navigation would change the address at once).
    const before = address();
    fireEvent.keyDown(window, { key: '3', ctrlKey: true });
    expect(address()).toBe(before);
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('shortcuts-dialog')).toBeNull();
  });
});
