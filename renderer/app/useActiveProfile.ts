import type { ProfileView } from '../../shared/model/profile';
import type { SessionStatus } from '../../shared/model/session';
import { useUi } from '../stores/ui';

/** The selected profile, else the first signed-in one, else the first. */
export function pickActiveProfile(profiles: ProfileView[] | undefined, sessions: SessionStatus[] | undefined, selectedId: string | undefined): ProfileView | undefined {
  if (!profiles?.length) return undefined;
  const selected = selectedId ? profiles.find((p) => p.id === selectedId) : undefined;
  if (selected) return selected;
  const signedIn = sessions?.find((s) => s.state === 'signed-in');
  return profiles.find((p) => p.id === signedIn?.profileId) ?? profiles[0];
}

export function useActiveProfile(profiles: ProfileView[] | undefined, sessions: SessionStatus[] | undefined): ProfileView | undefined {
  const selectedId = useUi((s) => s.selectedProfileId);
  return pickActiveProfile(profiles, sessions, selectedId);
}
