/**
 * The tables' one keyboard (renderer/components/row-keys.ts), as the devices table, the ZTA hosts
 * and the alarm stream use it: one meaning per key (docs/spec-decisions.md C-49).
 */
import { describe, expect, it, vi } from 'vitest';
import { onRowKeyDown, rowKeyAction, type RowKeyState } from '../../../renderer/components/row-keys';

const key = (k: string, mods: Partial<Record<'ctrlKey' | 'metaKey' | 'altKey', boolean>> = {}) => ({ key: k, ctrlKey: false, metaKey: false, altKey: false, ...mods, preventDefault: vi.fn() });
const at: RowKeyState = { active: 5, count: 100, page: 17 };

describe('the tables’ keyboard', () => {
  it('moves with the arrows, k/j, a screen with PageUp/PageDown, and to the ends with Home/End, never past them', () => {
    expect(rowKeyAction(key('ArrowDown'), at, false)).toEqual({ move: 6 });
    expect(rowKeyAction(key('j'), at, false)).toEqual({ move: 6 });
    expect(rowKeyAction(key('ArrowUp'), at, false)).toEqual({ move: 4 });
    expect(rowKeyAction(key('k'), at, false)).toEqual({ move: 4 });
    expect(rowKeyAction(key('PageDown'), at, false)).toEqual({ move: 22 });
    expect(rowKeyAction(key('PageUp'), at, false)).toEqual({ move: 0 });
    expect(rowKeyAction(key('Home'), at, false)).toEqual({ move: 0 });
    expect(rowKeyAction(key('End'), at, false)).toEqual({ move: 99 });
    expect(rowKeyAction(key('ArrowDown'), { ...at, active: 99 }, false)).toEqual({ move: 99 });
  });

  it('Enter opens the focused row; Space selects it where the table selects, and elsewhere opens nothing and holds the list still', () => {
    const open = vi.fn();
    const select = vi.fn();
    const moveTo = vi.fn();
    // The devices table and the ZTA hosts: no selection.
    const space = key(' ');
    onRowKeyDown(space as never, at, { moveTo, open });
    expect(open).not.toHaveBeenCalled();
    expect(space.preventDefault).toHaveBeenCalled();
    onRowKeyDown(key('Enter') as never, at, { moveTo, open });
    expect(open).toHaveBeenCalledWith(5);
    // The alarm stream: Space selects, Enter still opens, its own `a` acts on the focused row.
    const own = vi.fn();
    onRowKeyDown(key(' ') as never, at, { moveTo, open, select, own });
    expect(select).toHaveBeenCalledWith(5);
    expect(open).toHaveBeenCalledTimes(1);
    onRowKeyDown(key('a') as never, { ...at, own: ['a'] }, { moveTo, open, select, own });
    expect(own).toHaveBeenCalledWith('a', 5);
    expect(moveTo).not.toHaveBeenCalled();
  });

  it('leaves a key with Ctrl, Cmd or Alt, and any other key, to the app', () => {
    for (const mods of [{ ctrlKey: true }, { metaKey: true }, { altKey: true }]) {
      const e = key('Home', mods);
      const moveTo = vi.fn();
      onRowKeyDown(e as never, at, { moveTo, open: vi.fn() });
      expect(moveTo).not.toHaveBeenCalled();
      expect(e.preventDefault).not.toHaveBeenCalled();
    }
    expect(rowKeyAction(key('x'), at, true)).toBeUndefined();
    expect(rowKeyAction(key('a'), at, true)).toBeUndefined();
    expect(rowKeyAction(key('Enter'), { ...at, count: 0, active: 0 }, true)).toBeUndefined();
  });
});
