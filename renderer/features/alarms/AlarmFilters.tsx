/**
 * The stream's filters (all in the address, app/search.ts): severities as toggles, open / cleared /
 * all, acknowledged or not, organization (those with alarms, from the counters), device and type
 * (exact names) and words anywhere. Choices apply at once; typed names and words apply once typing
 * pauses (when they reach the address), so a keystroke never sends a query.
 */
import { Search } from 'lucide-react';
import { ALARM_SEVERITIES } from '../../../shared/model/alarms';
import { netText } from '../../../shared/text';
import type { AlarmsSearch } from '../../app/search';

export type AlarmFilterValues = Pick<AlarmsSearch, 'severity' | 'org' | 'device' | 'type' | 'q' | 'state' | 'ack'>;

export function AlarmFilters({ values, orgs, onChange }: { values: AlarmFilterValues; orgs: readonly string[]; onChange(patch: Partial<AlarmFilterValues>): void }) {
  const chosen = new Set(values.severity ? values.severity.split(',') : []);
  const toggle = (s: string) => {
    const next = new Set(chosen);
    if (next.has(s)) next.delete(s);
    else next.add(s);
    onChange({ severity: ALARM_SEVERITIES.filter((x) => next.has(x)).join(',') });
  };
  const orgChoices = values.org && !orgs.includes(values.org) ? [values.org, ...orgs] : orgs;
  return (
    <div className="alarm-filters" role="search" aria-label="Filter alarms">
      <fieldset className="sev-toggles">
        <legend className="sr-only">Severity</legend>
        {ALARM_SEVERITIES.map((s) => (
          <label key={s} className={`sev-toggle sev-${s}`}>
            <input type="checkbox" checked={chosen.has(s)} onChange={() => toggle(s)} data-testid={`alarm-filter-severity-${s}`} />
            <span>{s}</span>
          </label>
        ))}
      </fieldset>
      <select aria-label="State" value={values.state} onChange={(e) => onChange({ state: e.target.value as AlarmFilterValues['state'] })} data-testid="alarm-filter-state">
        <option value="open">Open</option>
        <option value="cleared">Cleared</option>
        <option value="all">Open and cleared</option>
      </select>
      <select aria-label="Acknowledged" value={values.ack} onChange={(e) => onChange({ ack: e.target.value as AlarmFilterValues['ack'] })} data-testid="alarm-filter-ack">
        <option value="all">Handled or not</option>
        <option value="unacked">Not acknowledged</option>
      </select>
      <select aria-label="Organization" value={values.org} onChange={(e) => onChange({ org: e.target.value })} data-testid="alarm-filter-org">
        <option value="">All organizations</option>
        {orgChoices.map((o) => (
          <option key={o} value={o}>
            {netText(o)}
          </option>
        ))}
      </select>
      <input className="alarm-filter-name" type="text" aria-label="Device" placeholder="Device (exact name)" value={values.device} onChange={(e) => onChange({ device: e.target.value })} data-testid="alarm-filter-device" spellCheck={false} autoComplete="off" />
      <input className="alarm-filter-name" type="text" aria-label="Type" placeholder="Type, e.g. interface-down" value={values.type} onChange={(e) => onChange({ type: e.target.value })} data-testid="alarm-filter-type" spellCheck={false} autoComplete="off" />
      <div className="search-box">
        <Search size={14} aria-hidden="true" />
        <input type="search" aria-label="Search alarms" placeholder="Text, object, device or type" value={values.q} onChange={(e) => onChange({ q: e.target.value })} data-testid="alarm-search" spellCheck={false} autoComplete="off" />
      </div>
    </div>
  );
}
