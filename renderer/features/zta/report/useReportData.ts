/**
 * The report's data, read as the dashboard reads it (issue 25.3, C-95; the same query keys, so one
 * cache for both pages, refreshed by the same events): the connectors and customers' names
 * (zta.facets), the counts of its filter (zta.counts), the riskiest hosts (the first RISKIEST rows of
 * zta.window in the default order), the trend and changes for its filters (zta.overview) and the
 * details of each of the riskiest hosts (their reasons) — never the snapshot of every host.
 * `state` is 'ready' once everything answered (a host whose details cannot be read is shown without
 * reasons) and 'failed' when a read of the store fails: the page tells the desktop's PDF window
 * through `<html data-report-ready>`.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ZtaFilter } from '../../../../shared/model/zta';
import { useClient } from '../../../api/ApiProvider';
import { keys } from '../../../api/keys';
import { buildReport, changesInScope, RISKIEST } from './report-model';

export function useReportData(filter: ZtaFilter) {
  const client = useClient();
  // The filter by value: a new object for the same address must not rebuild the report.
  const filterKey = JSON.stringify(filter);
  const f = useMemo(() => JSON.parse(filterKey) as ZtaFilter, [filterKey]);
  // The page says what failed itself (and the PDF window is told): no toasts.
  const silent = { meta: { silent: true } };
  const facets = useQuery({ queryKey: keys.ztaFacets, queryFn: () => client.invoke('zta.facets', {}), ...silent });
  const counts = useQuery({ queryKey: keys.ztaCounts(f), queryFn: () => client.invoke('zta.counts', { filter: f }), ...silent });
  const top = useQuery({ queryKey: keys.ztaWindow({ filter: f, limit: RISKIEST, offset: 0 }), queryFn: () => client.invoke('zta.window', { filter: f, offset: 0, limit: RISKIEST }), ...silent });
  const overview = useQuery({ queryKey: keys.ztaOverview(f), queryFn: () => client.invoke('zta.overview', f), ...silent });
  const model = useMemo(() => (facets.data && counts.data && top.data ? buildReport({ facets: facets.data, counts: counts.data, top: top.data }, f) : undefined), [facets.data, counts.data, top.data, f]);
  const details = useQueries({
    queries: (model?.riskiest ?? []).map((r) => ({
      queryKey: keys.ztaHost(r.connectorId, r.hostId),
      queryFn: () => client.invoke('zta.host', { connectorId: r.connectorId, hostId: r.hostId }),
      meta: { silent: true },
      retry: false,
    })),
  });
  const reads = [facets, counts, top, overview];
  const detailsSettled = details.every((d) => !d.isPending);
  const state: 'loading' | 'ready' | 'failed' = reads.some((r) => r.isError) ? 'failed' : model && overview.data && detailsSettled ? 'ready' : 'loading';
  const changes = useMemo(() => (overview.data ? changesInScope(f, overview.data.changes) : undefined), [overview.data, f]);
  const reasons = new Map(details.flatMap((d) => (d.data ? [[hostKey(d.data.connectorId, d.data.host.hostId), d.data.contributions] as const] : [])));
  return { state, model, overview: overview.data, changes, reasons, error: reads.find((r) => r.error)?.error, retry: () => void Promise.all(reads.map((r) => r.refetch())) };
}

/** The key of a host in `reasons`. */
export const hostKey = (connectorId: string, hostId: string) => `${connectorId}\u0000${hostId}`;
