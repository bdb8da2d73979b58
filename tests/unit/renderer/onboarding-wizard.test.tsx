// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { timeFormat } from '../../../renderer/components/format';
import { MainBridge } from './support/main-bridge';
import { stubScrollerSize } from './support/layout';
import { renderApp } from './support/render';

const location = { country: 'DE', latitude: '52.52', longitude: '13.405' };

/**
 * A signed-in connection "Ops node" to a simulator with its seeded organizations, where four
 * devices were onboarded through main: three in `org` (groups datacenter ×1, branch-small ×2)
 * and one in `other` with site ID 117.
 */
async function opsNode(opts: { fetchOrganizations?: boolean } = {}) {
  const main = await MainBridge.start();
  const node = await main.node({ seedDevices: 0, seedOrganizations: 14, deploySeconds: 2 });
  const ops = await main.addNodeProfile(node, { name: 'Ops node' });
  const names = (await main.sim(node).call<Array<{ name: string; parent: string | null }>>('inventory.organizations')).filter((o) => o.parent !== null).map((o) => o.name);
  const org = names.find((n) => n.toLowerCase().startsWith('fab'))!;
  // The (empty) device list fetched first: the records onboarded below are what the store then holds.
  await main.call('inventory.refresh', { profileId: ops.id, what: 'devices' });
  const other = names.find((n) => n !== org && !n.startsWith(org.slice(0, 3)))!;
  const onboard = (deviceName: string, siteId: string, orgName: string, deviceGroup: string) =>
    main.call('devices.onboard', { profileId: ops.id, device: { deviceName, siteId, orgName, serialNumber: `SN-${siteId}`, deviceGroup, locationInfo: location } });
  await onboard('fab-hq', '1', org, 'datacenter');
  await onboard('fab-lab-1', '2', org, 'branch-small');
  await onboard('fab-lab-2', '3', org, 'branch-small');
  await onboard('other-117', '117', other, 'warehouse');
  // Site 118 is taken on the node by another desk's onboarding: this connection's stored list does not know it.
  const elsewhere = await main.addNodeProfile(node, { name: 'Other desk' });
  await main.call('devices.onboard', { profileId: elsewhere.id, device: { deviceName: 'other-118', siteId: '118', orgName: other, serialNumber: 'SN-118', deviceGroup: 'warehouse', locationInfo: location } });
  // A group of `org` only the node knows (the other desk's device; this connection's store has none in it).
  await main.call('devices.onboard', { profileId: elsewhere.id, device: { deviceName: 'fab-kiosk-1', siteId: '119', orgName: org, serialNumber: 'SN-119', deviceGroup: 'kiosk', locationInfo: location } });
  if (opts.fetchOrganizations ?? true) await main.call('inventory.refresh', { profileId: ops.id, what: 'organizations' });
  const { siteId: nextSiteId } = await main.call('devices.nextSiteId', { profileId: ops.id });
  return { main, node, ops, org, other, nextSiteId };
}
type Ops = Awaited<ReturnType<typeof opsNode>>;

async function openWizard(main: MainBridge) {
  const r = renderApp(main);
  await r.user.click(screen.getByRole('link', { name: /^Devices/ }));
  await r.user.click(await screen.findByRole('button', { name: 'Onboard device' }));
  const wizard = screen.getByTestId('onboarding-wizard');
  return { ...r, wizard };
}

/** The organization option whose name is exactly `name`. */
const org = (root: HTMLElement, name: string) => within(root).getAllByRole('option').find((o) => o.querySelector('.org-option-name')?.textContent === name)!;

/** The current step (Next checks the step asynchronously: wait for it after an action). */
const stepIs = (wizard: HTMLElement, label: string) => expect(within(wizard).getByRole('listitem', { current: 'step' })).toHaveTextContent(label);

/** Organization and Identity filled in, then Enter on Identity (the caller says where that leads). */
async function fillIdentity(user: UserEvent, wizard: HTMLElement, ops: Ops, siteId?: string) {
  const w = within(wizard);
  await user.type(await w.findByRole('combobox', { name: 'Organization' }), ops.org.slice(0, 3).toLowerCase());
  await user.click(org(wizard, ops.org));
  await user.keyboard('{Enter}');
  await waitFor(() => stepIs(wizard, 'Identity'));

  await waitFor(() => expect(w.getByLabelText('Site ID')).toHaveValue(ops.nextSiteId));
  await user.type(w.getByLabelText('Device name'), 'branch-berlin-01');
  if (siteId) {
    await user.clear(w.getByLabelText('Site ID'));
    await user.type(w.getByLabelText('Site ID'), siteId);
  }
  await user.type(w.getByLabelText('Serial number'), 'SN-77AB');
  await user.keyboard('{Enter}');
}

