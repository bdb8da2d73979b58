/**
 * UI state only: which dialog or overlay is open, the theme, the sidebar's width, and where each page was left.
 * What a page shows (its connection, filters, tab, opened item) is in the address (app/router.tsx);
 * server state lives in react-query.
 */
import { create } from 'zustand';
import type { CertificateInfo } from '../../shared/model/profile';
import type { Section } from '../app/sections';

export type ThemePreference = 'system' | 'light' | 'dark';

export type Dialog =
  | { kind: 'profile-form'; profileId?: string }
  | { kind: 'delete-profile'; profileId: string }
  | { kind: 'trust'; profileId: string; certificate?: CertificateInfo }
  | { kind: 'pin-mismatch'; profileId: string; expected?: string; actual?: string; certificate?: CertificateInfo };

/** The keyboard overlays: the command palette (Ctrl+K) and the list of shortcuts (?). */
export type Overlay = 'palette' | 'shortcuts';

const THEME_KEY = 'northbound.theme';
const SIDEBAR_KEY = 'northbound.sidebar';

/** The sidebar as the operator chose it; `auto` (no choice yet) collapses it in a narrow window (app/sidebar.ts). */
export type SidebarPreference = 'auto' | 'expanded' | 'collapsed';

const initialSidebar = (): SidebarPreference => {
  try {
    const v = window.localStorage.getItem(SIDEBAR_KEY);
    return v === 'expanded' || v === 'collapsed' ? v : 'auto';
  } catch {
    return 'auto';
  }
};

const initialTheme = (): ThemePreference => {
  try {
    const t = window.localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' || t === 'system' ? t : 'system';
  } catch {
    return 'system';
  }
};

interface UiState {
  /** Mirror of settings.theme, applied at once (and remembered for the first paint). */
  theme: ThemePreference;
  /** Remembered in this window's storage across reloads and restarts, as the theme's first paint is. */
  sidebar: SidebarPreference;
  dialog: Dialog | undefined;
  overlay: Overlay | undefined;
  /** Each page's search as it was left in this window, so the sidebar returns to it (filters kept). */
  pages: Partial<Record<Section, Record<string, string>>>;
  setTheme(theme: ThemePreference): void;
  setSidebar(sidebar: SidebarPreference): void;
  openDialog(dialog: Dialog): void;
  closeDialog(): void;
  setOverlay(overlay: Overlay | undefined): void;
  rememberPage(section: Section, search: Record<string, string>): void;
}

export const useUi = create<UiState>()((set) => ({
  theme: initialTheme(),
  sidebar: initialSidebar(),
  dialog: undefined,
  overlay: undefined,
  pages: {},
  setTheme: (theme) => {
    try {
      window.localStorage.setItem(THEME_KEY, theme);
    } catch {
      // Not remembered for the next start; the setting itself is stored by main.
    }
    set({ theme });
  },
  setSidebar: (sidebar) => {
    try {
      window.localStorage.setItem(SIDEBAR_KEY, sidebar);
    } catch {
      // Not remembered for the next start; this window keeps it.
    }
    set({ sidebar });
  },
  openDialog: (dialog) => set({ dialog }),
  closeDialog: () => set({ dialog: undefined }),
  setOverlay: (overlay) => set({ overlay }),
  rememberPage: (section, search) => set((s) => ({ pages: { ...s.pages, [section]: search } })),
}));
