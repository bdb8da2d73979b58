// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../renderer/api/keys';
import { expiryText } from '../../../renderer/components/format';
import type { Bridge } from '../../../shared/contract';
import { MainBridge } from './support/main-bridge';
import { renderApp } from './support/render';
import { rowAction } from './support/row-menu';

async function mainWithNode() {
  const main = await MainBridge.start();
  const node = await main.node();
  return { main, node };
}

describe('events keep the UI current', () => {
  it('session.changed updates the row badge and the header badge', async () => {
    const { main, node } = await mainWithNode();
    const core = await main.addNodeProfile(node, { name: 'Core', authMode: 'oauth', signIn: false });
    const { queryClient } = renderApp(main);
    const badge = within(await screen.findByTestId('profile-row-Core')).getByTestId('session-badge');
    await waitFor(() => expect(queryClient.getQueryData(keys.sessions)).toHaveLength(1));
    expect(badge).toHaveTextContent('Signed out');
    expect(screen.getByTestId('active-session-badge')).toHaveTextContent('Signed out');

    // Signed in outside the window (e.g. by a refresh in main): the event alone updates the badges.
    const signedAt = Date.now();
    const signedIn = await main.call('session.signIn', { profileId: core.id });
    expect(signedIn.accessTokenExpiresAt).toBeTruthy();
    await waitFor(() => expect(badge).toHaveAttribute('data-state', 'signed-in'));
    // What the badge says of main's expiry time, read at the sign-in or now (a minute may turn in between).
    const said = [expiryText(signedIn.accessTokenExpiresAt, signedAt), expiryText(signedIn.accessTokenExpiresAt, Date.now())].map((e) => `Signed in · ${e}`);
    expect(said).toContain(badge.textContent);
    expect(said).toContain(screen.getByTestId('active-session-badge').textContent);

    // The node issues tokens that never expire.
    await main.call('session.signOut', { profileId: core.id });
    await main.sim(node).set('faults.neverExpire', true);
    await main.call('session.signIn', { profileId: core.id });
    await waitFor(() => expect(badge).toHaveTextContent('Signed in · no expiry'));
    // No refetch was needed: the events wrote the cache.
    expect(main.callsTo('session.list')).toHaveLength(1);
  });

  it('a basic session whose password changed on the node asks for sign-in, with the reason', async () => {
    const { main, node } = await mainWithNode();
    const core = await main.addNodeProfile(node, { name: 'Core', authMode: 'basic' });
    const { user } = renderApp(main);
    const row = await screen.findByTestId('profile-row-Core');
    await waitFor(() => expect(within(row).getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in'));
    const admin = node.users.find((u) => u.role === 'admin')!;
    await main.sim(node).call('setUserPassword', admin.username, 'changed-on-the-node-1');
    // The next call to the node is refused; main moves the session on.
    const ended = main.next('session.changed', (s) => s.profileId === core.id && s.state === 'sign-in-required');
    await user.click(await screen.findByRole('link', { name: /^Devices/ }));
    await user.click(await screen.findByRole('button', { name: 'Refresh' }));
    const event = await ended;
    await user.click(screen.getByRole('link', { name: /^Connections/ }));
    const again = await screen.findByTestId('profile-row-Core');
    await waitFor(() => expect(within(again).getByTestId('session-badge')).toHaveAttribute('data-state', 'sign-in-required'));
    expect(within(again).getByTestId('session-badge')).toHaveTextContent('Sign-in required');
    expect(event.error?.message).toBeTruthy();
    expect(within(again).getByText(event.error!.message)).toBeVisible();
    expect(within(again).getByRole('button', { name: 'Sign in' })).toBeEnabled();
  });

  it('an event that races the first session list is not overwritten by it', async () => {
    const { main, node } = await mainWithNode();
    const core = await main.addNodeProfile(node, { name: 'Core', signIn: false });
    // The window's first session.list is answered (signed out) only after the sign-in event went out.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let listAnswered!: () => void;
    const answered = new Promise<void>((r) => (listAnswered = r));
    const slowList: Bridge = {
      invoke: async (channel, request) => {
        const answer = await main.invoke(channel, request);
        if (channel === 'session.list') {
          await held;
          setTimeout(listAnswered, 0);
        }
        return answer;
      },
      on: (event, listener) => main.on(event, listener),
    };
    const { queryClient } = renderApp(main, { transport: slowList });
    await waitFor(() => expect(main.callsTo('session.list')).toHaveLength(1));
    await main.call('session.signIn', { profileId: core.id });
    const row = await screen.findByTestId('profile-row-Core');
    await waitFor(() => expect(within(row).getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in'));
    release();
    await answered;
    await waitFor(() => expect(queryClient.getQueryState(keys.sessions)?.status).toBe('success'));
    expect(within(row).getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in');
  });

  it('sign in and sign out go through the contract and flip the button', async () => {
    const { main, node } = await mainWithNode();
    const core = await main.addNodeProfile(node, { name: 'Core', signIn: false });
    const { user } = renderApp(main);
    const row = await screen.findByTestId('profile-row-Core');
    await user.click(within(row).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(within(row).getByTestId('session-badge')).toHaveTextContent(/^Signed in$/));
    // The badge follows main's event; the button waits for the sign-in's own answer (a click on it disabled does nothing).
    await waitFor(() => expect(within(row).getByRole('button', { name: 'Sign out' })).toBeEnabled());
    await user.click(within(row).getByRole('button', { name: 'Sign out' }));
    // Signing out asks first (work that needs the node stops), Cancel focused.
    const ask = await screen.findByTestId('confirm-dialog');
    expect(ask).toHaveAccessibleName('Sign out of Core?');
    expect(within(ask).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(main.callsTo('session.signOut')).toHaveLength(0);
    await user.click(within(ask).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(within(row).getByTestId('session-badge')).toHaveTextContent('Signed out'));
    expect(main.callsTo('session.signIn')).toEqual([{ profileId: core.id }]);
    expect(main.callsTo('session.signOut')).toEqual([{ profileId: core.id }]);
    expect((await main.call('session.list'))[0]?.state).toBe('signed-out');
  });

  it('profiles.changed refetches the list', async () => {
    const { main, node } = await mainWithNode();
    await main.addNodeProfile(node, { name: 'Core', signIn: false });
    renderApp(main);
    await screen.findByTestId('profile-row-Core');
    const listed = main.callsTo('profiles.list').length;
    // Saved outside the window (the CLI, another window): main's event brings it in.
    await main.addNodeProfile(node, { name: 'Branch', signIn: false });
    expect(await screen.findByTestId('profile-row-Branch')).toBeInTheDocument();
    expect(main.callsTo('profiles.list').length).toBeGreaterThan(listed);
  });

  it('a notice from main becomes a toast with its hint', async () => {
    const { main, node } = await mainWithNode();
    const core = await main.addNodeProfile(node, { name: 'Core' });
    // The node serves its devices but not their state: main refreshes and says so in a notice.
    await main.sim(node).set('faults.failingPaths', ['/mgmt/appliance/']);
    renderApp(main);
    await screen.findByTestId('profile-row-Core');
    const notice = main.next('notice', (n) => n.code === 'inventory.appliances_failed');
    await main.call('inventory.refresh', { profileId: core.id });
    const { message, hint } = await notice;
    expect(await screen.findByText(message)).toBeInTheDocument();
    expect(screen.getByText(hint!)).toBeInTheDocument();
  });

  it("failed calls show main's message and hint, never a stack", async () => {
    const { main, node } = await mainWithNode();
    // A connection saved without its password: main has nothing to sign in with.
    await main.call('profiles.save', { name: 'Core', host: '127.0.0.1', basicPort: node.basicPort, oauthPort: node.oauthPort, authMode: 'basic', username: 'admin', tls: { mode: 'system' } });
    const { user } = renderApp(main);
    await user.click(within(await screen.findByTestId('profile-row-Core')).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(main.answersTo('session.signIn')).toHaveLength(1));
    const [failed] = main.answersTo('session.signIn');
    expect(failed?.ok).toBe(false);
    expect(await screen.findByText(failed!.error!.message, { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
    expect(screen.getByText(failed!.error!.hint, { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/at \w+ \(|\.tsx?:\d+/);
  });

  it('Test reports latency and detail', async () => {
    const { main, node } = await mainWithNode();
    await main.addNodeProfile(node, { name: 'Core', signIn: false });
    const { user } = renderApp(main);
    await rowAction(user, await screen.findByTestId('profile-row-Core'), 'Test connection');
    await waitFor(() => expect(main.answersTo('profiles.test')).toHaveLength(1));
    const tested = main.answersTo('profiles.test')[0]!.value as { latencyMs: number; detail: string; authenticated: boolean };
    expect(tested.authenticated).toBe(true);
    expect(await screen.findByText(`Core: reachable and signed in (${Math.round(tested.latencyMs)} ms)`)).toBeInTheDocument();
    expect(screen.getByText(tested.detail)).toBeInTheDocument();
  });

  it('Delete asks first, then removes the row', async () => {
    const { main, node } = await mainWithNode();
    const core = await main.addNodeProfile(node, { name: 'Core', signIn: false });
    await main.addNodeProfile(node, { name: 'Edge', signIn: false });
    const { user } = renderApp(main);
    await rowAction(user, await screen.findByTestId('profile-row-Core'), 'Delete');
    const confirm = await screen.findByRole('alertdialog', { name: 'Delete Core?' });
    expect(main.callsTo('profiles.delete')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('profile-row-Core')).toBeNull());
    expect(main.callsTo('profiles.delete')).toEqual([{ profileId: core.id }]);
    expect(screen.getByTestId('profile-row-Edge')).toBeInTheDocument();
    expect((await main.call('profiles.list')).map((p) => p.name)).toEqual(['Edge']);
  });
});
