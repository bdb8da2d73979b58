// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { agoText } from '../../../renderer/components/format';
import { serialOf } from '../../../shared/model/device-window';
import type { DeviceView } from '../../../shared/model/inventory';
import { MainBridge, type NodeSim } from './support/main-bridge';
import { stubScrollerSize } from './support/layout';
import { renderApp } from './support/render';

async function openDevices(main: MainBridge) {
  const r = renderApp(main);
  await r.user.click(screen.getByRole('link', { name: /^Devices/ }));
  return r;
}

/** The stored list read from main and shown: 2,000 devices take more than the default second on a busy machine. */
const LOADED = { timeout: 10_000 };

const rowNames = () => screen.getAllByTestId('device-row').map((r) => r.getAttribute('data-device'));
const byName = (a: DeviceView, b: DeviceView) => a.deviceName.localeCompare(b.deviceName, 'en', { numeric: true });
const count = (n: number) => n.toLocaleString('en');

let restore: () => void;
beforeEach(() => (restore = stubScrollerSize(600)));
afterEach(() => restore());

/** Main with a signed-in connection "Ops node" to a simulator seeded with `devices` devices, refreshed once. */
async function opsWith(devices: number, opts: { shared?: boolean; organizations?: number } = {}) {
  const main = await MainBridge.start({}, { shared: opts.shared ?? false });
  const node = await main.node({ seedDevices: devices, seedOrganizations: opts.organizations ?? 14 });
  const ops = await main.addNodeProfile(node, { name: 'Ops node' });
  await main.call('inventory.refresh', { profileId: ops.id });
  const stored = await main.call('inventory.devices', { profileId: ops.id });
  return { main, node, ops, stored };
}

