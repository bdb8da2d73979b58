/**
 * The one keyboard of the tables whose rows take focus (the devices table, the ZTA hosts, the
 * alarm stream): ↑/↓ or k/j move, PageUp/PageDown move a screen, Home/End go to the first and
 * last row, Enter opens the focused row, Space selects it (toggles; a table without selection
 * does nothing on Space, and the list holds still), and a table's own letters (`a` acknowledges
 * in the alarm stream) act on it. With Ctrl, Cmd or Alt a key is the app's or the browser's.
 */
import type { KeyboardEvent } from 'react';

export type RowKeyAction = { move: number } | { open: number } | { select: number } | { own: string; row: number } | { hold: true } | undefined;

export interface RowKeyState {
  /** The focused row. */
  active: number;
  count: number;
  /** Rows in a screen (PageUp/PageDown). */
  page: number;
  /** The table's own letters. */
  own?: readonly string[];
}

export function rowKeyAction(e: Pick<KeyboardEvent, 'key' | 'ctrlKey' | 'metaKey' | 'altKey'>, { active, count, page, own = [] }: RowKeyState, selectable: boolean): RowKeyAction {
  if (e.ctrlKey || e.metaKey || e.altKey) return undefined;
  const moves: Record<string, number> = { ArrowDown: active + 1, j: active + 1, ArrowUp: active - 1, k: active - 1, PageDown: active + page, PageUp: active - page, Home: 0, End: count - 1 };
  if (e.key in moves) return { move: Math.max(0, Math.min(count - 1, moves[e.key]!)) };
  if (active >= count) return undefined;
  if (e.key === 'Enter') return { open: active };
  if (e.key === ' ') return selectable ? { select: active } : { hold: true };
  if (own.includes(e.key)) return { own: e.key, row: active };
  return undefined;
}

export interface RowKeyHandlers {
  moveTo(row: number): void;
  open(row: number): void;
  /** Without it the table has no selection. */
  select?(row: number): void;
  own?(key: string, row: number): void;
}

/** Does what `rowKeyAction` says; a key it takes goes no further. */
export function onRowKeyDown(e: KeyboardEvent, state: RowKeyState, h: RowKeyHandlers): void {
  const action = rowKeyAction(e, state, !!h.select);
  if (!action) return;
  e.preventDefault();
  if ('move' in action) h.moveTo(action.move);
  else if ('open' in action) h.open(action.open);
  else if ('select' in action) h.select?.(action.select);
  else if ('own' in action) h.own?.(action.own, action.row);
}
