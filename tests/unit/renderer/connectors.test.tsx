// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Bridge, ConnectorStatus, CycleProgress } from '../../../shared/contract';
import { makeScoredHosts } from '../../support/edr-fixtures';
import { openConnectors, startDefenderForm } from './support/connector-steps';
import { MainBridge } from './support/main-bridge';
import { renderApp } from './support/render';
import { saveDefender } from './support/zta-steps';
import { rowAction } from './support/row-menu';

/** Scheduled polls wait an hour: only "Poll now" starts a cycle in these tests. */
const noPolls = { app: { edr: { firstPullDelayMs: 3_600_000, publishDelayMs: 20 } } };


const falconConnector = (main: MainBridge) =>
  main.call('connectors.save', { name: 'EU Falcon', vendor: 'falcon', cloudRegion: 'eu-1', tenantId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', clientId: 'e020ea474eadb81232f488287ff3257a', clientSecret: 'falcon-secret-1', pollIntervalMinutes: 10 });

const statusOf = async (main: MainBridge, id: string): Promise<ConnectorStatus> => (await main.call('connectors.list')).find((c) => c.id === id)!;

describe('Connectors page', () => {
  it('lists each connector with vendor, region, interval, last cycle and its error', async () => {
    const main = await MainBridge.start(noPolls);
    await falconConnector(main);
    // The Defender app registration lacks Machine.Read.All: its cycle fails with main's reason.
    const sim = await main.defender([{ hosts: 10, permissions: ['Vulnerability.Read.All', 'Alert.Read.All'] }]);
    const d = await saveDefender(main, sim, 'Contoso Defender');
    const failed = main.next('edr.progress', (p) => p.connectorId === d.id && p.phase === 'failed');
    await main.call('connectors.pollNow', { connectorId: d.id });
    await failed;
    const { lastCycle } = await statusOf(main, d.id);
    expect(lastCycle?.status).toBe('failed');
    expect(lastCycle?.error).toMatch(/Machine\.Read\.All/);

    await openConnectors(main);
    const f = await screen.findByTestId('connector-row-EU Falcon');
    expect(within(f).getByText('CrowdStrike Falcon')).toBeVisible();
    expect(within(f).getByText(/Region/)).toHaveTextContent('EU-1');
    expect(within(f).getByText('No cycle yet')).toBeVisible();
    const row = screen.getByTestId('connector-row-Contoso Defender');
    expect(within(row).getByText('Polls every 1 h')).toBeVisible();
    expect(within(row).getByText('failed')).toBeVisible();
    expect(within(row).getByText(lastCycle!.error!)).toBeVisible();
  });

  it('a connector registered while the first list is on its way still shows (the event is newer than that answer)', async () => {
    const main = await MainBridge.start(noPolls);
    await falconConnector(main);
    // The window's first connectors.list is answered (one connector) only after a second one was registered.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const slowList: Bridge = {
      invoke: async (channel, request) => {
        const answer = await main.invoke(channel, request);
        if (channel === 'connectors.list' && main.callsTo('connectors.list').length === 1) await held;
        return answer;
      },
      on: (event, listener) => main.on(event, listener),
    };
    const { user } = renderApp(main, { transport: slowList });
    await user.click(await screen.findByRole('link', { name: /^Connectors/ }));
    await waitFor(() => expect(main.callsTo('connectors.list')).toHaveLength(1));
    const sim = await main.defender([{ hosts: 10 }]);
    const changed = main.next('connectors.changed');
    await saveDefender(main, sim, 'Contoso Defender');
    await changed;
    release();
    expect(await screen.findByTestId('connector-row-Contoso Defender')).toBeVisible();
    expect(screen.getByTestId('connector-row-EU Falcon')).toBeVisible();
  });

  it('says in words that the last cycle was interrupted when the app stopped during it, and how many scores it kept', async () => {
    let main = await MainBridge.start(noPolls);
    const early = await main.call('connectors.save', { name: 'Killed early', vendor: 'defender', tenantId: 'early.onmicrosoft.com', clientId: 'f52d6323-1eb0-4baa-8689-ec9147e4b131', clientSecret: 's-1', pollIntervalMinutes: 60 });
    const late = await main.call('connectors.save', { name: 'Killed late', vendor: 'defender', tenantId: 'late.onmicrosoft.com', clientId: '0b407281-768f-4e83-8afe-f47ed464b657', clientSecret: 's-2', pollIntervalMinutes: 60 });
    // What a process killed during two cycles leaves in edr.db: two cycles still running, one with 40 scores written.
    await main.appCall('edr.store.beginCycle', early.id, 'defender', early.tenantId, new Date());
    const lateCycle = await main.appCall<number>('edr.store.beginCycle', late.id, 'defender', late.tenantId, new Date());
    await main.appCall('edr.store.db.writeScores', lateCycle, late.id, makeScoredHosts(40, { tenantId: late.tenantId }));
    main = await main.restart();

    await openConnectors(main);
    const e = await screen.findByTestId('connector-row-Killed early');
    expect(within(e).getByText('interrupted')).toBeVisible();
    expect(within(e).getByTestId('connector-interrupted')).toHaveTextContent('Interrupted — the app stopped during this poll. No scores were stored.');
    // The finish time is when the next start noticed it: the page shows when the cycle started instead.
    expect(within(e).getByText(/^started /)).toBeVisible();
    expect(within(e).queryByText(/^finished /)).toBeNull();
    expect(within(e).queryByText('0 hosts')).toBeNull();
    const l = screen.getByTestId('connector-row-Killed late');
    expect(within(l).getByText('40 hosts')).toBeVisible();
    expect(within(l).getByTestId('connector-interrupted')).toHaveTextContent('The scores of 40 hosts were stored but not published.');
  });

  it('poll now shows a progress bar that follows the progress events, then the finished cycle, published to the signed-in node', async () => {
    const main = await MainBridge.start(noPolls);
    const node = await main.node();
    await main.addNodeProfile(node, { name: 'Ops' });
    const sim = await main.defender([{ hosts: 1200 }]);
    await main.sim(sim).set('faults.delayMs', 40);
    await saveDefender(main, sim, 'Contoso Defender');
    const seen: CycleProgress[] = [];
    main.on('edr.progress', (p) => seen.push(p as CycleProgress));

    const { user } = await openConnectors(main);
    const row = await screen.findByTestId('connector-row-Contoso Defender');
    await user.click(within(row).getByRole('button', { name: 'Poll now' }));
    const bar = await within(row).findByRole('progressbar', { name: 'Poll progress' });
    // A phase with a known total: the bar and the counter show what main reported.
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow'));
    const shown = Number(bar.getAttribute('aria-valuenow'));
    expect(seen.some((p) => p.total && Math.round((100 * p.done) / p.total) === shown)).toBe(true);
    expect(within(row).getByText(/^\d+\/\d+$/)).toBeVisible();
    expect(within(row).getByRole('button', { name: 'Cancel poll' })).toBeVisible();

    await waitFor(() => expect(within(row).getByText('1,200 hosts')).toBeVisible(), { timeout: 15_000 });
    expect(within(row).queryByRole('progressbar')).toBeNull();
    await waitFor(() => expect(within(row).getByText('published')).toBeVisible(), { timeout: 10_000 });
    expect(main.callsTo('connectors.pollNow')).toHaveLength(1);
    const received = await main.sim(node).get<Array<{ message: { tenantId: string } }>>('receivedScores');
    expect(received.map((r) => r.message.tenantId)).toEqual([sim.tenants[0]!.tenantId]);
  });

  it('cancels a running cycle', async () => {
    const main = await MainBridge.start(noPolls);
    const sim = await main.defender([{ hosts: 500 }]);
    await main.sim(sim).set('faults.delayMs', 300);
    const c = await saveDefender(main, sim, 'Contoso Defender');
    const { user } = await openConnectors(main);
    const row = await screen.findByTestId('connector-row-Contoso Defender');
    await user.click(within(row).getByRole('button', { name: 'Poll now' }));
    await user.click(await within(row).findByRole('button', { name: 'Cancel poll' }));
    expect(await within(row).findByText('cancelled', {}, { timeout: 10_000 })).toBeVisible();
    expect(main.callsTo('connectors.cancel')).toEqual([{ connectorId: c.id }]);
    expect((await statusOf(main, c.id)).lastCycle?.status).toBe('cancelled');
  });

  it('disables and enables a connector with its switch', async () => {
    const main = await MainBridge.start(noPolls);
    const f = await falconConnector(main);
    const { user } = await openConnectors(main);
    const row = await screen.findByTestId('connector-row-EU Falcon');
    await user.click(within(row).getByRole('switch', { name: 'Enabled' }));
    await waitFor(() => expect(within(row).getByRole('switch', { name: 'Enabled' })).not.toBeChecked());
    expect(await within(row).findByText('Disabled: no scheduled polls')).toBeVisible();
    expect(main.callsTo('connectors.setEnabled')).toEqual([{ connectorId: f.id, enabled: false }]);
    expect((await statusOf(main, f.id)).enabled).toBe(false);
  });

  it('shows every check of a failed test with its hint', async () => {
    const main = await MainBridge.start(noPolls);
    // Added as Delegated permissions: the token carries scopes, not roles.
    const sim = await main.defender([{ hosts: 10, permissionType: 'Delegated' }]);
    await saveDefender(main, sim, 'Contoso Defender');
    const { user } = await openConnectors(main);
    await rowAction(user, await screen.findByTestId('connector-row-Contoso Defender'), 'Test');
    const dialog = await screen.findByTestId('connector-test-dialog');
    await waitFor(() => expect(main.answersTo('connectors.test')).toHaveLength(1));
    const result = main.answersTo('connectors.test')[0]!.value as { ok: boolean; checks: Array<{ name: string; ok: boolean; message: string; hint?: string }> };
    expect(result.ok).toBe(false);
    const failing = result.checks.filter((k) => !k.ok);
    expect(within(dialog).getByText(`${failing.length} of ${result.checks.length} checks failed.`)).toBeVisible();
    const withHint = failing.find((k) => k.hint)!;
    expect(within(within(dialog).getByTestId(`check-${withHint.name}`)).getByText(withHint.hint!)).toBeVisible();
  });

  it('a Defender connector needs a poll interval; the form keeps what was typed', async () => {
    const main = await MainBridge.start(noPolls);
    const { user } = await openConnectors(main);
    const form = await startDefenderForm(user, 'not-shown-anywhere');
    await user.clear(within(form).getByLabelText('Poll interval (minutes)'));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Enter the poll interval in minutes (10 to 1440).')).toBeVisible();
    expect(main.callsTo('connectors.save')).toHaveLength(0);
    expect(within(form).getByLabelText('Tenant ID')).toHaveValue('contoso.onmicrosoft.com');
    await user.type(within(form).getByLabelText('Poll interval (minutes)'), '30');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    // Main names a connector saved without a name after its vendor and tenant.
    expect(await screen.findByTestId('connector-row-Microsoft Defender · contoso.onmicrosoft.com')).toBeVisible();
    expect(main.callsTo('connectors.save')).toEqual([expect.objectContaining({ vendor: 'defender', pollIntervalMinutes: 30, clientSecret: 'not-shown-anywhere' })]);
    expect((await main.call('connectors.list'))[0]).toMatchObject({ vendor: 'defender', pollIntervalMinutes: 30, hasClientSecret: true });
  });
});

describe('Connector form: nothing typed is lost silently', () => {
  it('Escape on a half-filled form asks first; Discard closes it, nothing saved', async () => {
    const main = await MainBridge.start(noPolls);
    const { user } = await openConnectors(main);
    const form = await startDefenderForm(user, 'typed-but-not-saved');
    await user.keyboard('{Escape}');
    const ask = await screen.findByTestId('confirm-discard');
    expect(within(ask).getByRole('button', { name: 'Keep editing' })).toHaveFocus();
    await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
    expect(within(form).getByLabelText('Tenant ID')).toHaveValue('contoso.onmicrosoft.com');
    await user.keyboard('{Escape}');
    await user.click(within(await screen.findByTestId('confirm-discard')).getByRole('button', { name: 'Discard' }));
    expect(screen.queryByTestId('connector-form')).toBeNull();
    expect(main.callsTo('connectors.save')).toHaveLength(0);
  });
});

describe('Import connectors (bulk push)', () => {
  const doc = {
    version: 1,
    connectors: [
      { vendor: 'falcon', tenantId: '0d5cc78be7dce6808675db15caff785b', clientId: 'e020ea474eadb81232f488287ff3257a', clientSecret: 'x-secret-1', cloudRegion: 'eu-1' },
      { vendor: 'defender', tenantId: 'not a tenant', clientId: 'fe9643fa-ccd2-4235-881c-49a705ef7e01', clientSecret: 'x-secret-2', pollIntervalMinutes: 5 },
      { vendor: 'defender', tenantId: 'contoso.onmicrosoft.com', clientId: 'd5f15945-bf56-4b68-87ef-3d591339aefa', clientSecret: 'x-secret-3', pollIntervalMinutes: 60 },
    ],
  };

  it('imports a picked JSON file and lists each entry, refused ones with the fields to fix', async () => {
    const main = await MainBridge.start(noPolls);
    await main.call('connectors.save', { name: 'Contoso', vendor: 'defender', tenantId: 'contoso.onmicrosoft.com', clientId: 'f8c02e60-1db1-4561-8575-9af815a2d0da', clientSecret: 'x-secret-0', pollIntervalMinutes: 60 });
    const { user } = await openConnectors(main);
    await user.click(await screen.findByRole('button', { name: 'Import…' }));
    const dialog = screen.getByTestId('import-connectors-dialog');
    // Nobody is signed in: the node source is unavailable and the file source is chosen.
    expect(within(dialog).getByLabelText('Management node')).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeDisabled();
    const file = new File([JSON.stringify(doc)], 'connectors.json', { type: 'application/json' });
    await user.upload(within(dialog).getByLabelText('Connector document'), file);
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));

    expect(await within(dialog).findByTestId('import-summary')).toHaveTextContent('3 entries: 1 created, 1 updated, 1 refused.');
    expect(within(dialog).getByTestId('import-result-1')).toHaveTextContent('created');
    const refused = within(dialog).getByTestId('import-result-2');
    expect(refused).toHaveTextContent('refused');
    expect(refused).toHaveTextContent('tenantId');
    expect(refused).toHaveTextContent('pollIntervalMinutes');
    expect(within(dialog).getByTestId('import-result-3')).toHaveTextContent('updated');
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(await screen.findByTestId('connector-row-Contoso')).toBeVisible();
    expect(screen.getAllByText('bulk')).toHaveLength(2);
    expect(main.callsTo('connectors.importBulk')).toEqual([expect.objectContaining({ source: 'document', name: 'connectors.json' })]);
    const stored = await main.call('connectors.list');
    expect(stored.map((c) => [c.tenantId, c.source]).sort()).toEqual([['0d5cc78be7dce6808675db15caff785b', 'bulk'], ['contoso.onmicrosoft.com', 'bulk']]);
  });

  it('imports from a signed-in management node', async () => {
    const main = await MainBridge.start(noPolls);
    const node = await main.node();
    const ops = await main.addNodeProfile(node, { name: 'Ops', authMode: 'oauth' });
    await main.sim(node).set('edrConnectorDocument.current', { version: 1, connectors: [doc.connectors[0]] });
    const { user } = await openConnectors(main);
    await user.click(await screen.findByRole('button', { name: /Import connectors/ }));
    const dialog = screen.getByTestId('import-connectors-dialog');
    expect(within(dialog).getByLabelText('Management node')).toBeChecked();
    expect(within(dialog).getByLabelText('Node')).toHaveValue(ops.id);
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await within(dialog).findByTestId('import-summary')).toHaveTextContent('1 entry: 1 created, 0 updated, 0 refused.');
    expect(main.callsTo('connectors.importBulk')).toEqual([{ source: 'node', profileId: ops.id }]);
    expect((await main.call('connectors.list')).map((c) => c.tenantId)).toEqual(['0d5cc78be7dce6808675db15caff785b']);
  });

  it('a document that is not JSON is explained in the dialog, which stays open to pick another file', async () => {
    const main = await MainBridge.start(noPolls);
    const { user } = await openConnectors(main);
    await user.click(await screen.findByRole('button', { name: /Import connectors/ }));
    const dialog = screen.getByTestId('import-connectors-dialog');
    await user.upload(within(dialog).getByLabelText('Connector document'), new File(['{ nope'], 'broken.json', { type: 'application/json' }));
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await within(dialog).findByTestId('import-failure')).toHaveTextContent('not valid JSON');
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeEnabled();
  });
});
