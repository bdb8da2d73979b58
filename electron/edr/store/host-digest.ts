/**
 * The digest that tells a host seen as it was from one that changed (EDR-H2): a 64-bit hash of
 * what its stored row and details hold — its record without its last-seen times, its score, band,
 * contributions and profile results — computed by walking the values, with no JSON text made.
 *
 * Every host of every cycle is digested (100,000 every 10 minutes), so its cost is most of what a
 * cycle of unchanged hosts costs: JSON.stringify of a Defender record with its CVE list and a
 * native sha1 of the text took 7 µs a host (Node 20's stringify formats every CVSS number as
 * text), a generic walk of the values about 3; this walk of the record's known fields about 1.5.
 * The record's fields are the schema's (shared/model/edr.ts): the connectors build records field
 * by field, and a test changes every field the schema has and fails when the digest does not move,
 * so a field added to the schema and not here is caught. Profile results and contributions, whose
 * keys are not fixed, are walked generically (a contribution once: they are shared objects).
 *
 * Each value is absorbed with a tag for its type or absence, strings with their length first,
 * arrays with their length, so two different records never feed the same sequence of words. Two
 * 32-bit lanes (multiply–rotate, different constants) give 64 bits, of which staging compares the
 * first 53 (`hostDigestKey`, a number): the chance that a change goes unnoticed is about 1 in 10^16
 * per change. Not for security: an endpoint that could pick a
 * colliding record would only hide its own change until the next one.
 *
 * Stable across processes and versions (digests are stored in `hosts.digest`): change the walk and
 * the first cycle after the upgrade rewrites every host once, which is correct, only slower.
 */
import type { Contribution, DefenderFacts, FalconAssessment, FalconFacts, HostRecord, ScoredHost } from '../../../shared/model/edr';

const M1 = 0x9e3779b1 | 0;
const M2 = 0x85ebca77 | 0;
const M3 = 0xc2b2ae3d | 0;
const M4 = 0x27d4eb2f | 0;

const TAG = { string: 1, int: 2, float: 3, null: 4, undefined: 5, true: 6, false: 7, array: 8, object: 9, end: 10 } as const;

const f64 = new Float64Array(1);
const u32 = new Uint32Array(f64.buffer);

/** The running state of one digest (module-level: digests are computed one at a time, synchronously). */
let a = 0;
let b = 0;

function word(w: number): void {
  a = Math.imul(a ^ w, M1);
  a = (a << 13) | (a >>> 19);
  b = Math.imul(b ^ w, M3);
  b = (b << 17) | (b >>> 15);
}

function str(s: string): void {
  const n = s.length;
  let x = Math.imul(a ^ TAG.string, M1) ^ n;
  let y = Math.imul(b ^ TAG.string, M3) ^ n;
  let i = 0;
  // Two UTF-16 units a step.
  for (; i + 1 < n; i += 2) {
    const w = s.charCodeAt(i) | (s.charCodeAt(i + 1) << 16);
    x = Math.imul(x ^ w, M1);
    x = (x << 13) | (x >>> 19);
    y = Math.imul(y ^ w, M3);
    y = (y << 17) | (y >>> 15);
  }
  if (i < n) {
    const w = s.charCodeAt(i);
    x = Math.imul(x ^ w, M2);
    y = Math.imul(y ^ w, M4);
  }
  a = Math.imul(x, M2);
  b = Math.imul(y, M4);
}

function num(v: number): void {
  if ((v | 0) === v && (v !== 0 || 1 / v > 0)) {
    word(TAG.int);
    word(v);
    return;
  }
  f64[0] = v;
  word(TAG.float);
  word(u32[0]!);
  word(u32[1]!);
}

/** Runs `absorb` on a state of its own (from the seeds) and answers its two words; the running digest is left as it was. */
function apart(seedA: number, seedB: number, absorb: () => void): [number, number] {
  const sa = a;
  const sb = b;
  a = seedA;
  b = seedB;
  absorb();
  const words: [number, number] = [a, b];
  a = sa;
  b = sb;
  return words;
}

/** Key names are few and repeat for every host: each one's hash is made once. */
const keyWords = new Map<string, number>();
function key(k: string): void {
  let w = keyWords.get(k);
  if (w === undefined) {
    const [x, y] = apart(0x165667b1, 0, () => str(k));
    w = x ^ Math.imul(y, M2);
    keyWords.set(k, w);
  }
  word(w);
}

const nothing = (v: null | undefined): void => word(v === null ? TAG.null : TAG.undefined);
const optStr = (v: string | null | undefined): void => (v == null ? nothing(v) : str(v));
const optNum = (v: number | null | undefined): void => (v == null ? nothing(v) : num(v));
const bool = (v: boolean | null | undefined): void => (v == null ? nothing(v) : word(v ? TAG.true : TAG.false));

function signals(list: FalconAssessment['os_signals'] | undefined): void {
  if (!list) return nothing(list);
  word(TAG.array);
  word(list.length);
  for (let i = 0; i < list.length; i++) {
    const x = list[i]!;
    optStr(x.signal_id);
    optStr(x.criteria);
    optStr(x.meets_criteria);
    optStr(x.group_name);
  }
}

