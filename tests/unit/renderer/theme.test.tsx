// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MainBridge } from './support/main-bridge';
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
    const main = await MainBridge.start();
    await main.call('settings.update', { theme: 'dark' });
    renderApp(main);
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-theme', 'dark'));
  });

  it('switches on the settings page and saves through settings.update', async () => {
    const main = await MainBridge.start();
    await main.call('settings.update', { theme: 'light' });
    const { user } = renderApp(main);
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-theme', 'light'));
    await user.click(screen.getByRole('link', { name: /Settings/ }));
    const select = screen.getByLabelText('Theme');
    await waitFor(() => expect(select).toHaveValue('light'));
    await user.selectOptions(select, 'dark');
    expect(document.documentElement).toHaveAttribute('data-theme', 'dark');
    await waitFor(() => expect(main.callsTo('settings.update')).toEqual([{ theme: 'dark' }]));
    // Kept by main: a restart reads it back.
    const again = await main.restart();
    expect((await again.call('settings.get')).theme).toBe('dark');
  });

  it('"system" follows prefers-color-scheme, also when it changes', async () => {
    const scheme = stubColorScheme(true);
    const main = await MainBridge.start();
    expect((await main.call('settings.get')).theme).toBe('system');
    renderApp(main);
    await waitFor(() => expect(main.callsTo('settings.get')).toHaveLength(1));
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-theme', 'dark'));
    scheme.set(false);
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-theme', 'light'));
  });

  it('goes back to the previous theme when saving fails', async () => {
    const main = await MainBridge.start();
    await main.call('settings.update', { theme: 'light' });
    const { user } = renderApp(main);
    await user.click(screen.getByRole('link', { name: /Settings/ }));
    await waitFor(() => expect(screen.getByLabelText('Theme')).toHaveValue('light'));
    // Main goes away (the window lost its app), so the save cannot reach it.
    await main.close();
    await user.selectOptions(screen.getByLabelText('Theme'), 'dark');
    expect(await screen.findByText('The window lost contact with the app.')).toBeInTheDocument();
    await waitFor(() => expect(document.documentElement).toHaveAttribute('data-theme', 'light'));
  });
});
