/**
 * The ZTA dashboard (issue 11; spec §1 "Zero trust assessment"): every connector's latest scores
 * from main's store, so it works offline. The filters, the sort and the opened host are in the
 * address (app/search.ts): filters and sort act on a draft at once and reach the address once
 * input pauses (useAddressDraft); opening a host adds a history entry (Back closes it).
 */
import { useState } from 'react';
import { useRouteRefinements, ztaFilterOf, type ZtaSearch } from '../../app/search';
import { useZtaFirstPageEarly, useZtaFacets } from '../../api/zta';
import { LoadFailed, Loading } from '../../components/QueryState';
import { NeverScored, NoConnectors } from './EmptyStates';
import { ZtaDashboard } from './ZtaDashboard';


export function ZtaPage() {
  const facets = useZtaFacets();
  const { view: draft, refine, opened: host, open: openHost, close: closeHost } = useRouteRefinements('/zta');

  let body;
  if (facets.isPending) {
    body = (
      <>
        <EarlyFirstPage view={draft} />
        <Loading>Loading the stored scores…</Loading>
      </>
    );
  } else if (facets.isError) {
    body = (
      <LoadFailed onRetry={() => void facets.refetch()}>The stored scores could not be read.</LoadFailed>
    );
  } else if (facets.data.connectors.length === 0) {
    body = <NoConnectors />;
  } else if (facets.data.connectors.every((c) => c.cycleId === null)) {
    body = <NeverScored connectors={facets.data.connectors} />;
  } else {
    return <ZtaDashboard facets={facets.data} view={draft} refine={refine} openedHost={host} openHost={openHost} closeHost={closeHost} />;
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

/**
 * The table's first page asked for beside the facets, in the order and filter the address gives
 * (C-102); shown only while they load. A choice the facets then do not know is dropped by the
 * dashboard, whose own read follows.
 */
function EarlyFirstPage({ view }: { view: Omit<ZtaSearch, "host"> }) {
  const [q] = useState(() => ({ filter: ztaFilterOf(view), sort: { key: view.sort, desc: view.order === 'desc' } }));
  useZtaFirstPageEarly(q);
  return null;
}