function defender(d: DefenderFacts): void {
  word(TAG.object);
  optStr(d.riskScore);
  optStr(d.exposureLevel);
  optStr(d.healthStatus);
  optStr(d.avStatus);
  optStr(d.onboardingStatus);
  optNum(d.criticalCveCount);
  optNum(d.cveCount);
  optNum(d.maxCvss);
  const v = d.vulnerabilities;
  if (!v) return nothing(v);
  word(TAG.array);
  word(v.length);
  for (let i = 0; i < v.length; i++) {
    const c = v[i]!;
    optStr(c.cveId);
    optNum(c.cvss);
    optStr(c.severity);
  }
}

function falcon(f: FalconFacts): void {
  word(TAG.object);
  const z = f.assessment;
  if (!z) nothing(z);
  else {
    word(TAG.object);
    optNum(z.os);
    optNum(z.sensor_config);
    optNum(z.overall);
    optStr(z.version);
    signals(z.os_signals);
    signals(z.sensor_signals);
  }
  bool(f.sensorRunning);
  optStr(f.agentVersion);
  bool(f.reducedFunctionalityMode);
}

/**
 * A host record, field by field (its last-seen times left out). Every field of the record's schema
 * (shared/model/edr.ts) is read here; tests/unit/store/host-digest.test.ts changes each field the
 * schema has, one at a time, and fails when a change goes unnoticed. Any field may be absent or
 * null here: a record that breaks its schema is refused by the store's constraints, with their
 * message.
 */
function record(h: HostRecord): void {
  optStr(h.vendor);
  optStr(h.tenantId);
  optStr(h.hostId);
  optStr(h.hostname);
  optStr(h.customerId);
  optStr(h.platform);
  optStr(h.osVersion);
  if (h.defender) defender(h.defender);
  else nothing(h.defender);
  if (h.falcon) falcon(h.falcon);
  else nothing(h.falcon);
}

/** A plain JSON value in the order JSON.stringify would write it (the profile results and the contributions, whose keys are not fixed). */
function value(v: unknown): void {
  switch (typeof v) {
    case 'string':
      return str(v);
    case 'number':
      return num(v);
    case 'boolean':
      return word(v ? TAG.true : TAG.false);
    case 'object':
      break;
    default:
      return word(TAG.undefined);
  }
  if (v === null) return word(TAG.null);
  if (Array.isArray(v)) {
    word(TAG.array);
    word(v.length);
    for (let i = 0; i < v.length; i++) value(v[i]);
    return;
  }
  word(TAG.object);
  const o = v as Record<string, unknown>;
  let n = 0;
  for (const k in o) {
    if (!Object.prototype.hasOwnProperty.call(o, k) || o[k] === undefined) continue;
    key(k);
    value(o[k]);
    n += 1;
  }
  word(TAG.end);
  word(n);
}

/**
 * A score's contributions are shared frozen objects (one per indicator value, shared/risk/compile.ts):
 * each one's two words are made once.
 */
const contributionWords = new WeakMap<Contribution, readonly [number, number]>();
function contribution(c: Contribution): void {
  let w = contributionWords.get(c);
  if (w === undefined) {
    w = apart(0x2545f491, 0x1b873593, () => value(c));
    if (Object.isFrozen(c)) contributionWords.set(c, w);
  }
  word(w[0]);
  word(w[1]);
}

function finish(x: number, m: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, m);
  x ^= x >>> 13;
  x = Math.imul(x, M2);
  x ^= x >>> 16;
  return x >>> 0;
}

/** The two words of the digest `hostDigestKey` made last. */
let hi = 0;
let lo = 0;

/**
 * The digest of a scored host as a number: its first 53 bits, what staging compares with the stored
 * one (`digestKey` of its text), so the 98 % of hosts seen as they were cost no text. `lastDigestText`
 * gives the whole digest as stored. Two different hosts share a key about once in 10^16 changes.
 */
export function hostDigestKey(s: ScoredHost): number {
  a = 0x3c6ef372;
  b = 0x510e527f;
  record(s.host);
  optNum(s.score);
  optStr(s.band);
  word(s.contributions.length);
  for (let i = 0; i < s.contributions.length; i++) contribution(s.contributions[i]!);
  if (s.profiles) value(s.profiles);
  else word(TAG.undefined);
  hi = finish(a, M3);
  lo = finish(b ^ hi, M4);
  return hi * 2 ** 21 + (lo >>> 11);
}

/** The text (16 hex digits, as `hosts.digest` stores it) of the digest `hostDigestKey` made last. */
export function lastDigestText(): string {
  return hi.toString(16).padStart(8, '0') + lo.toString(16).padStart(8, '0');
}

/** The key (`hostDigestKey`) of a stored digest's text; NaN, equal to no key, for a text that is not one. */
export function digestKey(text: string): number {
  if (!/^[0-9a-f]{16}$/.test(text)) return Number.NaN;
  return Number.parseInt(text.slice(0, 8), 16) * 2 ** 21 + (Number.parseInt(text.slice(8), 16) >>> 11);
}

/** The digest of a scored host: 16 hex digits. */
export function hostDigest(s: ScoredHost): string {
  hostDigestKey(s);
  return lastDigestText();
}
