// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MainBridge } from './support/main-bridge';
import { renderApp } from './support/render';
import { rowAction } from './support/row-menu';

const dialog = () => screen.getByTestId('profile-form');

describe('connection profile form', () => {
  it('shows the zod messages under the fields and does not send an invalid profile', async () => {
    const main = await MainBridge.start();
    const { user } = renderApp(main);
    await user.click(await screen.findByRole('button', { name: 'Add a management node' }));
    await user.clear(within(dialog()).getByLabelText('Basic port'));
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));

    expect(await within(dialog()).findByText('Give the connection a name.')).toBeVisible();
    expect(within(dialog()).getByText('Enter the management node host name or address.')).toBeVisible();
    expect(within(dialog()).getByText('Enter the user name.')).toBeVisible();
    expect(within(dialog()).getByText('Enter a port number.')).toBeVisible();
    expect(within(dialog()).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog()).getByLabelText('Name')).toHaveAccessibleDescription('Give the connection a name.');
    expect(main.callsTo('profiles.save')).toHaveLength(0);

    await user.type(within(dialog()).getByLabelText('Host'), 'https://mgmt.example.net/');
    expect(await within(dialog()).findByText('Enter a host name or IP address, without https:// or a path.')).toBeVisible();
  });

  it('asks for the OAuth client ID only in OAuth mode', async () => {
    const { user } = renderApp(await MainBridge.start());
    await user.click(await screen.findByRole('button', { name: 'Add a management node' }));
    expect(within(dialog()).queryByLabelText('OAuth client ID')).toBeNull();
    await user.selectOptions(within(dialog()).getByLabelText('Auth mode'), 'oauth');
    expect(within(dialog()).getByLabelText('OAuth client ID')).toBeVisible();
    expect(within(dialog()).getByLabelText('OAuth client secret')).toBeVisible();
    await user.type(within(dialog()).getByLabelText('Name'), 'Lab');
    await user.type(within(dialog()).getByLabelText('Host'), 'lab.example.net');
    await user.type(within(dialog()).getByLabelText('Username'), 'admin');
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    expect(await within(dialog()).findByText('OAuth sign-in needs the client ID of an OAuth client on the node.')).toBeVisible();
  });

  it('refuses a name another connection has in the window, before any request', async () => {
    const main = await MainBridge.start();
    await main.addNodeProfile(await main.node(), { name: 'Core', signIn: false });
    const { user } = renderApp(main);
    await user.click(await screen.findByRole('button', { name: 'Add connection' }));
    await user.type(within(dialog()).getByLabelText('Name'), 'core');
    await user.type(within(dialog()).getByLabelText('Host'), '10.0.0.5');
    await user.type(within(dialog()).getByLabelText('Username'), 'ops{Enter}');
    // Main's own rule (shared/model/profile.ts), applied to the list the window shows.
    await waitFor(() => expect(within(dialog()).getByLabelText('Name')).toHaveAccessibleDescription('This name is already used by another connection.'));
    expect(within(dialog()).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(main.callsTo('profiles.save')).toHaveLength(0);
  });

  it('keeps everything typed when main rejects the save, with the error under the field', async () => {
    const main = await MainBridge.start();
    const { user } = renderApp(main);
    await user.click(await screen.findByRole('button', { name: 'Add a management node' }));
    await user.type(within(dialog()).getByLabelText('Name'), 'Edge');
    await user.type(within(dialog()).getByLabelText('Host'), '10.0.0.5');
    await user.type(within(dialog()).getByLabelText('Username'), 'ops');
    await user.type(within(dialog()).getByLabelText('Password'), 'hunter2');
    // Only main can read a certificate: this file looks like PEM to the window but holds none.
    await user.click(within(dialog()).getByLabelText(/Custom CA file/));
    const bogus = '-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n';
    await user.upload(within(dialog()).getByLabelText('CA certificate file (PEM)'), new File([bogus], 'not-a-ca.pem', { type: 'application/x-pem-file' }));
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(main.answersTo('profiles.save')).toHaveLength(1));
    const refused = main.answersTo('profiles.save')[0]!;
    expect(refused.ok).toBe(false);
    const issue = (refused.error as { details?: { issues?: Array<{ path: string; message: string }> } }).details?.issues?.find((i) => i.path === 'tls.caPem');
    expect(issue?.message).toBeTruthy();
    await waitFor(() => expect(within(dialog()).getByLabelText('CA certificate file (PEM)')).toHaveAccessibleDescription(issue!.message));
    expect(within(dialog()).getByLabelText('CA certificate file (PEM)')).toHaveAttribute('aria-invalid', 'true');
    // The toast carries main's message and hint.
    expect(await screen.findByText(refused.error!.message, { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
    expect(screen.getByText(refused.error!.hint, { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
    expect(within(dialog()).getByLabelText('Name')).toHaveValue('Edge');
    expect(within(dialog()).getByLabelText('Host')).toHaveValue('10.0.0.5');
    expect(within(dialog()).getByLabelText('Username')).toHaveValue('ops');
    expect(within(dialog()).getByLabelText('Password')).toHaveValue('hunter2');
    expect(main.callsTo('profiles.save')).toHaveLength(1);

    await user.click(within(dialog()).getByLabelText(/System CAs/));
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByTestId('profile-form')).toBeNull());
    expect(await screen.findByTestId('profile-row-Edge')).toBeInTheDocument();
    expect(main.callsTo('profiles.save')[1]).toMatchObject({ name: 'Edge', host: '10.0.0.5', basicPort: 9182, oauthPort: 9183, authMode: 'basic', username: 'ops', password: 'hunter2', tls: { mode: 'system' } });
    const edge = (await main.call('profiles.list')).find((p) => p.name === 'Edge');
    expect(edge).toMatchObject({ host: '10.0.0.5', username: 'ops', hasPassword: true, tls: { mode: 'system' } });
  });

  it('treats secrets as write-only: "•••• stored" placeholder, empty keeps them', async () => {
    const main = await MainBridge.start();
    const node = await main.node();
    const core = await main.addNodeProfile(node, { name: 'Core', authMode: 'oauth', signIn: false });
    expect(core).toMatchObject({ hasPassword: true, hasClientSecret: true });
    const { user } = renderApp(main);
    await rowAction(user, await screen.findByTestId('profile-row-Core'), 'Edit');
    const password = within(await screen.findByTestId('profile-form')).getByLabelText('Password');
    expect(password).toHaveValue('');
    expect(password).toHaveAttribute('placeholder', '•••• stored');
    expect(within(dialog()).getByLabelText('OAuth client secret')).toHaveAttribute('placeholder', '•••• stored');
    expect(within(dialog()).getByLabelText('OAuth client ID')).toHaveValue(node.bootstrapClient.clientId);
    await user.clear(within(dialog()).getByLabelText('Username'));
    await user.type(within(dialog()).getByLabelText('Username'), 'operator-2');
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(main.callsTo('profiles.save')).toHaveLength(1));
    const sent = main.callsTo('profiles.save')[0] as Record<string, unknown>;
    expect(sent).toMatchObject({ id: core.id, username: 'operator-2', oauthClientId: node.bootstrapClient.clientId });
    expect(sent).not.toHaveProperty('password');
    expect(sent).not.toHaveProperty('clientSecret');
    // Main kept both secrets (same endpoint, same trust).
    await waitFor(() => expect(main.answersTo('profiles.save')).toHaveLength(1));
    expect((await main.call('profiles.list'))[0]).toMatchObject({ username: 'operator-2', hasPassword: true, hasClientSecret: true });
  });

  it('offers the three TLS trust modes and requires the CA file for a custom CA', async () => {
    const { user } = renderApp(await MainBridge.start());
    await user.click(await screen.findByRole('button', { name: 'Add a management node' }));
    expect(within(dialog()).getByLabelText(/System CAs/)).toBeChecked();
    expect(within(dialog()).getByLabelText(/Pin certificate \(trust on first use\)/)).not.toBeChecked();
    await user.click(within(dialog()).getByLabelText(/Custom CA file/));
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    expect(await within(dialog()).findByText('Choose the CA certificate file (PEM).')).toBeVisible();
  });

  it('asks before dropping what was typed (Escape, the close button, Cancel); untouched it just closes', async () => {
    const main = await MainBridge.start();
    const { user } = renderApp(main);
    await user.click(await screen.findByRole('button', { name: 'Add a management node' }));
    await user.type(within(dialog()).getByLabelText('Name'), 'Half typed');
    for (const close of [() => user.keyboard('{Escape}'), () => user.click(within(dialog()).getByRole('button', { name: 'Close' })), () => user.click(within(dialog()).getByRole('button', { name: 'Cancel' }))]) {
      await close();
      const ask = await screen.findByTestId('confirm-discard');
      expect(ask).toHaveAccessibleName('Discard changes?');
      expect(within(ask).getByRole('button', { name: 'Keep editing' })).toHaveFocus();
      await user.click(within(ask).getByRole('button', { name: 'Keep editing' }));
      expect(within(dialog()).getByLabelText('Name')).toHaveValue('Half typed');
    }
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    await user.click(within(await screen.findByTestId('confirm-discard')).getByRole('button', { name: 'Discard' }));
    expect(screen.queryByTestId('profile-form')).toBeNull();
    expect(main.callsTo('profiles.save')).toHaveLength(0);
  });

  it('closes with Escape', async () => {
    const { user } = renderApp(await MainBridge.start());
    await user.click(await screen.findByRole('button', { name: 'Add a management node' }));
    expect(dialog()).toBeVisible();
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('profile-form')).toBeNull();
  });
});
