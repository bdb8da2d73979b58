/**
 * Stable keys for the rows of a virtualized window: a row still in view keeps its slot, a row
 * coming into view takes a slot a row going out of view left. Keyed so, scrolling a page further
 * rewrites the text of the rows' elements instead of removing ~40 rows and building ~40 new ones
 * (the DOM removals and creations were most of a scrolled frame's work), and scrolling by one row
 * updates that one row only. The keys are unique within a window whatever it was before.
 */
export class RowSlots {
  private slotOf = new Map<number, number>();

  /** The slot of each of `indices` (positions in the answer, each once). */
  keysFor(indices: readonly number[]): number[] {
    const next = new Map<number, number>();
    const taken = new Set<number>();
    for (const i of indices) {
      const slot = this.slotOf.get(i);
      if (slot !== undefined) {
        next.set(i, slot);
        taken.add(slot);
      }
    }
    let free = 0;
    const keys = indices.map((i) => {
      let slot = next.get(i);
      if (slot === undefined) {
        while (taken.has(free)) free += 1;
        slot = free;
        taken.add(slot);
        next.set(i, slot);
      }
      return slot;
    });
    this.slotOf = next;
    return keys;
  }
}
