/**
 * The ZTA dashboard's index (zta-index.ts), its distribution and the what-if's rescoring, on
 * synthetic snapshots: the window's filter is the export's filter (the same rows; in the default
 * order even the same sequence), sorts are the orders they say, and a what-if with the stored
 * settings changes nothing while other weights move exactly the hosts `scoreHost` says.
 */
import { describe, expect, it } from 'vitest';
import { exportedRows } from '../../../electron/edr/zta-export';
import { BANDS, NOT_ASSESSED_INDEX, makeRowFilter, PLATFORMS, snapshotRow, type ZtaFilter } from '../../../shared/model/zta';
import { defaultRiskConfig, scoreHost, tenantRiskConfigOrThrow } from '../../../shared/risk';
import { distribution } from '../../../renderer/features/zta/distribution';
import { attributePresence } from '../../../renderer/features/zta/host-columns';
import { recordAt, rescoreSnapshot } from '../../../renderer/features/zta/whatif';
import { visibleColumns } from '../../../renderer/features/zta/ZtaDashboard';
import { filterRows, knownFilter, riskiest, sortOrder, stringOrder, structuralMask, ZTA_SORT_KEYS, ztaViewOf } from '../../../renderer/features/zta/zta-index';
import { ztaSnapshot } from './support/zta-data';

const s = ztaSnapshot({ hosts: 3000, seed: 11 });
const view = ztaViewOf(s);
const byExport = (f: ZtaFilter) => {
  const keep = makeRowFilter(s, f);
  return s.rows.hostId.map((_, i) => i).filter((i) => keep(i));
};

const FILTERS: ZtaFilter[] = [
  {},
  { customer: 'cid-1' },
  { customer: 'tenant-2.onmicrosoft.com', platform: 'Mac' },
  { platform: 'Linux', band: 'High Risk' },
  { vendor: 'defender', band: 'Suspicious' },
  { connector: 'c-falcon', q: 'WS-0' },
  { q: 'laptop-01' },
  { q: '  MAC-2  ' },
  { q: 'aid-' },
  { customer: 'cid-0', platform: 'Windows', band: 'Trustworthy', vendor: 'falcon', q: '1' },
  // The search scans one text of every row: its first and last row, and a search across two rows (none).
  { q: s.rows.hostname[0]! },
  { q: s.rows.hostId[s.rows.hostId.length - 1]! },
  { q: `${s.rows.hostId[0]!.slice(-3)}\n${s.rows.hostname[1]!.slice(0, 3)}` },
];

