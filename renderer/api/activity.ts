/** The activity log (issue 22.2): main's record of every operator write; `activity.changed` refreshes it (event-sync.ts). */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ActivityOutcome } from '../../shared/model/activity';
import { useClient } from './ApiProvider';
import { keys } from './keys';

export function useActivity(filter: { q?: string | undefined; outcome?: ActivityOutcome | undefined; limit: number }) {
  const client = useClient();
  return useQuery({
    queryKey: keys.activityPage(filter),
    queryFn: () => client.invoke('activity.list', { limit: filter.limit, ...(filter.q ? { q: filter.q } : {}), ...(filter.outcome ? { outcome: filter.outcome } : {}) }),
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });
}
