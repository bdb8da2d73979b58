/**
 * A text field whose value lives in the address (a search box) without putting the router on
 * the keystroke path: the field shows a draft kept in React state (a keystroke costs what it did
 * before the address existed), and the draft is written to the address once typing pauses
 * (`commit`, which replaces the history entry). A change of the address from elsewhere (back,
 * "Clear filters", a link) replaces the draft; the echo of our own write does not, so a keystroke
 * made while the write was under way is never lost.
 */
import { useCallback, useEffect, useRef, useState } from 'react';

export const ADDRESS_WRITE_DELAY_MS = 250;

interface Draft {
  draft: string;
  /** The address's value last seen. */
  seen: string;
  /** What we wrote and have not seen come back yet. */
  echo: string | undefined;
}

export function useAddressDraft(value: string, commit: (v: string) => void, delayMs = ADDRESS_WRITE_DELAY_MS): [string, (v: string) => void] {
  const [state, setState] = useState<Draft>({ draft: value, seen: value, echo: undefined });
  let current = state;
  if (value !== state.seen) {
    // The address changed (adjusting state during render, as React recommends for derived state).
    current = value === state.echo ? { draft: state.draft, seen: value, echo: undefined } : { draft: value, seen: value, echo: undefined };
    setState(current);
  }

  const commitRef = useRef(commit);
  useEffect(() => {
    commitRef.current = commit;
  });
  const { draft, seen } = current;
  useEffect(() => {
    if (draft === seen) return;
    const timer = setTimeout(() => {
      setState((s) => ({ ...s, echo: draft }));
      commitRef.current(draft);
    }, delayMs);
    return () => clearTimeout(timer);
  }, [draft, seen, delayMs]);

  const setDraft = useCallback((v: string) => setState((s) => ({ ...s, draft: v })), []);
  return [draft, setDraft];
}
