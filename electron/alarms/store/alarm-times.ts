/**
 * The plausible window of alarm times (issue 20): a change, handling or last-change time from a
 * node or the bus is believed only from `ALARM_TIME_FLOOR_MS` (2000-01-01, before any node's
 * retention) to now plus the clock skew allowed (default one day). The alarm sources set anything
 * outside aside (alarms/time-window.ts); the store repairs what an older console let in
 * (alarms-repair.ts); and a stored time is always written out without throwing (`safeIso`).
 */

/** 2000-01-01T00:00:00Z: older than any node's alarm retention. */
export const ALARM_TIME_FLOOR_MS = 946_684_800_000;
/** How far after the console's clock a node's time may be (clock skew): one day. */
export const DEFAULT_FUTURE_SKEW_MS = 86_400_000;

export interface TimeWindow {
  minMs: number;
  maxMs: number;
}

export function timeWindow(nowMs: number, futureSkewMs = DEFAULT_FUTURE_SKEW_MS): TimeWindow {
  return { minMs: ALARM_TIME_FLOOR_MS, maxMs: nowMs + futureSkewMs };
}

export const inWindow = (ms: number, w: TimeWindow): boolean => Number.isFinite(ms) && ms >= w.minMs && ms <= w.maxMs;

/** An ISO time when the value can be written as one, else the number as text (never throws). */
export function safeIso(ms: number): string {
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? String(ms) : d.toISOString();
}
