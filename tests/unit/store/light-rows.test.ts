/**
 * A running cycle's light rows (electron/store/light-rows.ts): the last sighting of each key
 * counts, a deleted row is gone, and the rows come back in key order, whether their keys are in
 * the typed index or above it (a small limit here puts some in its Map).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LightRows } from '../../../electron/edr/store/light-rows';

type Op = { kind: 'set'; hid: number; seen: string | null; at: string } | { kind: 'delete'; hid: number };

/** The rows as a Map would hold them, in key order: the reference. */
function reference(ops: readonly Op[]): Array<[number, string | null, string]> {
  const m = new Map<number, [string | null, string]>();
  for (const op of ops) {
    if (op.kind === 'set') m.set(op.hid, [op.seen, op.at]);
    else m.delete(op.hid);
  }
  return [...m].sort((a, b) => a[0] - b[0]).map(([hid, [seen, at]]) => [hid, seen, at]);
}

/** Applies the operations (a row's group and score are made from its key) and reads the rows back. */
function apply(rows: LightRows, ops: readonly Op[]): Array<[number, string | null, string]> {
  for (const op of ops) {
    if (op.kind === 'set') rows.set(op.hid, op.seen, op.at, Math.abs(op.hid) % 7, op.hid / 4);
    else rows.delete(op.hid);
  }
  const out: Array<[number, string | null, string]> = [];
  rows.forEach((hid, seen, at) => out.push([hid, seen, at]));
  return out;
}

describe('LightRows', () => {
  it('keeps the last sighting of each key, forgets deleted ones, and reads them in key order', () => {
    const rows = new LightRows();
    const got = apply(rows, [
      { kind: 'set', hid: 7, seen: 'a', at: 't1' },
      { kind: 'set', hid: 3, seen: null, at: 't1' },
      { kind: 'set', hid: 5000, seen: 'b', at: 't1' },
      { kind: 'set', hid: 7, seen: 'c', at: 't2' },
      { kind: 'delete', hid: 3 },
      { kind: 'delete', hid: 99 },
      { kind: 'set', hid: 1, seen: 'd', at: 't2' },
    ]);
    expect(got).toEqual([
      [1, 'd', 't2'],
      [7, 'c', 't2'],
      [5000, 'b', 't1'],
    ]);
    expect(rows.size).toBe(3);
    const counted: Array<[number, number]> = [];
    rows.forEachCount((group, score) => counted.push([group, score]));
    expect(counted.sort((a, b) => a[1] - b[1])).toEqual([
      [1, 0.25],
      [0, 1.75],
      [2, 1250],
    ]);
  });

  it('keeps keys beyond its index (and keys SQLite does not give) in order after the others', () => {
    const rows = new LightRows(100);
    const got = apply(rows, [
      { kind: 'set', hid: 250, seen: 'far', at: 't' },
      { kind: 'set', hid: 99, seen: 'near', at: 't' },
      { kind: 'set', hid: 100, seen: 'edge', at: 't' },
      { kind: 'set', hid: 250, seen: 'far again', at: 't' },
      { kind: 'set', hid: 2 ** 40, seen: 'huge', at: 't' },
    ]);
    expect(got).toEqual([
      [99, 'near', 't'],
      [100, 'edge', 't'],
      [250, 'far again', 't'],
      [2 ** 40, 'huge', 't'],
    ]);
    expect(rows.size).toBe(4);
  });

  it('holds what a Map would, for any sequence of sightings and deletions', () => {
    const hid = fc.oneof(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 5_000 }), fc.integer({ min: -3, max: 0 }));
    const op: fc.Arbitrary<Op> = fc.oneof(
      { weight: 4, arbitrary: fc.record({ kind: fc.constant('set' as const), hid, seen: fc.option(fc.string(), { nil: null }), at: fc.string() }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('delete' as const), hid }) },
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 300 }), fc.constantFrom(64, 1000, 1 << 22), (ops, limit) => {
        const rows = new LightRows(limit);
        const want = reference(ops);
        const got = apply(rows, ops);
        // Keys of the index first, then the others (at or above the limit, or below 1: SQLite gives
        // none of those), each part in key order.
        const near = (h: number) => h >= 1 && h < limit;
        const order = (xs: Array<[number, string | null, string]>) => [...xs.filter(([h]) => near(h)), ...xs.filter(([h]) => !near(h))];
        expect(got).toEqual(order(want));
        expect(rows.size).toBe(want.length);
        const counted: Array<[number, number]> = [];
        rows.forEachCount((group, score) => counted.push([group, score]));
        expect(counted.sort((a, b) => a[1] - b[1])).toEqual(want.map(([h]) => [Math.abs(h) % 7, h / 4]).sort((a, b) => a[1]! - b[1]!));
      }),
    );
  });
});
