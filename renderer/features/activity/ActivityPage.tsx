/**
 * The activity log (issue 22.2): every write an operator made through this console — alarms
 * acknowledged or cleared, devices onboarded and deployed, connectors changed, risk settings saved
 * and rescored, certificates trusted, settings changed — newest first, with who (the desk's account
 * and the node account it acted as), what, on which object, and how it ended. Searchable; kept
 * like the other histories; `northbound audit export` prints the same entries.
 */
import { Search } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import type { ActivityEntry, ActivityOutcome } from '../../../shared/model/activity';
import { useActivity } from '../../api/activity';
import { useAppInfo } from '../../api/app';
import { formatCount } from '../../components/format';
import { NetText } from '../../components/NetText';
import { Loading } from '../../components/QueryState';
import { DateTime } from '../../components/Time';

const PAGE = 200;

function Row({ e }: { e: ActivityEntry }) {
  return (
    <tr data-testid="activity-row" data-action={e.action} data-outcome={e.outcome}>
      <td className="nowrap">
        <DateTime iso={e.at} />
      </td>
      <td>
        <strong>
          <NetText text={e.user} />
        </strong>
        {e.nodeUser ? (
          <div className="small muted" title="The node account the connection signs in as">
            as <NetText text={e.nodeUser} />
          </div>
        ) : null}
        {e.console ? (
          <div className="small muted" title="The console the write was made from (its host name and install ID)" data-testid="activity-console">
            from <NetText text={e.console} />
          </div>
        ) : null}
      </td>
      <td>
        {e.what}
        <div className="small muted mono">{e.action}</div>
      </td>
      <td>
        <NetText text={e.objectName || e.objectId} />
        {e.connection ? (
          <div className="small muted">
            on <NetText text={e.connection} />
          </div>
        ) : null}
      </td>
      <td>{e.outcome === 'ok' ? <span className="chip chip-ok">done</span> : <span className="chip chip-danger">failed</span>}</td>
      <td className="activity-detail">
        <NetText text={e.detail} />
      </td>
    </tr>
  );
}

export function ActivityPage() {
  const [q, setQ] = useState('');
  const [outcome, setOutcome] = useState<ActivityOutcome | ''>('');
  const [limit, setLimit] = useState(PAGE);
  const deferred = useDeferredValue(q.trim());
  const list = useActivity({ q: deferred || undefined, outcome: outcome || undefined, limit });
  const info = useAppInfo();
  const data = list.data;
  return (
    <div className="page activity">
      <section className="card" aria-labelledby="activity-title">
        <header className="card-head activity-head">
          <h2 id="activity-title">
            Activity <span className="count">{data ? formatCount(data.total) : ''}</span>
          </h2>
          <div className="activity-filters">
            <div className="search-box">
              <Search size={14} aria-hidden="true" />
              <input type="search" aria-label="Search the activity" placeholder="Search user, action, object or note" value={q} onChange={(e) => setQ(e.target.value)} spellCheck={false} />
            </div>
            <select aria-label="Outcome" value={outcome} onChange={(e) => setOutcome(e.target.value as ActivityOutcome | '')}>
              <option value="">Any outcome</option>
              <option value="ok">Done</option>
              <option value="failed">Failed</option>
            </select>
          </div>
        </header>
        <p className="muted small">
          Every change made through this console, newest first: who made it, what, on which object and how it ended.
          {data ? ` Kept ${formatCount(data.kept.days)} days (the longer of the alarm and risk history settings).` : ''} Print it with{' '}
          <code>northbound audit export --data-dir {info.data?.dataDir ?? 'DIR'}</code>.
        </p>
        {list.isPending ? (
          <Loading>Loading the activity…</Loading>
        ) : list.isError ? (
          <p role="alert">The activity log could not be read.</p>
        ) : data && data.rows.length === 0 ? (
          <p className="empty muted" data-testid="activity-empty">
            {deferred || outcome ? 'No activity matches these filters.' : 'Nothing changed through this console yet: acknowledging an alarm, deploying a device or saving a connector shows here.'}
          </p>
        ) : data ? (
          <>
            <div className="activity-scroll">
              <table className="table activity-table" data-testid="activity-table">
                <thead>
                  <tr>
                    <th scope="col">When</th>
                    <th scope="col">Who</th>
                    <th scope="col">What</th>
                    <th scope="col">On</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Note or result</th>
                  </tr>
                </thead>
                <tbody>
                  {data.rows.map((e) => (
                    <Row key={e.id} e={e} />
                  ))}
                </tbody>
              </table>
            </div>
            {data.rows.length < data.total ? (
              <button type="button" className="button button-small activity-more" onClick={() => setLimit((n) => Math.min(1000, n + PAGE))} disabled={limit >= 1000}>
                {limit >= 1000 ? `Showing the newest 1,000 of ${formatCount(data.total)}: search to narrow, or export` : `Show older (${formatCount(data.total - data.rows.length)} more)`}
              </button>
            ) : null}
          </>
        ) : null}
      </section>
    </div>
  );
}