describe('ZTA index', () => {
  it('filters exactly as the export does, for every combination tried', () => {
    const order = sortOrder(view, { key: 'hostname', desc: false });
    for (const f of FILTERS) {
      const { rows, anyBand } = filterRows(view, order, f);
      expect([...rows].sort((a, b) => a - b), JSON.stringify(f)).toEqual(byExport(f));
      expect([...anyBand].sort((a, b) => a - b)).toEqual(byExport({ ...f, band: undefined }));
    }
  });

  it('in its default order (riskiest first) the table lists the export’s rows in the export’s order', () => {
    const order = sortOrder(view, { key: 'score', desc: true });
    for (const f of FILTERS) expect([...filterRows(view, order, f).rows], JSON.stringify(f)).toEqual(exportedRows(s, f));
  });

  it('sorts every column both ways, ties by hostname', () => {
    const cmpName = (a: number, b: number) => (s.rows.hostname[a]! < s.rows.hostname[b]! ? -1 : s.rows.hostname[a]! > s.rows.hostname[b]! ? 1 : a - b);
    for (const key of ZTA_SORT_KEYS) {
      for (const desc of [false, true]) {
        const order = sortOrder(view, { key, desc });
        expect(new Set(order).size).toBe(3000);
        expect(sortOrder(view, { key, desc })).toBe(order); // cached
      }
    }
    const score = sortOrder(view, { key: 'score', desc: true });
    // Hosts not assessed have no score: after every scored host, by name (EDR-N1).
    const rank = (i: number) => (s.rows.band[i] === NOT_ASSESSED_INDEX ? -1 : s.rows.score[i]!);
    expect(score.some((i) => s.rows.band[i] === NOT_ASSESSED_INDEX)).toBe(true);
    for (let p = 1; p < score.length; p++) {
      const [a, b] = [score[p - 1]!, score[p]!];
      expect(rank(a) > rank(b) || (rank(a) === rank(b) && cmpName(a, b) < 0)).toBe(true);
    }
    const names = sortOrder(view, { key: 'hostname', desc: false });
    for (let p = 1; p < names.length; p++) expect(cmpName(names[p - 1]!, names[p]!)).toBeLessThan(0);
    const platform = sortOrder(view, { key: 'platform', desc: true });
    expect(s.rows.platform[platform[0]!]).toBe(PLATFORMS.length - 1);
    expect(s.rows.platform[platform.at(-1)!]).toBe(0);
    // Falcon's numbers first, then Defender's words; unknown first.
    const os = [...sortOrder(view, { key: 'osAssessment', desc: false })];
    const vendorOf = (i: number) => s.connectors[s.rows.connector[i]!]!.vendor;
    const known = (i: number) => (vendorOf(i) === 'falcon' ? s.rows.osAssessment[i] : s.rows.exposure[i]) !== null;
    const firstKnown = os.findIndex(known);
    expect(firstKnown).toBeGreaterThan(0);
    expect(os.slice(firstKnown).every(known)).toBe(true);
    const vendors = os.slice(firstKnown).map(vendorOf);
    expect(vendors.lastIndexOf('falcon')).toBeLessThan(vendors.indexOf('defender'));
    const falconValues = os.slice(firstKnown).filter((i) => vendorOf(i) === 'falcon').map((i) => s.rows.osAssessment[i]!);
    expect(falconValues).toEqual([...falconValues].sort((a, b) => a - b));
  });

  it('orders strings by code units exactly, whatever their alphabet, prefixes and duplicates', () => {
    const pick = (chars: string, n: number, k: number) => Array.from({ length: n }, (_, i) => chars[(i * 7 + k * 13) % chars.length]).join('');
    const values = [
      '',
      'a',
      'ab',
      'abc',
      'Zeta',
      'zeta',
      'é',
      '😀x',
      '😀',
      ...Array.from({ length: 500 }, (_, k) => pick('0123456789abcdef', 1 + (k % 40), k)),
      ...Array.from({ length: 500 }, (_, k) => `WS-${String(k % 37).padStart(4, '0')}-${pick('xyz-.ÄÖ', k % 5, k)}`),
      'WS-0001-',
      'WS-0001-',
    ];
    const tie = Int32Array.from(values, (_, i) => values.length - i);
    const expected = values.map((_, i) => i).sort((a, b) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : tie[a]! - tie[b]!));
    expect([...stringOrder(values, tie)]).toEqual(expected);
    expect([...stringOrder(values)]).toEqual(values.map((_, i) => i).sort((a, b) => (values[a]! < values[b]! ? -1 : values[a]! > values[b]! ? 1 : a - b)));
  });

  it('orders the last-seen times both ways, never seen first when ascending, ties by hostname', () => {
    const t = (i: number) => (s.rows.lastSeen[i] ? Date.parse(s.rows.lastSeen[i]!) : -Infinity);
    const rank = view.index.nameRank;
    for (const desc of [false, true]) {
      const order = [...sortOrder(view, { key: 'lastSeen', desc })];
      const expected = [...order].sort((a, b) => (desc ? t(b) - t(a) : t(a) - t(b)) || rank[a]! - rank[b]!);
      expect(order).toEqual(expected);
    }
  });

  it('drops a customer or connector the snapshot does not have, as the export would be asked', () => {
    expect(knownFilter(s, { customer: 'nobody', connector: 'gone', platform: 'Mac', q: ' ' })).toEqual({ platform: 'Mac' });
    expect(knownFilter(s, { customer: 'cid-1', connector: 'c-falcon' })).toEqual({ customer: 'cid-1', connector: 'c-falcon' });
  });

  it('picks the riskiest hosts in one pass: the head of the score order, never a host not assessed', () => {
    // Whatever order the rows come in, ties of score are broken by hostname, as the export's order
    // does; a top longer than the rows keeps every scored one; a host not assessed has no score to rank.
    for (const sort of [{ key: 'hostname', desc: true }, { key: 'hostId', desc: false }] as const) {
      const order = sortOrder(view, sort);
      for (const f of FILTERS) {
        const rows = filterRows(view, order, f).rows;
        const scored = exportedRows(s, f).filter((i) => s.rows.band[i] !== NOT_ASSESSED_INDEX);
        for (const top of [1, 10, 250]) expect(riskiest(view, rows, top)).toEqual(scored.slice(0, top));
      }
    }
  });

  it('counts the band distribution per customer and per platform, the band totals those of the rows', () => {
    const rows = filterRows(view, sortOrder(view, { key: 'score', desc: true }), { vendor: 'defender' }).anyBand;
    const d = distribution(s, rows, 'customer');
    expect(d.hosts).toBe(rows.length);
    expect(d.groups.map((g) => g.key).every((k) => k.endsWith('.onmicrosoft.com'))).toBe(true);
    expect(d.groups.reduce((n, g) => n + g.total, 0)).toBe(rows.length);
    for (const b of BANDS) expect(d.totals[b]).toBe([...rows].filter((i) => s.rows.band[i] === BANDS.indexOf(b)).length);
    const p = distribution(s, rows, 'platform');
    expect(p.groups.map((g) => g.key)).toEqual([...PLATFORMS]);
    // More than 12 customers: the rest is one bar.
    const many = ztaSnapshot({ hosts: 400, customers: 10 });
    const all = filterRows(ztaViewOf(many), sortOrder(ztaViewOf(many), { key: 'score', desc: true }), {}).anyBand;
    const m = distribution(many, all, 'customer');
    expect(m.groups).toHaveLength(13);
    expect(m.groups.at(-1)).toMatchObject({ other: true, label: '8 more customers' });
    expect(m.groups.reduce((n, g) => n + g.total, 0)).toBe(400);
  });

  it('brings the attribute columns a chosen platform’s hosts report into view', () => {
    expect(visibleColumns(new Set(['riskLevel', 'sensor']), {})).not.toContain('riskLevel');
    const falconMac = attributePresence(s, structuralMask(view.index, { platform: 'Mac', vendor: 'falcon' }));
    expect([...falconMac]).toEqual(['sensor']);
    const mac = attributePresence(s, structuralMask(view.index, { platform: 'Mac' }));
    const cols = visibleColumns(mac, { platform: 'Mac' });
    for (const c of ['riskLevel', 'exposure', 'health', 'avStatus', 'cves', 'sensor'] as const) expect(cols).toContain(c);
    expect(cols).not.toContain('platform');
  });
});

