/**
 * Filtering and sorting of the ZTA snapshot, cheap enough per keystroke at 100,000 hosts. What
 * costs is done once per snapshot (`ztaIndexOf`): the lower-cased search text of every row, the
 * hostname order every sort breaks ties with, and one order per column and direction (cached).
 * The orders of the score and the band also depend on the what-if's scores: they are cached per
 * *view* (a snapshot whose score and band columns the what-if replaced shares the index of the
 * stored one). Numeric and enum columns are sorted by counting into buckets along the hostname
 * order (linear, stable), strings and times by packed keys in a native sort (row-order.ts).
 *
 * The filter is the shared rule (`makeRowFilter`, the one the export applies): it marks the rows
 * of the customer, platform, vendor and connector chosen once per choice (a mask, cached); a
 * keystroke then only tests the band and the text, the text against the precomputed lower-case
 * text instead of lower-casing each row again (the same answer; tests/unit/renderer/zta-index.test.ts
 * checks every combination against `makeRowFilter`).
 */
import { BANDS, ENUMS, NOT_ASSESSED_INDEX, PLATFORMS, makeRowFilter, type ZtaFilter, type ZtaSnapshot } from '../../../shared/model/zta';
import { parseTimestamp } from '../../../shared/risk/time';
import type { ZtaSort, ZtaSortKey } from '../../../shared/model/zta-window';
import { bucketOrder, numericOrder, stringOrder } from './row-order';
import { customerNames } from './customer-names';

export { stringOrder } from './row-order';

// The keys and what each orders by are shared with the store's windows (issue 25.3).
export { ZTA_SORT_KEYS, type ZtaSort, type ZtaSortKey } from '../../../shared/model/zta-window';

export interface ZtaIndex {
  /** The stored snapshot the index was built for. */
  readonly snapshot: ZtaSnapshot;
  /**
   * Every row's `hostname \0 hostId`, lower case, one after the other with a line break between:
   * a search is one `indexOf` scan of one string (a tenth of the time of 100,000 `includes`).
   */
  readonly text: string;
  /** Where each row starts in `text`; `starts[n]` is one past the end (a row ends one before the next starts). */
  readonly starts: Int32Array;
  /** Row numbers in hostname order (code units, as the export's tie-break; then row number). */
  readonly byName: Int32Array;
  /** Position of each row in `byName`. */
  readonly nameRank: Int32Array;
  /** 0 Falcon, 1 Defender, per row. */
  readonly vendorOf: Uint8Array;
  /** Orders of the columns that do not depend on the scores, by `key:asc|desc`. */
  readonly orders: Map<string, Int32Array>;
  /** Rows of a customer/platform/vendor/connector choice (1 = passes), the last few used. */
  readonly masks: Map<string, Uint8Array>;
  /** Scratch buffers of `filterRows`: row numbers, and the rows a search matched (1). */
  readonly buffer: Int32Array;
  readonly hits: Uint8Array;
}

/** A snapshot as shown: the stored one, or the what-if's copy with other score and band columns. */
export interface ZtaView {
  readonly index: ZtaIndex;
  readonly snapshot: ZtaSnapshot;
  /** Orders of the score and the band (they move with the what-if). */
  readonly orders: Map<string, Int32Array>;
}

export function buildZtaIndex(s: ZtaSnapshot): ZtaIndex {
  const { hostname, hostId, connector } = s.rows;
  const n = hostId.length;
  const hay = new Array<string>(n);
  const starts = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    hay[i] = `${hostname[i]!}\u0000${hostId[i]!}`.toLowerCase();
    starts[i + 1] = starts[i]! + hay[i]!.length + 1;
  }
  const byName = stringOrder(hostname);
  const nameRank = new Int32Array(n);
  for (let p = 0; p < n; p++) nameRank[byName[p]!] = p;
  const vendorOf = new Uint8Array(n);
  const defender = s.connectors.map((c) => c.vendor === 'defender');
  for (let i = 0; i < n; i++) vendorOf[i] = defender[connector[i]!] ? 1 : 0;
  return { snapshot: s, text: hay.join('\n'), starts, byName, nameRank, vendorOf, orders: new Map(), masks: new Map(), buffer: new Int32Array(n), hits: new Uint8Array(n) };
}

const built = new WeakMap<ZtaSnapshot, ZtaIndex>();

/** One index per stored snapshot, shared by whoever reads it. */
export function ztaIndexOf(s: ZtaSnapshot): ZtaIndex {
  let index = built.get(s);
  if (!index) {
    index = buildZtaIndex(s);
    built.set(s, index);
  }
  return index;
}

const views = new WeakMap<ZtaSnapshot, ZtaView>();

/** The view of `shown` (the stored snapshot or a what-if copy of it) over the stored snapshot's index. */
export function ztaViewOf(stored: ZtaSnapshot, shown: ZtaSnapshot = stored): ZtaView {
  let view = views.get(shown);
  if (!view || view.index.snapshot !== stored) {
    view = { index: ztaIndexOf(stored), snapshot: shown, orders: new Map() };
    views.set(shown, view);
  }
  return view;
}

