/**
 * The pages a windowed table shows (issue 25.3): those last read with data, kept while a new
 * search's, filter's or sort's pages (`key`) or the rows newly in view (`first`) are on their way,
 * so the table shows the previous rows (marked stale) instead of flashing empty. The ZTA table and
 * the devices table read their pages through it.
 */
import { useState } from 'react';

export interface ShownPages<P> {
  /** What the pages answer (the query's key). */
  key: string;
  /** The index of the first page among all of the answer's. */
  first: number;
  pages: ReadonlyArray<P | undefined>;
}

const samePages = <P>(a: ReadonlyArray<P | undefined>, b: ReadonlyArray<P | undefined>) => a.length === b.length && a.every((p, i) => p === b[i]);

/** The pages to show: `pages` once any of them has data, else what was shown last. */
export function useShownPages<P>(key: string, first: number, pages: ReadonlyArray<P | undefined>): ShownPages<P> {
  const [shown, setShown] = useState<ShownPages<P>>(() => ({ key, first, pages }));
  // Adjusting state during render, as React recommends.
  if (pages.some((p) => p !== undefined) && (shown.key !== key || shown.first !== first || !samePages(shown.pages, pages))) {
    const current = { key, first, pages };
    setShown(current);
    return current;
  }
  return shown;
}
