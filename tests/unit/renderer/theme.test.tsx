// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FakeBridge } from './support/fake-bridge';
import { renderApp } from './support/render';

function stubColorScheme(dark: boolean) {
  const listeners = new Set<() => void>();
  const mq = { matches: dark, addEventListener: (_: string, l: () => void) => listeners.add(l), removeEventListener: (_: string, l: () => void) => listeners.delete(l) };
  vi.stubGlobal('matchMedia', vi.fn(() => mq));
  return {
    set(next: boolean) {
      mq.matches = next;
      listeners.forEach((l) => l());
    },
  };
}

describe('theme', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('applies the stored setting as data-theme on <html>', async () => {
    renderApp(new FakeBridge({ settings: { theme: 'dark' } }));
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-theme', 'dark'));
  });

  it('switches on the settings page and saves through settings.update', async () => {
    const bridge = new FakeBridge({ settings: { theme: 'light' } });
    const { user } = renderApp(bridge);
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-theme', 'light'));
    await user.click(screen.getByRole('button', { name: /Settings/ }));
    const select = screen.getByLabelText('Theme');
    await waitFor(() => expect(select).toHaveValue('light'));
    await user.selectOptions(select, 'dark');
    expect(document.documentElement).toHaveAttribute('data-theme', 'dark');
    await waitFor(() => expect(bridge.callsTo('settings.update')).toEqual([{ theme: 'dark' }]));
    expect(bridge.state.settings.theme).toBe('dark');
  });

  it('"system" follows prefers-color-scheme, also when it changes', async () => {
    const scheme = stubColorScheme(true);
    const bridge = new FakeBridge({ settings: { theme: 'system' } });
    renderApp(bridge);
    await waitFor(() => expect(bridge.callsTo('settings.get')).toHaveLength(1));
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-theme', 'dark'));
    scheme.set(false);
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-theme', 'light'));
  });

  it('goes back to the previous theme when saving fails', async () => {
    const bridge = new FakeBridge({ settings: { theme: 'light' } });
    bridge.override('settings.update', () => ({ ok: false, error: { code: 'internal', message: 'Settings could not be saved.', hint: 'Check the disk.' } }));
    const { user } = renderApp(bridge);
    await user.click(screen.getByRole('button', { name: /Settings/ }));
    await waitFor(() => expect(screen.getByLabelText('Theme')).toHaveValue('light'));
    await user.selectOptions(screen.getByLabelText('Theme'), 'dark');
    expect(await screen.findByText('Settings could not be saved.')).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-theme', 'light'));
  });
});
