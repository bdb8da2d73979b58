// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { keys } from '../../../renderer/api/keys';
import { AppError } from '../../../shared/model/errors';
import { FakeBridge, makeProfile } from './support/fake-bridge';
import { renderApp } from './support/render';

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000 + 30_000).toISOString();

describe('events keep the UI current', () => {
  it('session.changed updates the row badge and the header badge', async () => {
    const bridge = new FakeBridge({ profiles: [makeProfile({ id: 'p1', name: 'Core', authMode: 'oauth', oauthClientId: 'c' })] });
    const { queryClient } = renderApp(bridge);
    const badge = within(await screen.findByTestId('profile-row-Core')).getByTestId('session-badge');
    await waitFor(() => expect(queryClient.getQueryData(keys.sessions)).toHaveLength(1));
    expect(badge).toHaveTextContent('Signed out');
    expect(screen.getByTestId('active-session-badge')).toHaveTextContent('Signed out');

    act(() => void bridge.setSession({ profileId: 'p1', state: 'signed-in', authMode: 'oauth', username: 'admin', accessTokenExpiresAt: inMinutes(54) }));
    // react-query notifies on its own tick, hence waitFor.
    await waitFor(() => expect(badge).toHaveAttribute('data-state', 'signed-in'));
    expect(badge).toHaveTextContent('Signed in · expires in 54 min');
    expect(screen.getByTestId('active-session-badge')).toHaveTextContent('Signed in · expires in 54 min');

    act(() => void bridge.setSession({ profileId: 'p1', state: 'signed-in', authMode: 'oauth', accessTokenExpiresAt: null }));
    await waitFor(() => expect(badge).toHaveTextContent('Signed in · no expiry'));

    act(() =>
      void bridge.setSession({
        profileId: 'p1',
        state: 'sign-in-required',
        authMode: 'oauth',
        error: { code: 'oauth.invalid_refresh_token', message: 'The session ended on the node.', hint: 'Sign in again.' },
      }),
    );
    await waitFor(() => expect(badge).toHaveAttribute('data-state', 'sign-in-required'));
    expect(badge).toHaveTextContent('Sign-in required');
    expect(within(screen.getByTestId('profile-row-Core')).getByText('The session ended on the node.')).toBeVisible();
    expect(within(screen.getByTestId('profile-row-Core')).getByRole('button', { name: 'Sign in' })).toBeEnabled();
    // No refetch was needed: the event wrote the cache.
    expect(bridge.callsTo('session.list')).toHaveLength(1);
  });

  it('an event that races the first session list is not overwritten by it', async () => {
    const bridge = new FakeBridge({ profiles: [makeProfile({ id: 'p1', name: 'Core' })] });
    renderApp(bridge);
    // Emitted while session.list is still in flight.
    act(() => void bridge.setSession({ profileId: 'p1', state: 'signed-in', authMode: 'basic', username: 'operator' }));
    const row = await screen.findByTestId('profile-row-Core');
    await waitFor(() => expect(within(row).getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in'));
    await new Promise((r) => setTimeout(r, 50));
    expect(within(row).getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in');
  });

  it('sign in and sign out go through the contract and flip the button', async () => {
    const bridge = new FakeBridge({ profiles: [makeProfile({ id: 'p1', name: 'Core' })] });
    const { user } = renderApp(bridge);
    const row = await screen.findByTestId('profile-row-Core');
    await user.click(within(row).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(within(row).getByTestId('session-badge')).toHaveTextContent(/^Signed in$/));
    await user.click(within(row).getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(within(row).getByTestId('session-badge')).toHaveTextContent('Signed out'));
    expect(bridge.callsTo('session.signIn')).toEqual([{ profileId: 'p1' }]);
    expect(bridge.callsTo('session.signOut')).toEqual([{ profileId: 'p1' }]);
  });

  it('profiles.changed refetches the list', async () => {
    const bridge = new FakeBridge({ profiles: [makeProfile({ name: 'Core' })] });
    renderApp(bridge);
    await screen.findByTestId('profile-row-Core');
    bridge.state.profiles.push(makeProfile({ name: 'Branch' }));
    act(() => bridge.emit('profiles.changed', { ids: ['p-branch'] }));
    expect(await screen.findByTestId('profile-row-Branch')).toBeInTheDocument();
  });

  it('a notice event becomes a toast with its hint', async () => {
    const bridge = new FakeBridge({ profiles: [makeProfile({ name: 'Core' })] });
    renderApp(bridge);
    await screen.findByTestId('profile-row-Core');
    act(() => bridge.emit('notice', { level: 'warning', message: 'Token refresh failed for Core.', hint: 'Sign in again to continue.' }));
    expect(await screen.findByText('Token refresh failed for Core.')).toBeInTheDocument();
    expect(screen.getByText('Sign in again to continue.')).toBeInTheDocument();
  });

  it('failed calls show the AppError message and hint, never a stack', async () => {
    const bridge = new FakeBridge({ profiles: [makeProfile({ id: 'p1', name: 'Core' })] });
    bridge.override('session.signIn', () => ({
      ok: false,
      error: new AppError('vault.missing_secret', 'No password is stored for Core.', 'Edit the connection and enter the password.').toShape(),
    }));
    const { user } = renderApp(bridge);
    await user.click(within(await screen.findByTestId('profile-row-Core')).getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('No password is stored for Core.')).toBeInTheDocument();
    expect(screen.getByText('Edit the connection and enter the password.')).toBeInTheDocument();
    expect(document.body.textContent).not.toMatch(/at \w+ \(|\.tsx?:\d+/);
  });

  it('Test reports latency and detail', async () => {
    const bridge = new FakeBridge({ profiles: [makeProfile({ id: 'p1', name: 'Core' })] });
    const { user } = renderApp(bridge);
    await user.click(within(await screen.findByTestId('profile-row-Core')).getByRole('button', { name: 'Test' }));
    expect(await screen.findByText('Core: reachable and signed in (12 ms)')).toBeInTheDocument();
    expect(screen.getByText('TLS 1.3 · basic auth accepted')).toBeInTheDocument();
  });

  it('Delete asks first, then removes the row', async () => {
    const bridge = new FakeBridge({ profiles: [makeProfile({ id: 'p1', name: 'Core' }), makeProfile({ id: 'p2', name: 'Edge' })] });
    const { user } = renderApp(bridge);
    await user.click(within(await screen.findByTestId('profile-row-Core')).getByRole('button', { name: 'Delete' }));
    const confirm = screen.getByRole('alertdialog', { name: 'Delete Core?' });
    expect(bridge.callsTo('profiles.delete')).toHaveLength(0);
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByTestId('profile-row-Core')).toBeNull());
    expect(bridge.callsTo('profiles.delete')).toEqual([{ profileId: 'p1' }]);
    expect(screen.getByTestId('profile-row-Edge')).toBeInTheDocument();
  });
});
