// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeBridge, makeProfile } from './support/fake-bridge';
import { renderApp } from './support/render';

const dialog = () => screen.getByTestId('profile-form');

describe('connection profile form', () => {
  it('shows the zod messages under the fields and does not send an invalid profile', async () => {
    const { user, bridge } = renderApp(new FakeBridge());
    await user.click(await screen.findByRole('button', { name: 'Add a management node' }));
    await user.clear(within(dialog()).getByLabelText('Basic port'));
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));

    expect(await within(dialog()).findByText('Give the connection a name.')).toBeVisible();
    expect(within(dialog()).getByText('Enter the management node host name or address.')).toBeVisible();
    expect(within(dialog()).getByText('Enter the user name.')).toBeVisible();
    expect(within(dialog()).getByText('Enter a port number.')).toBeVisible();
    expect(within(dialog()).getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(within(dialog()).getByLabelText('Name')).toHaveAccessibleDescription('Give the connection a name.');
    expect(bridge.callsTo('profiles.save')).toHaveLength(0);

    await user.type(within(dialog()).getByLabelText('Host'), 'https://mgmt.example.net/');
    expect(await within(dialog()).findByText('Enter a host name or IP address, without https:// or a path.')).toBeVisible();
  });

  it('asks for the OAuth client ID only in OAuth mode', async () => {
    const { user } = renderApp(new FakeBridge());
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

  it('keeps everything typed when main rejects the save, with the error under the field', async () => {
    const bridge = new FakeBridge({ profiles: [makeProfile({ name: 'Core' })] });
    const { user } = renderApp(bridge);
    await user.click(await screen.findByRole('button', { name: 'Add connection' }));
    await user.type(within(dialog()).getByLabelText('Name'), 'core');
    await user.type(within(dialog()).getByLabelText('Host'), '10.0.0.5');
    await user.type(within(dialog()).getByLabelText('Username'), 'ops');
    await user.type(within(dialog()).getByLabelText('Password'), 'hunter2{Enter}');

    expect(await within(dialog()).findByText('This name is already used by another connection.')).toBeVisible();
    // The toast carries message and hint.
    expect(await screen.findByText('A connection named "core" already exists.')).toBeInTheDocument();
    expect(screen.getByText('Choose another name.')).toBeInTheDocument();
    expect(within(dialog()).getByLabelText('Name')).toHaveValue('core');
    expect(within(dialog()).getByLabelText('Host')).toHaveValue('10.0.0.5');
    expect(within(dialog()).getByLabelText('Username')).toHaveValue('ops');
    expect(within(dialog()).getByLabelText('Password')).toHaveValue('hunter2');
    expect(bridge.callsTo('profiles.save')).toHaveLength(1);

    await user.clear(within(dialog()).getByLabelText('Name'));
    await user.type(within(dialog()).getByLabelText('Name'), 'Edge{Enter}');
    await waitFor(() => expect(screen.queryByTestId('profile-form')).toBeNull());
    expect(await screen.findByTestId('profile-row-Edge')).toBeInTheDocument();
    expect(bridge.callsTo('profiles.save')[1]).toMatchObject({ name: 'Edge', host: '10.0.0.5', basicPort: 9182, oauthPort: 9183, authMode: 'basic', username: 'ops', password: 'hunter2', tls: { mode: 'system' } });
  });

  it('treats secrets as write-only: "•••• stored" placeholder, empty keeps them', async () => {
    const bridge = new FakeBridge({ profiles: [makeProfile({ id: 'p1', name: 'Core', authMode: 'oauth', oauthClientId: 'cid', hasPassword: true, hasClientSecret: true })] });
    const { user } = renderApp(bridge);
    await user.click(within(await screen.findByTestId('profile-row-Core')).getByRole('button', { name: 'Edit' }));
    const password = within(dialog()).getByLabelText('Password');
    expect(password).toHaveValue('');
    expect(password).toHaveAttribute('placeholder', '•••• stored');
    expect(within(dialog()).getByLabelText('OAuth client secret')).toHaveAttribute('placeholder', '•••• stored');
    expect(within(dialog()).getByLabelText('OAuth client ID')).toHaveValue('cid');
    await user.clear(within(dialog()).getByLabelText('Host'));
    await user.type(within(dialog()).getByLabelText('Host'), 'core2.example.net');
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(bridge.callsTo('profiles.save')).toHaveLength(1));
    const sent = bridge.callsTo('profiles.save')[0] as Record<string, unknown>;
    expect(sent).toMatchObject({ id: 'p1', host: 'core2.example.net', oauthClientId: 'cid' });
    expect(sent).not.toHaveProperty('password');
    expect(sent).not.toHaveProperty('clientSecret');
  });

  it('offers the three TLS trust modes and requires the CA file for a custom CA', async () => {
    const { user } = renderApp(new FakeBridge());
    await user.click(await screen.findByRole('button', { name: 'Add a management node' }));
    expect(within(dialog()).getByLabelText(/System CAs/)).toBeChecked();
    expect(within(dialog()).getByLabelText(/Pin certificate \(trust on first use\)/)).not.toBeChecked();
    await user.click(within(dialog()).getByLabelText(/Custom CA file/));
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    expect(await within(dialog()).findByText('Choose the CA certificate file (PEM).')).toBeVisible();
  });

  it('closes with Escape', async () => {
    const { user } = renderApp(new FakeBridge());
    await user.click(await screen.findByRole('button', { name: 'Add a management node' }));
    expect(dialog()).toBeVisible();
    await user.keyboard('{Escape}');
    expect(screen.queryByTestId('profile-form')).toBeNull();
  });
});
