// @vitest-environment jsdom
/**
 * Issue 10.4 in the window: validation speaks the operator's language, before the round trip.
 * An empty connector form names each field in words without a request to main; the client
 * secret is asked for by main's own rule; the import names the entry and the field in words.
 */
import '@testing-library/jest-dom/vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openConnectors, startConnectorForm } from './support/connector-steps';
import { MainBridge } from './support/main-bridge';

/** Scheduled polls wait an hour: no cycle runs in these tests. */
const noPolls = { app: { edr: { firstPullDelayMs: 3_600_000 } } };

describe('connector form: every field checked in the window first', () => {
  it('an empty form names each field in words and sends nothing to main', async () => {
    const main = await MainBridge.start(noPolls);
    const { user } = await openConnectors(main);
    await user.click(await screen.findByRole('button', { name: 'Add connector' }));
    const form = screen.getByTestId('connector-form');
    const before = main.calls.length;
    const sentences: Array<[string, string]> = [
      ['Tenant ID', 'Enter the tenant ID.'],
      ['Client ID', 'Enter the client ID.'],
      // A new connector has no stored secret: main's rule, applied here (shared/model/connector-secret.ts).
      ['Client secret', 'Enter the client secret.'],
    ];
    const expectSentences = async (expected: Array<[string, string]>) => {
      for (const [label, sentence] of expected) {
        await waitFor(() => expect(within(form).getByLabelText(label)).toHaveAccessibleDescription(expect.stringContaining(sentence)));
        expect(within(form).getByLabelText(label)).toHaveAttribute('aria-invalid', 'true');
      }
      expect(form).not.toHaveTextContent(/Invalid input|expected string|received undefined/);
    };
    // Falcon (the default) has a default poll interval; Defender has none (spec 2.1).
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await expectSentences(sentences);
    await user.click(within(form).getByLabelText(/Microsoft Defender/));
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await expectSentences([...sentences, ['Poll interval (minutes)', 'Enter the poll interval in minutes (10 to 1440).']]);
    expect(main.calls.slice(before)).toEqual([]);

    // Filled in, the same form goes to main once, and main agrees.
    await user.type(within(form).getByLabelText('Tenant ID'), 'contoso.onmicrosoft.com');
    await user.type(within(form).getByLabelText('Client ID'), 'fe9643fa-ccd2-4235-881c-49a705ef7e01');
    await user.type(within(form).getByLabelText('Client secret'), 'defender-secret');
    await user.type(within(form).getByLabelText('Poll interval (minutes)'), '15');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(main.answersTo('connectors.save')).toEqual([expect.objectContaining({ ok: true })]));
  });

  it('a wrong value is named in words too, before any request', async () => {
    const main = await MainBridge.start(noPolls);
    const { user } = await openConnectors(main);
    const form = await startConnectorForm(user, /Microsoft Defender/);
    await user.type(within(form).getByLabelText('Tenant ID'), 'not a tenant');
    await user.type(within(form).getByLabelText('Client ID'), 'app-1');
    await user.type(within(form).getByLabelText('Poll interval (minutes)'), '5');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Enter the Entra tenant ID (a GUID) or one of its verified domains (contoso.onmicrosoft.com).')).toBeVisible();
    expect(within(form).getByText('Enter the application (client) ID: the GUID of the app registration in Microsoft Entra ID.')).toBeVisible();
    expect(within(form).getByText("The poll interval is at least 10 minutes (the vendors' limits).")).toBeVisible();
    expect(within(form).getByText('Enter the client secret.')).toBeVisible();
    expect(main.callsTo('connectors.save')).toHaveLength(0);
  });

  it('the form asks for the permissions and scopes the user guide lists, each of them', async () => {
    const readme = readFileSync(path.resolve('docs/user-guide.md'), 'utf8').replace(/\s+/g, ' ');
    const defender = /the five \*\*Application\*\* permissions \(([^)]+)\)/.exec(readme)![1]!.split(/,\s*/);
    const falcon = [...readme.matchAll(/\*(Hosts: Read|Zero Trust Assessment: Read)\*/g)].map((m) => m[1]!);
    expect(defender).toHaveLength(5);
    expect(falcon).toHaveLength(2);
    const main = await MainBridge.start(noPolls);
    const { user } = await openConnectors(main);
    await user.click(await screen.findByRole('button', { name: 'Add connector' }));
    const form = screen.getByTestId('connector-form');
    for (const name of [...defender, ...falcon]) expect(form.textContent).toContain(name);
  });

  it('Falcon IDs are checked as Falcon writes them: a CID of 32 hex digits (its checksum optional), an API client ID of 32 hex digits', async () => {
    const main = await MainBridge.start(noPolls);
    const { user } = await openConnectors(main);
    const form = await startConnectorForm(user, /CrowdStrike Falcon/);
    await user.type(within(form).getByLabelText('Tenant ID'), '0123456789ABCDEF0123456789ABCDE');
    await user.type(within(form).getByLabelText('Client ID'), '8a7c2f4e-0000-4000-8000-000000000001');
    await user.type(within(form).getByLabelText('Client secret'), 'falcon-secret-1');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Enter the Falcon customer ID (CID): 32 hexadecimal digits, with or without the "-" and two-character checksum the Falcon console shows after it.')).toBeVisible();
    expect(within(form).getByText('Enter the API client ID: 32 hexadecimal digits, as the Falcon console shows it under API clients and keys.')).toBeVisible();
    expect(main.callsTo('connectors.save')).toHaveLength(0);
    // As the console shows them, checksum included: saved.
    await user.clear(within(form).getByLabelText('Tenant ID'));
    await user.type(within(form).getByLabelText('Tenant ID'), '0123456789ABCDEF0123456789ABCDEF-A7');
    await user.clear(within(form).getByLabelText('Client ID'));
    await user.type(within(form).getByLabelText('Client ID'), '8a7c2f4e00004000800000000000000a');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(main.callsTo('connectors.save')).toHaveLength(1));
  });

  it('a new form for a registered tenant keeps its stored secret, as main does', async () => {
    const main = await MainBridge.start(noPolls);
    await main.call('connectors.save', { name: 'Contoso', vendor: 'defender', tenantId: 'contoso.onmicrosoft.com', clientId: 'fe9643fa-ccd2-4235-881c-49a705ef7e01', clientSecret: 'stored-secret', pollIntervalMinutes: 60 });
    const { user } = await openConnectors(main);
    await screen.findByTestId('connector-row-Contoso');
    const form = await startConnectorForm(user, /Microsoft Defender/);
    await user.type(within(form).getByLabelText('Tenant ID'), 'Contoso.onmicrosoft.com');
    await user.type(within(form).getByLabelText('Client ID'), 'd5f15945-bf56-4b68-87ef-3d591339aefa');
    await user.type(within(form).getByLabelText('Poll interval (minutes)'), '30');
    expect(await within(form).findByText(/This tenant is registered already/)).toBeVisible();
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(main.answersTo('connectors.save')).toEqual([expect.objectContaining({ ok: true, value: expect.objectContaining({ clientId: 'd5f15945-bf56-4b68-87ef-3d591339aefa', hasClientSecret: true }) })]));
    expect(main.callsTo('connectors.save')[0]).not.toHaveProperty('clientSecret');
  });
});

