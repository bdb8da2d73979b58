/**
 * The rows of the stream as the virtualized table needs them: only the windows of 100 alarms that
 * cover the rows in view are read (api/alarms.ts), however many alarms match (100,000 cost the
 * same as 100). Live, the windows in view follow each `alarms.changed`; paused, they hold still
 * (a window never read is still fetched when scrolled to, C-29), and so do the row count and the
 * sequence "what changed since" counts from. While a new filter's first window is on its way, the
 * previous rows stay (marked stale) instead of flashing empty.
 */
import { useMemo, useState } from 'react';
import type { AlarmFilter, AlarmView } from '../../../shared/model/alarms';
import { ALARM_PAGE, useAlarmPages, type LivePage } from '../../api/alarms';

export interface AlarmWindow {
  /** Rows matching the filter (held while paused); undefined before the first answer. */
  total: number | undefined;
  /** The oldest `seq` of the windows shown (held while paused): every change after it may not be shown yet. */
  seq: number | undefined;
  rowAt(index: number): AlarmView | undefined;
  /** The row changed since its window was last shown (it is highlighted). */
  isFresh(index: number): boolean;
  /** The rows shown are a previous filter's, while the new one loads. */
  stale: boolean;
  error: unknown;
}

interface Shown {
  filter: AlarmFilter;
  first: number;
  pages: ReadonlyArray<LivePage | undefined>;
  total: number | undefined;
  seq: number | undefined;
}

const samePages = (a: ReadonlyArray<LivePage | undefined>, b: ReadonlyArray<LivePage | undefined>) => a.length === b.length && a.every((p, i) => p === b[i]);

function summarize(pages: ReadonlyArray<LivePage | undefined>): { total: number | undefined; seq: number | undefined } {
  let newest: LivePage | undefined;
  let seq: number | undefined;
  for (const p of pages) {
    if (!p) continue;
    if (!newest || p.seq > newest.seq) newest = p;
    seq = seq === undefined ? p.seq : Math.min(seq, p.seq);
  }
  return { total: newest?.total, seq };
}

export function useAlarmWindow(profileId: string, filter: AlarmFilter, range: { start: number; end: number }, paused: boolean): AlarmWindow {
  const first = Math.floor(Math.max(0, range.start) / ALARM_PAGE);
  const last = Math.max(first, Math.floor(Math.max(0, range.end) / ALARM_PAGE));
  const offsets = useMemo(() => Array.from({ length: last - first + 1 }, (_, i) => (first + i) * ALARM_PAGE), [first, last]);
  const results = useAlarmPages(profileId, filter, offsets, paused);
  const pages = results.map((r) => r.data);
  const hasData = pages.some((p) => p !== undefined);

  // What was last shown with data: kept while a new filter loads (adjusting state during render, as React recommends).
  // Pages read before (the page left and shown again) are shown at once, with their count.
  const [shown, setShown] = useState<Shown>(() => ({ filter, first, pages, ...summarize(pages) }));
  let current = shown;
  if (hasData && (shown.filter !== filter || shown.first !== first || !samePages(shown.pages, pages))) {
    const s = summarize(pages);
    current = { filter, first, pages, total: s.total ?? shown.total, seq: s.seq };
    setShown(current);
  }
  // Paused: the count and the sequence as they were at the pause (or at a new filter's first answer).
  const [held, setHeld] = useState<{ filter: AlarmFilter; total: number | undefined; seq: number | undefined } | undefined>(undefined);
  let hold = held;
  if (!paused && held) {
    hold = undefined;
    setHeld(undefined);
  } else if (paused && current.filter === filter && current.seq !== undefined && (!held || held.filter !== filter)) {
    hold = { filter, total: current.total, seq: current.seq };
    setHeld(hold);
  }

  const stale = current.filter !== filter;
  const pageOf = (index: number) => current.pages[Math.floor(index / ALARM_PAGE) - current.first];
  return {
    total: hold ? hold.total : current.total,
    seq: hold ? hold.seq : current.seq,
    rowAt: (index) => pageOf(index)?.rows[index % ALARM_PAGE],
    isFresh: (index) => {
      const p = pageOf(index);
      const row = p?.rows[index % ALARM_PAGE];
      return !!row && p!.fresh.has(row.id);
    },
    stale,
    error: results.find((r) => r.error)?.error,
  };
}
