// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeBridge, makeProfile } from './support/fake-bridge';
import { makeConnector } from './support/fake-connectors';
import { openConnectors, startDefenderForm } from './support/connector-steps';

const falcon = () => makeConnector({ id: 'c-falcon', name: 'EU Falcon', vendor: 'falcon', cloudRegion: 'eu-1', tenantId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', nextCycleAt: '2026-01-01T00:10:00.000Z' });
const defender = () =>
  makeConnector({
    id: 'c-defender',
    name: 'Contoso Defender',
    vendor: 'defender',
    tenantId: 'contoso.onmicrosoft.com',
    pollIntervalMinutes: 60,
    lastCycle: { id: 7, status: 'failed', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:01:00.000Z', hosts: 0, error: 'The token lacks Machine.Read.All.', publishedAt: null },
  });


describe('Connectors page', () => {
  it('lists each connector with vendor, region, interval, last cycle and its error', async () => {
    await openConnectors(new FakeBridge({ connectors: [falcon(), defender()] }));
    const f = await screen.findByTestId('connector-row-EU Falcon');
    expect(within(f).getByText('CrowdStrike Falcon')).toBeVisible();
    expect(within(f).getByText(/Region/)).toHaveTextContent('EU-1');
    expect(within(f).getByText('No cycle yet')).toBeVisible();
    const d = screen.getByTestId('connector-row-Contoso Defender');
    expect(within(d).getByText('Polls every 1 h')).toBeVisible();
    expect(within(d).getByText('failed')).toBeVisible();
    expect(within(d).getByText('The token lacks Machine.Read.All.')).toBeVisible();
  });

  it('says in words that the last cycle was interrupted when the app stopped during it, and how many scores it kept', async () => {
    const interrupted = (name: string, hosts: number) =>
      makeConnector({
        id: `c-${hosts}`,
        name,
        lastCycle: { id: 3, status: 'interrupted', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T02:00:00.000Z', hosts, error: 'The app stopped during this cycle.', publishedAt: null },
      });
    await openConnectors(new FakeBridge({ connectors: [interrupted('Killed early', 0), interrupted('Killed late', 40)] }));
    const early = await screen.findByTestId('connector-row-Killed early');
    expect(within(early).getByText('interrupted')).toBeVisible();
    expect(within(early).getByTestId('connector-interrupted')).toHaveTextContent('Interrupted — the app stopped during this poll. No scores were stored.');
    // The finish time is when the next start noticed it: the page shows when the cycle started instead.
    expect(within(early).getByText(/^started /)).toBeVisible();
    expect(within(early).queryByText(/^finished /)).toBeNull();
    expect(within(early).queryByText('0 hosts')).toBeNull();
    const late = screen.getByTestId('connector-row-Killed late');
    expect(within(late).getByText('40 hosts')).toBeVisible();
    expect(within(late).getByTestId('connector-interrupted')).toHaveTextContent('The scores of 40 hosts were stored but not published.');
  });

  it('poll now shows a progress bar that follows the progress events, then the finished cycle', async () => {
    const bridge = new FakeBridge({ connectors: [falcon()] });
    const { user } = await openConnectors(bridge);
    const row = await screen.findByTestId('connector-row-EU Falcon');
    await user.click(within(row).getByRole('button', { name: 'Poll now' }));
    const bar = await within(row).findByRole('progressbar', { name: 'Poll progress' });
    expect(bar).not.toHaveAttribute('aria-valuenow');
    act(() => bridge.connectors.progress('c-falcon', { phase: 'vulnerabilities', done: 250, total: 1000 }));
    await waitFor(() => expect(within(row).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '25'));
    expect(within(row).getByText('250/1000')).toBeVisible();
    expect(within(row).getByRole('button', { name: 'Cancel poll' })).toBeVisible();
    act(() => bridge.connectors.finish('c-falcon', 'completed', { hosts: 1000, published: true }));
    expect(await within(row).findByText('1,000 hosts')).toBeVisible();
    expect(within(row).queryByRole('progressbar')).toBeNull();
    expect(within(row).getByText('published')).toBeVisible();
    expect(bridge.callsTo('connectors.pollNow')).toHaveLength(1);
  });

  it('cancels a running cycle', async () => {
    const bridge = new FakeBridge({ connectors: [falcon()] });
    const { user } = await openConnectors(bridge);
    const row = await screen.findByTestId('connector-row-EU Falcon');
    await user.click(within(row).getByRole('button', { name: 'Poll now' }));
    await user.click(await within(row).findByRole('button', { name: 'Cancel poll' }));
    expect(await within(row).findByText('cancelled')).toBeVisible();
    expect(bridge.callsTo('connectors.cancel')).toEqual([{ connectorId: 'c-falcon' }]);
  });

  it('disables and enables a connector with its switch', async () => {
    const bridge = new FakeBridge({ connectors: [falcon()] });
    const { user } = await openConnectors(bridge);
    const row = await screen.findByTestId('connector-row-EU Falcon');
    await user.click(within(row).getByRole('switch', { name: 'Enabled' }));
    await waitFor(() => expect(within(row).getByRole('switch', { name: 'Enabled' })).not.toBeChecked());
    expect(within(row).getByText('Disabled: no scheduled polls')).toBeVisible();
    expect(bridge.callsTo('connectors.setEnabled')).toEqual([{ connectorId: 'c-falcon', enabled: false }]);
  });

  it('shows every check of a failed test with its hint', async () => {
    const bridge = new FakeBridge({ connectors: [defender()] });
    bridge.connectors.tests.set('c-defender', {
      ok: false,
      checks: [
        { name: 'Token', ok: true, message: 'The identity provider issued a token.' },
        { name: 'Machine.Read.All', ok: false, message: 'Added as Delegated: it must be an Application permission.', hint: 'Remove it and add it again as an Application permission.' },
      ],
    });
    const { user } = await openConnectors(bridge);
    await user.click(within(await screen.findByTestId('connector-row-Contoso Defender')).getByRole('button', { name: 'Test' }));
    const dialog = await screen.findByTestId('connector-test-dialog');
    expect(within(dialog).getByText('1 of 2 checks failed.')).toBeVisible();
    expect(within(within(dialog).getByTestId('check-Machine.Read.All')).getByText('Remove it and add it again as an Application permission.')).toBeVisible();
  });

  it('a Defender connector needs a poll interval; the form keeps what was typed', async () => {
    const bridge = new FakeBridge();
    const { user } = await openConnectors(bridge);
    const form = await startDefenderForm(user, 'not-shown-anywhere');
    await user.clear(within(form).getByLabelText('Poll interval (minutes)'));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Enter the poll interval in minutes (10 to 1440).')).toBeVisible();
    expect(bridge.callsTo('connectors.save')).toHaveLength(0);
    expect(within(form).getByLabelText('Tenant ID')).toHaveValue('contoso.onmicrosoft.com');
    await user.type(within(form).getByLabelText('Poll interval (minutes)'), '30');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await screen.findByTestId('connector-row-contoso.onmicrosoft.com')).toBeVisible();
    expect(bridge.callsTo('connectors.save')).toEqual([expect.objectContaining({ vendor: 'defender', pollIntervalMinutes: 30, clientSecret: 'not-shown-anywhere' })]);
  });
});

describe('Import connectors (bulk push)', () => {
  const doc = {
    version: 1,
    connectors: [
      { vendor: 'falcon', tenantId: 'cid-alpha', clientId: 'fc-1', clientSecret: 'x-secret-1', cloudRegion: 'eu-1' },
      { vendor: 'defender', tenantId: 'not a tenant', clientId: 'app-1', clientSecret: 'x-secret-2', pollIntervalMinutes: 5 },
      { vendor: 'defender', tenantId: 'contoso.onmicrosoft.com', clientId: 'app-2', clientSecret: 'x-secret-3', pollIntervalMinutes: 60 },
    ],
  };

  it('imports a picked JSON file and lists each entry, refused ones with the fields to fix', async () => {
    const bridge = new FakeBridge({ connectors: [makeConnector({ id: 'c-contoso', name: 'Contoso', vendor: 'defender', tenantId: 'contoso.onmicrosoft.com' })] });
    const { user } = await openConnectors(bridge);
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
    expect(bridge.callsTo('connectors.importBulk')).toEqual([expect.objectContaining({ source: 'document', name: 'connectors.json' })]);
  });

  it('imports from a signed-in management node', async () => {
    const ops = makeProfile({ id: 'ops', name: 'Ops', authMode: 'oauth' });
    const bridge = new FakeBridge({ profiles: [ops], sessions: [{ profileId: 'ops', state: 'signed-in', authMode: 'oauth', username: 'admin', accessTokenExpiresAt: null }] });
    bridge.connectors.nodeDocument = { version: 1, connectors: [doc.connectors[0]] };
    const { user } = await openConnectors(bridge);
    await user.click(await screen.findByRole('button', { name: /Import connectors/ }));
    const dialog = screen.getByTestId('import-connectors-dialog');
    expect(within(dialog).getByLabelText('Management node')).toBeChecked();
    expect(within(dialog).getByLabelText('Node')).toHaveValue('ops');
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await within(dialog).findByTestId('import-summary')).toHaveTextContent('1 entry: 1 created, 0 updated, 0 refused.');
    expect(bridge.callsTo('connectors.importBulk')).toEqual([{ source: 'node', profileId: 'ops' }]);
  });

  it('a document that is not JSON is explained in the dialog, which stays open to pick another file', async () => {
    const bridge = new FakeBridge();
    const { user } = await openConnectors(bridge);
    await user.click(await screen.findByRole('button', { name: /Import connectors/ }));
    const dialog = screen.getByTestId('import-connectors-dialog');
    await user.upload(within(dialog).getByLabelText('Connector document'), new File(['{ nope'], 'broken.json', { type: 'application/json' }));
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    expect(await within(dialog).findByTestId('import-failure')).toHaveTextContent('not valid JSON');
    expect(within(dialog).getByRole('button', { name: 'Import' })).toBeEnabled();
  });
});
