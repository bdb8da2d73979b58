/**
 * The Alarms page (issue 12): the live stream of the chosen connection's alarms from main's store
 * (readable offline; collected while the connection is signed in), which source feeds it and how
 * far behind, open alarms per organization and severity, changes per minute, and acknowledge and
 * clear on one alarm or a selection. Filters and the opened alarm are in the address
 * (app/search.ts): choices act on a draft at once, typed names and words once typing pauses
 * (useAddressDraft); opening an alarm adds a history entry (Back closes it).
 */
import { useCallback, useMemo } from 'react';
import { useRouteRefinements } from '../../app/search';
import { Loading } from '../../components/QueryState';
import { NoConnection } from '../../components/NoConnection';
import { useInventoryProfile } from '../../app/useInventoryProfile';
import { AlarmStream } from './AlarmStream';


export function AlarmsPage() {
  const { profile, signedIn, loading } = useInventoryProfile();
  const { view: draft, inAddress, refine, opened: alarm, open, close: closeAlarm } = useRouteRefinements('/alarms');
  const openAlarm = useCallback((id: number) => open(String(id)), [open]);
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
