/** The rows' keys of the virtualized tables (row-slots.ts): stable while in view, reused, unique. */
import { describe, expect, it } from 'vitest';
import { RowSlots } from '../../../renderer/components/row-slots';

const range = (from: number, n: number) => Array.from({ length: n }, (_, k) => from + k);

describe('RowSlots', () => {
  it('keeps the slot of a row still in view and gives a row coming into view the slot that left', () => {
    const slots = new RowSlots();
    const first = slots.keysFor(range(0, 5));
    expect(first).toEqual([0, 1, 2, 3, 4]);
    // One row further: rows 1-4 keep theirs, row 5 takes row 0's.
    expect(slots.keysFor(range(1, 5))).toEqual([1, 2, 3, 4, 0]);
  });

  it('reuses every slot when a scroll jumps past the whole window, and keys stay unique as the window grows or shrinks', () => {
    const slots = new RowSlots();
    slots.keysFor(range(0, 40));
    const jumped = slots.keysFor(range(500, 40));
    expect(new Set(jumped)).toEqual(new Set(range(0, 40)));
    const grown = slots.keysFor(range(510, 48));
    expect(new Set(grown).size).toBe(48);
    expect(grown.slice(0, 30)).toEqual(jumped.slice(10));
    const shrunk = slots.keysFor(range(0, 8));
    expect(new Set(shrunk).size).toBe(8);
    expect(Math.max(...shrunk)).toBeLessThan(48);
  });
});
