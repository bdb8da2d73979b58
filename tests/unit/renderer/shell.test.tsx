// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeBridge } from './support/fake-bridge';
import { renderApp } from './support/render';

describe('app shell and first run', () => {
  it('welcomes a first run and opens the demo workspace with progress', async () => {
    const bridge = new FakeBridge({ demoDelayMs: 150 });
    const { user } = renderApp(bridge);
    const open = await screen.findByRole('button', { name: 'Open demo workspace' });
    expect(screen.getByRole('heading', { name: 'Welcome to Northbound' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Add a management node' })).toBeVisible();
    await user.click(open);
    expect(await screen.findByRole('status')).toHaveTextContent('Starting the simulators');
    expect(open).toBeDisabled();
    const row = await screen.findByTestId('profile-row-Demo node (OAuth)');
    expect(screen.getByTestId('profile-row-Demo node (basic auth)')).toBeInTheDocument();
    await waitFor(() => expect(within(row).getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in'));
    expect(bridge.callsTo('demo.open')).toHaveLength(1);
    expect(screen.getByTestId('active-connection')).toHaveTextContent('Demo node (OAuth)');
    expect(screen.queryByRole('heading', { name: 'Welcome to Northbound' })).toBeNull();
  });

  it('has the seven sections as buttons, with coming-soon placeholders', async () => {
    const { user } = renderApp(new FakeBridge());
    const nav = screen.getByRole('navigation', { name: 'Sections' });
    const names = within(nav)
      .getAllByRole('button')
      .map((b) => b.textContent?.replace(/soon$/, ''));
    expect(names).toEqual(['Connections', 'Devices', 'Organizations', 'Alarms', 'ZTA', 'Connectors', 'Settings']);
    await user.click(within(nav).getByRole('button', { name: /Alarms/ }));
    expect(screen.getByRole('heading', { name: 'Alarms is coming soon' })).toBeVisible();
    expect(within(nav).getByRole('button', { name: /Alarms/ })).toHaveAttribute('aria-current', 'page');
  });

  it('switches sections with Ctrl+1…7', async () => {
    renderApp(new FakeBridge());
    await screen.findByRole('button', { name: 'Open demo workspace' });
    fireEvent.keyDown(window, { key: '5', ctrlKey: true });
    expect(screen.getByRole('heading', { name: 'ZTA is coming soon' })).toBeVisible();
    fireEvent.keyDown(window, { key: '7', metaKey: true });
    expect(screen.getByLabelText('Theme')).toBeVisible();
    fireEvent.keyDown(window, { key: '1', ctrlKey: true });
    expect(screen.getByRole('button', { name: 'Open demo workspace' })).toBeVisible();
  });

  it('shows app info on the settings page', async () => {
    const { user } = renderApp(new FakeBridge());
    await user.click(screen.getByRole('button', { name: /Settings/ }));
    const info = await screen.findByTestId('app-info');
    expect(info).toHaveTextContent('0.1.0');
    expect(info).toHaveTextContent('Desktop app');
    expect(info).toHaveTextContent('Electron safeStorage (libsecret)');
  });
});
