/**
 * The window around every page (the router's InnerWrap, so it renders before the address is matched): skip link, sidebar, header with the
 * connection picker, the page (`<Outlet />`), the app-wide dialogs and the keyboard overlays.
 */
import { useNavigate } from '@tanstack/react-router';
import { useEffect, type MouseEvent, type ReactNode } from 'react';
import { useProfiles, useSessions } from '../api/connections';
import { useUi } from '../stores/ui';
import { Dialogs } from './Dialogs';
import { Header } from './Header';
import { useRememberPages } from './page-links';
import { CommandPalette } from './palette/CommandPalette';
import { ShortcutsDialog } from './ShortcutsDialog';
import { Sidebar } from './Sidebar';
import { TeamBanner } from './TeamBanner';
import { useSidebarCollapsed } from './sidebar';
import { useActiveProfile, useChosenConnectionId } from './useActiveProfile';
import { useGlobalShortcuts } from './useShortcuts';

// The address's fragment is the router's: the skip link moves focus itself instead of following "#content".
function skipToContent(e: MouseEvent<HTMLAnchorElement>) {
  e.preventDefault();
  document.getElementById('content')?.focus();
}

/**
 * Writes the connection the window works on into the address when it is not there (a first
 * start, a new window, a deleted connection), replacing the entry: what the header shows is
 * then always what the address says. Waits for the sessions, which the fallback reads.
 */
function usePinConnection() {
  const profiles = useProfiles();
  const sessions = useSessions();
  const chosen = useChosenConnectionId();
  const active = useActiveProfile(profiles.data, sessions.data);
  const navigate = useNavigate();
  const settled = profiles.data !== undefined && sessions.data !== undefined;
  useEffect(() => {
    if (!settled || active?.id === chosen) return;
    void navigate({ to: '.', search: (prev) => ({ ...prev, connection: active?.id }), replace: true });
  }, [settled, active?.id, chosen, navigate]);
}

export function Shell({ children }: { children: ReactNode }) {
  useGlobalShortcuts();
  useRememberPages();
  usePinConnection();
  const overlay = useUi((s) => s.overlay);
  const setOverlay = useUi((s) => s.setOverlay);
  const collapsed = useSidebarCollapsed();
  return (
    <>
      <a className="skip-link" href="#content" onClick={skipToContent}>
        Skip to content
      </a>
      <div className={collapsed ? 'app sidebar-collapsed' : 'app'}>
        <Sidebar collapsed={collapsed} />
        <div className="main">
          <Header />
          <TeamBanner />
          <main className="content" id="content" tabIndex={-1}>
            {children}
          </main>
        </div>
      </div>
      {/* Outside the grid: overlays must not become grid rows. */}
      <Dialogs />
      {overlay === 'palette' ? <CommandPalette onClose={() => setOverlay(undefined)} /> : null}
      {overlay === 'shortcuts' ? <ShortcutsDialog onClose={() => setOverlay(undefined)} /> : null}
    </>
  );
}
