import type { ProfileView } from '../../shared/model/profile';
import type { SessionStatus } from '../../shared/model/session';
import { useProfiles, useSessions } from '../api/connections';
import { useActiveProfile } from './useActiveProfile';

export interface InventoryProfile {
  /** The connection shown in the header; the inventory views work on it. */
  profile: ProfileView | undefined;
  session: SessionStatus | undefined;
  signedIn: boolean;
  loading: boolean;
}

export function useInventoryProfile(): InventoryProfile {
  const profiles = useProfiles();
  const sessions = useSessions();
  const profile = useActiveProfile(profiles.data, sessions.data);
  const session = profile ? sessions.data?.find((s) => s.profileId === profile.id) : undefined;
  return { profile, session, signedIn: session?.state === 'signed-in', loading: profiles.isPending };
}
