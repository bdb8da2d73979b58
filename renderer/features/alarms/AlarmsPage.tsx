/**
 * The Alarms page (issue 12): the live stream of the chosen connection's alarms from main's store
 * (readable offline; collected while the connection is signed in), which source feeds it and how
 * far behind, open alarms per organization and severity, changes per minute, and acknowledge and
 * clear on one alarm or a selection. Filters and the opened alarm are in the address
 * (app/search.ts): choices act on a draft at once, typed names and words once typing pauses
 * (useAddressDraft); opening an alarm adds a history entry (Back closes it).
 */
import { getRouteApi } from '@tanstack/react-router';
import { useCallback, useMemo } from 'react';
import type { AlarmRefinements } from '../../app/search';
import { shallowEqual, useAddressDraft } from '../../app/useAddressDraft';
import { useCloseOpenedItem } from '../../app/useCloseOpenedItem';
import { Loading } from '../../components/QueryState';
import { NoConnection } from '../../components/NoConnection';
import { useInventoryProfile } from '../../app/useInventoryProfile';
import { AlarmStream } from './AlarmStream';

const route = getRouteApi('/alarms');

export function AlarmsPage() {
  const { profile, signedIn, loading } = useInventoryProfile();
  // The window's connection is not the page's to write.
  const { alarm, connection: _connection, ...inAddress } = route.useSearch();
  const navigate = route.useNavigate();
  const { draft, setDraft, flush } = useAddressDraft<AlarmRefinements>(inAddress, (v) => void navigate({ search: (prev) => ({ ...prev, ...v }), replace: true }), shallowEqual);
  const refine = useCallback((patch: Partial<AlarmRefinements>) => setDraft((d) => ({ ...d, ...patch })), [setDraft]);
  const openAlarm = useCallback(
    (id: number) => {
      flush();
      void navigate({ search: (prev) => ({ ...prev, alarm: String(id) }), state: (s) => ({ ...s, openedHere: true }) });
    },
    [flush, navigate],
  );
  const closeAlarm = useCloseOpenedItem('alarm');
  // Typed names and words query once they reach the address; choices at once.
  const { device, type, q } = inAddress;
  const applied = useMemo(() => ({ ...draft, device, type, q }), [draft, device, type, q]);

  if (loading) {
    return (
      <Loading>Loading…</Loading>
    );
  }
  if (!profile) return <NoConnection what="Alarms" />;
  return (
    <AlarmStream
      key={profile.id}
      profile={profile}
      signedIn={signedIn}
      view={draft}
      applied={applied}
      refine={refine}
      openedId={alarm ? Number(alarm) : undefined}
      openAlarm={openAlarm}
      closeAlarm={closeAlarm}
    />
  );
}
