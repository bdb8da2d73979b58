// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeBridge, makeProfile } from './support/fake-bridge';
import { renderApp } from './support/render';

async function openSyslog(signedIn = true) {
  const b = new FakeBridge({
    profiles: [makeProfile({ id: 'ops', name: 'Ops node' })],
    sessions: signedIn ? [{ profileId: 'ops', state: 'signed-in', authMode: 'basic', username: 'operator' }] : [],
    inventory: { syslog: { ops: [{ host: '10.0.0.5', port: 514, enabled: true }] } },
  });
  const r = renderApp(b);
  await r.user.click(await screen.findByRole('tab', { name: 'Syslog servers' }));
  return { ...r, bridge: b };
}

describe('Syslog servers tab', () => {
  it('lists the servers of the node and adds one', async () => {
    const { user, bridge } = await openSyslog();
    expect(await screen.findByTestId('syslog-row-10.0.0.5:514')).toHaveTextContent('enabled');
    const form = screen.getByTestId('syslog-form');
    await user.type(within(form).getByLabelText('Host'), 'logs.example.net');
    await user.clear(within(form).getByLabelText('Port'));
    await user.type(within(form).getByLabelText('Port'), '6514');
    await user.click(within(form).getByRole('switch', { name: 'Enabled' }));
    await user.click(within(form).getByRole('button', { name: 'Add server' }));
    expect(await screen.findByTestId('syslog-row-logs.example.net:6514')).toHaveTextContent('disabled');
    expect(bridge.callsTo('syslog.create')).toEqual([{ profileId: 'ops', server: { host: 'logs.example.net', port: 6514, enabled: false } }]);
    expect(within(form).getByLabelText('Host')).toHaveValue('');
  });

  it('checks the port with the shared schema before sending', async () => {
    const { user, bridge } = await openSyslog();
    const form = await screen.findByTestId('syslog-form');
    await user.type(within(form).getByLabelText('Host'), 'logs.example.net');
    await user.clear(within(form).getByLabelText('Port'));
    await user.type(within(form).getByLabelText('Port'), '70000');
    await user.click(within(form).getByRole('button', { name: 'Add server' }));
    expect(await within(form).findByText('The port is at most 65535.')).toBeVisible();
    expect(within(form).getByLabelText('Port')).toHaveAttribute('aria-invalid', 'true');
    await user.clear(within(form).getByLabelText('Port'));
    expect(await within(form).findByText('Enter the port (1 to 65535).')).toBeVisible();
    expect(bridge.callsTo('syslog.create')).toHaveLength(0);
  });

  it('shows the node refusing the port under Port, keeping what was typed', async () => {
    const { user } = await openSyslog();
    const form = await screen.findByTestId('syslog-form');
    await user.type(within(form).getByLabelText('Host'), '10.0.0.5');
    await user.click(within(form).getByRole('button', { name: 'Add server' }));
    const port = within(form).getByLabelText('Port');
    expect(await within(form).findByText('10.0.0.5 already receives syslog on port 514.')).toBeVisible();
    expect(port).toHaveAttribute('aria-invalid', 'true');
    expect(port).toHaveAccessibleDescription('10.0.0.5 already receives syslog on port 514.');
    expect(within(form).getByLabelText('Host')).toHaveValue('10.0.0.5');
    expect(screen.getAllByRole('row')).toHaveLength(2);
  });

  it('asks to sign in when the session is not open', async () => {
    await openSyslog(false);
    expect(await screen.findByText(/sign in to Ops node to see and add them/)).toBeVisible();
    expect(within(screen.getByTestId('syslog-form')).getByRole('button', { name: 'Add server' })).toBeDisabled();
  });
});