/** Organization → Identity → Location → Device group, filled in; ends on Review. */
async function fillSteps(user: UserEvent, wizard: HTMLElement, ops: Ops, siteId?: string) {
  const w = within(wizard);
  await fillIdentity(user, wizard, ops, siteId);
  await fillLocation(user, wizard);

  // The node's groups of the organization (issue 22.11), with how many stored devices use each.
  const suggestions = await w.findByRole('group', { name: `Device groups of ${ops.org} on the node` });
  expect(within(suggestions).getAllByRole('button').map((b) => b.textContent?.trim())).toEqual(['branch-small 2', 'datacenter 1', 'kiosk']);
  // Typing narrows them; a name the node does not have is pointed out, not refused.
  await user.type(w.getByLabelText('Device group'), 'kio');
  expect(within(suggestions).getAllByRole('button').map((b) => b.textContent?.trim())).toEqual(['kiosk']);
  expect(w.getByTestId('group-new')).toHaveTextContent(`kio is not a group of ${ops.org} on the node yet`);
  await user.clear(w.getByLabelText('Device group'));
  await user.click(within(suggestions).getByRole('button', { name: /branch-small/ }));
  expect(w.getByLabelText('Device group')).toHaveValue('branch-small');
  await user.keyboard('{Enter}');
  await waitFor(() => stepIs(wizard, 'Review'));
}

/** The Location step filled in from Identity's end; ends on Device group. */
async function fillLocation(user: UserEvent, wizard: HTMLElement) {
  const w = within(wizard);
  await waitFor(() => stepIs(wizard, 'Location'));

  await user.type(w.getByRole('combobox', { name: 'Country' }), 'DE');
  await user.keyboard('{Enter}'); // picks the highlighted option (the code matches first)
  expect(w.getByRole('option', { name: /Germany/ })).toHaveAttribute('aria-selected', 'true');
  await user.type(w.getByLabelText('Latitude'), '52.52');
  await user.type(w.getByLabelText('Longitude'), '13.405');
  expect(w.getByTestId('world-marker')).toHaveAttribute('data-x', '193.41');
  expect(w.getByTestId('world-preview')).toHaveTextContent('Germany: 52.520°, 13.405°');
  await user.click(w.getByRole('button', { name: /Next/ }));
  await waitFor(() => stepIs(wizard, 'Device group'));
}

let restore: () => void;
beforeEach(() => (restore = stubScrollerSize(600)));
afterEach(() => restore());

