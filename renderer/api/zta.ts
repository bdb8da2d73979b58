/**
 * The ZTA dashboard's reads and writes (issue 11): the snapshot of every host's latest score, the
 * overview (trend and changes), one host's details, the what-if's Save and the exports. All of it
 * reads main's stored scores, so it works offline. A cycle that ends (`edr.progress` completed or
 * failed) and a changed connector invalidate every `zta` query (event-sync.ts).
 */
import { skipToken, useMutation, useQuery } from '@tanstack/react-query';
import type { RequestOf } from '../../shared/contract';
import type { ZtaFilter } from '../../shared/model/zta';
import { useClient } from './ApiProvider';
import { keys } from './keys';

/** Up to 100,000 hosts: fetched once and kept until an event says it changed. */
/** `enabled: false` reads nothing until needed (the palette asks only once something is typed). */
export function useZtaSnapshot(enabled = true) {
  const client = useClient();
  return useQuery({ queryKey: keys.ztaSnapshot, queryFn: () => client.invoke('zta.snapshot', {}), staleTime: Infinity, enabled });
}

/** Trend and changes for the filters main applies to them (customer, platform, vendor, connector). */
export function useZtaOverview(filter: ZtaFilter | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.ztaOverview(filter ?? {}),
    queryFn: filter ? () => client.invoke('zta.overview', filter) : skipToken,
    staleTime: Infinity,
    placeholderData: (previous) => previous,
  });
}

export function useZtaHost(connectorId: string | undefined, hostId: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.ztaHost(connectorId ?? '', hostId ?? ''),
    queryFn: connectorId && hostId ? () => client.invoke('zta.host', { connectorId, hostId }) : skipToken,
    staleTime: Infinity,
    // The dialog says itself that the host is gone.
    meta: { silent: true },
    retry: false,
  });
}

/** The what-if's Save: answers when the rescored cycle has completed. Refusals show at their fields. */
export function useApplyRisk() {
  const client = useClient();
  return useMutation({ mutationFn: (req: RequestOf<'zta.applyRisk'>) => client.invoke('zta.applyRisk', req), meta: { silent: true } });
}

export function useStartExport() {
  const client = useClient();
  return useMutation({ mutationFn: (req: RequestOf<'zta.export.start'>) => client.invoke('zta.export.start', req) });
}

export function useCancelExport() {
  const client = useClient();
  return useMutation({ mutationFn: (req: RequestOf<'zta.export.cancel'>) => client.invoke('zta.export.cancel', req) });
}