describe('Devices page with 2,000 devices from the node', () => {
  // Read by every test here, changed by none (the deploy test has its own main).
  let fx: Awaited<ReturnType<typeof opsWith>>;
  let all: DeviceView[];
  beforeAll(async () => {
    fx = await opsWith(2000, { shared: true });
    all = fx.stored.items;
  });
  afterAll(() => fx?.main.close());

  it('renders only a window of rows, sorted by name, and says how old the list is', async () => {
    await openDevices(fx.main);
    expect(await screen.findByTestId('devices-count', {}, LOADED)).toHaveTextContent('2,000 devices');
    const rows = screen.getAllByTestId('device-row');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.length).toBeLessThan(50);
    expect(screen.getByTestId('devices-table')).toHaveAttribute('aria-rowcount', '2001');
    expect(rowNames().slice(0, 3)).toEqual([...all].sort(byName).slice(0, 3).map((d) => d.deviceName));
    expect([`Fetched ${agoText(fx.stored.fetchedAt!, Date.now() - 60_000)}`, `Fetched ${agoText(fx.stored.fetchedAt!, Date.now())}`]).toContain(screen.getByTestId('fetched-at').textContent);
    const first = [...all].sort(byName)[0]!;
    expect(rows[0]!.querySelector('.status-chip')).toHaveTextContent(first.deploymentStatus);
  });

  it('searches name, site ID and serial, and filters by organization and status', async () => {
    const { user } = await openDevices(fx.main);
    const search = await screen.findByTestId('devices-search', {}, LOADED);
    const some = all[1234]!;
    await user.type(search, some.deviceName);
    await waitFor(() => expect(rowNames()).toEqual([some.deviceName]));
    expect(screen.getByTestId('devices-count')).toHaveTextContent('1 of 2,000');

    // The list names no serial; the appliance list does, and the table searches it.
    const withSerial = all.find((d) => serialOf(d) !== null)!;
    await user.clear(search);
    await user.type(search, serialOf(withSerial)!.toLowerCase());
    await waitFor(() => expect(rowNames()).toEqual([withSerial.deviceName]));

    await user.clear(search);
    await user.type(search, '1999');
    const q = '1999';
    const hits = all.filter((d) => d.siteId?.includes(q) || d.deviceName.includes(q) || serialOf(d)?.toLowerCase().includes(q));
    expect(hits.map((d) => d.siteId)).toContain('1999');
    await waitFor(() => expect(new Set(rowNames())).toEqual(new Set(hits.map((d) => d.deviceName))));
    expect(screen.getByTestId('devices-count')).toHaveTextContent(`${hits.length} of 2,000`);

    await user.clear(search);
    const { orgName, deploymentStatus: status } = all.find((d) => d.orgName)!;
    const org = orgName!;
    await user.selectOptions(screen.getByTestId('devices-filter-org'), org);
    await user.selectOptions(screen.getByTestId('devices-filter-status'), status);
    const expected = all.filter((d) => d.orgName === org && d.deploymentStatus === status);
    expect(expected.length).toBeGreaterThan(1);
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent(`${count(expected.length)} of 2,000`));
    for (const row of screen.getAllByTestId('device-row')) {
      expect(within(row).getByText(org)).toBeVisible();
      expect(row.querySelector('.status-chip')).toHaveTextContent(status);
    }
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent('2,000 devices'));
  });

  it('answers a keystroke in place: the rows in view are the same elements showing the new devices, and the filter bar keeps its shape', async () => {
    const { user } = await openDevices(fx.main);
    const search = await screen.findByTestId('devices-search', {}, LOADED);
    // Nothing to clear yet, but the button keeps its place (hidden): the first key must not resize the table.
    const clear = screen.getByText('Clear filters').closest('button')!;
    expect(clear).not.toBeVisible();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).toBeNull();
    const before = screen.getAllByTestId('device-row');
    const some = all[777]!;
    await user.type(search, some.deviceName);
    await waitFor(() => expect(rowNames()).toEqual([some.deviceName]));
    expect(screen.getAllByTestId('device-row')[0]).toBe(before[0]);
    expect(screen.getByText('Clear filters').closest('button')).toBe(clear);
    expect(clear).toBeVisible();
  });

  it('sorts by a column from its header, with the mouse and the keyboard', async () => {
    const { user } = await openDevices(fx.main);
    await screen.findByTestId('devices-count', {}, LOADED);
    const bySite = [...all].sort((a, b) => Number(a.siteId) - Number(b.siteId));
    const siteHeader = screen.getByRole('columnheader', { name: /Site ID/ });
    await user.click(within(siteHeader).getByRole('button'));
    await waitFor(() => expect(siteHeader).toHaveAttribute('aria-sort', 'ascending'));
    // The store's window answers the new order (the previous rows stay, stale, meanwhile).
    await waitFor(() => expect(rowNames()[0]).toBe(bySite[0]!.deviceName));
    within(siteHeader).getByRole('button').focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(siteHeader).toHaveAttribute('aria-sort', 'descending'));
    await waitFor(() => expect(rowNames()[0]).toBe(bySite.at(-1)!.deviceName));
    expect(screen.getByRole('columnheader', { name: /Device name/ })).toHaveAttribute('aria-sort', 'none');
    expect(screen.getAllByTestId('device-row').length).toBeLessThan(50);
  });

  it('shows reachability and sync as chips from the appliance list, filters by them, and the state in the details', async () => {
    const { user } = await openDevices(fx.main);
    await screen.findByTestId('devices-count', {}, LOADED);
    const unreachable = all.filter((d) => d.appliance?.reachability === 'unreachable');
    const inSync = all.filter((d) => d.appliance?.configSync === 'in-sync');
    expect(unreachable.length).toBeGreaterThan(0);
    await user.selectOptions(screen.getByTestId('devices-filter-reach'), 'unreachable');
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent(`${count(unreachable.length)} of 2,000`));
    for (const row of screen.getAllByTestId('device-row')) expect(row.querySelector('.col-reachability')).toHaveTextContent('unreachable');
    await user.selectOptions(screen.getByTestId('devices-filter-reach'), '');
    await user.selectOptions(screen.getByTestId('devices-filter-sync'), 'in-sync');
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent(`${count(inSync.length)} of 2,000`));
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));

    // A device the list names only, with its appliance state: unknown fields as a dash, the state in the details.
    const listed = all.find((d) => d.appliance?.alarms && d.deviceGroup === null)!;
    await user.type(screen.getByTestId('devices-search'), listed.deviceName);
    await waitFor(() => expect(rowNames()).toEqual([listed.deviceName]));
    const row = screen.getAllByTestId('device-row')[0]!;
    expect(row.querySelector('.col-deviceGroup')).toHaveTextContent('—');
    await user.click(row);
    const dialog = await screen.findByTestId('device-details');
    expect(within(dialog).getByTestId('device-record-partial')).toBeVisible();
    const a = listed.appliance!;
    if (!a.alarms) throw new Error('the simulator reports alarm counts for every appliance');
    expect(within(dialog).getByTestId('appliance-alarms')).toHaveTextContent(`${a.alarms.critical} critical · ${a.alarms.major} major · ${a.alarms.minor} minor · ${a.alarms.warning} warning`);
    expect(within(dialog).getByText(a.softwareVersion!)).toBeVisible();
    // Each count opens the device's alarms of that severity (issue 22.10).
    await user.click(within(dialog).getByTestId('appliance-alarms-critical'));
    expect(await screen.findByRole('heading', { name: 'Alarms', level: 1 })).toBeVisible();
    const search = new URLSearchParams(window.location.hash.split('?')[1] ?? '');
    expect([search.get('device'), search.get('severity')]).toEqual([listed.deviceName, 'critical']);
  });
});

