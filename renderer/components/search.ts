/**
 * A search over a list that never makes typing wait, shared by the app's smaller tables (the
 * devices and ZTA tables search in the store instead: issue 25.3). The lower-cased text of every item is
 * built once per list, so a keystroke is one `includes` per item; the query is applied deferred
 * (`useDeferredValue`): the input shows the key at once and the table follows in a render React
 * may interrupt, `stale` meanwhile (the rows shown answer the previous query).
 */
import { useDeferredValue, useMemo } from 'react';

/** `text` must be stable (module level): a new function rebuilds the search text. */
/** `query` in the answer is the deferred one (trimmed, lower case), for views that search on their own (a tree). */
export function useDeferredSearch<T>(items: readonly T[], query: string, text: (item: T) => string): { rows: readonly T[]; stale: boolean; query: string } {
  const hay = useMemo(() => items.map((item) => text(item).toLowerCase()), [items, text]);
  const q = query.trim().toLowerCase();
  const deferred = useDeferredValue(q);
  const rows = useMemo(() => (deferred ? items.filter((_, i) => hay[i]!.includes(deferred)) : items), [items, hay, deferred]);
  return { rows, stale: deferred !== q, query: deferred };
}
