/**
 * The digest that tells a changed host from one seen as it was (electron/store/host-digest.ts).
 * It walks the record's fields by name, so these tests build a record from the schema itself
 * (shared/model/edr.ts) and change every field it has, one at a time: a field added to the schema
 * and not to the digest fails here.
 */
import { describe, expect, it } from 'vitest';
import { digestKey, hostDigest, hostDigestKey, lastDigestText } from '../../../electron/edr/store/host-digest';
import { HostRecord, type ScoredHost } from '../../../shared/model/edr';
import { compileRiskConfig, defaultRiskConfig, scoreHost } from '../../../shared/risk';

type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;

/** A value for every field of a schema (optional and nullable ones present), arrays with two elements. */
function sample(schema: unknown, path: string): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return Object.fromEntries(Object.entries(def.shape as Record<string, unknown>).map(([k, v]) => [k, sample(v, `${path}.${k}`)]));
    case 'string':
      return `v${path}`;
    case 'number':
    case 'int':
      return 3;
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'array':
      return [sample(def.element, `${path}[0]`), sample(def.element, `${path}[1]`)];
    case 'optional':
    case 'nullable':
    case 'default':
      return sample(def.innerType, path);
    default:
      throw new Error(`no sample for a ${def.type} at ${path}`);
  }
}

interface Leaf {
  path: Array<string | number>;
  /** Other values this field may take (and, when allowed, null or absence). */
  others: unknown[];
}

/** Every leaf field of the schema with the values it could change to. */
function leaves(schema: unknown, path: Array<string | number> = [], optional = false, nullable = false): Leaf[] {
  const def = defOf(schema);
  const extra = [...(nullable ? [null] : []), ...(optional ? [undefined] : [])];
  switch (def.type) {
    case 'object': {
      const own = Object.entries(def.shape as Record<string, unknown>).flatMap(([k, v]) => leaves(v, [...path, k]));
      return extra.length ? [{ path, others: extra }, ...own] : own;
    }
    case 'array': {
      const inner = [0, 1].flatMap((i) => leaves(def.element, [...path, i]));
      return [{ path, others: [[], ...extra] }, ...inner];
    }
    case 'optional':
      return leaves(def.innerType, path, true, nullable);
    case 'nullable':
      return leaves(def.innerType, path, optional, true);
    case 'default':
      return leaves(def.innerType, path, optional, nullable);
    case 'string':
      return [{ path, others: ['other', '', ...extra] }];
    case 'number':
    case 'int':
      return [{ path, others: [4, 3.5, 0, ...extra] }];
    case 'boolean':
      return [{ path, others: [false, ...extra] }];
    case 'enum':
      return [{ path, others: [...Object.values(def.entries as Record<string, unknown>).slice(1), ...extra] }];
    default:
      throw new Error(`no leaf values for a ${def.type}`);
  }
}

function withValue<T>(base: T, path: Array<string | number>, value: unknown): T {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let at: Record<string | number, unknown> = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (value === undefined) delete at[last];
  else at[last] = value;
  return copy as T;
}

const CONFIG = compileRiskConfig(defaultRiskConfig);
const scored = (host: HostRecord, over: Partial<ScoredHost> = {}): ScoredHost => ({ host, score: 40, band: 'Moderate Risk', contributions: [], scoredAt: '2026-11-25T00:00:00.000Z', ...over });
const LAST_SEEN = new Set(['lastSeen', 'defender.lastSeen', 'falcon.lastSeen']);