describe('Devices page: details, deployment, offline and first fetch', () => {
  it('moves through rows with the arrow keys and opens the details with Enter; Deploy shows the node task live', async () => {
    const main = await MainBridge.start();
    const node = await main.node({ seedDevices: 30, deploySeconds: 2 });
    const ops = await main.addNodeProfile(node, { name: 'Ops node' });
    await main.call('inventory.refresh', { profileId: ops.id });
    const { user } = await openDevices(main);
    await screen.findByTestId('devices-count', {}, LOADED);
    const first = screen.getAllByTestId('device-row')[0]!;
    first.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    const third = screen.getAllByTestId('device-row')[2]!;
    await waitFor(() => expect(third).toHaveFocus());
    const name = third.getAttribute('data-device')!;
    await user.keyboard('{Enter}');
    const dialog = await screen.findByTestId('device-details');
    expect(within(dialog).getByRole('heading', { name })).toBeVisible();
    // Focus rests on nothing consequential: Enter again neither deploys nor asks to.
    expect(within(dialog).getByRole('button', { name: /deploy/i })).not.toHaveFocus();
    await user.keyboard('{Enter}');
    expect(screen.queryByTestId('confirm-dialog')).toBeNull();
    expect(main.callsTo('devices.deploy')).toEqual([]);

    const percents: number[] = [];
    main.on('task.progress', (t) => percents.push((t as { percent: number }).percent));
    await user.click(within(dialog).getByRole('button', { name: /deploy/i }));
    // One confirmation, naming what will happen, with the focus on Cancel.
    const ask = await screen.findByTestId('confirm-dialog');
    expect(within(ask).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(ask).toHaveTextContent(name);
    await user.click(within(ask).getByRole('button', { name: /^(Deploy|Redeploy)$/ }));
    const progress = await within(dialog).findByTestId('task-progress');
    expect(main.callsTo('devices.deploy')).toEqual([{ profileId: ops.id, deviceName: name }]);
    // The bar follows the node's task as main polls it.
    await waitFor(() => expect(percents.some((p) => p > 0 && p < 100)).toBe(true), { timeout: 10_000 });
    expect(within(progress).getByRole('progressbar')).toHaveAttribute('aria-valuenow');
    expect(await within(dialog).findByText(`${name} is deployed.`, {}, { timeout: 15_000 })).toBeVisible();
    expect((await main.sim(node).call<{ deploymentStatus: string }>('inventory.device', name)).deploymentStatus).toBe('DEPLOYED');
    // Issue 22.6: nobody clicks Refresh; the task's end brings the node's status and the device's state.
    await waitFor(() => expect(within(dialog).getByTestId('appliance-state')).toHaveTextContent(/Reachability/), { timeout: 10_000 });
    expect(within(dialog).getByText('Node status').nextElementSibling).toHaveTextContent('Deployed');
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    const row = screen.getAllByTestId('device-row').find((r) => r.getAttribute('data-device') === name)!;
    await waitFor(() => expect(row.querySelector('.status-chip')).toHaveTextContent('deployed'));
  });

  it('a failed deployment shows its task’s error in the details, also after the list was read again (issue 22.6)', async () => {
    const main = await MainBridge.start();
    const node = await main.node({ seedDevices: 5, deploySeconds: 1 });
    const ops = await main.addNodeProfile(node, { name: 'Ops node' });
    await main.call('inventory.refresh', { profileId: ops.id });
    const name = ((await main.call('inventory.devices', { profileId: ops.id })) as { items: DeviceView[] }).items.find((d) => d.deploymentStatus !== 'deploying')!.deviceName;
    await main.sim(node).set('faults.deployFailures', 1);
    const task = (await main.call('devices.deploy', { profileId: ops.id, deviceName: name })) as { taskId: string };
    await waitFor(async () => expect(((await main.call('tasks.get', { profileId: ops.id, taskId: task.taskId })) as { state: string }).state).toBe('failed'), { timeout: 10_000 });
    // Another refresh of the list (which names no task) keeps the console's task.
    await main.call('inventory.refresh', { profileId: ops.id, what: 'devices' });
    const { user } = await openDevices(main);
    await screen.findByTestId('devices-count', {}, LOADED);
    await user.click(screen.getAllByTestId('device-row').find((r) => r.getAttribute('data-device') === name)!);
    const dialog = await screen.findByTestId('device-details');
    expect(within(dialog).getByText('Last task').nextElementSibling).toHaveTextContent(task.taskId);
    const outcome = await within(dialog).findByRole('alert');
    expect(outcome).toHaveTextContent(`The deployment of ${name} failed: `);
    expect(outcome).toHaveTextContent(/did not acknowledge/);
    await main.close();
  });

  it('a device whose deployment failed before this console looks its task up on the node and shows its error (issue 22.6)', async () => {
    const main = await MainBridge.start();
    const node = await main.node({ seedDevices: 30 });
    const ops = await main.addNodeProfile(node, { name: 'Ops node' });
    await main.call('inventory.refresh', { profileId: ops.id });
    const failed = ((await main.call('inventory.devices', { profileId: ops.id })) as { items: DeviceView[] }).items.find((d) => d.deploymentStatus === 'failed')!;
    expect(failed.lastTaskId).toBeNull();
    const { user } = await openDevices(main);
    await screen.findByTestId('devices-count', {}, LOADED);
    await user.click(screen.getAllByTestId('device-row').find((r) => r.getAttribute('data-device') === failed.deviceName)!);
    const dialog = await screen.findByTestId('device-details');
    const outcome = await within(dialog).findByRole('alert', {}, { timeout: 10_000 });
    expect(outcome).toHaveTextContent(`The deployment of ${failed.deviceName} failed: `);
    const taskId = (await main.sim(node).call<{ lastTaskId: string }>('inventory.device', failed.deviceName)).lastTaskId;
    expect(within(dialog).getByText('Last task').nextElementSibling).toHaveTextContent(taskId);
    expect(main.callsTo('tasks.lastOf')).toEqual([{ profileId: ops.id, deviceName: failed.deviceName }]);
    expect(within(dialog).getByTestId('appliance-state')).toHaveTextContent(`No appliance: the deployment of ${failed.deviceName} did not complete.`);
    await main.close();
  });

  it("offers only the chosen organization's groups in the group filter", async () => {
    const main = await MainBridge.start();
    const node = await main.node({ seedDevices: 0, seedOrganizations: 3 });
    const ops = await main.addNodeProfile(node, { name: 'Ops node' });
    // Fetched (empty) first: the records onboarded below are what the store then holds.
    await main.call('inventory.refresh', { profileId: ops.id, what: 'all' });
    const [a, b] = (await main.call('inventory.organizations', { profileId: ops.id })).items.map((o) => o.name);
    const location = { country: 'DE', latitude: '52.52', longitude: '13.40' };
    for (const [n, org, group] of [[1, a, 'datacenter'], [2, a, 'branch-small'], [3, b, 'warehouse']] as const) {
      await main.call('devices.onboard', { profileId: ops.id, device: { deviceName: `dev-${n}`, siteId: String(n), orgName: org!, serialNumber: `SN-${n}`, deviceGroup: group, locationInfo: location } });
    }
    const { user } = await openDevices(main);
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent('3 devices'));
    const groups = () => within(screen.getByTestId('devices-filter-group')).getAllByRole('option').slice(1).map((o) => o.textContent);
    expect(groups()).toEqual(['branch-small', 'datacenter', 'warehouse']);
    await user.selectOptions(screen.getByTestId('devices-filter-org'), a!);
    expect(groups()).toEqual(['branch-small', 'datacenter']);
    await user.selectOptions(screen.getByTestId('devices-filter-group'), 'datacenter');
    await user.selectOptions(screen.getByTestId('devices-filter-org'), b!);
    // The chosen group stays visible (nothing matches until it is changed).
    expect(groups()).toEqual(['datacenter', 'warehouse']);
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent('0 of 3'));
  });

  it('shows the stored list when signed out, with a sign-in button', async () => {
    const { main, ops, stored } = await opsWith(30);
    await main.call('session.signOut', { profileId: ops.id });
    await openDevices(main);
    expect(await screen.findByTestId('devices-count', {}, LOADED)).toHaveTextContent(`${stored.items.length} devices`);
    expect(screen.getByTestId('fetched-at')).toHaveTextContent(/^Fetched /);
    expect(within(screen.getByTestId('devices-freshness')).getByRole('button', { name: 'Sign in' })).toBeVisible();
  });

  it('the first visit on a signed-in connection fetches a list never fetched, with progress, and shows no "0" meanwhile', async () => {
    const main = await MainBridge.start();
    const node: NodeSim = await main.node({ seedDevices: 1200 });
    await main.sim(node).set('faults.dataDelayMs', 60);
    const ops = await main.addNodeProfile(node, { name: 'Ops node' });
    await openDevices(main);
    // inventory.progress: done of total while the pages come in
    const bar = await screen.findByRole('progressbar', { name: 'Refreshing devices' });
    expect(screen.getByTestId('devices-empty')).toHaveTextContent('were never fetched');
    expect(screen.getByRole('heading', { name: /^Devices/, level: 2 })).toHaveTextContent(/^Devices$/);
    await waitFor(() => expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThan(0));
    expect(screen.getByTestId('devices-freshness')).toHaveTextContent(/Refreshing devices [\d,]+ \/ 1,200/);
    expect(await screen.findByTestId('devices-count', {}, { timeout: 15_000 })).toHaveTextContent('1,200 devices');
    expect(screen.getByRole('heading', { name: /^Devices/, level: 2 })).toHaveTextContent('Devices 1,200');
    expect(screen.getByTestId('fetched-at')).toHaveTextContent('Fetched just now');
    expect(main.callsTo('inventory.refresh')).toEqual([{ profileId: ops.id, what: 'devices' }]);
  });

  it('signed out, a list never fetched stays unknown: no fetch, no "0", and the way to get it', async () => {
    const main = await MainBridge.start();
    const node = await main.node({ seedDevices: 20 });
    await main.addNodeProfile(node, { name: 'Ops node', signIn: false });
    await openDevices(main);
    expect(await screen.findByTestId('devices-empty')).toHaveTextContent('Sign in to Ops node to fetch them');
    expect(screen.getByTestId('fetched-at')).toHaveTextContent('Never fetched');
    expect(screen.getByRole('heading', { name: /^Devices/, level: 2 })).toHaveTextContent(/^Devices$/);
    expect(main.callsTo('inventory.refresh')).toEqual([]);
  });

  it('a Refresh reads the stored devices once (the facets and the page in view), told by main what changed and how many are stored', async () => {
    const { main, ops, stored } = await opsWith(300);
    const { user, queryClient } = await openDevices(main);
    expect(await screen.findByTestId('devices-count', {}, LOADED)).toHaveTextContent(`${stored.items.length} devices`);
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    const before = { facets: main.callsTo('inventory.facets').length, windows: main.callsTo('inventory.window').length };
    const changed = main.next('inventory.changed', (e) => e.profileId === ops.id);
    await user.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await changed).toEqual({ profileId: ops.id, what: ['devices'], counts: { devices: 300, organizations: 14 } });
    await waitFor(() => expect(main.answersTo('inventory.refresh')).toHaveLength(1));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(main.callsTo('inventory.facets').length - before.facets).toBe(1);
    // The rows in view are one page of the store's window, read once; no whole list is read.
    expect(main.callsTo('inventory.window').slice(before.windows)).toEqual([{ profileId: ops.id, filter: {}, sort: { key: 'deviceName', desc: false }, offset: 0, limit: 100 }]);
    expect(main.callsTo('inventory.devices')).toEqual([]);
  });

  it('says how many records could not be read', async () => {
    const main = await MainBridge.start();
    const node = await main.node({ seedDevices: 40 });
    await main.sim(node).set('faults.namelessDevices', 3);
    const ops = await main.addNodeProfile(node, { name: 'Ops node' });
    await main.call('inventory.refresh', { profileId: ops.id });
    await openDevices(main);
    expect(await screen.findByTestId('devices-unreadable')).toHaveTextContent('3 device records could not be read.');
    // The note comes with the facets; the count with the first window, just after.
    expect(await screen.findByTestId('devices-count', {}, LOADED)).toHaveTextContent('37 devices');
  });
});
