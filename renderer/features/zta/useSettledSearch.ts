/**
 * The filter with its search as it stood once the typing paused (C-98): a read that is not the
 * table's own (the riskiest hosts card under another sort than riskiest-first) follows each key only
 * after `ms` without one, so a key's read of every matching host is the table's alone and the
 * card's read comes once, for the search the operator stopped at. Any other change of the filter
 * (a customer, a band, the search cleared) is followed at once.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ZtaFilter } from '../../../shared/model/zta';

export function useSettledSearch(filter: ZtaFilter, ms: number): { filter: ZtaFilter; settling: boolean } {
  const [settled, setSettled] = useState(filter.q);
  const typed = filter.q;
  // Cleared: nothing to wait for (the filter without a search is read, or cached, already).
  const now = typed === undefined ? undefined : settled;
  useEffect(() => {
    if (now === typed) {
      if (settled !== typed) setSettled(typed);
      return;
    }
    const t = setTimeout(() => setSettled(typed), ms);
    return () => clearTimeout(t);
  }, [typed, now, settled, ms]);
  const out = useMemo(() => {
    const { q: _q, ...rest } = filter;
    return now === undefined ? rest : { ...rest, q: now };
  }, [filter, now]);
  return { filter: out, settling: now !== typed };
}
