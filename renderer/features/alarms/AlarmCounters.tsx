/**
 * Open alarms per organization and severity (alarms.summary), live: the totals first, then each
 * organization. A count is a link into the stream: it filters by that organization and severity.
 */
import { memo } from 'react';
import { ACTIVE_SEVERITIES, type ActiveSeverity, type AlarmSummary } from '../../../shared/model/alarms';
import { netText } from '../../../shared/text';
import { formatCount } from '../../components/format';
import { NetText } from '../../components/NetText';

export const AlarmCounters = memo(function AlarmCounters({ summary, onPick }: { summary: AlarmSummary | undefined; onPick(org: string, severity: ActiveSeverity | ''): void }) {
  const rows = summary ? [{ org: '', label: 'All organizations', ...summary.totals }, ...summary.organizations.map((o) => ({ ...o, label: o.org }))] : [];
  return (
    <section className="alarm-card alarm-counters" aria-labelledby="alarm-counters-title" data-testid="alarm-counters">
      <header className="alarm-card-head">
        <h3 id="alarm-counters-title">Open alarms</h3>
        <span className="muted">{summary ? `${formatCount(summary.totals.total)} open` : 'Reading…'}</span>
      </header>
      <div className="alarm-counters-scroll" tabIndex={-1}>
        <table className="table alarm-counters-table">
          <thead>
            <tr>
              <th scope="col">Organization</th>
              {ACTIVE_SEVERITIES.map((s) => (
                <th key={s} scope="col" className={`num sev-head sev-${s}`}>
                  {s === 'indeterminate' ? 'indet.' : s}
                </th>
              ))}
              <th scope="col" className="num">
                total
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.org || '*'} data-testid={`alarm-counts-${r.org || 'all'}`} className={r.org ? undefined : 'alarm-counts-total'}>
                <th scope="row" title={netText(r.label)}>
                  {r.org ? <NetText text={r.label} /> : r.label}
                </th>
                {ACTIVE_SEVERITIES.map((s) => (
                  <td key={s} className="num">
                    {r[s] > 0 ? (
                      <button type="button" className={`count-link sev-count sev-${s}`} onClick={() => onPick(r.org, s)} title={`Show the ${s} alarms${r.org ? ` of ${netText(r.org)}` : ''}`} data-testid={`alarm-count-${r.org || 'all'}-${s}`}>
                        {formatCount(r[s])}
                      </button>
                    ) : (
                      <span className="muted">0</span>
                    )}
                  </td>
                ))}
                <td className="num">
                  <button type="button" className="count-link" onClick={() => onPick(r.org, '')} title={`Show the open alarms${r.org ? ` of ${netText(r.org)}` : ''}`} data-testid={`alarm-count-${r.org || 'all'}-total`}>
                    {formatCount(r.total)}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
});
