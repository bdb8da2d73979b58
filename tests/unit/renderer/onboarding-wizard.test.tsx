// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FakeBridge, makeProfile } from './support/fake-bridge';
import { ORG_SPECS, makeDevice, makeOrganizations } from './support/fake-inventory-data';
import { stubScrollerSize } from './support/layout';
import { renderApp } from './support/render';

const existing = [
  makeDevice({ deviceName: 'globex-hq', siteId: '1', orgName: 'Globex', deviceGroup: 'datacenter' }),
  makeDevice({ deviceName: 'globex-lab-1', siteId: '2', orgName: 'Globex', deviceGroup: 'branch-small' }),
  makeDevice({ deviceName: 'globex-lab-2', siteId: '3', orgName: 'Globex', deviceGroup: 'branch-small' }),
  makeDevice({ deviceName: 'acme-117', siteId: '117', orgName: 'Acme', deviceGroup: 'warehouse' }),
];

function bridge() {
  return new FakeBridge({
    profiles: [makeProfile({ id: 'ops', name: 'Ops node' })],
    sessions: [{ profileId: 'ops', state: 'signed-in', authMode: 'basic', username: 'operator' }],
    inventory: { devices: { ops: existing }, organizations: { ops: makeOrganizations(ORG_SPECS, existing) } },
  });
}

async function openWizard(b: FakeBridge) {
  const r = renderApp(b);
  await r.user.click(screen.getByRole('button', { name: /^Devices/ }));
  await r.user.click(await screen.findByRole('button', { name: 'Onboard device' }));
  const wizard = screen.getByTestId('onboarding-wizard');
  return { ...r, wizard };
}

/** The organization option whose name is exactly `name`. */
const org = (root: HTMLElement, name: string) => within(root).getAllByRole('option').find((o) => o.querySelector('.org-option-name')?.textContent === name)!;

/** The current step (Next checks the step asynchronously: wait for it after an action). */
const stepIs = (wizard: HTMLElement, label: string) => expect(within(wizard).getByRole('listitem', { current: 'step' })).toHaveTextContent(label);

/** Organization → Identity → Location → Device group, filled in; ends on Review. */
async function fillSteps(user: UserEvent, wizard: HTMLElement, siteId?: string) {
  const w = within(wizard);
  await user.type(w.getByRole('combobox', { name: 'Organization' }), 'glob');
  await user.click(org(wizard, 'Globex'));
  await user.keyboard('{Enter}');
  await waitFor(() => stepIs(wizard, 'Identity'));

  await waitFor(() => expect(w.getByLabelText('Site ID')).toHaveValue('4'));
  await user.type(w.getByLabelText('Device name'), 'branch-berlin-01');
  if (siteId) {
    await user.clear(w.getByLabelText('Site ID'));
    await user.type(w.getByLabelText('Site ID'), siteId);
  }
  await user.type(w.getByLabelText('Serial number'), 'SN-77AB');
  await user.keyboard('{Enter}');
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

  const suggestions = w.getByRole('group', { name: 'Suggested device groups' });
  expect(within(suggestions).getAllByRole('button').map((b) => b.textContent)).toEqual(['branch-small 2', 'datacenter 1']);
  await user.click(within(suggestions).getByRole('button', { name: /branch-small/ }));
  expect(w.getByLabelText('Device group')).toHaveValue('branch-small');
  await user.keyboard('{Enter}');
  await waitFor(() => stepIs(wizard, 'Review'));
}

let restore: () => void;
beforeEach(() => (restore = stubScrollerSize(600)));
afterEach(() => restore());

