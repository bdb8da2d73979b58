/** A joined console's connector (issue 25.1): which worker holds it and until when, and its last cycle and error as the fleet's workers wrote them. */
import type { FleetClaimView } from '../../../shared/model/team';
import { agoText } from '../../components/format';
import { inText } from '../../components/connector-labels';
import { RelativeTime } from '../../components/Time';
import { useNow } from '../../components/useNow';

export function FleetClaim({ fleet }: { fleet: FleetClaimView | undefined }) {
  const now = useNow();
  if (!fleet) return <span className="muted">No claim yet: the workers take it at their next pass.</span>;
  return (
    <div className="fleet-claim" data-testid="fleet-claim">
      <span data-testid="fleet-worker">
        {fleet.worker ? (
          <>
            Worker <span className="mono">{fleet.worker}</span>
            {fleet.leaseUntil ? (
              fleet.leaseLapsed ? (
                <span className="chip chip-warn">lease lapsed</span>
              ) : (
                <>
                  {' '}
                  · lease ends <RelativeTime iso={fleet.leaseUntil}>{inText(fleet.leaseUntil, now)}</RelativeTime>
                </>
              )
            ) : null}
          </>
        ) : (
          <>
            No worker holds it{fleet.dueAt ? <> · next poll due <RelativeTime iso={fleet.dueAt}>{Date.parse(fleet.dueAt) > now ? inText(fleet.dueAt, now) : 'now'}</RelativeTime></> : null}
          </>
        )}
      </span>
      {fleet.lastStatus ? (
        <span data-testid="fleet-last-cycle">
          Last cycle{fleet.lastCycleId !== null ? ` #${fleet.lastCycleId}` : ''}: <span className={fleet.lastStatus === 'completed' ? 'chip chip-ok' : 'chip chip-danger'}>{fleet.lastStatus}</span>
          {fleet.lastWorker ? (
            <>
              {' '}
              by <span className="mono">{fleet.lastWorker}</span>
            </>
          ) : null}
          {fleet.lastFinishedAt ? (
            <>
              {' '}
              <RelativeTime iso={fleet.lastFinishedAt}>{agoText(fleet.lastFinishedAt, now)}</RelativeTime>
            </>
          ) : null}
        </span>
      ) : (
        <span className="muted">No cycle yet.</span>
      )}
      {fleet.lastError ? (
        <span className="field-error" data-testid="fleet-last-error">
          {fleet.lastError}
        </span>
      ) : null}
    </div>
  );
}
