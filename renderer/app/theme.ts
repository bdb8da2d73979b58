import { useEffect, useSyncExternalStore } from 'react';
import { useSettings } from '../api/settings';
import { useUi, type ThemePreference } from '../stores/ui';

const QUERY = '(prefers-color-scheme: dark)';

function subscribeScheme(cb: () => void) {
  const mq = window.matchMedia?.(QUERY);
  if (!mq) return () => undefined;
  mq.addEventListener('change', cb);
  return () => mq.removeEventListener('change', cb);
}
const systemDark = () => window.matchMedia?.(QUERY).matches ?? false;

export const resolveTheme = (pref: ThemePreference, prefersDark: boolean): 'light' | 'dark' => (pref === 'system' ? (prefersDark ? 'dark' : 'light') : pref);

/** Mirrors settings.theme into the UI store and applies it as `data-theme` on <html>. */
export function useApplyTheme(): 'light' | 'dark' {
  const settings = useSettings();
  const pref = useUi((s) => s.theme);
  const setTheme = useUi((s) => s.setTheme);
  const prefersDark = useSyncExternalStore(subscribeScheme, systemDark, () => false);
  const serverTheme = settings.data?.theme;

  useEffect(() => {
    if (serverTheme) setTheme(serverTheme);
  }, [serverTheme, setTheme]);

  const resolved = resolveTheme(pref, prefersDark);
  useEffect(() => {
    const root = document.documentElement;
    root.dataset.theme = resolved;
    root.style.colorScheme = resolved;
  }, [resolved]);
  return resolved;
}