describe('Onboarding wizard', () => {
  it('checks each step before Next, onboards, deploys and follows the task to the end', async () => {
    const b = bridge();
    const { user, wizard } = await openWizard(b);
    const w = within(wizard);
    stepIs(wizard, 'Organization');
    await user.click(w.getByRole('button', { name: /Next/ }));
    expect(await w.findByText('Choose the organization.')).toBeVisible();
    await waitFor(() => stepIs(wizard, 'Organization'));

    await fillSteps(user, wizard);
    const review = w.getByTestId('wizard-review');
    expect(review).toHaveTextContent('Globex');
    expect(review).toHaveTextContent('branch-berlin-01');
    expect(review).toHaveTextContent('Germany (DE)');
    expect(review).toHaveTextContent('branch-small');
    await user.keyboard('{Enter}'); // = Onboard

    expect(await w.findByTestId('wizard-deploy')).toHaveTextContent('branch-berlin-01 is saved on Ops node (site ID 4)');
    expect(b.callsTo('devices.onboard')).toEqual([
      {
        profileId: 'ops',
        device: { deviceName: 'branch-berlin-01', siteId: '4', orgName: 'Globex', serialNumber: 'SN-77AB', deviceGroup: 'branch-small', locationInfo: { country: 'DE', latitude: '52.52', longitude: '13.405' } },
      },
    ]);

    await user.click(w.getByRole('button', { name: 'Deploy now' }));
    const progress = await w.findByTestId('task-progress');
    const taskId = [...b.inventory.tasks.keys()][0]!;
    expect(within(progress).getByText('pending')).toBeVisible();
    act(() => void b.inventory.task(taskId, { state: 'in-progress', percent: 20, message: 'Staging.' }));
    await waitFor(() => expect(within(progress).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '20'));
    act(() => void b.inventory.task(taskId, { percent: 80, message: 'Verification.' }));
    await waitFor(() => expect(within(progress).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '80'));
    expect(within(progress).getByText('in progress')).toBeVisible();
    expect(within(progress).getByRole('list', { name: 'Task messages' })).toHaveTextContent(/Deployment queued\..*Staging\..*Verification\./);
    act(() => void b.inventory.finishTask(taskId, 'completed'));
    expect(await within(progress).findByText('branch-berlin-01 is deployed.')).toBeVisible();
    expect(within(progress).getByText('completed')).toBeVisible();
    await user.click(w.getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('onboarding-wizard')).toBeNull();
  });

  it('puts a site ID conflict from the node under Site ID on the Identity step, with everything typed kept', async () => {
    const b = bridge();
    const { user, wizard } = await openWizard(b);
    const w = within(wizard);
    await fillSteps(user, wizard, '117');
    await user.click(w.getByRole('button', { name: 'Onboard' }));

    await waitFor(() => stepIs(wizard, 'Identity'));
    expect(await w.findByTestId('site-id-error')).toHaveTextContent('Global device id 117 is already in use (by acme-117).');
    expect(w.getByLabelText('Site ID')).toHaveAttribute('aria-invalid', 'true');
    expect(w.getByLabelText('Site ID')).toHaveValue('117');
    expect(w.getByLabelText('Device name')).toHaveValue('branch-berlin-01');
    expect(w.getByLabelText('Serial number')).toHaveValue('SN-77AB');
    expect(b.inventory.devices.get('ops')!.some((d) => d.deviceName === 'branch-berlin-01')).toBe(false);

    await user.click(w.getByRole('button', { name: /Back/ }));
    expect(org(wizard, 'Globex')).toHaveAttribute('aria-selected', 'true');
    await user.click(w.getByRole('button', { name: /Next/ }));
    await waitFor(() => stepIs(wizard, 'Identity'));
    await user.click(w.getByRole('button', { name: /Next/ })); // 117 is a valid site ID: only the node refuses it
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
    await user.click(w.getByRole('button', { name: 'Use next free' }));
    await waitFor(() => expect(w.getByLabelText('Site ID')).toHaveValue('4'));
    expect(w.queryByTestId('site-id-error')).toBeNull();
    for (const label of ['Location', 'Device group', 'Review']) {
      await user.click(w.getByRole('button', { name: /Next/ }));
      await waitFor(() => stepIs(wizard, label));
    }
    await user.click(w.getByRole('button', { name: 'Onboard' }));
    expect(await w.findByTestId('wizard-deploy')).toHaveTextContent('site ID 4');
  });

  it('Escape asks before dropping what was typed', async () => {
    const { user, wizard } = await openWizard(bridge());
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('onboarding-wizard')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Onboard device' }));
    const again = screen.getByTestId('onboarding-wizard');
    await user.type(within(again).getByRole('combobox', { name: 'Organization' }), 'acme');
    await user.click(org(again, 'Acme'));
    await user.keyboard('{Escape}');
    const confirm = await screen.findByTestId('confirm-discard');
    await user.click(within(confirm).getByRole('button', { name: 'Keep editing' }));
    expect(screen.getByTestId('onboarding-wizard')).toBeInTheDocument();
    expect(org(again, 'Acme')).toHaveAttribute('aria-selected', 'true');
    within(again).getByRole('combobox', { name: 'Organization' }).focus();
    await user.keyboard('{Escape}');
    await user.click(within(await screen.findByTestId('confirm-discard')).getByRole('button', { name: 'Discard' }));
    expect(screen.queryByTestId('onboarding-wizard')).toBeNull();
    expect(wizard).not.toBeInTheDocument();
  });

  it('fetches the organizations itself when they were never fetched, and only once', async () => {
    const b = new FakeBridge({
      profiles: [makeProfile({ id: 'ops', name: 'Ops node' })],
      sessions: [{ profileId: 'ops', state: 'signed-in', authMode: 'basic', username: 'operator' }],
      inventory: { devices: { ops: existing }, organizations: { ops: [] }, fetchedAt: { ops: null } },
    });
    b.inventory.remote.set('ops', { organizations: makeOrganizations(ORG_SPECS, existing) });
    const { wizard } = await openWizard(b);
    await waitFor(() => expect(org(wizard, 'Globex')).toBeDefined());
    expect(b.callsTo('inventory.refresh')).toEqual([{ profileId: 'ops', what: 'organizations' }]);
    expect(within(wizard).queryByText(/No organizations are stored/)).toBeNull();
  });
});