describe('import: the entry and the field in words', () => {
  const upload = async (main: MainBridge, doc: unknown) => {
    const { user } = await openConnectors(main);
    await user.click(await screen.findByRole('button', { name: /Import connectors/ }));
    const dialog = screen.getByTestId('import-connectors-dialog');
    await user.upload(within(dialog).getByLabelText('Connector document'), new File([JSON.stringify(doc)], 'connectors.json', { type: 'application/json' }));
    await user.click(within(dialog).getByRole('button', { name: 'Import' }));
    return dialog;
  };

  it('each refused entry by number, name and tenant, each problem as a sentence', async () => {
    const main = await MainBridge.start(noPolls);
    const dialog = await upload(main, {
      version: 1,
      connectors: [
        { name: 'Alpha Falcon', vendor: 'falcon', tenantId: '0d5cc78be7dce6808675db15caff785b', clientId: 'e020ea474eadb81232f488287ff3257a', clientSecret: 'secret-1' },
        { name: 'Lab Defender', vendor: 'defender', tenantId: 'lab.onmicrosoft.com', clientSecret: 'secret-2', pollIntervalMinutes: 5 },
        { vendor: 'crowdstrike', tenantId: 'ef4313c4cf79ca8d09ee095a6b9bc5ad' },
        { name: 'Beta Falcon', vendor: 'falcon', tenantId: 'de55986808d0f44c61a1a4ab99ec1ab6', clientId: 'd13b4c1d38ec1159041850ec156921d2' },
      ],
    });
    expect(await within(dialog).findByTestId('import-summary')).toHaveTextContent('4 entries: 1 created, 0 updated, 3 refused.');
    expect(within(dialog).getByTestId('import-result-1')).toHaveTextContent(/#1\s*Alpha Falcon/);

    const lab = within(dialog).getByTestId('import-result-2');
    expect(lab).toHaveTextContent(/#2\s*Lab Defender/);
    expect(lab).toHaveTextContent('lab.onmicrosoft.com');
    expect(within(lab).getByText(/^Enter the client ID\./)).toBeVisible();
    expect(within(lab).getByText(/^The poll interval is at least 10 minutes \(the vendors' limits\)\./)).toBeVisible();

    const unknown = within(dialog).getByTestId('import-result-3');
    expect(unknown).toHaveTextContent('#3');
    expect(unknown).toHaveTextContent('ef4313c4cf79ca8d09ee095a6b9bc5ad');
    expect(within(unknown).getByText(/^Choose a vendor: CrowdStrike Falcon or Microsoft Defender\./)).toBeVisible();

    // Main's client-secret rule, in the same words as the form's.
    expect(within(within(dialog).getByTestId('import-result-4')).getByText(/^Enter the client secret\./)).toBeVisible();
    expect(dialog).not.toHaveTextContent(/Invalid input|Invalid discriminator|expected 1/);
  });

  it('a document of another version is refused in words', async () => {
    const main = await MainBridge.start(noPolls);
    const dialog = await upload(main, { version: 2, connectors: [{}] });
    const failure = await within(dialog).findByTestId('import-failure');
    expect(failure).toHaveTextContent("The connector document is not valid: The document's version must be 1.");
    expect(failure).not.toHaveTextContent('Invalid input');
    expect(await main.call('connectors.list')).toEqual([]);
  });
});
