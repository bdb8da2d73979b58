// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MainBridge } from './support/main-bridge';
import { renderApp } from './support/render';

/** A connection "Ops node" to a simulator that already sends syslog to 10.0.0.5:514. */
async function openSyslog(signedIn = true) {
  const main = await MainBridge.start();
  const node = await main.node();
  const ops = await main.addNodeProfile(node, { name: 'Ops node' });
  await main.call('syslog.create', { profileId: ops.id, server: { host: '10.0.0.5', port: 514, enabled: true } });
  if (!signedIn) await main.call('session.signOut', { profileId: ops.id });
  const r = renderApp(main);
  await r.user.click(await screen.findByRole('tab', { name: 'Syslog servers' }));
  return { ...r, main, ops };
}

describe('Syslog servers tab', () => {
  it('lists the servers of the node and adds one', async () => {
    const { user, main, ops } = await openSyslog();
    expect(await screen.findByTestId('syslog-row-10.0.0.5:514')).toHaveTextContent('enabled');
    const form = screen.getByTestId('syslog-form');
    await user.type(within(form).getByLabelText('Host'), 'logs.example.net');
    await user.clear(within(form).getByLabelText('Port'));
    await user.type(within(form).getByLabelText('Port'), '6514');
    await user.click(within(form).getByRole('switch', { name: 'Enabled' }));
    await user.click(within(form).getByRole('button', { name: 'Add server' }));
    expect(await screen.findByTestId('syslog-row-logs.example.net:6514')).toHaveTextContent('disabled');
    expect(main.callsTo('syslog.create')).toEqual([{ profileId: ops.id, server: { host: 'logs.example.net', port: 6514, enabled: false } }]);
    expect(await main.call('syslog.list', { profileId: ops.id })).toEqual(expect.arrayContaining([{ host: 'logs.example.net', port: 6514, enabled: false }]));
    expect(within(form).getByLabelText('Host')).toHaveValue('');
  });

  it('checks the port with the shared schema before sending', async () => {
    const { user, main } = await openSyslog();
    const form = await screen.findByTestId('syslog-form');
    await user.type(within(form).getByLabelText('Host'), 'logs.example.net');
    await user.clear(within(form).getByLabelText('Port'));
    await user.type(within(form).getByLabelText('Port'), '70000');
    await user.click(within(form).getByRole('button', { name: 'Add server' }));
    expect(await within(form).findByText('The port is at most 65535.')).toBeVisible();
    expect(within(form).getByLabelText('Port')).toHaveAttribute('aria-invalid', 'true');
    await user.clear(within(form).getByLabelText('Port'));
    expect(await within(form).findByText('Enter the port (1 to 65535).')).toBeVisible();
    expect(main.callsTo('syslog.create')).toHaveLength(0);
  });

  it('refuses a host the list already shows in the window, before any request', async () => {
    const { user, main } = await openSyslog();
    await screen.findByTestId('syslog-row-10.0.0.5:514');
    const form = screen.getByTestId('syslog-form');
    await user.type(within(form).getByLabelText('Host'), ' 10.0.0.5');
    await user.click(within(form).getByRole('button', { name: 'Add server' }));
    await waitFor(() => expect(within(form).getByLabelText('Host')).toHaveAccessibleDescription('A syslog server for 10.0.0.5 is configured already.'));
    expect(within(form).getByLabelText('Host')).toHaveAttribute('aria-invalid', 'true');
    expect(main.callsTo('syslog.create')).toHaveLength(0);
  });

  it('shows the node refusing a server it already has under the field it names, keeping what was typed', async () => {
    const { user, main, ops } = await openSyslog();
    await screen.findByTestId('syslog-row-10.0.0.5:514');
    // Added behind the window's back: the window's list does not show it, the node refuses it.
    await main.call('syslog.create', { profileId: ops.id, server: { host: '10.0.0.9', port: 514, enabled: true } });
    const form = screen.getByTestId('syslog-form');
    await user.type(within(form).getByLabelText('Host'), '10.0.0.9');
    await user.click(within(form).getByRole('button', { name: 'Add server' }));
    const host = within(form).getByLabelText('Host');
    // The node refuses it; main names the field.
    await waitFor(() => expect(main.answersTo('syslog.create')).toHaveLength(1));
    const refused = main.answersTo('syslog.create')[0]!;
    const issue = (refused.error as { details?: { issues?: Array<{ path: string; message: string }> } }).details?.issues?.find((i) => i.path === 'host');
    expect(issue?.message).toMatch(/10\.0\.0\.9/);
    expect(await within(form).findByText(issue!.message)).toBeVisible();
    expect(host).toHaveAttribute('aria-invalid', 'true');
    expect(host).toHaveAccessibleDescription(issue!.message);
    expect(host).toHaveValue('10.0.0.9');
  });

  it('asks to sign in when the session is not open', async () => {
    await openSyslog(false);
    expect(await screen.findByText(/sign in to Ops node to see and add them/)).toBeVisible();
    expect(within(screen.getByTestId('syslog-form')).getByRole('button', { name: 'Add server' })).toBeDisabled();
  });
});