describe('Onboarding wizard', () => {
  it('checks each step before Next, onboards, deploys and follows the task to the end', async () => {
    const ops = await opsNode();
    const { main } = ops;
    const { user, wizard } = await openWizard(main);
    const w = within(wizard);
    stepIs(wizard, 'Organization');
    await user.click(w.getByRole('button', { name: /Next/ }));
    expect(await w.findByText('Choose the organization.')).toBeVisible();
    await waitFor(() => stepIs(wizard, 'Organization'));

    await fillSteps(user, wizard, ops);
    const review = w.getByTestId('wizard-review');
    expect(review).toHaveTextContent(ops.org);
    expect(review).toHaveTextContent('branch-berlin-01');
    expect(review).toHaveTextContent('Germany (DE)');
    expect(review).toHaveTextContent('branch-small');
    await user.keyboard('{Enter}'); // = Onboard

    expect(await w.findByTestId('wizard-deploy')).toHaveTextContent(`branch-berlin-01 is saved on Ops node (site ID ${ops.nextSiteId})`);
    expect(main.callsTo('devices.onboard')).toEqual([
      {
        profileId: ops.ops.id,
        device: { deviceName: 'branch-berlin-01', siteId: ops.nextSiteId, orgName: ops.org, serialNumber: 'SN-77AB', deviceGroup: 'branch-small', locationInfo: location },
      },
    ]);
    expect(await main.sim(ops.node).call('inventory.device', 'branch-berlin-01')).toMatchObject({ siteId: ops.nextSiteId, orgName: ops.org, deviceGroup: 'branch-small' });

    const updates: Array<{ taskId: string; state: string; percent: number; message?: string }> = [];
    main.on('task.progress', (t) => updates.push(t as (typeof updates)[number]));
    await user.click(w.getByRole('button', { name: 'Deploy now…' }));
    const ask = await screen.findByTestId('confirm-dialog');
    expect(ask).toHaveAccessibleName('Deploy branch-berlin-01?');
    expect(within(ask).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(ask).getByRole('button', { name: 'Deploy' }));
    const progress = await w.findByTestId('task-progress');
    // The node's task as main follows it: in progress with a percentage, then done.
    await waitFor(() => expect(updates.some((u) => u.state === 'in-progress' && u.percent > 0)).toBe(true), { timeout: 10_000 });
    await waitFor(() => expect(within(progress).getByRole('progressbar')).toHaveAttribute('aria-valuenow'));
    expect(await within(progress).findByText('branch-berlin-01 is deployed.', {}, { timeout: 15_000 })).toBeVisible();
    const said = updates.map((u) => u.message).filter((m): m is string => Boolean(m));
    expect(said.length).toBeGreaterThan(1);
    for (const m of said) expect(within(progress).getByRole('list', { name: 'Task messages' })).toHaveTextContent(m);
    // Each step with its time (24-hour, seconds), the zone said once.
    const last = (await main.call('tasks.get', { profileId: ops.ops.id, taskId: updates.at(-1)!.taskId })).steps;
    const items = within(within(progress).getByRole('list', { name: 'Task messages' })).getAllByRole('listitem');
    expect(items.map((li) => li.textContent)).toEqual(last.map((st) => `${timeFormat('local').time(st.at)}${st.message}`));
    expect(items[0]!.querySelector('time')?.textContent).toMatch(/^\d{2}:\d{2}:\d{2}$/);
    expect(progress).toHaveTextContent(`Times in ${timeFormat('local').zoneLabel(last[0]!.at)}`);
    expect(within(progress).getByText('completed')).toBeVisible();
    await user.click(w.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('onboarding-wizard')).toBeNull();
  });

  it('refuses at its field, on Next, a site ID a stored device of the node holds (issue 22.11)', async () => {
    const ops = await opsNode();
    const { user, wizard } = await openWizard(ops.main);
    const w = within(wizard);
    await fillIdentity(user, wizard, ops, '117');
    expect(await w.findByTestId('site-id-error')).toHaveTextContent('Site ID 117 is already used by other-117 on Ops node (as last fetched). Use next free, or another number.');
    stepIs(wizard, 'Identity');
    expect(w.getByLabelText('Site ID')).toHaveFocus();
    expect(ops.main.callsTo('devices.onboard')).toHaveLength(0);
    // The device's own site ID is no conflict: the same name may keep it.
    await user.clear(w.getByLabelText('Device name'));
    await user.type(w.getByLabelText('Device name'), 'other-117');
    await user.keyboard('{Enter}');
    await waitFor(() => stepIs(wizard, 'Location'));
  });

  it('offers the groups stored devices use, and says why, when the node does not list its groups; typing narrows them (issue 22.11)', async () => {
    const ops = await opsNode();
    await ops.main.sim(ops.node).set('faults.unservedPaths', ['/nextgen/']);
    const { user, wizard } = await openWizard(ops.main);
    const w = within(wizard);
    await fillIdentity(user, wizard, ops);
    await fillLocation(user, wizard);
    const suggestions = await w.findByRole('group', { name: `Device groups stored devices of ${ops.org} use` });
    // Most used first; the node-only "kiosk" is unknown here.
    expect(within(suggestions).getAllByRole('button').map((b) => b.textContent?.trim())).toEqual(['branch-small 2', 'datacenter 1']);
    expect(wizard).toHaveTextContent('The node does not list device groups.');
    await user.type(w.getByLabelText('Device group'), 'data');
    expect(within(suggestions).getAllByRole('button').map((b) => b.textContent?.trim())).toEqual(['datacenter 1']);
    // Without the node's list nothing can be called new.
    expect(w.queryByTestId('group-new')).toBeNull();
  });

  it('puts a site ID conflict from the node under Site ID on the Identity step, with everything typed kept', async () => {
    const ops = await opsNode();
    const { main } = ops;
    const { user, wizard } = await openWizard(main);
    const w = within(wizard);
    // 118 is taken on the node, not in this connection's stored list: only the node can refuse it.
    await fillSteps(user, wizard, ops, '118');
    await user.click(w.getByRole('button', { name: 'Onboard' }));

    await waitFor(() => stepIs(wizard, 'Identity'));
    await waitFor(() => expect(main.answersTo('devices.onboard')).toHaveLength(1));
    const refused = main.answersTo('devices.onboard')[0]!;
    const issue = (refused.error as { details?: { issues?: Array<{ path: string; message: string }> } }).details?.issues?.find((i) => i.path.endsWith('siteId'));
    expect(issue?.message).toMatch(/118/);
    expect(await w.findByTestId('site-id-error')).toHaveTextContent(issue!.message);
    expect(w.getByLabelText('Site ID')).toHaveAttribute('aria-invalid', 'true');
    expect(w.getByLabelText('Site ID')).toHaveValue('118');
    expect(w.getByLabelText('Device name')).toHaveValue('branch-berlin-01');
    expect(w.getByLabelText('Serial number')).toHaveValue('SN-77AB');
    expect(await main.sim(ops.node).call('inventory.device', 'branch-berlin-01')).toBeUndefined();

    await user.click(w.getByRole('button', { name: /Back/ }));
    expect(org(wizard, ops.org)).toHaveAttribute('aria-selected', 'true');
    await user.click(w.getByRole('button', { name: /Next/ }));
    await waitFor(() => stepIs(wizard, 'Identity'));
    await user.click(w.getByRole('button', { name: /Next/ })); // 118 is a valid site ID: only the node refuses it
    await waitFor(() => stepIs(wizard, 'Location'));
    expect(w.getByLabelText('Latitude')).toHaveValue('52.52');
    expect(w.getByLabelText('Longitude')).toHaveValue('13.405');
    expect(w.getByRole('option', { name: /Germany/ })).toHaveAttribute('aria-selected', 'true');
    await user.click(w.getByRole('button', { name: /Next/ }));
    await waitFor(() => stepIs(wizard, 'Device group'));
    expect(w.getByLabelText('Device group')).toHaveValue('branch-small');

    // "Use next free" fixes it; the second attempt goes through.
    await user.click(w.getByRole('button', { name: /Back/ }));
    await user.click(w.getByRole('button', { name: /Back/ }));
    // The button waits (spinner) while the node is asked again after the conflict.
    await waitFor(() => expect(w.getByRole('button', { name: 'Use next free' })).toBeEnabled());
    await user.click(w.getByRole('button', { name: 'Use next free' }));
    await waitFor(() => expect(w.getByLabelText('Site ID')).toHaveValue(ops.nextSiteId));
    expect(w.queryByTestId('site-id-error')).toBeNull();
    for (const label of ['Location', 'Device group', 'Review']) {
      await user.click(w.getByRole('button', { name: /Next/ }));
      await waitFor(() => stepIs(wizard, label));
    }
    await user.click(w.getByRole('button', { name: 'Onboard' }));
    expect(await w.findByTestId('wizard-deploy')).toHaveTextContent(`site ID ${ops.nextSiteId}`);
  });

  it('Escape asks before dropping what was typed', async () => {
    const ops = await opsNode();
    const { user, wizard } = await openWizard(ops.main);
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('onboarding-wizard')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Onboard device' }));
    const again = screen.getByTestId('onboarding-wizard');
    await user.type(await within(again).findByRole('combobox', { name: 'Organization' }), ops.other.slice(0, 3).toLowerCase());
    await user.click(org(again, ops.other));
    await user.keyboard('{Escape}');
    const confirm = await screen.findByTestId('confirm-discard');
    await user.click(within(confirm).getByRole('button', { name: 'Keep editing' }));
    expect(screen.getByTestId('onboarding-wizard')).toBeInTheDocument();
    expect(org(again, ops.other)).toHaveAttribute('aria-selected', 'true');
    within(again).getByRole('combobox', { name: 'Organization' }).focus();
    await user.keyboard('{Escape}');
    await user.click(within(await screen.findByTestId('confirm-discard')).getByRole('button', { name: 'Discard' }));
    expect(screen.queryByTestId('onboarding-wizard')).toBeNull();
    expect(wizard).not.toBeInTheDocument();
  });

  it('fetches the organizations itself when they were never fetched, and only once', async () => {
    const ops = await opsNode({ fetchOrganizations: false });
    const { wizard } = await openWizard(ops.main);
    await waitFor(() => expect(org(wizard, ops.org)).toBeDefined());
    expect(ops.main.callsTo('inventory.refresh')).toEqual([{ profileId: ops.ops.id, what: 'organizations' }]);
    expect(within(wizard).queryByText(/No organizations are stored/)).toBeNull();
  });
});
