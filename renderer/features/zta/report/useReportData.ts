/**
 * The report's data: the snapshot (shared with the dashboard's cache), the trend and changes for
 * its filters, and the details of each of the riskiest hosts (their reasons). `state` is 'ready'
 * once everything answered (a host whose details cannot be read is shown without reasons) and
 * 'failed' when the snapshot or the overview cannot be read: the page tells the desktop's PDF
 * window through `<html data-report-ready>`.
 */
import { useQueries, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { ZtaFilter } from '../../../../shared/model/zta';
import { useClient } from '../../../api/ApiProvider';
import { keys } from '../../../api/keys';
import { buildReport, changesInScope } from './report-model';

/** The dashboard's own query keys (renderer/api/keys.ts): one cache for both pages, refreshed by the same events. */
const reportKeys = { snapshot: keys.ztaSnapshot, overview: keys.ztaOverview, host: keys.ztaHost };

export function useReportData(filter: ZtaFilter) {
  const client = useClient();
  // The page says what failed itself (and the PDF window is told): no toasts.
  const snapshot = useQuery({ queryKey: reportKeys.snapshot, queryFn: () => client.invoke('zta.snapshot', {}), meta: { silent: true } });
  const overview = useQuery({ queryKey: reportKeys.overview(filter), queryFn: () => client.invoke('zta.overview', filter), meta: { silent: true } });
  // The filter by value: a new object for the same address must not rebuild the report.
  const filterKey = JSON.stringify(filter);
  const model = useMemo(() => (snapshot.data ? buildReport(snapshot.data, JSON.parse(filterKey) as ZtaFilter) : undefined), [snapshot.data, filterKey]);
  const details = useQueries({
    queries: (model?.riskiest ?? []).map((r) => ({
      queryKey: reportKeys.host(r.connectorId, r.hostId),
      queryFn: () => client.invoke('zta.host', { connectorId: r.connectorId, hostId: r.hostId }),
      meta: { silent: true },
      retry: false,
    })),
  });
  const detailsSettled = details.every((d) => !d.isPending);
  const state: 'loading' | 'ready' | 'failed' = snapshot.isError || overview.isError ? 'failed' : model && overview.data && detailsSettled ? 'ready' : 'loading';
  const changes = useMemo(() => (snapshot.data && overview.data ? changesInScope(snapshot.data, JSON.parse(filterKey) as ZtaFilter, overview.data.changes) : undefined), [snapshot.data, overview.data, filterKey]);
  const reasons = new Map(details.flatMap((d) => (d.data ? [[hostKey(d.data.connectorId, d.data.host.hostId), d.data.contributions] as const] : [])));
  return { state, model, overview: overview.data, changes, reasons, error: snapshot.error ?? overview.error, retry: () => void Promise.all([snapshot.refetch(), overview.refetch()]) };
}

/** The key of a host in `reasons`. */
export const hostKey = (connectorId: string, hostId: string) => `${connectorId}\u0000${hostId}`;
