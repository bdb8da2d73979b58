/** The risk report's model (EDR-Z6): what it counts, lists and says, from the store's answers (C-95). */
import { describe, expect, it } from 'vitest';
import type { ZtaCounts, ZtaFacets, ZtaWindow } from '../../../shared/contract-zta';
import { emptyBandCounts, type BandCounts, type HostMove } from '../../../shared/model/zta';
import type { HostWindowRow } from '../../../shared/model/zta-window';
import { hostAttributes } from '../../../shared/model/zta-columns';
import { makeScoredHosts } from '../../support/edr-fixtures';
import type { Contribution, Platform, RiskBand } from '../../../shared/model/edr';
import { buildReport, changesInScope, percent, reasonsOf, RISKIEST, scopeWords } from '../../../renderer/features/zta/report/report-model';

const connector = (connectorId: string, vendor: 'defender' | 'falcon', asOf: string | null) => ({
  connectorId,
  name: `${connectorId} name`,
  vendor,
  tenantId: `${connectorId}-tenant`,
  cycleId: asOf ? 1 : null,
  asOf,
  kind: asOf ? ('poll' as const) : null,
  hosts: 0,
  health: asOf ? ('online' as const) : ('never' as const),
  lastAttemptAt: null,
  lastError: null,
});

const connectors = [connector('d', 'defender', '2026-11-25T10:00:00.000Z'), connector('f', 'falcon', '2026-11-25T09:00:00.000Z')];

/** zta.facets of hosts given as [connector index, customer, platform, hosts]. */
const facets = (groups: Array<[number, string, Platform, number]>): ZtaFacets => ({
  asOf: '2026-11-25T10:00:00.000Z',
  connectors,
  groups: groups.map(([c, customerId, platform, hosts]) => ({ connector: c, customerId, platform, hosts })),
});

const bands = (b: Partial<BandCounts>): BandCounts => ({ ...emptyBandCounts(), ...b });
const sum = (b: BandCounts) => Object.values(b).reduce((n, x) => n + x, 0);

/** zta.counts of customers given as [customer, bands]. */
const counts = (customers: Array<[string, Partial<BandCounts>]>, exact = true): ZtaCounts => {
  const all = emptyBandCounts();
  const list = customers.map(([customerId, b]) => {
    const full = bands(b);
    for (const k of Object.keys(all) as RiskBand[]) all[k] += full[k];
    return { customerId, hosts: sum(full), bands: full, platforms: [] };
  });
  return { total: sum(all), bands: all, customers: list, exact };
};

/** A Defender host of the fixtures (risk score Low, exposure Medium, health Active) as the store's window answers it. */
const defender = makeScoredHosts(1)[0]!.host;
const row = (connectorId: string, hostId: string, score: number | null, band: RiskBand): HostWindowRow => ({
  connectorId,
  vendor: connectorId === 'd' ? 'defender' : 'falcon',
  hostId,
  hostname: `${hostId}.example`,
  customerId: 'acme',
  platform: 'Windows',
  score,
  band,
  lastSeen: null,
  ...hostAttributes(defender),
  // Falcon's sensor facts, stored as 0/1: a Defender host has none.
  sensorRunning: null,
  reducedFunctionality: null,
});
const top = (rows: HostWindowRow[]): ZtaWindow => ({ rows, total: rows.length, exact: true });

