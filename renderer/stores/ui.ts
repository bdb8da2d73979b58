/** UI state only: what is selected and which dialog is open. Server state lives in react-query. */
import { create } from 'zustand';
import type { CertificateInfo } from '../../shared/model/profile';

export const sections = ['connections', 'devices', 'organizations', 'alarms', 'zta', 'connectors', 'settings'] as const;
export type Section = (typeof sections)[number];
export type ThemePreference = 'system' | 'light' | 'dark';
export type ConnectionsTab = 'profiles' | 'oauth-clients' | 'syslog';

export type Dialog =
  | { kind: 'profile-form'; profileId?: string }
  | { kind: 'delete-profile'; profileId: string }
  | { kind: 'trust'; profileId: string; certificate?: CertificateInfo }
  | { kind: 'pin-mismatch'; profileId: string; expected?: string; actual?: string; certificate?: CertificateInfo };

const THEME_KEY = 'northbound.theme';

const initialTheme = (): ThemePreference => {
  try {
    const t = window.localStorage.getItem(THEME_KEY);
    return t === 'light' || t === 'dark' || t === 'system' ? t : 'system';
  } catch {
    return 'system';
  }
};

interface UiState {
  section: Section;
  connectionsTab: ConnectionsTab;
  selectedProfileId: string | undefined;
  /** Mirror of settings.theme, applied at once (and remembered for the first paint). */
  theme: ThemePreference;
  dialog: Dialog | undefined;
  setSection(section: Section): void;
  setConnectionsTab(tab: ConnectionsTab): void;
  selectProfile(profileId: string | undefined): void;
  setTheme(theme: ThemePreference): void;
  openDialog(dialog: Dialog): void;
  closeDialog(): void;
}

export const useUi = create<UiState>()((set) => ({
  section: 'connections',
  connectionsTab: 'profiles',
  selectedProfileId: undefined,
  theme: initialTheme(),
  dialog: undefined,
  setSection: (section) => set({ section }),
  setConnectionsTab: (connectionsTab) => set({ connectionsTab }),
  selectProfile: (selectedProfileId) => set({ selectedProfileId }),
  setTheme: (theme) => {
    try {
      window.localStorage.setItem(THEME_KEY, theme);
    } catch {
      // Not remembered for the next start; the setting itself is stored by main.
    }
    set({ theme });
  },
  openDialog: (dialog) => set({ dialog }),
  closeDialog: () => set({ dialog: undefined }),
}));
