/**
 * Where a window opens (`/`, and any address the router does not know): the Overview once any
 * connection or connector exists, else Connections with its welcome and the demo offer (C-42).
 * The choice waits for both lists; an operator who clicked somewhere meanwhile has already left
 * `/`, and that click is never undone.
 */
import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useProfiles } from '../api/connections';
import { useConnectors } from '../api/connectors';
import { Loading } from '../components/QueryState';

export function StartPage() {
  const router = useRouter();
  const profiles = useProfiles();
  const connectors = useConnectors();
  // A list that cannot be read counts as empty: Connections says what went wrong with it.
  const settled = !profiles.isPending && !connectors.isPending;
  const configured = (profiles.data?.length ?? 0) > 0 || (connectors.data?.length ?? 0) > 0;
  useEffect(() => {
    if (!settled || router.history.location.pathname !== '/') return;
    void router.navigate({ to: configured ? '/overview' : '/connections', search: (prev) => ({ connection: prev.connection }), replace: true });
  }, [settled, configured, router]);
  return (
    <Loading>Opening…</Loading>
  );
}