describe('risk report model', () => {
  it('names a customer where the connectors make it known, and keeps the ID alone where not (issue 22.7)', () => {
    const named = buildReport(
      {
        facets: facets([
          [0, 'acme', 'Windows', 1],
          [0, 'globex', 'Windows', 1],
          [1, 'initech', 'Linux', 1],
        ]),
        counts: counts([
          ['acme', { 'High Risk': 1 }],
          ['globex', { Trustworthy: 1 }],
          ['initech', { 'Low Risk': 1 }],
        ]),
        top: top([]),
      },
      {},
    );
    // Falcon's connector carries one customer only: it names it; Defender's carries two: no name.
    expect(named.customers.map((c) => [c.customerId, c.name])).toEqual([
      ['acme', undefined],
      ['globex', undefined],
      ['initech', 'f name'],
    ]);
    expect([...named.customerNames]).toEqual([['initech', 'f name']]);
  });

  it('takes the counts as the store gives them, customers with most hosts first; the riskiest are the scored ones of the first rows, as the table shows them', () => {
    const all = buildReport(
      {
        facets: facets([[0, 'acme', 'Windows', 2], [1, 'globex', 'Windows', 4]]),
        counts: counts([
          ['acme', { 'High Risk': 1, Trustworthy: 1 }],
          ['globex', { 'High Risk': 1, 'Moderate Risk': 1, 'Low Risk': 1, 'Not assessed': 1 }],
        ]),
        // The default order: scored hosts first, Not assessed after them.
        top: top([row('d', 'h1', 90, 'High Risk'), row('f', 'h4', 90, 'High Risk'), row('d', 'h3', 50, 'Moderate Risk'), row('f', 'h6', null, 'Not assessed')]),
      },
      {},
    );
    expect(all).toMatchObject({ total: 6, exact: true, asOf: '2026-11-25T10:00:00.000Z', moreCustomers: 0 });
    expect(all.bands).toEqual({ Trustworthy: 1, 'Low Risk': 1, 'Moderate Risk': 1, Suspicious: 0, 'High Risk': 2, 'Not assessed': 1 });
    expect(all.customers.map((c) => [c.customerId, c.total, c.bands['Not assessed']])).toEqual([
      ['globex', 4, 1],
      ['acme', 2, 0],
    ]);
    expect(all.riskiest.map((r) => [r.hostId, r.connectorName, r.asOf, r.score])).toEqual([
      ['h1', 'd name', '2026-11-25T10:00:00.000Z', 90],
      ['h4', 'f name', '2026-11-25T09:00:00.000Z', 90],
      ['h3', 'd name', '2026-11-25T10:00:00.000Z', 50],
    ]);
    // Defender's words in the assessment columns, as the table shows them.
    expect(all.riskiest[0]).toMatchObject({ overallAssessment: 'Low', osAssessment: 'Medium', sensorAssessment: 'Active' });

    const falcon = buildReport({ facets: facets([[1, 'globex', 'Windows', 1]]), counts: counts([['globex', { 'High Risk': 1 }]]), top: top([row('f', 'h4', 90, 'High Risk')]) }, { vendor: 'falcon' });
    expect(falcon).toMatchObject({ total: 1, connectors: [expect.objectContaining({ connectorId: 'f' })], asOf: '2026-11-25T09:00:00.000Z' });
  });

  it('lists at most RISKIEST hosts and CUSTOMERS_LISTED customers, and says when the store stopped counting a search', () => {
    const many = Array.from({ length: 15 }, (_, i): [string, Partial<BandCounts>] => [`c${String(i).padStart(2, '0')}`, { Trustworthy: 20 - i }]);
    const r = buildReport({ facets: facets([]), counts: counts(many, false), top: top(Array.from({ length: RISKIEST + 3 }, (_, i) => row('d', `h${i}`, 80, 'Suspicious'))) }, { q: 'h' });
    expect(r.riskiest).toHaveLength(RISKIEST);
    expect(r.customers.map((c) => c.customerId)).toEqual(many.slice(0, 12).map(([id]) => id));
    expect(r.moreCustomers).toBe(3);
    expect(r.exact).toBe(false);
  });

  it('keeps only the changes of hosts the filters show, by each move’s platform, band and text; the moved count stays', () => {
    const move = (hostId: string, platform: Platform, band: RiskBand, hostname = `${hostId}.example`): HostMove => ({ connectorId: 'd', hostId, hostname, customerId: 'acme', platform, from: { score: 10, band: 'Trustworthy' }, to: { score: 90, band } });
    const changes = {
      enteredHighRisk: [move('h1', 'Windows', 'High Risk'), move('h2', 'Mac', 'High Risk'), move('h3', 'Windows', 'High Risk', 'WEB-01.corp')],
      leftHighRisk: [move('h4', 'Mac', 'Low Risk')],
      biggestMovers: [move('h5', 'Linux', 'Suspicious'), move('h6', 'Windows', 'Moderate Risk')],
      moved: 7,
    };
    const windows = changesInScope({ platform: 'Windows' }, changes);
    expect(windows.enteredHighRisk.map((m) => m.hostId)).toEqual(['h1', 'h3']);
    expect(windows.leftHighRisk).toEqual([]);
    expect(windows.biggestMovers.map((m) => m.hostId)).toEqual(['h6']);
    expect(windows.moved).toBe(7);
    expect(changesInScope({ band: 'Suspicious' }, changes).biggestMovers.map((m) => m.hostId)).toEqual(['h5']);
    // The search as the store matches it: trimmed, ASCII letters folded, hostname or host ID.
    expect(changesInScope({ q: ' web-0 ' }, changes).enteredHighRisk.map((m) => m.hostId)).toEqual(['h3']);
    expect(changesInScope({ q: 'H2' }, changes).enteredHighRisk.map((m) => m.hostId)).toEqual(['h2']);
    expect(changesInScope({ customer: 'globex' }, changes).enteredHighRisk).toEqual([]);
    expect(changesInScope({ connector: 'f' }, changes).biggestMovers).toEqual([]);
  });

  it('gives the reasons that add points, largest first, at most three; the scope and shares in words', () => {
    const c = (indicator: string, scoreShare: number): Contribution => ({ indicator, group: 'critical', points: 1, scoreShare, detail: indicator });
    expect(reasonsOf([c('a', 2), c('b', 0), c('c', 9), c('d', 4), c('e', 1)]).map((x) => x.indicator)).toEqual(['c', 'd', 'a']);
    expect(reasonsOf([c('a', 0)])).toEqual([]);
    expect(scopeWords({}, [])).toBe('All hosts');
    expect(scopeWords({ connector: 'f', customer: 'acme', platform: 'Mac', band: 'High Risk', q: 'web' }, connectors)).toBe('Hosts: f name · customer acme · macOS · High Risk · matching “web”');
    expect([percent(0, 10), percent(1, 300), percent(1, 3)]).toEqual(['0 %', '<1 %', '33 %']);
  });
});
