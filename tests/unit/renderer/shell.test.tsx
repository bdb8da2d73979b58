// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MainBridge } from './support/main-bridge';
import { address, renderApp } from './support/render';

const version = (JSON.parse(readFileSync(path.resolve('package.json'), 'utf8')) as { version: string }).version;

describe('app shell and first run', () => {
  it('welcomes a first run and opens the demo workspace with progress', async () => {
    const main = await MainBridge.start();
    // A new window (the address `/`) with nothing configured opens on Connections and its welcome.
    const { user } = renderApp(main, { at: '/' });
    const open = await screen.findByRole('button', { name: 'Open demo workspace' });
    expect(address()).toBe('/connections');
    expect(screen.getByRole('heading', { name: 'Welcome to Northbound' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Add a management node' })).toBeVisible();
    const opened = main.next('demo.changed', (d) => d.running);
    await user.click(open);
    expect(await screen.findByRole('status')).toHaveTextContent('Starting the simulators');
    expect(open).toBeDisabled();
    const demo = await opened;
    const row = await screen.findByTestId('profile-row-Demo node (OAuth)');
    expect(screen.getByTestId('profile-row-Demo node (basic auth)')).toBeInTheDocument();
    await waitFor(() => expect(within(row).getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in'));
    expect(main.callsTo('demo.open')).toHaveLength(1);
    // The demo node main started is the one the signed-in connection talks to.
    const session = (await main.call('session.list')).find((s) => s.profileId === demo.oauthProfileId);
    expect(session?.state).toBe('signed-in');
    expect(screen.getByTestId('active-connection')).toHaveTextContent('Demo node (OAuth)');
    expect(screen.queryByRole('heading', { name: 'Welcome to Northbound' })).toBeNull();
  });

  it('has the nine sections as links to their addresses, Overview first', async () => {
    const { user } = renderApp(await MainBridge.start());
    const nav = screen.getByRole('navigation', { name: 'Sections' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((b) => b.textContent)).toEqual(['Overview', 'Connections', 'Devices', 'Organizations', 'Alarms', 'ZTA', 'Connectors', 'Settings', 'Activity']);
    expect(links.map((a) => a.getAttribute('href'))).toEqual(['/#/overview', '/#/connections', '/#/devices', '/#/organizations', '/#/alarms', '/#/zta', '/#/connectors', '/#/settings', '/#/activity']);
    expect(links.map((a) => a.getAttribute('title'))).toEqual(['Overview (Ctrl+1)', 'Connections (Ctrl+2)', 'Devices (Ctrl+3)', 'Organizations (Ctrl+4)', 'Alarms (Ctrl+5)', 'ZTA (Ctrl+6)', 'Connectors (Ctrl+7)', 'Settings (Ctrl+8)', 'Activity (Ctrl+9)']);
    await user.click(within(nav).getByRole('link', { name: /Alarms/ }));
    expect(await screen.findByRole('heading', { name: 'Alarms', level: 1 })).toBeVisible();
    expect(within(nav).getByRole('link', { name: /Alarms/ })).toHaveAttribute('aria-current', 'page');
    expect(address()).toBe('/alarms');
  });

  it('switches sections with Ctrl+1…8', async () => {
    renderApp(await MainBridge.start());
    await screen.findByRole('button', { name: 'Open demo workspace' });
    fireEvent.keyDown(window, { key: '6', ctrlKey: true });
    expect(await screen.findByRole('heading', { name: 'Zero trust assessment' })).toBeVisible();
    expect(address()).toBe('/zta');
    fireEvent.keyDown(window, { key: '8', metaKey: true });
    expect(await screen.findByLabelText('Theme')).toBeVisible();
    expect(address()).toBe('/settings');
    fireEvent.keyDown(window, { key: '1', ctrlKey: true });
    expect(await screen.findByTestId('overview-nothing')).toBeVisible();
    expect(address()).toBe('/overview');
    fireEvent.keyDown(window, { key: '2', ctrlKey: true });
    expect(await screen.findByRole('heading', { name: 'Welcome to Northbound' })).toBeVisible();
    expect(address()).toBe('/connections');
  });

  it('collapses the sidebar to its icons by its button and by Ctrl+B, remembers the choice, and keeps the pages’ names for screen readers (issue 22.7)', async () => {
    const { user } = renderApp(await MainBridge.start());
    await screen.findByRole('button', { name: 'Open demo workspace' });
    const nav = screen.getByRole('navigation', { name: 'Sections' });
    const toggle = within(nav).getByRole('button', { name: 'Collapse the sidebar' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(toggle).toHaveAttribute('title', 'Collapse the sidebar (Ctrl+B)');
    expect(document.getElementById(toggle.getAttribute('aria-controls')!)).toBe(within(nav).getByRole('list'));
    await user.click(toggle);
    expect(within(nav).getByRole('button', { name: 'Expand the sidebar' })).toHaveAttribute('aria-expanded', 'false');
    expect(nav).toHaveAttribute('data-collapsed', 'true');
    expect(document.querySelector('.app')).toHaveClass('sidebar-collapsed');
    expect(window.localStorage.getItem('northbound.sidebar')).toBe('collapsed');
    // Icons only, named all the same: the label stays in the link (hidden from sight) and its title.
    expect(within(nav).getByRole('link', { name: 'ZTA' })).toHaveAttribute('title', 'ZTA (Ctrl+6)');
    fireEvent.keyDown(window, { key: 'b', ctrlKey: true });
    expect(within(nav).getByRole('button', { name: 'Collapse the sidebar' })).toHaveAttribute('aria-expanded', 'true');
    expect(window.localStorage.getItem('northbound.sidebar')).toBe('expanded');
    // Not under a dialog: the shortcuts list is open, Ctrl+B leaves the sidebar as it is.
    fireEvent.keyDown(window, { key: '?' });
    const list = await screen.findByTestId('shortcuts-dialog');
    expect(within(list).getByText('Collapse or expand the sidebar (collapsed, it shows the pages’ icons)')).toBeVisible();
    fireEvent.keyDown(window, { key: 'b', metaKey: true });
    expect(nav).toHaveAttribute('data-collapsed', 'false');
  });

  it('shows what main reports of itself on the settings page: version, mode and where secrets are kept', async () => {
    for (const [mode, passphrase, modeText, kept] of [
      ['desktop', undefined, 'Desktop app', 'kept in memory until quit'],
      ['browser', 'a-passphrase-for-the-vault', 'Browser mode', 'kept across restarts'],
    ] as const) {
      const main = await MainBridge.start({ mode, ...(passphrase ? { passphrase } : {}) });
      const info = await main.call('app.info');
      const { user, unmount } = renderApp(main);
      await user.click(screen.getByRole('link', { name: /Settings/ }));
      const shown = await screen.findByTestId('app-info');
      expect(shown).toHaveTextContent(version);
      expect(shown).toHaveTextContent(modeText);
      expect(shown).toHaveTextContent(info.secretStorage);
      expect(shown).toHaveTextContent(kept);
      unmount();
      await main.close();
    }
  });
});