/** An enum column as buckets: unknown (null) first, then the enum's options in order. */
const enumBucket = (column: ReadonlyArray<number | null>, size: number) => (i: number) => {
  const v = column[i];
  return v === null || v === undefined || v < 0 || v >= size ? 0 : v + 1;
};

/**
 * The assessment columns hold Falcon's numbers and Defender's words (EDR-Z1): Falcon hosts first
 * by their number, then Defender hosts by the enum's order; unknown first.
 */
function assessmentBuckets(vendorOf: Uint8Array, falcon: ReadonlyArray<number | null>, defender: ReadonlyArray<number | null>) {
  return (i: number) => {
    if (vendorOf[i] === 1) {
      const d = defender[i];
      return d === null || d === undefined ? 0 : 102 + d;
    }
    const f = falcon[i];
    return f === null || f === undefined ? 0 : 1 + Math.max(0, Math.min(100, Math.round(f)));
  };
}
/** Buckets of the assessment columns: unknown, Falcon 0…100, Defender's enum values. */
const ASSESSMENT_BUCKETS = 102 + Math.max(ENUMS.exposure.length, ENUMS.health.length, ENUMS.riskLevel.length);

const ASSESSMENT_DEFENDER = { osAssessment: 'exposure', sensorAssessment: 'health', overallAssessment: 'riskLevel' } as const;

function buildOrder(view: ZtaView, key: ZtaSortKey, desc: boolean): Int32Array {
  const { index, snapshot: s } = view;
  const r = s.rows;
  const n = r.hostId.length;
  const { byName, vendorOf } = index;
  switch (key) {
    case 'hostname':
      return desc ? byName.slice().reverse() : byName.slice();
    case 'hostId': {
      const order = stringOrder(r.hostId, index.nameRank);
      return desc ? order.reverse() : order;
    }
    case 'vendor':
      return bucketOrder(byName, 2, (i) => vendorOf[i]!, desc);
    case 'customer': {
      // As the table shows them: by name where one is known, else by ID.
      const known = customerNames(s);
      const names = s.customers.map((c, k) => [known[k] ?? c, k] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
      const rankOf = new Int32Array(s.customers.length);
      names.forEach(([, k], pos) => (rankOf[k] = pos));
      return bucketOrder(byName, Math.max(1, s.customers.length), (i) => rankOf[r.customer[i]!] ?? 0, desc);
    }
    case 'platform':
      return bucketOrder(byName, PLATFORMS.length, (i) => r.platform[i]!, desc);
    case 'osAssessment':
    case 'sensorAssessment':
    case 'overallAssessment': {
      const defender = r[ASSESSMENT_DEFENDER[key]];
      return bucketOrder(byName, ASSESSMENT_BUCKETS, assessmentBuckets(vendorOf, r[key], defender), desc);
    }
    case 'score':
      // A host not assessed has no score (EDR-N1): below every score, so last when riskiest come first.
      return bucketOrder(byName, 10_002, (i) => (r.band[i] === NOT_ASSESSED_INDEX ? 0 : 1 + Math.max(0, Math.min(10_000, Math.round(r.score[i]! * 100)))), desc);
    case 'band':
      return bucketOrder(byName, BANDS.length, (i) => r.band[i]!, desc);
    case 'lastSeen': {
      // In seconds (the packed whole part), milliseconds break the ties; never seen first.
      const t = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const v = r.lastSeen[i];
        t[i] = v ? parseTimestamp(v) / 1000 : NaN;
      }
      return numericOrder(index.nameRank, t, desc);
    }
    case 'riskLevel':
    case 'exposure':
    case 'health':
    case 'avStatus':
      return bucketOrder(byName, ENUMS[key].length + 1, enumBucket(r[key], ENUMS[key].length), desc);
    case 'cves': {
      // Critical CVEs first, then all CVEs; hosts without a CVE list (Falcon) count as none known.
      const v = new Float64Array(n);
      for (let i = 0; i < n; i++) {
        const crit = r.criticalCves[i];
        const all = r.cveCount[i];
        v[i] = crit === null || crit === undefined ? NaN : crit * 1e6 + (all ?? 0);
      }
      return numericOrder(index.nameRank, v, desc);
    }
    case 'sensor':
      // Unknown, then not running, running in reduced functionality, running.
      return bucketOrder(byName, 4, (i) => sensorState(r.sensorRunning[i], r.reducedFunctionality[i]), desc);
  }
}

/** Falcon's sensor as one value: 0 unknown, 1 not running, 2 reduced functionality, 3 running. */
export function sensorState(running: number | null | undefined, rfm: number | null | undefined): 0 | 1 | 2 | 3 {
  if (running === null || running === undefined) return 0;
  if (rfm === 1) return 2;
  return running === 1 ? 3 : 1;
}

