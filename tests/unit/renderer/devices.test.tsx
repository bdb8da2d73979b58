// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { DeviceView } from '../../../shared/model/inventory';
import { FakeBridge, makeProfile } from './support/fake-bridge';
import { ORG_SPECS, makeDevice, makeDevices, makeOrganizations } from './support/fake-inventory-data';
import { stubScrollerSize } from './support/layout';
import { renderApp } from './support/render';

const ops = () => makeProfile({ id: 'ops', name: 'Ops node' });
const signedIn = { profileId: 'ops', state: 'signed-in' as const, authMode: 'basic' as const, username: 'operator' };

function bridgeWith(devices: DeviceView[], opts: { signedIn?: boolean; fetchedAt?: string | null; refreshDelayMs?: number } = {}) {
  return new FakeBridge({
    profiles: [ops()],
    sessions: opts.signedIn === false ? [] : [signedIn],
    inventory: {
      devices: { ops: devices },
      organizations: { ops: makeOrganizations(ORG_SPECS, devices) },
      fetchedAt: { ops: opts.fetchedAt === undefined ? new Date(Date.now() - 3 * 60_000).toISOString() : opts.fetchedAt },
      ...(opts.refreshDelayMs ? { refreshDelayMs: opts.refreshDelayMs } : {}),
    },
  });
}

async function openDevices(bridge: FakeBridge) {
  const r = renderApp(bridge);
  await r.user.click(screen.getByRole('button', { name: /^Devices/ }));
  return r;
}

const rowNames = () => screen.getAllByTestId('device-row').map((r) => r.getAttribute('data-device'));

let restore: () => void;
beforeEach(() => (restore = stubScrollerSize(600)));
afterEach(() => restore());

