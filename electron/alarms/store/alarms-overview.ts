/**
 * The Overview page's reads of alarms.db (issue 13): active alarms per organization and severity
 * with how many nobody handled, in one GROUP BY over a source's active alarms (no alarm row leaves
 * SQLite), and the sidebar's count of unhandled critical alarms.
 *
 * "Unacknowledged" (C-41): the alarm's latest handling is none, or `none` again; any other handling
 * state (acknowledged, under investigation, observed, closed) means an operator has taken it.
 */
import type Database from 'better-sqlite3';
import { ACTIVE_SEVERITIES, type AlarmCounts, type ActiveSeverity } from '../../../shared/model/alarms';
import type { AlarmTotals } from '../../../shared/model/overview';

/** SQL: an alarm nobody handled. */
export const UNHANDLED = "(handling_state IS NULL OR handling_state = 'none')";

export interface OrganizationAlarms extends AlarmCounts {
  org: string;
  total: number;
  unacknowledged: number;
}

export interface AlarmOverview {
  active: AlarmTotals;
  unacknowledged: AlarmTotals;
  /** Every organization with an active alarm, critical ones first (then major, …, then by name). */
  organizations: OrganizationAlarms[];
}

const zero = (): AlarmTotals => ({ critical: 0, major: 0, minor: 0, warning: 0, indeterminate: 0, total: 0 });
const isActive = (s: string): s is ActiveSeverity => (ACTIVE_SEVERITIES as readonly string[]).includes(s);

/** Worst first: more critical alarms first, then more major, …; then the name. */
export function bySeverity(a: AlarmCounts & { org: string }, b: AlarmCounts & { org: string }): number {
  for (const s of ACTIVE_SEVERITIES) if (a[s] !== b[s]) return b[s] - a[s];
  return a.org < b.org ? -1 : a.org > b.org ? 1 : 0;
}

export function alarmOverview(db: Database.Database, source: string): AlarmOverview {
  const rows = db
    .prepare(`SELECT org, severity, COUNT(*) AS n, SUM(${UNHANDLED}) AS open FROM alarms WHERE source = ? AND cleared = 0 GROUP BY org, severity`)
    .all(source) as Array<{ org: string; severity: string; n: number; open: number }>;
  const active = zero();
  const unacknowledged = zero();
  const byOrg = new Map<string, OrganizationAlarms>();
  for (const r of rows) {
    if (!isActive(r.severity)) continue;
    active[r.severity] += r.n;
    active.total += r.n;
    unacknowledged[r.severity] += r.open;
    unacknowledged.total += r.open;
    let o = byOrg.get(r.org);
    if (!o) byOrg.set(r.org, (o = { org: r.org, ...zero(), unacknowledged: 0 }));
    o[r.severity] += r.n;
    o.total += r.n;
    o.unacknowledged += r.open;
  }
  return { active, unacknowledged, organizations: [...byOrg.values()].sort(bySeverity) };
}

/** Active critical alarms of a source nobody handled (the sidebar's badge). */
export function criticalUnacknowledged(db: Database.Database, source: string): number {
  return (db.prepare(`SELECT COUNT(*) AS n FROM alarms WHERE source = ? AND cleared = 0 AND severity = 'critical' AND ${UNHANDLED}`).get(source) as { n: number }).n;
}

/** Whether the store holds anything of a source: an alarm, or a finished backfill (a node with no alarm at all). */
export function alarmsCollected(db: Database.Database, source: string): boolean {
  return db.prepare('SELECT 1 FROM alarms WHERE source = ? LIMIT 1').get(source) !== undefined || db.prepare('SELECT 1 FROM sources WHERE source = ? AND last_backfill_ms IS NOT NULL').get(source) !== undefined;
}

/** The newest stored change time of a source (0 when none). */
export function newestChangeMs(db: Database.Database, source: string): number {
  return (db.prepare('SELECT COALESCE(MAX(last_change_ms), 0) AS ms FROM alarms WHERE source = ?').get(source) as { ms: number }).ms;
}
