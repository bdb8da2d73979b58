/**
 * How old the devices' state on the node is (reachability, sync: the appliance list). Labelled
 * as older than the list when the last refresh could not read it, and past 15 minutes.
 */
import { TriangleAlert } from 'lucide-react';
import { memo } from 'react';
import { agoText } from '../../components/format';
import { useTimeFormat } from '../../components/useTimeFormat';
import { useNow } from '../../components/useNow';

export const STATE_STALE_MS = 15 * 60_000;

/** Memoized: a keystroke in the search does not render it (nor format its date) again. */
/** `at`: when the appliance state the devices show was read (the store's `stateAt`); null: none has any. */
export const DeviceStateAge = memo(function DeviceStateAge({ at, listFetchedAt }: { at: string | null; listFetchedAt: string | null }) {
  const now = useNow();
  const tf = useTimeFormat();
  if (!at) {
    return (
      <span className="muted devices-state-age" data-testid="devices-state-age">
        No state from the node yet
      </span>
    );
  }
  // A minute of slack: the appliance list is read right after the device list.
  const behindList = listFetchedAt !== null && Date.parse(listFetchedAt) - Date.parse(at) > 60_000;
  const stale = behindList || now - Date.parse(at) > STATE_STALE_MS;
  return (
    <span className={stale ? 'chip chip-warn devices-state-age' : 'muted devices-state-age'} title={`Reachability and sync as the node reported them at ${tf.dateTime(at)}`} data-testid="devices-state-age" data-stale={stale}>
      {stale ? <TriangleAlert size={12} aria-hidden="true" /> : null}
      State: {agoText(at, now)}
      {behindList ? ' (older than the list)' : ''}
    </span>
  );
});