describe('Devices page with 20,000 devices', () => {
  const all = makeDevices(20_000);

  it('renders only a window of rows, sorted by name, and says how old the list is', async () => {
    await openDevices(bridgeWith(all));
    expect(await screen.findByTestId('devices-count')).toHaveTextContent('20,000 devices');
    const rows = screen.getAllByTestId('device-row');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(50);
    expect(screen.getByTestId('devices-table')).toHaveAttribute('aria-rowcount', '20001');
    expect(rowNames().slice(0, 3)).toEqual(['berlin-edge-00001', 'berlin-edge-00011', 'berlin-edge-00021']);
    expect(screen.getByTestId('fetched-at')).toHaveTextContent('Fetched 3 min ago');
    // country as name and code, status as a chip
    const first = rows[0]!;
    expect(within(first).getByText('Germany (DE)')).toBeVisible();
    expect(first.querySelector('.status-chip')).toHaveTextContent(all[0]!.deploymentStatus);
  });

  it('searches name, site ID and serial, and filters by organization, group and status', async () => {
    const { user } = await openDevices(bridgeWith(all));
    const search = await screen.findByTestId('devices-search');
    await user.type(search, 'paris-edge-0001');
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent('1 of 20,000'));
    expect(rowNames()).toEqual(['paris-edge-00012']);

    await user.clear(search);
    await user.type(search, all[12_345]!.serialNumber!.toLowerCase());
    await waitFor(() => expect(rowNames()).toEqual([all[12_345]!.deviceName]));

    await user.clear(search);
    await user.type(search, '19999');
    // site ID 19999 (and its name), plus any serial number that happens to contain it
    const hits = all.filter((d) => d.siteId!.includes('19999') || d.deviceName.includes('19999') || d.serialNumber!.toLowerCase().includes('19999'));
    expect(hits.map((d) => d.siteId)).toContain('19999');
    await waitFor(() => expect(new Set(rowNames())).toEqual(new Set(hits.map((d) => d.deviceName))));
    expect(screen.getByTestId('devices-count')).toHaveTextContent(`${hits.length} of 20,000`);

    await user.clear(search);
    await user.selectOptions(screen.getByTestId('devices-filter-org'), 'Globex');
    await user.selectOptions(screen.getByTestId('devices-filter-status'), 'failed');
    const expected = all.filter((d) => d.orgName === 'Globex' && d.deploymentStatus === 'failed');
    expect(expected.length).toBeGreaterThan(50);
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent(`${expected.length.toLocaleString('en')} of 20,000`));
    for (const row of screen.getAllByTestId('device-row')) {
      expect(within(row).getByText('Globex')).toBeVisible();
      expect(row.querySelector('.status-chip')).toHaveTextContent('failed');
    }
    const group = expected[0]!.deviceGroup!;
    await user.selectOptions(screen.getByTestId('devices-filter-group'), group);
    const narrower = expected.filter((d) => d.deviceGroup === group);
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent(`${narrower.length.toLocaleString('en')} of 20,000`));
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent('20,000 devices'));
  });

  it("offers only the chosen organization's groups in the group filter", async () => {
    const few = [
      makeDevice({ deviceName: 'g-1', siteId: '1', orgName: 'Globex', deviceGroup: 'datacenter' }),
      makeDevice({ deviceName: 'g-2', siteId: '2', orgName: 'Globex', deviceGroup: 'branch-small' }),
      makeDevice({ deviceName: 'a-1', siteId: '3', orgName: 'Acme', deviceGroup: 'warehouse' }),
    ];
    const { user } = await openDevices(bridgeWith(few));
    await screen.findByTestId('devices-count');
    const groups = () => within(screen.getByTestId('devices-filter-group')).getAllByRole('option').slice(1).map((o) => o.textContent);
    expect(groups()).toEqual(['branch-small', 'datacenter', 'warehouse']);
    await user.selectOptions(screen.getByTestId('devices-filter-org'), 'Globex');
    expect(groups()).toEqual(['branch-small', 'datacenter']);
    await user.selectOptions(screen.getByTestId('devices-filter-group'), 'datacenter');
    await user.selectOptions(screen.getByTestId('devices-filter-org'), 'Acme');
    // The chosen group stays visible (nothing matches until it is changed).
    expect(groups()).toEqual(['datacenter', 'warehouse']);
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent('0 of 3'));
  });

  it('sorts by a column from its header, with the mouse and the keyboard', async () => {
    const { user } = await openDevices(bridgeWith(all));
    await screen.findByTestId('devices-count');
    const siteHeader = screen.getByRole('columnheader', { name: /Site ID/ });
    await user.click(within(siteHeader).getByRole('button'));
    await waitFor(() => expect(siteHeader).toHaveAttribute('aria-sort', 'ascending'));
    expect(rowNames()[0]).toBe(all[0]!.deviceName);
    within(siteHeader).getByRole('button').focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(siteHeader).toHaveAttribute('aria-sort', 'descending'));
    expect(rowNames()[0]).toBe(all[19_999]!.deviceName);
    expect(screen.getByRole('columnheader', { name: /Device name/ })).toHaveAttribute('aria-sort', 'none');
    expect(screen.getAllByTestId('device-row').length).toBeLessThan(50);
  });

  it('moves through rows with the arrow keys and opens the details with Enter; Deploy shows the task live', async () => {
    const bridge = bridgeWith(all);
    const { user } = await openDevices(bridge);
    await screen.findByTestId('devices-count');
    const first = screen.getAllByTestId('device-row')[0]!;
    first.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    const third = screen.getAllByTestId('device-row')[2]!;
    await waitFor(() => expect(third).toHaveFocus());
    const name = third.getAttribute('data-device')!;
    await user.keyboard('{Enter}');
    const dialog = await screen.findByTestId('device-details');
    expect(within(dialog).getByRole('heading', { name })).toBeVisible();
    const device = all.find((d) => d.deviceName === name)!;
    expect(within(dialog).getByText(device.serialNumber!)).toBeVisible();

    await user.click(within(dialog).getByRole('button', { name: /deploy/i }));
    const progress = await within(dialog).findByTestId('task-progress');
    expect(bridge.callsTo('devices.deploy')).toEqual([{ profileId: 'ops', deviceName: name }]);
    const taskId = [...bridge.inventory.tasks.keys()][0]!;
    act(() => void bridge.inventory.task(taskId, { state: 'in-progress', percent: 50, message: 'Configuration.' }));
    await waitFor(() => expect(within(progress).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '50'));
    expect(within(progress).getByText('Configuration.')).toBeVisible();
    act(() => void bridge.inventory.finishTask(taskId, 'completed'));
    expect(await within(dialog).findByText(`${name} is deployed.`)).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    const row = screen.getAllByTestId('device-row').find((r) => r.getAttribute('data-device') === name)!;
    await waitFor(() => expect(row.querySelector('.status-chip')).toHaveTextContent('deployed'));
  });
});

