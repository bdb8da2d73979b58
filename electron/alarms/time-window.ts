/**
 * Alarm times against the plausible window (issue 20; alarms/store/alarm-times.ts): a time outside it
 * is set aside with its reason like any malformed message (bus) or counted as unreadable
 * (REST); the source's cursor never moves past now plus the skew. One far-future time would
 * otherwise move the cursor (which only moves forward) past every real change for good.
 */
import { inWindow, safeIso, type TimeWindow } from './store/alarm-times';
import type { AlarmItem } from '../../shared/model/alarms';

export { DEFAULT_FUTURE_SKEW_MS, timeWindow, type TimeWindow } from './store/alarm-times';

const why = (field: string, ms: number, w: TimeWindow): string =>
  `${field} ${safeIso(ms)} is outside the plausible window (${safeIso(w.minMs)} to ${safeIso(w.maxMs)}, now plus the allowed clock skew)`;

/** The reason an item (a bus message) has a time outside the window; undefined when every time is in it. */
export function implausibleTime(item: AlarmItem, w: TimeWindow, where = 'alarm'): string | undefined {
  if (!inWindow(item.head.lastChangeMs, w)) return why(`${where}.lastStatusChangeTimeStamp`, item.head.lastChangeMs, w);
  for (const c of item.changes) if (!inWindow(c.eventMs, w)) return why('statusChange.eventTime', c.eventMs, w);
  for (const h of item.handlings) if (!inWindow(h.atMs, w)) return why('alarmHandling.time', h.atMs, w);
  return undefined;
}

/**
 * A REST record screened: a record whose last change is outside the window is refused as a whole;
 * otherwise its changes and handlings outside it are left out, each counted with its reason.
 */
export function screenRecord(item: AlarmItem, w: TimeWindow): { item: AlarmItem | undefined; unreadable: number; reasons: string[] } {
  if (!inWindow(item.head.lastChangeMs, w)) return { item: undefined, unreadable: 1, reasons: [why('record.lastStatusChangeTimeStamp', item.head.lastChangeMs, w)] };
  const reasons: string[] = [];
  const changes = item.changes.filter((c) => inWindow(c.eventMs, w) || (reasons.push(why('statusChanges[].eventTime', c.eventMs, w)), false));
  const handlings = item.handlings.filter((h) => inWindow(h.atMs, w) || (reasons.push(why('alarmHandlings[].time', h.atMs, w)), false));
  return { item: reasons.length ? { ...item, changes, handlings } : item, unreadable: reasons.length, reasons };
}
