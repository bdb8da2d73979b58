/**
 * The chosen connection: one for the whole window, picked in the header (ConnectionPicker), the
 * command palette or a connection's row, and kept in the address (`?connection=<id>` on every
 * page). The last one picked is remembered for a new window. Saving a connection never changes
 * the choice: a window with no connection at all simply falls back to the first one (C-25).
 */
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { ProfileView } from '../../shared/model/profile';
import type { SessionStatus } from '../../shared/model/session';
import { rootSearch } from './search';

const REMEMBERED_KEY = 'northbound.connection';

/** The connection picked last in any window: the default of a new window. */
export function rememberedConnection(): string | undefined {
  try {
    return window.localStorage.getItem(REMEMBERED_KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

function rememberConnection(profileId: string): void {
  try {
    window.localStorage.setItem(REMEMBERED_KEY, profileId);
  } catch {
    // Not remembered for the next window; this one has it in its address.
  }
}

/**
 * The one in the address, else the one remembered, else the first signed-in one, else the first.
 * An id that no longer exists (a deleted connection, an old bookmark) falls through.
 */
export function pickActiveProfile(profiles: ProfileView[] | undefined, sessions: SessionStatus[] | undefined, chosenId: string | undefined, rememberedId?: string): ProfileView | undefined {
  if (!profiles?.length) return undefined;
  for (const id of [chosenId, rememberedId]) {
    const p = id ? profiles.find((x) => x.id === id) : undefined;
    if (p) return p;
  }
  const signedIn = sessions?.find((s) => s.state === 'signed-in');
  return profiles.find((p) => p.id === signedIn?.profileId) ?? profiles[0];
}

/** The `connection` of the address, as written (it may name no connection any more). Read from the location: the header needs it before a page is matched. */
export function useChosenConnectionId(): string | undefined {
  return useRouterState({ select: (s) => rootSearch.parse(s.location.search).connection });
}

export function useActiveProfile(profiles: ProfileView[] | undefined, sessions: SessionStatus[] | undefined): ProfileView | undefined {
  return pickActiveProfile(profiles, sessions, useChosenConnectionId(), rememberedConnection());
}

/** Chooses a connection for this window (a new history entry) and remembers it for the next one. */
export function useChooseConnection(): (profileId: string) => void {
  const navigate = useNavigate();
  return useCallback(
    (profileId: string) => {
      rememberConnection(profileId);
      void navigate({ to: '.', search: (prev) => ({ ...prev, connection: profileId }) });
    },
    [navigate],
  );
}

/** Shows a tab of the Connections page for `profileId` (chosen for the window, as any explicit pick). */
export function useShowConnectionTab(): (profileId: string, tab: 'oauth-clients' | 'syslog') => void {
  const navigate = useNavigate();
  return useCallback(
    (profileId: string, tab: 'oauth-clients' | 'syslog') => {
      rememberConnection(profileId);
      void navigate({ to: '/connections', search: { tab, connection: profileId } });
    },
    [navigate],
  );
}
