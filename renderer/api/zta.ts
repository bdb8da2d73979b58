/**
 * The ZTA dashboard's reads and writes (issue 11): the snapshot of every host's latest score, the
 * overview (trend and changes), one host's details, the what-if's Save and the exports. All of it
 * reads main's stored scores, so it works offline. A cycle that ends (`edr.progress` completed or
 * failed) and a changed connector invalidate every `zta` query (event-sync.ts).
 */
import { keepPreviousData, skipToken, useMutation, useQueries, useQuery } from '@tanstack/react-query';
import type { RequestOf } from '../../shared/contract';
import type { ZtaFilter } from '../../shared/model/zta';
import type { HostWindowQuery } from '../../shared/model/zta-window';
import { useClient } from './ApiProvider';
import type { Client } from './client';
import { keys } from './keys';

/** Up to 100,000 hosts: fetched once and kept until an event says it changed. */
/** `enabled: false` reads nothing until needed (the palette asks only once something is typed). */
export function useZtaSnapshot(enabled = true) {
  const client = useClient();
  return useQuery({ queryKey: keys.ztaSnapshot, queryFn: () => client.invoke('zta.snapshot', {}), staleTime: Infinity, enabled });
}

/** The connectors and their hosts by customer and platform (no host read): what the dashboard shows first. */
export function useZtaFacets() {
  const client = useClient();
  return useQuery({ queryKey: keys.ztaFacets, queryFn: () => client.invoke('zta.facets', {}), staleTime: Infinity });
}

/** One connector's hosts, columnar (the what-if rescores them in the window); nothing while undefined. */
export function useZtaTenant(connectorId: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.ztaTenant(connectorId ?? ''),
    queryFn: connectorId ? () => client.invoke('zta.snapshot', { connectorId }) : skipToken,
    staleTime: Infinity,
    gcTime: 0,
  });
}

/** Rows of the table read at a time. */
export const ZTA_PAGE = 100;

/** The read of the table's page at `offset` (one definition for the table and the page's early read of its first page). */
export const ztaPageQuery = (client: Client, q: Omit<HostWindowQuery, 'offset' | 'limit'>, offset: number) => ({
  queryKey: keys.ztaWindow({ ...q, offset }),
  queryFn: () => client.invoke('zta.window', { ...q, offset, limit: ZTA_PAGE }),
  staleTime: Infinity,
});

/** The table's pages at these offsets (ZTA_PAGE rows each), read from the store in the order and filter given. */
export function useZtaPages(q: Omit<HostWindowQuery, 'offset' | 'limit'>, offsets: readonly number[]) {
  const client = useClient();
  return useQueries({ queries: offsets.map((offset) => ztaPageQuery(client, q, offset)) });
}

/**
 * Reads the table's first page in the address's filter and sort while the facets are on their way
 * (the dashboard, drawn once they came, finds it read or on its way: one round trip less before the
 * first rows). Used by a component shown only until then (ZtaPage's EarlyFirstPage): its observer
 * keeps the read from being dropped while nothing else observes it, and goes with it. Not for the
 * customer sort, whose window takes the customers' order from the facets.
 */
export function useZtaFirstPageEarly(q: Omit<HostWindowQuery, 'offset' | 'limit'>) {
  const client = useClient();
  // Dropped at once if nothing else observes it when the facets came (no table drawn: no connector
  // scored yet), so a later table never opens on this read's rows.
  useQuery({ ...ztaPageQuery(client, q, 0), enabled: q.sort?.key !== 'customer', gcTime: 0 });
}

/** A few rows from the top (the riskiest hosts card, the palette): `undefined` reads nothing. */
export function useZtaTop(q: Omit<HostWindowQuery, 'offset'> | undefined, silent = false) {
  const client = useClient();
  return useQuery({
    queryKey: keys.ztaWindow({ ...q, offset: 0 }),
    queryFn: q ? () => client.invoke('zta.window', { ...q, offset: 0 }) : skipToken,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
    ...(silent ? { meta: { silent: true } } : {}),
  });
}

/** The hosts the filter and search choose, by band and customer → platform (the chart and the count). */
export function useZtaCounts(filter: ZtaFilter | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.ztaCounts(filter ?? {}),
    queryFn: filter ? () => client.invoke('zta.counts', { filter }) : skipToken,
    staleTime: Infinity,
    placeholderData: keepPreviousData,
  });
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
