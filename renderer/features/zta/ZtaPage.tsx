/**
 * The ZTA dashboard (issue 11; spec §1 "Zero trust assessment"): every connector's latest scores
 * from main's store, so it works offline. The filters, the sort and the opened host are in the
 * address (app/search.ts): filters and sort act on a draft at once and reach the address once
 * input pauses (useAddressDraft); opening a host adds a history entry (Back closes it).
 */
import { getRouteApi } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { ZtaRefinements } from '../../app/search';
import { shallowEqual, useAddressDraft } from '../../app/useAddressDraft';
import { useCloseOpenedItem } from '../../app/useCloseOpenedItem';
import { useZtaSnapshot } from '../../api/zta';
import { LoadFailed, Loading } from '../../components/QueryState';
import { NeverScored, NoConnectors } from './EmptyStates';
import { ZtaDashboard } from './ZtaDashboard';

const route = getRouteApi('/zta');

export function ZtaPage() {
  const snapshot = useZtaSnapshot();
  // The window's connection is not the page's to write.
  const { host, connection: _connection, ...inAddress } = route.useSearch();
  const navigate = route.useNavigate();
  const { draft, setDraft, flush } = useAddressDraft<ZtaRefinements>(inAddress, (v) => void navigate({ search: (prev) => ({ ...prev, ...v }), replace: true }), shallowEqual);
  const refine = useCallback((patch: Partial<ZtaRefinements>) => setDraft((d) => ({ ...d, ...patch })), [setDraft]);
  const openHost = useCallback(
    (hostId: string) => {
      flush();
      void navigate({ search: (prev) => ({ ...prev, host: hostId }), state: (s) => ({ ...s, openedHere: true }) });
    },
    [flush, navigate],
  );
  const closeHost = useCloseOpenedItem('host');

  let body;
  if (snapshot.isPending) {
    body = (
      <Loading>Loading the stored scores…</Loading>
    );
  } else if (snapshot.isError) {
    body = (
      <LoadFailed onRetry={() => void snapshot.refetch()}>The stored scores could not be read.</LoadFailed>
    );
  } else if (snapshot.data.connectors.length === 0) {
    body = <NoConnectors />;
  } else if (snapshot.data.connectors.every((c) => c.cycleId === null)) {
    body = <NeverScored connectors={snapshot.data.connectors} />;
  } else {
    return <ZtaDashboard snapshot={snapshot.data} view={draft} refine={refine} openedHost={host} openHost={openHost} closeHost={closeHost} />;
  }
  return (
    <div className="page page-wide zta-page">
      <div className="toolbar">
        <h2>Zero trust assessment</h2>
      </div>
      {body}
    </div>
  );
}