describe('Devices page offline and first fetch', () => {
  it('shows the stored list when signed out, with a sign-in button', async () => {
    await openDevices(bridgeWith(makeDevices(30), { signedIn: false }));
    expect(await screen.findByTestId('devices-count')).toHaveTextContent('30 devices');
    expect(screen.getByTestId('fetched-at')).toHaveTextContent('Fetched 3 min ago');
    expect(within(screen.getByTestId('devices-freshness')).getByRole('button', { name: 'Sign in' })).toBeVisible();
  });

  it('says when the list was never fetched, and Refresh fetches it', async () => {
    const bridge = bridgeWith([], { fetchedAt: null, refreshDelayMs: 300 });
    bridge.inventory.remote.set('ops', { devices: makeDevices(1200) });
    const { user } = await openDevices(bridge);
    expect(await screen.findByTestId('devices-empty')).toHaveTextContent('were never fetched');
    expect(screen.getByTestId('fetched-at')).toHaveTextContent('Never fetched');
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    // inventory.progress: done of total while the pages come in
    const bar = await screen.findByRole('progressbar', { name: 'Refreshing devices' });
    await waitFor(() => expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0));
    expect(screen.getByTestId('devices-freshness')).toHaveTextContent(/Refreshing devices (500|1,000) \/ 1,200/);
    expect(await screen.findByTestId('devices-count')).toHaveTextContent('1,200 devices');
    expect(screen.getByTestId('fetched-at')).toHaveTextContent('Fetched just now');
    expect(bridge.callsTo('inventory.refresh')).toEqual([{ profileId: 'ops', what: 'devices' }]);
  });
});

describe('Devices page: a real node’s list and its appliance state (issue 8)', () => {
  const at = new Date(Date.now() - 2 * 60_000).toISOString();
  const state = (reachability: 'reachable' | 'unreachable', configSync: 'in-sync' | 'out-of-sync') => ({
    reachability,
    configSync,
    pingStatus: reachability.toUpperCase(),
    syncStatus: configSync === 'in-sync' ? 'IN_SYNC' : 'OUT_OF_SYNC',
    softwareVersion: '22.1.4-GA',
    ownerOrg: 'Acme',
    model: 'CSG350',
    serialNo: 'HW-1',
    lastUpdatedAt: '2022-06-04T17:43:48.000Z',
    alarms: { critical: 2, major: 1, minor: 0, warning: 3 },
    fetchedAt: at,
  });
  const listed = (name: string, appliance: ReturnType<typeof state> | null) =>
    makeDevice({ deviceName: name, siteId: '101', orgName: null, serialNumber: null, deviceGroup: null, locationInfo: null, deploymentStatus: 'deployed', workflowStatus: 'Deployed', appliance });

  it('shows unknown fields as a dash, reachability and sync as chips, filters by them, and the state in the details', async () => {
    const devices = [listed('hub-1', state('reachable', 'in-sync')), listed('spoke-1', state('unreachable', 'out-of-sync')), listed('spoke-2', null)];
    const { user } = await openDevices(bridgeWith(devices));
    await waitFor(() => expect(rowNames()).toEqual(['hub-1', 'spoke-1', 'spoke-2']));
    const spoke = screen.getAllByTestId('device-row')[1]!;
    expect(spoke.querySelector('.col-reachability')).toHaveTextContent('unreachable');
    expect(spoke.querySelector('.col-configSync')).toHaveTextContent('out of sync');
    expect(spoke.querySelector('.col-deviceGroup')).toHaveTextContent('—');
    expect(screen.getAllByTestId('device-row')[2]!.querySelector('.col-reachability')).toHaveTextContent('unknown');
    expect(screen.getByTestId('devices-state-age')).toHaveTextContent('State: 2 min ago');

    await user.selectOptions(screen.getByTestId('devices-filter-reach'), 'unreachable');
    await waitFor(() => expect(rowNames()).toEqual(['spoke-1']));
    await user.selectOptions(screen.getByTestId('devices-filter-reach'), '');
    await user.selectOptions(screen.getByTestId('devices-filter-sync'), 'in-sync');
    await waitFor(() => expect(rowNames()).toEqual(['hub-1']));
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(rowNames()).toHaveLength(3));

    await user.click(screen.getAllByTestId('device-row')[1]!);
    const dialog = await screen.findByTestId('device-details');
    expect(within(dialog).getByTestId('device-record-partial')).toBeVisible();
    expect(within(dialog).getByTestId('appliance-alarms')).toHaveTextContent('2 critical · 1 major · 0 minor · 3 warning');
    expect(within(dialog).getByText('22.1.4-GA')).toBeVisible();
  });

  it('says how many records could not be read, and labels state older than the list', async () => {
    const old = { ...state('reachable', 'in-sync'), fetchedAt: new Date(Date.now() - 3 * 3_600_000).toISOString() };
    const bridge = bridgeWith([listed('hub-1', old)]);
    bridge.inventory.unreadable = 3;
    await openDevices(bridge);
    expect(await screen.findByTestId('devices-unreadable')).toHaveTextContent('3 device records could not be read.');
    expect(screen.getByTestId('devices-state-age')).toHaveAttribute('data-stale', 'true');
    expect(screen.getByTestId('devices-state-age')).toHaveTextContent('(older than the list)');
  });
});
