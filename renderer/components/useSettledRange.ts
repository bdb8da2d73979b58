/**
 * The rows in view of a windowed table, once the scrolling pauses (issue 25.3): a fling through a
 * million rows would otherwise ask main for every page it passes, each answered after the one
 * before, and the pages the operator stopped at would wait behind them. The ZTA table and the
 * devices table read their pages from this range.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export interface RowRange {
  start: number;
  end: number;
}

/** How long the rows in view stay put before their pages are read. */
export const RANGE_SETTLE_MS = 80;

export function useSettledRange(initial: RowRange = { start: 0, end: 40 }): { range: RowRange; onRange(r: RowRange): void } {
  const [range, setRange] = useState(initial);
  const settle = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(settle.current), []);
  const onRange = useCallback((r: RowRange) => {
    clearTimeout(settle.current);
    settle.current = setTimeout(() => setRange((old) => (old.start === r.start && old.end === r.end ? old : r)), RANGE_SETTLE_MS);
  }, []);
  return { range, onRange };
}
