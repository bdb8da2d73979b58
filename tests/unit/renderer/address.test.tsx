// @vitest-environment jsdom
/**
 * Pages have an address (issue 10, item 1): navigating writes the page, its filters and its
 * opened item into the window's hash; opening the app at an address shows exactly that; back
 * and forward move between pages; a bad or stale address falls back instead of failing.
 */
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DeviceView } from '../../../shared/model/inventory';
import { MainBridge } from './support/main-bridge';
import { stubScrollerSize } from './support/layout';
import { address, renderApp } from './support/render';

let restore: () => void;
beforeEach(() => (restore = stubScrollerSize(600)));
afterEach(() => restore());

const rowNames = () => screen.getAllByTestId('device-row').map((r) => r.getAttribute('data-device'));
const pageHeading = () => screen.getByRole('heading', { level: 1 });
const nav = () => screen.getByRole('navigation', { name: 'Sections' });
const params = () => new URLSearchParams(window.location.hash.split('?')[1] ?? '');

describe('the address of pages, filters and opened devices', () => {
  // Read by every test here, changed by none.
  let main: MainBridge;
  let opsId: string;
  let all: DeviceView[];
  beforeAll(async () => {
    main = await MainBridge.start({}, { shared: true });
    const node = await main.node({ seedDevices: 300, seedOrganizations: 8 });
    opsId = (await main.addNodeProfile(node, { name: 'Ops node' })).id;
    await main.call('inventory.refresh', { profileId: opsId });
    all = (await main.call('inventory.devices', { profileId: opsId })).items;
  });
  afterAll(() => main?.close());

  it('navigating writes the page, its filters, its sort and the opened device into the address; refining replaces the entry', async () => {
    const { user } = renderApp(main);
    // The window's connection is written into the address as soon as it is known.
    await waitFor(() => expect(address()).toBe(`/connections?connection=${opsId}`));
    const entries = window.history.length;

    await user.click(within(nav()).getByRole('link', { name: /^Devices/ }));
    expect(await screen.findByTestId('devices-count')).toHaveTextContent('300 devices');
    expect(address()).toBe(`/devices?connection=${opsId}`);
    expect(window.history.length).toBe(entries + 1);

    const { orgName, deviceName } = all.find((d) => d.orgName && d.deploymentStatus === 'deployed')!;
    // Part of its name (the simulator names devices org-city-number).
    const q = deviceName.split('-')[1]!;
    await user.selectOptions(screen.getByTestId('devices-filter-org'), orgName!);
    await waitFor(() => expect(params().get('org')).toBe(orgName));
    await user.selectOptions(screen.getByTestId('devices-filter-status'), 'deployed');
    await waitFor(() => expect(params().get('status')).toBe('deployed'));
    await user.type(screen.getByTestId('devices-search'), q);
    // The search is written once typing pauses, as typed.
    await waitFor(() => expect(params().get('q')).toBe(q));
    await user.click(within(screen.getByRole('columnheader', { name: /Site ID/ })).getByRole('button'));
    await waitFor(() => expect(params().get('sort')).toBe('siteId'));
    // Filters, search and sort refine the page: they replace its history entry.
    expect(window.history.length).toBe(entries + 1);

    const expected = all.filter((d) => d.orgName === orgName && d.deploymentStatus === 'deployed' && d.deviceName.includes(q));
    await waitFor(() => expect(rowNames()).toEqual(expected.sort((a, b) => Number(a.siteId) - Number(b.siteId)).map((d) => d.deviceName)));
    await user.click(screen.getAllByTestId('device-row')[0]!);
    const details = await screen.findByTestId('device-details');
    expect(within(details).getByRole('heading', { name: expected[0]!.deviceName })).toBeVisible();
    expect(params().get('device')).toBe(expected[0]!.deviceName);
    // Opening a device is a step of its own (Back closes it).
    expect(window.history.length).toBe(entries + 2);

    // Closing it goes back to the page as it was (Forward would open it again).
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('device-details')).toBeNull());
    await waitFor(() => expect(params().has('device')).toBe(false));
    expect(params().get('org')).toBe(orgName);
    expect(params().get('q')).toBe(q);
  });

  it('opening the app at an address shows that page with its filters, sort and opened device', async () => {
    const device = all.find((d) => d.orgName && d.deploymentStatus === 'deployed')!;
    const org = device.orgName!;
    const q = device.deviceName.slice(0, 6);
    renderApp(main, { at: `/devices?connection=${opsId}&org=${encodeURIComponent(org)}&status=deployed&q=${q}&sort=siteId&order=desc&device=${device.deviceName}` });
    const details = await screen.findByTestId('device-details');
    expect(within(details).getByRole('heading', { name: device.deviceName })).toBeVisible();
    expect(pageHeading()).toHaveTextContent('Devices');
    expect(within(nav()).getByRole('link', { name: /^Devices/ })).toHaveAttribute('aria-current', 'page');
    // The opened device is looked up by its name; the page's filters and rows may come a moment later.
    expect(await screen.findByTestId('devices-filter-org')).toHaveValue(org);
    expect(screen.getByTestId('devices-filter-status')).toHaveValue('deployed');
    expect(screen.getByTestId('devices-search')).toHaveValue(q);
    expect(screen.getByRole('columnheader', { name: /Site ID/ })).toHaveAttribute('aria-sort', 'descending');
    const expected = all.filter((d) => d.orgName === org && d.deploymentStatus === 'deployed' && d.deviceName.toLowerCase().includes(q)).sort((a, b) => Number(b.siteId) - Number(a.siteId));
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent(`${expected.length} of 300`));
    await waitFor(() => expect(rowNames().length).toBeGreaterThan(0));
    expect(rowNames()).toEqual(expected.map((d) => d.deviceName).slice(0, rowNames().length));
  });

  it('opens the Organizations list view and the Syslog tab from their addresses', async () => {
    const { unmount } = renderApp(main, { at: `/organizations?view=list&q=a` });
    await waitFor(() => expect(pageHeading()).toHaveTextContent('Organizations'));
    expect(await screen.findByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('orgs-search')).toHaveValue('a');
    unmount();
    renderApp(main, { at: '/connections?tab=syslog' });
    expect(await screen.findByRole('tab', { name: 'Syslog servers' })).toHaveAttribute('aria-selected', 'true');
  });

  it('Back returns to the previous page as it was left, Forward comes back', async () => {
    const { user } = renderApp(main, { at: '/connections' });
    await screen.findByTestId('profile-row-Ops node');
    await user.click(within(nav()).getByRole('link', { name: /^Organizations/ }));
    await user.click(await screen.findByRole('button', { name: 'List' }));
    await waitFor(() => expect(params().get('view')).toBe('list'));
    await user.click(within(nav()).getByRole('link', { name: /^Devices/ }));
    await screen.findByTestId('devices-count');

    window.history.back();
    await waitFor(() => expect(pageHeading()).toHaveTextContent('Organizations'));
    expect(await screen.findByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    window.history.back();
    await waitFor(() => expect(pageHeading()).toHaveTextContent('Connections'));
    expect(await screen.findByTestId('profile-row-Ops node')).toBeVisible();
    window.history.forward();
    await waitFor(() => expect(pageHeading()).toHaveTextContent('Organizations'));
    expect(address()).toBe(`/organizations?connection=${opsId}&view=list`);
  });

  it('the sidebar returns to a page with the filters it was left with, without the opened device', async () => {
    const { user } = renderApp(main, { at: `/devices?status=failed&device=${all[0]!.deviceName}` });
    await screen.findByTestId('device-details');
    await user.keyboard('{Escape}');
    await user.click(within(nav()).getByRole('link', { name: /^Organizations/ }));
    await waitFor(() => expect(pageHeading()).toHaveTextContent('Organizations'));
    const devicesLink = within(nav()).getByRole('link', { name: /^Devices/ });
    expect(devicesLink.getAttribute('href')).toContain('status=failed');
    expect(devicesLink.getAttribute('href')).not.toContain('device=');
    await user.click(devicesLink);
    expect(await screen.findByTestId('devices-filter-status')).toHaveValue('failed');
    expect(screen.queryByTestId('device-details')).toBeNull();
  });

  it('a choice made just before leaving a page (before the address was written) is what the sidebar returns to', async () => {
    const { user } = renderApp(main, { at: '/organizations?view=list' });
    expect(await screen.findByRole('button', { name: 'List' })).toHaveAttribute('aria-pressed', 'true');
    // Tree, then away at once: the page's draft has not reached the address yet (it waits for a pause).
    await user.click(screen.getByRole('button', { name: 'Tree' }));
    await user.click(within(nav()).getByRole('link', { name: /^Connectors/ }));
    await waitFor(() => expect(pageHeading()).toHaveTextContent('Connectors'));
    expect(within(nav()).getByRole('link', { name: /^Organizations/ }).getAttribute('href')).not.toContain('view=list');
    await user.click(within(nav()).getByRole('link', { name: /^Organizations/ }));
    expect(await screen.findByRole('button', { name: 'Tree' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('a bad or stale address falls back to defaults: unknown values, a device or connection that is gone, an unknown page', async () => {
    const { unmount } = renderApp(main, { at: '/devices?status=bogus&sort=nope&order=sideways&org=No%20such%20org&group=42&device=gone-01&connection=deleted-id' });
    expect(await screen.findByTestId('devices-count')).toHaveTextContent('300 devices');
    expect(screen.getByTestId('devices-filter-status')).toHaveValue('');
    expect(screen.getByTestId('devices-filter-org')).toHaveValue('');
    expect(screen.getByRole('columnheader', { name: /Device name/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.queryByTestId('device-details')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
    // The connection that is gone is replaced by the one the window works on.
    await waitFor(() => expect(params().get('connection')).toBe(opsId));
    expect(screen.getByTestId('active-connection')).toHaveTextContent('Ops node');
    unmount();

    // An unknown page opens where a new window opens: the Overview, as a connection exists.
    renderApp(main, { at: '/nowhere?tab=1' });
    await waitFor(() => expect(address()).toMatch(/^\/overview/));
    expect(await screen.findByTestId('tile-alarms')).toBeVisible();
  });
});
