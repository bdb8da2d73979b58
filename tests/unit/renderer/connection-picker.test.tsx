// @vitest-environment jsdom
/**
 * One chosen connection, visible and deliberate (issue 10, item 6): the header's picker chooses
 * the connection every page works on, puts it in the address and remembers it for a new window;
 * saving a connection never switches it (except when the window had none).
 */
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MainBridge } from './support/main-bridge';
import { renderApp } from './support/render';

const params = () => new URLSearchParams(window.location.hash.split('?')[1] ?? '');
const REMEMBERED = 'northbound.connection';
const dialog = () => screen.getByTestId('profile-form');

/** Two connections: "Ops node" (basic auth, 40 devices) and "Lab node" (OAuth, 12 devices), both signed in, lists fetched. */
async function twoNodes() {
  const main = await MainBridge.start();
  const opsNode = await main.node({ seedDevices: 40 });
  const labNode = await main.node({ seedDevices: 12 });
  const ops = await main.addNodeProfile(opsNode, { name: 'Ops node' });
  const lab = await main.addNodeProfile(labNode, { name: 'Lab node', authMode: 'oauth' });
  await main.call('inventory.refresh', { profileId: ops.id });
  await main.call('inventory.refresh', { profileId: lab.id });
  return { main, ops, lab, labNode };
}

describe('the connection picker in the header', () => {
  it('shows the chosen connection with host and session, chooses another from the keyboard, writes it into the address and remembers it', async () => {
    const { main, ops, lab, labNode } = await twoNodes();
    const { user } = renderApp(main, { at: `/devices?connection=${ops.id}` });
    expect(await screen.findByTestId('devices-count')).toHaveTextContent('40 devices');
    const picker = screen.getByTestId('connection-picker');
    expect(picker).toHaveTextContent('Ops node');
    expect(within(picker).getByTestId('active-session-badge')).toHaveAttribute('data-state', 'signed-in');

    await user.click(picker);
    expect(picker).toHaveAttribute('aria-expanded', 'true');
    const list = screen.getByRole('dialog', { name: 'Choose a connection' });
    const options = within(list).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual([expect.stringContaining('Ops node'), expect.stringContaining('Lab node')]);
    expect(options[1]).toHaveTextContent(`127.0.0.1:${labNode.oauthPort}`);
    expect(within(list).getByRole('combobox')).toHaveFocus();
    // The chosen one is highlighted first; Down and Enter choose the next.
    expect(options[0]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowDown}{Enter}');

    await waitFor(() => expect(screen.getByTestId('active-connection')).toHaveTextContent('Lab node'));
    expect(screen.queryByRole('dialog', { name: 'Choose a connection' })).toBeNull();
    expect(picker).toHaveFocus();
    expect(params().get('connection')).toBe(lab.id);
    expect(window.localStorage.getItem(REMEMBERED)).toBe(lab.id);
    // The page works on the chosen connection.
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent('12 devices'));

    // Back is the previous choice.
    window.history.back();
    await waitFor(() => expect(screen.getByTestId('active-connection')).toHaveTextContent('Ops node'));
    await waitFor(() => expect(screen.getByTestId('devices-count')).toHaveTextContent('40 devices'));
  });

  it('a new window opens on the connection chosen last; its address wins over the remembered one', async () => {
    const { main, ops, lab } = await twoNodes();
    const { unmount } = renderApp(main, { at: '/devices', storage: { [REMEMBERED]: lab.id } });
    await waitFor(() => expect(screen.getByTestId('active-connection')).toHaveTextContent('Lab node'));
    await waitFor(() => expect(params().get('connection')).toBe(lab.id));
    expect(await screen.findByTestId('devices-count')).toHaveTextContent('12 devices');
    unmount();

    renderApp(main, { at: `/devices?connection=${ops.id}`, storage: { [REMEMBERED]: lab.id } });
    await waitFor(() => expect(screen.getByTestId('active-connection')).toHaveTextContent('Ops node'));
    expect(await screen.findByTestId('devices-count')).toHaveTextContent('40 devices');
  });

  it('Escape or a click elsewhere closes the list without choosing', async () => {
    const { main, ops } = await twoNodes();
    const { user } = renderApp(main, { at: `/connections?connection=${ops.id}` });
    const picker = await screen.findByTestId('connection-picker');
    await user.click(picker);
    await user.keyboard('{ArrowDown}{Escape}');
    expect(screen.queryByRole('dialog', { name: 'Choose a connection' })).toBeNull();
    expect(picker).toHaveFocus();
    await user.click(picker);
    await user.click(screen.getByRole('heading', { level: 1 }));
    expect(screen.queryByRole('dialog', { name: 'Choose a connection' })).toBeNull();
    expect(screen.getByTestId('active-connection')).toHaveTextContent('Ops node');
    expect(params().get('connection')).toBe(ops.id);
  });

  it('the OAuth clients tab works on the chosen connection, and offers the OAuth ones when it is not', async () => {
    const { main, ops, lab } = await twoNodes();
    const { user } = renderApp(main, { at: `/connections?tab=oauth-clients&connection=${ops.id}` });
    const need = await screen.findByTestId('oauth-clients-need-oauth');
    expect(need).toHaveTextContent('Ops node signs in with basic authentication');
    await user.click(within(need).getByRole('button', { name: 'Use Lab node' }));
    expect(await screen.findByRole('button', { name: 'New client' })).toBeVisible();
    expect(screen.getByTestId('active-connection')).toHaveTextContent('Lab node');
    expect(params().get('connection')).toBe(lab.id);
    expect(params().get('tab')).toBe('oauth-clients');
  });
});

describe('saving a connection', () => {
  async function addConnection(user: ReturnType<typeof renderApp>['user'], name: string) {
    await user.type(within(dialog()).getByLabelText('Name'), name);
    await user.type(within(dialog()).getByLabelText('Host'), `${name.toLowerCase()}.example.net`);
    await user.type(within(dialog()).getByLabelText('Username'), 'ops');
    await user.type(within(dialog()).getByLabelText('Password'), 'hunter2');
    await user.click(within(dialog()).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByTestId('profile-form')).toBeNull());
  }

  it('never switches the chosen connection; a window with none takes the first one saved', async () => {
    const main = await MainBridge.start();
    const { user } = renderApp(main);
    await user.click(await screen.findByRole('button', { name: 'Add a management node' }));
    await addConnection(user, 'First');
    await waitFor(() => expect(screen.getByTestId('active-connection')).toHaveTextContent('First'));
    const first = (await main.call('profiles.list')).find((p) => p.name === 'First')!;
    await waitFor(() => expect(params().get('connection')).toBe(first.id));

    // A second one, saved (its sign-in not even tried): the window stays on the first.
    await user.click(await screen.findByRole('button', { name: 'Add connection' }));
    await addConnection(user, 'Second');
    expect(await screen.findByTestId('profile-row-Second')).toBeVisible();
    expect(screen.getByTestId('active-connection')).toHaveTextContent('First');
    expect(params().get('connection')).toBe(first.id);
    expect(screen.getByTestId('profile-row-First').querySelector('.profile-main')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('profile-row-Second').querySelector('.profile-main')).toHaveAttribute('aria-pressed', 'false');
  });
});
