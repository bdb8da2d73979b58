/**
 * The sidebar collapses to its icons (issue 22.7): by its button, by Ctrl+B (⌘B), and by itself in
 * a window 1,100 px wide or narrower until the operator chooses; a choice is remembered across
 * reloads and restarts (stores/ui.ts) and wins over the window's width (C-55).
 */
import { useSyncExternalStore } from 'react';
import { useUi, type SidebarPreference } from '../stores/ui';

/** A window this narrow starts with the sidebar collapsed (the pages get its 150 px). */
export const NARROW_WINDOW = '(max-width: 1100px)';

function subscribeNarrow(cb: () => void) {
  const mq = window.matchMedia?.(NARROW_WINDOW);
  if (!mq) return () => undefined;
  mq.addEventListener('change', cb);
  return () => mq.removeEventListener('change', cb);
}
const narrowNow = () => window.matchMedia?.(NARROW_WINDOW).matches ?? false;

/** Whether the sidebar is collapsed: the operator's choice, else the window's width. */
export const sidebarCollapsed = (pref: SidebarPreference, narrow: boolean): boolean => (pref === 'auto' ? narrow : pref === 'collapsed');

/** The choice a toggle makes: the other state than the one shown. */
export const toggledSidebar = (pref: SidebarPreference, narrow: boolean): SidebarPreference => (sidebarCollapsed(pref, narrow) ? 'expanded' : 'collapsed');

export function useSidebarCollapsed(): boolean {
  const pref = useUi((s) => s.sidebar);
  const narrow = useSyncExternalStore(subscribeNarrow, narrowNow, () => false);
  return sidebarCollapsed(pref, narrow);
}

/** Collapses or expands the sidebar, as the button and Ctrl+B do. */
export function toggleSidebar(): void {
  const ui = useUi.getState();
  ui.setSidebar(toggledSidebar(ui.sidebar, narrowNow()));
}
