/** How the alarm page writes severities and handlings (colours in styles/alarms.css, light and dark). */
import type { AlarmSeverity, AlarmView, HandlingState } from '../../../shared/model/alarms';
import { formatCount } from '../../components/format';

/** The severity's colour for charts (a CSS variable, so the theme decides). */
export const severityColor = (s: AlarmSeverity) => `var(--sev-${s})`;

/** Narrow chips (the stream's column) write the longest severity short, the whole word for screen readers and on hover. */
const SHORT: Partial<Record<AlarmSeverity, string>> = { indeterminate: 'indet.' };

export function SeverityChip({ severity, short = false }: { severity: AlarmSeverity; short?: boolean }) {
  const abbreviated = short ? SHORT[severity] : undefined;
  if (!abbreviated) return <span className={`chip sev-chip sev-${severity}`}>{severity}</span>;
  return (
    <span className={`chip sev-chip sev-${severity}`} title={severity}>
      <span aria-hidden="true">{abbreviated}</span>
      <span className="sr-only">{severity}</span>
    </span>
  );
}

export const HANDLING_LABEL: Record<HandlingState, string> = {
  none: 'not handled',
  ack: 'acknowledged',
  investigation: 'under investigation',
  observation: 'under observation',
  closed: 'closed',
};

/** Nobody handled it (no handling, or the latest is `none`): the `ack=unacked` filter's rule (C-30). */
export const isUnhandled = (a: Pick<AlarmView, 'handling'>) => a.handling === null || a.handling.state === 'none';

/** "12 alarms", "1 alarm". */
export const alarmsText = (n: number) => `${formatCount(n)} alarm${n === 1 ? '' : 's'}`;
