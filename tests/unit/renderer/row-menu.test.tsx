// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MainBridge } from './support/main-bridge';
import { renderApp } from './support/render';
import { rowAction } from './support/row-menu';

/** Main with two connections to one node: "Core" (OAuth) and "Edge" (basic auth), both signed out. */
async function twoConnections() {
  const main = await MainBridge.start();
  const node = await main.node();
  await main.addNodeProfile(node, { name: 'Core', signIn: false, authMode: 'oauth' });
  await main.addNodeProfile(node, { name: 'Edge', signIn: false });
  return main;
}

describe('a connection row: the primary action in view, the others in its "More actions" menu', () => {
  it('shows Sign in and one menu button per row; the menu holds the rest, OAuth clients only for an OAuth connection', async () => {
    const { user } = renderApp(await twoConnections());
    const core = await screen.findByTestId('profile-row-Core');
    const edge = screen.getByTestId('profile-row-Edge');
    for (const [name, row] of [['Core', core], ['Edge', edge]] as const) {
      expect(within(row).getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent)).toEqual([name, 'Sign in', 'More actions']);
    }
    const more = within(core).getByRole('button', { name: 'More actions' });
    expect(more).toHaveAttribute('aria-haspopup', 'menu');
    expect(more).toHaveAttribute('aria-expanded', 'false');
    await user.click(more);
    const menu = await screen.findByRole('menu');
    expect(more).toHaveAttribute('aria-expanded', 'true');
    expect(within(menu).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Test connection', 'Trust certificate', 'OAuth clients', 'Syslog servers', 'Edit', 'Delete']);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());

    await user.click(within(edge).getByRole('button', { name: 'More actions' }));
    expect(within(await screen.findByRole('menu')).getAllByRole('menuitem').map((i) => i.textContent)).toEqual(['Test connection', 'Trust certificate', 'Syslog servers', 'Edit', 'Delete']);
  });

  it('works from the keyboard: Enter opens it on the first item, arrows and End move, Escape closes it with focus back on the button', async () => {
    const { user } = renderApp(await twoConnections());
    const more = within(await screen.findByTestId('profile-row-Edge')).getByRole('button', { name: 'More actions' });
    more.focus();
    await user.keyboard('{Enter}');
    // The menu moves focus on a timer after each key: every check waits for it.
    const items = within(await screen.findByRole('menu')).getAllByRole('menuitem');
    await waitFor(() => expect(items[0]).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(items[1]).toHaveFocus());
    await user.keyboard('{End}');
    await waitFor(() => expect(items.at(-1)).toHaveFocus());
    expect(items.at(-1)).toHaveTextContent('Delete');
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(items[0]).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await waitFor(() => expect(more).toHaveFocus());
  });

  it('an item that opens a dialog gives it the focus, and closing the dialog returns focus to the menu button', async () => {
    const { user } = renderApp(await twoConnections());
    const more = within(await screen.findByTestId('profile-row-Edge')).getByRole('button', { name: 'More actions' });
    more.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('menu');
    await user.keyboard('{End}');
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(screen.getByRole('menuitem', { name: 'Edit' })).toHaveFocus());
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: /Edit/ });
    await waitFor(() => expect(within(dialog).getByLabelText('Name', { exact: true })).toHaveFocus());
    expect(screen.queryByRole('menu')).toBeNull();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    await waitFor(() => expect(more).toHaveFocus());
  });

  it('an item that shows another tab selects the connection there and puts focus on that tab', async () => {
    const { user } = renderApp(await twoConnections());
    await rowAction(user, await screen.findByTestId('profile-row-Edge'), 'Syslog servers');
    const tab = screen.getByRole('tab', { name: 'Syslog servers' });
    await waitFor(() => expect(tab).toHaveAttribute('aria-selected', 'true'));
    await waitFor(() => expect(tab).toHaveFocus());
    expect(screen.queryByTestId('profile-row-Edge')).toBeNull();
  });
});
