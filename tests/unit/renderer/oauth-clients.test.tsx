// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { defaultOAuthClientBody } from '../../../shared/model/oauth-client';
import { MainBridge } from './support/main-bridge';
import { renderApp } from './support/render';
import { rowAction } from './support/row-menu';

/** Main with an OAuth connection "Ops" to a simulator, as its admin. */
async function opsNode(signIn = true) {
  const main = await MainBridge.start();
  const node = await main.node();
  const ops = await main.addNodeProfile(node, { name: 'Ops', authMode: 'oauth', signIn });
  return { main, node, ops };
}

async function openClients(main: MainBridge) {
  const r = renderApp(main);
  await rowAction(r.user, await screen.findByTestId('profile-row-Ops'), 'OAuth clients');
  await waitFor(() => expect(screen.getByRole('tab', { name: 'OAuth clients' })).toHaveAttribute('aria-selected', 'true'));
  return r;
}

describe('OAuth clients', () => {
  it('validates every field with OAuthClientBody and shows the errors per field', async () => {
    const { main } = await opsNode();
    const { user } = await openClients(main);
    await user.click(await screen.findByRole('button', { name: 'New client' }));
    const form = screen.getByTestId('oauth-client-form');
    await user.type(within(form).getByLabelText('Name'), 'bad name!');
    await user.clear(within(form).getByLabelText('Access token validity (seconds)'));
    await user.type(within(form).getByLabelText('Access token validity (seconds)'), '30');
    await user.click(within(form).getByLabelText(/^password/));
    await user.click(within(form).getByLabelText(/IP address list/));
    await user.type(within(form).getByLabelText('Address 1'), '300.1.1.1');
    await user.click(within(form).getByRole('button', { name: 'Add contact' }));
    await user.type(within(form).getByLabelText('Contact 1'), 'not-an-email');
    await user.click(within(form).getByRole('button', { name: 'Add redirect URI' }));
    await user.type(within(form).getByLabelText('Redirect URI 1'), '/relative');
    await user.click(within(form).getByRole('button', { name: 'Create client' }));

    expect(await within(form).findByText('Use letters, digits, dot, dash and underscore only.')).toBeVisible();
    expect(within(form).getByText('Access token validity must be at least 60 seconds.')).toBeVisible();
    expect(within(form).getByText('refresh_token is only useful together with password.')).toBeVisible();
    expect(within(form).getByText('Each entry must be an IPv4 or IPv6 address, optionally with a /prefix.')).toBeVisible();
    expect(within(form).getByText('Contacts are e-mail addresses.')).toBeVisible();
    expect(within(form).getByText('Redirect URIs must be absolute URLs.')).toBeVisible();
    expect(within(form).getByLabelText('Address 1')).toHaveAttribute('aria-invalid', 'true');
    expect(main.callsTo('oauthClients.create')).toHaveLength(0);
    // typed values are kept
    expect(within(form).getByLabelText('Name')).toHaveValue('bad name!');
  });

  it('creates a client with every field and shows the secret once, with copy buttons', async () => {
    const { main, node, ops } = await opsNode();
    const { user } = await openClients(main);
    await user.click(await screen.findByRole('button', { name: 'New client' }));
    const form = screen.getByTestId('oauth-client-form');
    await user.type(within(form).getByLabelText('Name'), 'noc-dashboard');
    await user.type(within(form).getByLabelText('Description'), 'NOC wall screens');
    await user.type(within(form).getByLabelText('Client expires'), '2027-01-31T09:30');
    await user.clear(within(form).getByLabelText('Access token validity (seconds)'));
    await user.type(within(form).getByLabelText('Access token validity (seconds)'), '5400');
    expect(within(form).getByText('= 1 h 30 min')).toBeVisible();
    expect(within(form).getByText('= 1 d')).toBeVisible();
    await user.click(within(form).getByLabelText(/IP address list/));
    await user.type(within(form).getByLabelText('Address 1'), '10.1.0.0/16');
    await user.click(within(form).getByRole('switch', { name: 'Enabled' }));
    await user.type(within(form).getByLabelText('Software ID'), 'noc-wall');
    await user.type(within(form).getByLabelText('Software version'), '2.1');
    await user.click(within(form).getByRole('button', { name: 'Add contact' }));
    await user.type(within(form).getByLabelText('Contact 1'), 'noc@example.net');
    await user.click(within(form).getByRole('button', { name: 'Create client' }));

    const created = await screen.findByRole('alertdialog', { name: /Client “noc-dashboard” created/ });
    // What the node issued, as main passed it on.
    const answer = main.answersTo('oauthClients.create')[0]!;
    const { client, clientSecret } = answer.value as { client: { client_id: string }; clientSecret: string };
    const onNode = await main.sim(node).call<Record<string, unknown>>('getClient', client.client_id);
    expect(onNode).toMatchObject({ name: 'noc-dashboard', access_token_validity: 5400 });
    expect(within(created).getByText('This secret is shown once. Store it now.')).toBeVisible();
    expect(within(created).getByTestId('created-client-secret')).toHaveTextContent(clientSecret);
    expect(within(created).getByTestId('created-client-id')).toHaveTextContent(client.client_id);
    expect(screen.queryByTestId('oauth-client-form')).toBeNull();

    const [req] = main.callsTo('oauthClients.create') as { profileId: string; body: Record<string, unknown> }[];
    expect(req?.profileId).toBe(ops.id);
    expect(Object.keys(req?.body ?? {}).sort()).toEqual(Object.keys(defaultOAuthClientBody()).sort());
    expect(req?.body).toMatchObject({
      name: 'noc-dashboard',
      description: 'NOC wall screens',
      expires_at: new Date('2027-01-31T09:30').toISOString().replace('.000Z', 'Z'),
      client_secret_expires_at: '',
      access_token_validity: 5400,
      refresh_token_validity: 86400,
      allowed_grant_types: ['password', 'refresh_token'],
      allowed_source_client_address: { source_type: 'IP_ADDRESS_LIST', ip_address_list: ['10.1.0.0/16'] },
      enabled: false,
      software_id: 'noc-wall',
      software_version: '2.1',
      contacts: ['noc@example.net'],
      redirect_uris: [],
    });

    // user-event stands in for navigator.clipboard; read back what the buttons wrote.
    await user.click(within(created).getByRole('button', { name: 'Copy secret' }));
    expect(await navigator.clipboard.readText()).toBe(clientSecret);
    expect(await screen.findByText('Secret copied to the clipboard.')).toBeInTheDocument();
    await user.click(within(created).getByRole('button', { name: 'Copy client ID' }));
    expect(await navigator.clipboard.readText()).toBe(client.client_id);

    await user.click(within(created).getByRole('button', { name: 'Done' }));
    expect(screen.queryByTestId('created-client-secret')).toBeNull();
    expect(document.body.textContent).not.toContain(clientSecret);
    expect(await screen.findByTestId('oauth-client-row-noc-dashboard')).toHaveTextContent(client.client_id);
  });

  it('edits a client with oauthClients.update', async () => {
    const { main, node, ops } = await opsNode();
    const body = { ...defaultOAuthClientBody(), name: 'reporting', contacts: ['a@example.net'] };
    const { client } = await main.call('oauthClients.create', { profileId: ops.id, body });
    const { user } = await openClients(main);
    await user.click(within(await screen.findByTestId('oauth-client-row-reporting')).getByRole('button', { name: /Edit/ }));
    const form = screen.getByTestId('oauth-client-form');
    expect(within(form).getByLabelText('Contact 1')).toHaveValue('a@example.net');
    await user.clear(within(form).getByLabelText('Max access tokens'));
    await user.type(within(form).getByLabelText('Max access tokens'), '250');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByTestId('oauth-client-form')).toBeNull());
    expect(main.callsTo('oauthClients.update')).toEqual([{ profileId: ops.id, clientId: client.client_id, body: { ...body, max_access_tokens: 250 } }]);
    expect(main.callsTo('oauthClients.create')).toHaveLength(0);
    expect(await main.sim(node).call('getClient', client.client_id)).toMatchObject({ name: 'reporting', max_access_tokens: 250 });
  });

  it('asks to sign in when the OAuth session is not signed in', async () => {
    const { main } = await opsNode(false);
    await openClients(main);
    expect(await screen.findByText(/needs a signed-in session on Ops/)).toBeVisible();
  });
});