/** Row numbers in the order of `sort`; computed once per column and direction (per view for score and band). */
export function sortOrder(view: ZtaView, sort: ZtaSort): Int32Array {
  const cache = sort.key === 'score' || sort.key === 'band' ? view.orders : view.index.orders;
  const id = `${sort.key}:${sort.desc ? 'desc' : 'asc'}`;
  let order = cache.get(id);
  if (!order) {
    order = buildOrder(view, sort.key, sort.desc);
    cache.set(id, order);
  }
  return order;
}

/** A filter's customer or connector the snapshot does not have (an old link, another data folder) is no filter. */
export function knownFilter(s: ZtaSnapshot, f: ZtaFilter): ZtaFilter {
  const out: ZtaFilter = { ...f };
  if (out.customer !== undefined && !s.customers.includes(out.customer)) delete out.customer;
  if (out.connector !== undefined && !s.connectors.some((c) => c.connectorId === out.connector)) delete out.connector;
  if (out.q !== undefined && out.q.trim() === '') delete out.q;
  return out;
}

export interface Filtered {
  /** The rows every filter passes, in the order asked for. */
  rows: Int32Array;
  /** The rows every filter but the band passes (the band distribution shows all bands), in the same order. */
  anyBand: Int32Array;
}

const MASKS_KEPT = 8;

/** The rows passing the filter's customer, platform, vendor and connector, by the shared rule; cached per choice. */
export function structuralMask(index: ZtaIndex, f: ZtaFilter): Uint8Array {
  const structural: ZtaFilter = { customer: f.customer, platform: f.platform, vendor: f.vendor, connector: f.connector };
  const key = JSON.stringify(structural);
  let mask = index.masks.get(key);
  if (mask) {
    // Most recently used last.
    index.masks.delete(key);
  } else {
    const keep = makeRowFilter(index.snapshot, structural);
    mask = new Uint8Array(index.buffer.length);
    for (let i = 0; i < mask.length; i++) if (keep(i)) mask[i] = 1;
    if (index.masks.size >= MASKS_KEPT) index.masks.delete(index.masks.keys().next().value!);
  }
  index.masks.set(key, mask);
  return mask;
}

/**
 * The rows whose text contains `q` (1 in the index's `hits`): one scan of the joined text, and
 * past a row's first match straight on to the next row. A match across two rows (a search with a
 * line break) is none.
 */
function searchHits(index: ZtaIndex, q: string): Uint8Array {
  const { text, starts, hits } = index;
  hits.fill(0);
  let row = 0;
  let at = text.indexOf(q);
  while (at !== -1) {
    while (starts[row + 1]! <= at) row += 1;
    if (at + q.length < starts[row + 1]!) {
      hits[row] = 1;
      at = text.indexOf(q, starts[row + 1]!);
    } else {
      at = text.indexOf(q, at + 1);
    }
  }
  return hits;
}

/** The rows of `view` that pass `f`, in `order`. */
export function filterRows(view: ZtaView, order: Int32Array, f: ZtaFilter): Filtered {
  const { buffer } = view.index;
  const mask = structuralMask(view.index, f);
  const q = f.q?.trim().toLowerCase() ?? '';
  const hits = q ? searchHits(view.index, q) : undefined;
  let count = 0;
  for (let p = 0; p < order.length; p++) {
    const i = order[p]!;
    if (mask[i] !== 1) continue;
    if (hits && hits[i] !== 1) continue;
    buffer[count++] = i;
  }
  const anyBand = buffer.slice(0, count);
  if (f.band === undefined) return { rows: anyBand, anyBand };
  const band = BANDS.indexOf(f.band);
  const bands = view.snapshot.rows.band;
  let k = 0;
  for (let p = 0; p < anyBand.length; p++) if (bands[anyBand[p]!] === band) buffer[k++] = anyBand[p]!;
  return { rows: buffer.slice(0, k), anyBand };
}

/** The `top` riskiest of `rows` (score descending, ties by hostname), in one pass; hosts not assessed have no score and are not among them. */
export function riskiest(view: ZtaView, rows: Int32Array, top = 10): number[] {
  const score = view.snapshot.rows.score;
  const band = view.snapshot.rows.band;
  const rank = view.index.nameRank;
  const out: number[] = [];
  // The last kept host's score and name rank: most rows fall below it and cost one comparison.
  let lastScore = -Infinity;
  let lastRank = -1;
  for (let p = 0; p < rows.length; p++) {
    const i = rows[p]!;
    if (band[i] === NOT_ASSESSED_INDEX) continue;
    const si = score[i]!;
    if (out.length === top && (si < lastScore || (si === lastScore && rank[i]! >= lastRank))) continue;
    let k = Math.min(out.length, top - 1);
    if (out.length < top) out.push(i);
    while (k > 0) {
      const j = out[k - 1]!;
      const sj = score[j]!;
      if (si < sj || (si === sj && rank[i]! >= rank[j]!)) break;
      out[k] = j;
      k -= 1;
    }
    out[k] = i;
    const last = out[out.length - 1]!;
    lastScore = score[last]!;
    lastRank = rank[last]!;
  }
  return out;
}