describe('what-if rescoring', () => {
  const defender = s.connectors.findIndex((c) => c.vendor === 'defender');
  const falcon = s.connectors.findIndex((c) => c.vendor === 'falcon');

  it('changes nothing under the stored settings', () => {
    for (const c of [defender, falcon]) {
      const r = rescoreSnapshot(s, c, defaultRiskConfig);
      expect(r.scoreChanged).toBe(0);
      expect(r.bandChanged).toBe(0);
      expect(r.whatIf).toEqual(r.stored);
    }
  });

  it('scores the tenant’s hosts as scoreHost does under the new settings, leaves the other tenant alone, and moves the band counts', () => {
    const config = tenantRiskConfigOrThrow({ weights: { critical: 90, operational: 10 }, thresholds: { criticalCvss: 7 } });
    const r = rescoreSnapshot(s, defender, config);
    const at = Date.parse(s.connectors[defender]!.asOf!);
    let moved = 0;
    for (let i = 0; i < s.rows.hostId.length; i++) {
      const shown = snapshotRow(r.snapshot, i);
      if (s.rows.connector[i] !== defender) {
        expect([shown.score, shown.band]).toEqual([snapshotRow(s, i).score, snapshotRow(s, i).band]);
        continue;
      }
      const expected = scoreHost(recordAt(s, i, 7), config, at);
      expect([r.snapshot.rows.score[i], shown.band]).toEqual([expected.score, expected.band]);
      if (expected.band === 'Not assessed') expect(shown.score).toBeNull();
      if (shown.band !== snapshotRow(s, i).band) moved += 1;
    }
    expect(r.bandChanged).toBe(moved);
    expect(moved).toBeGreaterThan(0);
    expect(Object.values(r.whatIf).reduce((a, b) => a + b, 0)).toBe(s.connectors[defender]!.hosts);
    expect(r.whatIf).not.toEqual(r.stored);
    // The view of the what-if sorts by its scores, over the stored snapshot's index.
    const v = ztaViewOf(s, r.snapshot);
    expect(v.index).toBe(view.index);
    const top = sortOrder(v, { key: 'score', desc: true })[0]!;
    expect(r.snapshot.rows.score[top]).toBe(Math.max(...r.snapshot.rows.score.filter((_, i) => r.snapshot.rows.band[i] !== NOT_ASSESSED_INDEX)));
  });

  it('keeps a Falcon host without an assessment Not assessed under any settings, counted apart', () => {
    const r = rescoreSnapshot(s, falcon, tenantRiskConfigOrThrow({ bands: [10, 20, 30, 40], falcon: { postureMinOverall: 90, noAssessmentScore: 50 } }));
    const unassessed = s.rows.overallAssessment.flatMap((v, i) => (v === null && s.rows.connector[i] === falcon ? [i] : []));
    expect(unassessed.length).toBeGreaterThan(0);
    for (const i of unassessed) expect(snapshotRow(r.snapshot, i).band).toBe('Not assessed');
    expect(r.whatIf['Not assessed']).toBe(unassessed.length);
    expect(r.stored['Not assessed']).toBe(unassessed.length);
    expect(r.bandChanged).toBeGreaterThan(0); // the new edges move assessed hosts
  });
});
