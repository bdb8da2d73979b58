/**
 * How old the stored list is ("Fetched 3 min ago", "Never fetched") and the Refresh button,
 * which shows the paging progress of `inventory.progress` while it runs. Signed out, the stored
 * list still shows; the note says how to get a fresh one.
 */
import { LogIn, RefreshCw } from 'lucide-react';
import { memo, useEffect } from 'react';
import type { ProfileView } from '../../shared/model/profile';
import { useInventoryProgress, useRefreshInventory } from '../api/inventory';
import { useSignIn } from '../api/connections';
import { Spinner } from './Spinner';
import { agoText, formatCount } from './format';
import { RelativeTime } from './Time';
import { useNow } from './useNow';

type What = 'devices' | 'organizations';

/** Lists fetched on their own in this window already (`profileId:what`): once each, also after a failure. */
const fetchedOnFirstVisit = new Set<string>();

/**
 * A list that was never fetched is fetched once, with its progress, as soon as the session allows
 * it: the first visit of the Devices or Organizations page, the onboarding wizard's first step, or
 * the Overview's devices tile (C-11). A failed first fetch is not repeated by itself; Refresh is
 * always there. Answers the refresh (its `isPending` while it runs).
 */
export function useFetchOnFirstVisit(profileId: string, what: What, signedIn: boolean, fetchedAt: string | null | undefined) {
  const refresh = useRefreshInventory();
  useEffect(() => {
    const key = `${profileId}:${what}`;
    if (!signedIn || fetchedAt !== null || fetchedOnFirstVisit.has(key)) return;
    fetchedOnFirstVisit.add(key);
    refresh.mutate({ profileId, what });
  }, [signedIn, fetchedAt, profileId, what, refresh]);
  return refresh;
}

/** Memoized: a keystroke in the page's search does not render it again. */
export const InventoryFreshness = memo(function InventoryFreshness({ profile, fetchedAt, what, signedIn }: { profile: ProfileView; fetchedAt: string | null | undefined; what: What; signedIn: boolean }) {
  const now = useNow();
  const refresh = useFetchOnFirstVisit(profile.id, what, signedIn, fetchedAt);
  const progress = useInventoryProgress(profile.id)?.[what];
  const signIn = useSignIn();
  const running = refresh.isPending;
  const percent = running && progress?.total ? Math.min(100, Math.round((progress.done / progress.total) * 100)) : undefined;
  const run = () => refresh.mutate({ profileId: profile.id, what });

  return (
    <div className="freshness" data-testid={`${what}-freshness`}>
      {running ? (
        <span className="freshness-progress" role="status">
          <span>
            Refreshing {what}
            {progress ? <span className="mono"> {progress.total === null ? formatCount(progress.done) : `${formatCount(progress.done)} / ${formatCount(progress.total)}`}</span> : '…'}
          </span>
          <span className={percent === undefined ? 'progress-bar freshness-bar indeterminate' : 'progress-bar freshness-bar determinate'} role="progressbar" aria-label={`Refreshing ${what}`} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
            <span style={percent === undefined ? undefined : { width: `${percent}%` }} />
          </span>
        </span>
      ) : fetchedAt ? (
        <RelativeTime iso={fetchedAt} className="muted" testId="fetched-at" describe={(t) => `Fetched at ${t}`}>
          Fetched {agoText(fetchedAt, now)}
        </RelativeTime>
      ) : (
        <span className="muted" data-testid="fetched-at">
          Never fetched —{' '}
        </span>
      )}
      {!signedIn && !running ? (
        <button type="button" className="button button-small" onClick={() => signIn.mutate(profile.id)} disabled={signIn.isPending} title={`Showing the stored copy. Sign in to ${profile.name} to refresh it.`}>
          {signIn.isPending ? <Spinner /> : <LogIn size={14} aria-hidden="true" />}
          Sign in
        </button>
      ) : null}
      <button type="button" className="button button-small" onClick={run} disabled={running} title={signedIn ? `Fetch every ${what === 'devices' ? 'device' : 'organization'} from ${profile.name}` : 'Needs a signed-in session'}>
        {running ? <Spinner /> : <RefreshCw size={14} aria-hidden="true" />}
        Refresh
      </button>
    </div>
  );
});
