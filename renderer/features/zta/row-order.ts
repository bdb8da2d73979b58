/**
 * Sorting primitives of the ZTA index (zta-index.ts), each linear or native where it can be: 100,000
 * rows sorted with a JavaScript comparator cost 100–250 ms, a native sort of floats under 10.
 * Every order is of row numbers, ties broken by a rank (the hostname order) or the row number.
 */

/**
 * Row numbers in the code-unit order of `values` (the order of `<`), ties by `tie` (a rank per
 * row) or else by row number. Comparator sorts of 100,000 strings cost 100–250 ms; here each
 * string's first characters are packed, with the row number, into one exact float (its
 * characters as ranks in the alphabet the strings use) and sorted natively; only runs whose
 * packed prefix ties are then sorted by the whole string.
 */
export function stringOrder(values: readonly string[], tie?: Int32Array): Int32Array {
  const n = values.length;
  const idxBits = Math.max(1, Math.ceil(Math.log2(n + 1)));
  const idxScale = 2 ** idxBits;
  const SCAN = 16;
  const rank = new Uint32Array(65_536);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    const m = Math.min(v.length, SCAN);
    for (let c = 0; c < m; c++) rank[v.charCodeAt(c)] = 1;
  }
  let base = 1;
  for (let code = 0; code < rank.length; code++) if (rank[code]) rank[code] = base++;
  // Ranks 1…base-1 for the characters, 0 for "the string has ended" (shorter sorts first).
  let chars = Math.min(SCAN, Math.floor((52 - idxBits) / Math.log2(base)));
  while (chars > 0 && base ** chars > 2 ** (52 - idxBits)) chars -= 1;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const v = values[i]!;
    let prefix = 0;
    for (let c = 0; c < chars; c++) prefix = prefix * base + (c < v.length ? rank[v.charCodeAt(c)]! : 0);
    keys[i] = prefix * idxScale + i;
  }
  keys.sort();
  const out = new Int32Array(n);
  for (let p = 0; p < n; p++) out[p] = keys[p]! % idxScale;
  const cmp = (a: number, b: number) => {
    const x = values[a]!;
    const y = values[b]!;
    return x < y ? -1 : x > y ? 1 : tie ? tie[a]! - tie[b]! : a - b;
  };
  // Runs of equal prefixes: exact order by the whole string.
  for (let start = 0; start < n; ) {
    const prefix = Math.floor(keys[start]! / idxScale);
    let end = start + 1;
    while (end < n && Math.floor(keys[end]! / idxScale) === prefix) end += 1;
    if (end - start > 1) out.subarray(start, end).sort(cmp);
    start = end;
  }
  return out;
}

export const identity = (n: number) => {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
};

/**
 * Rows in the order of `bucketOf` (0 … buckets-1), ties in hostname order: a counting sort along
 * `byName`, linear in the rows. `desc` reverses the buckets, not the ties.
 */
export function bucketOrder(byName: Int32Array, buckets: number, bucketOf: (i: number) => number, desc: boolean): Int32Array {
  const n = byName.length;
  const key = new Int32Array(n);
  const start = new Int32Array(buckets + 1);
  for (let i = 0; i < n; i++) {
    const b = bucketOf(i);
    const k = desc ? buckets - 1 - b : b;
    key[i] = k;
    start[k + 1]! += 1;
  }
  for (let b = 0; b < buckets; b++) start[b + 1]! += start[b]!;
  const out = new Int32Array(n);
  for (let p = 0; p < n; p++) {
    const i = byName[p]!;
    out[start[key[i]!]!++] = i;
  }
  return out;
}

/**
 * Rows by a numeric key (NaN first when ascending), ties in hostname order: the whole part of each
 * value is packed with the row number into one exact float and sorted natively (as `stringOrder`);
 * runs with the same whole part are then sorted exactly. `desc` negates the key, so ties keep
 * their hostname order.
 */
export function numericOrder(rank: Int32Array, value: Float64Array, desc: boolean): Int32Array {
  const n = value.length;
  const v = value.map((x) => (Number.isNaN(x) ? (desc ? Infinity : -Infinity) : desc ? -x : x));
  let lo = Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    const x = v[i]!;
    if (Number.isFinite(x)) {
      if (x < lo) lo = x;
      if (x > hi) hi = x;
    }
  }
  const idxBits = Math.max(1, Math.ceil(Math.log2(n + 1)));
  const idxScale = 2 ** idxBits;
  const span = Number.isFinite(lo) ? Math.floor(hi) - Math.floor(lo) + 3 : 3;
  const exact = (a: number, b: number) => v[a]! - v[b]! || rank[a]! - rank[b]!;
  if (span >= 2 ** (52 - idxBits)) return identity(n).sort(exact);
  // Whole part from 1; -Infinity is 0, +Infinity the last.
  const whole = (x: number) => (x === -Infinity ? 0 : x === Infinity ? span - 1 : Math.floor(x) - Math.floor(lo) + 1);
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = whole(v[i]!) * idxScale + i;
  keys.sort();
  const out = new Int32Array(n);
  for (let p = 0; p < n; p++) out[p] = keys[p]! % idxScale;
  for (let start = 0; start < n; ) {
    const w = Math.floor(keys[start]! / idxScale);
    let end = start + 1;
    while (end < n && Math.floor(keys[end]! / idxScale) === w) end += 1;
    if (end - start > 1) out.subarray(start, end).sort(exact);
    start = end;
  }
  return out;
}
