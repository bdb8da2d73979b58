/**
 * The Overview page and the sidebar's badges (issue 13): main answers both from its stores with
 * aggregates, so they work offline. Events keep them fresh (event-sync.ts: alarms, cycles,
 * inventory, sessions and connectors refetch `keys.overview`).
 */
import { useQuery } from '@tanstack/react-query';
import { useClient } from './ApiProvider';
import { keys } from './keys';

/** `ready`: the window knows which connection it works on (or that there is none). */
export function useOverview(profileId: string | undefined, ready: boolean) {
  const client = useClient();
  return useQuery({
    queryKey: keys.overviewPage(profileId),
    queryFn: () => client.invoke('overview.get', profileId ? { profileId } : {}),
    enabled: ready,
    staleTime: Infinity,
    // Another connection's answer stays in view until this one's arrives (no blank page between).
    placeholderData: (previous) => previous,
  });
}

export function useOverviewBadges(profileId: string | undefined, ready: boolean) {
  const client = useClient();
  return useQuery({
    queryKey: keys.overviewBadges(profileId),
    queryFn: () => client.invoke('overview.badges', profileId ? { profileId } : {}),
    enabled: ready,
    staleTime: Infinity,
    // A badge that cannot be read is left out; it is no page's error.
    meta: { silent: true },
  });
}

/** A joined console's Fleet card (C-89): read again every 5 s while shown (heartbeats are not events). */
export function useFleetHealth(enabled: boolean) {
  const client = useClient();
  return useQuery({
    queryKey: keys.overviewFleet,
    queryFn: () => client.invoke('overview.fleet', {}),
    enabled,
    refetchInterval: 5_000,
    placeholderData: (previous) => previous,
    meta: { silent: true },
  });
}