describe('hostDigest', () => {
  const base = sample(HostRecord, '') as HostRecord;
  const baseDigest = hostDigest(scored(base));

  it('moves when any field of the record changes, and not when only its last-seen times do', () => {
    const all = leaves(HostRecord);
    // The walk reaches the vendors' sections and their lists (a schema without them would test nothing).
    expect(all.map((l) => l.path.join('.'))).toEqual(expect.arrayContaining(['defender.vulnerabilities.1.cvss', 'falcon.assessment.sensor_signals.0.group_name', 'hostname']));
    const unnoticed: string[] = [];
    for (const leaf of all) {
      const name = leaf.path.join('.');
      for (const other of leaf.others) {
        const digest = hostDigest(scored(withValue(base, leaf.path, other)));
        if (LAST_SEEN.has(name)) expect(digest, `${name} → ${String(other)}`).toBe(baseDigest);
        else if (digest === baseDigest) unnoticed.push(`${name} → ${JSON.stringify(other)}`);
      }
    }
    expect(unnoticed).toEqual([]);
  });

  it('moves with the score, the band, the contributions and the profile results', () => {
    const real = scoreHost(base, CONFIG, Date.parse('2026-11-25T00:00:00Z'));
    const d = hostDigest(scored(base, { contributions: real.contributions }));
    expect(d).not.toBe(baseDigest);
    expect(hostDigest(scored(base, { contributions: real.contributions.slice(1) }))).not.toBe(d);
    expect(hostDigest(scored(base, { contributions: real.contributions.map((c) => ({ ...c, detail: `${c.detail}.` })) }))).not.toBe(d);
    expect(hostDigest(scored(base, { score: 41 }))).not.toBe(baseDigest);
    expect(hostDigest(scored(base, { band: 'Suspicious' }))).not.toBe(baseDigest);
    const profiles = hostDigest(scored(base, { profiles: { 'os-hardened': true } }));
    expect(profiles).not.toBe(baseDigest);
    expect(hostDigest(scored(base, { profiles: { 'os-hardened': false } }))).not.toBe(profiles);
    expect(hostDigest(scored(base, { profiles: { 'sensor-healthy': true } }))).not.toBe(profiles);
  });

  it('is the same for an equal record however it was built, and ignores when it was scored', () => {
    const rebuilt = JSON.parse(JSON.stringify(base)) as HostRecord;
    expect(hostDigest(scored(rebuilt, { scoredAt: '2027-01-01T00:00:00.000Z' }))).toBe(baseDigest);
    // A contribution shared by many hosts (cached) and an equal copy digest alike.
    const real = scoreHost(base, CONFIG, Date.parse('2026-11-25T00:00:00Z'));
    expect(hostDigest(scored(base, { contributions: real.contributions.map((c) => ({ ...c })) }))).toBe(hostDigest(scored(base, { contributions: real.contributions })));
  });

  it('tells apart values that would read alike run together', () => {
    const split = (hostname: string, customerId: string) => hostDigest(scored({ ...base, hostname, customerId }));
    expect(split('ab', 'c')).not.toBe(split('a', 'bc'));
    const cves = (list: Array<{ cveId: string; cvss: number | null; severity: 'High' | null }>) =>
      hostDigest(scored({ ...base, defender: { ...base.defender!, vulnerabilities: list } }));
    expect(cves([{ cveId: 'CVE-1', cvss: null, severity: 'High' }])).not.toBe(cves([{ cveId: 'CVE-1', cvss: 7, severity: null }]));
    expect(cves([{ cveId: 'CVE-1', cvss: 0, severity: null }])).not.toBe(cves([{ cveId: 'CVE-1', cvss: -0, severity: null }]));
    expect(hostDigest(scored({ ...base, osVersion: null }))).not.toBe(hostDigest(scored({ ...base, osVersion: '' })));
  });

  it('gives 20,000 different hosts 20,000 different digests', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 20_000; i++) seen.add(hostDigest(scored({ ...base, hostId: `h-${i}`, hostname: `ws-${i % 97}` }, { score: i % 100 })));
    expect(seen.size).toBe(20_000);
  });

  it('gives as a number the key of the text it stores, and no text a key it does not make', () => {
    // Staging compares hostDigestKey with digestKey(hosts.digest): the two must agree for every host.
    for (let i = 0; i < 5_000; i++) {
      const s = scored({ ...base, hostId: `h-${i}`, hostname: `ws-${i % 97}` }, { score: i % 100 });
      const key = hostDigestKey(s);
      const text = lastDigestText();
      expect(text).toBe(hostDigest(s));
      expect(digestKey(text)).toBe(key);
      expect(Number.isSafeInteger(key)).toBe(true);
    }
    expect(hostDigestKey(scored(base))).toBe(digestKey('f93cce93ee46a21a'));
    expect(digestKey('093cce93ee46a21a')).not.toBe(digestKey('f93cce93ee46a21a'));
    // The key is the first 53 of the 64 bits: texts that differ only in the last 11 share it.
    expect(digestKey('f93cce93ee46a000')).toBe(digestKey('f93cce93ee46a7ff'));
    expect(digestKey('f93cce93ee46a7ff')).not.toBe(digestKey('f93cce93ee46a800'));
    // A stored text that is not a digest (empty, upper case, short, long) matches no host.
    for (const bad of ['', 'F93CCE93EE46A21A', 'f93cce93ee46a21', 'f93cce93ee46a21a0', 'not a digest!!!!']) expect(digestKey(bad)).toBeNaN();
  });

  it('is stable across versions: a stored digest still matches its host after an upgrade', () => {
    // Digests are stored (hosts.digest): a change of the walk makes every stored host look changed
    // once. Change this value only with the walk, and say so in the change.
    expect(hostDigest(scored(base))).toBe('f93cce93ee46a21a');
  });
});
