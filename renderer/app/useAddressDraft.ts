/**
 * Page state that lives in the address (a search box, filters, sort, a view) without putting the
 * router on the input path. The page renders a draft kept in React state, so a keystroke or a
 * filter choice costs what it did before the address existed (measured: a router navigation per
 * change roughly doubled the time to a filtered table of 20,000 devices); the draft is written to
 * the address once input pauses (`commit`, which replaces the history entry). A change of the
 * address from elsewhere (back, a link, the palette) replaces the draft; the echo of our own
 * write does not, so a change made while the write was under way is never lost. A page left
 * while its draft waits (a link or shortcut within the pause) leaves the draft in the window's
 * memory of the page (page-links.ts), which the sidebar and shortcuts return to.
 */
import { useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState } from 'react';
import { rememberLeftDraft } from './page-links';

export const ADDRESS_WRITE_DELAY_MS = 250;

interface Draft<T> {
  draft: T;
  /** The address's value last seen. */
  seen: T;
  /** What we wrote and have not seen come back yet. */
  echo: { value: T } | undefined;
}

export interface AddressDraft<T> {
  draft: T;
  setDraft(next: T | ((draft: T) => T)): void;
  /** Writes a pending draft now (before a navigation that adds a history entry). */
  flush(): void;
}

export function useAddressDraft<T extends object>(value: T, commit: (v: T) => void, equal: (a: T, b: T) => boolean = Object.is, delayMs = ADDRESS_WRITE_DELAY_MS): AddressDraft<T> {
  const [state, setState] = useState<Draft<T>>({ draft: value, seen: value, echo: undefined });
  let current = state;
  if (!equal(value, state.seen)) {
    // The address changed (adjusting state during render, as React recommends for derived state).
    const ours = state.echo !== undefined && equal(value, state.echo.value);
    current = { draft: ours ? state.draft : value, seen: value, echo: undefined };
    setState(current);
  }
  const { draft, seen } = current;
  const pending = !equal(draft, seen);

  const latest = useRef({ commit, draft, pending });
  useEffect(() => {
    latest.current = { commit, draft, pending };
  });
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const write = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const { commit: write, draft: v, pending: due } = latest.current;
    if (!due) return;
    setState((s) => ({ ...s, echo: { value: v } }));
    write(v);
  }, []);

  useEffect(() => {
    if (!pending) return;
    timer.current = setTimeout(write, delayMs);
    return () => clearTimeout(timer.current);
  }, [draft, pending, delayMs, write]);

  // The page's path as it mounted: by the time it unmounts, the router shows the next page.
  const router = useRouter();
  useEffect(() => {
    const pathname = router.state.location.pathname;
    return () => {
      const { draft: left, pending: due } = latest.current;
      if (due) rememberLeftDraft(pathname, left as Record<string, unknown>);
    };
  }, [router]);

  const setDraft = useCallback((next: T | ((d: T) => T)) => setState((s) => ({ ...s, draft: typeof next === 'function' ? (next as (d: T) => T)(s.draft) : next })), []);
  return { draft, setDraft, flush: write };
}

/** Equal when every field is (the drafts are flat records of strings). */
export function shallowEqual<T extends object>(a: T, b: T): boolean {
  if (a === b) return true;
  const ka = Object.keys(a) as (keyof T)[];
  return ka.length === Object.keys(b).length && ka.every((k) => Object.is(a[k], b[k]));
}
