/** The risk report's model (EDR-Z6): what it counts, lists and says, from a small snapshot. */
import { describe, expect, it } from 'vitest';
import { BANDS, COLUMN_KEYS, PLATFORMS, type HostMove, type ZtaColumns, type ZtaSnapshot } from '../../../shared/model/zta';
import type { Contribution, Platform, RiskBand } from '../../../shared/model/edr';
import { buildReport, changesInScope, percent, reasonsOf, scopeWords } from '../../../renderer/features/zta/report/report-model';

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

/** A snapshot of hosts given as [connector index, host id, customer, platform, score, band]. */
function snapshot(hosts: Array<[number, string, string, Platform, number, RiskBand]>): ZtaSnapshot {
  const rows = Object.fromEntries(COLUMN_KEYS.map((k) => [k, []])) as unknown as ZtaColumns;
  const customers: string[] = [];
  for (const [c, id, customer, platform, score, band] of hosts) {
    if (!customers.includes(customer)) customers.push(customer);
    const row: Partial<Record<keyof ZtaColumns, unknown>> = { connector: c, hostId: id, hostname: `${id}.example`, customer: customers.indexOf(customer), platform: PLATFORMS.indexOf(platform), score, band: BANDS.indexOf(band) };
    // The attribute columns the report does not read stay empty.
    for (const k of COLUMN_KEYS) (rows[k] as unknown[]).push(row[k] ?? null);
  }
  return { asOf: '2026-11-25T10:00:00.000Z', connectors: [connector('d', 'defender', '2026-11-25T10:00:00.000Z'), connector('f', 'falcon', '2026-11-25T09:00:00.000Z')], customers, rows };
}

const s = snapshot([
  [0, 'h1', 'acme', 'Windows', 90, 'High Risk'],
  [0, 'h2', 'acme', 'Mac', 10, 'Trustworthy'],
  [0, 'h3', 'globex', 'Windows', 50, 'Moderate Risk'],
  [1, 'h4', 'globex', 'Windows', 90, 'High Risk'],
  [1, 'h5', 'globex', 'Linux', 30, 'Low Risk'],
  // Falcon has not assessed it: stored at 100, counted apart, never among the riskiest (EDR-N1).
  [1, 'h6', 'globex', 'Windows', 100, 'Not assessed'],
]);

const move = (connectorId: string, hostId: string): HostMove => ({ connectorId, hostId, hostname: hostId, customerId: 'acme', from: { score: 10, band: 'Trustworthy' }, to: { score: 90, band: 'High Risk' } });

describe('risk report model', () => {
  it('names a customer where the connectors make it known, and keeps the ID alone where not (issue 22.7)', () => {
    const named = buildReport(
      snapshot([
        [0, 'h1', 'acme', 'Windows', 90, 'High Risk'],
        [0, 'h2', 'globex', 'Windows', 10, 'Trustworthy'],
        [1, 'h3', 'initech', 'Linux', 40, 'Low Risk'],
      ]),
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

  it('counts the filtered hosts per band and per customer, Not assessed apart, and lists the riskiest in the table’s order', () => {
    const all = buildReport(s, {});
    expect(all.total).toBe(6);
    expect(all.bands).toEqual({ Trustworthy: 1, 'Low Risk': 1, 'Moderate Risk': 1, Suspicious: 0, 'High Risk': 2, 'Not assessed': 1 });
    expect(all.customers.find((c) => c.customerId === 'globex')?.bands['Not assessed']).toBe(1);
    expect(all.customers.map((c) => [c.customerId, c.total])).toEqual([
      ['globex', 4],
      ['acme', 2],
    ]);
    // Equal scores by hostname.
    expect(all.riskiest.map((r) => r.hostId)).toEqual(['h1', 'h4', 'h3', 'h5', 'h2']);
    expect(all.asOf).toBe('2026-11-25T10:00:00.000Z');

    const windowsFalcon = buildReport(s, { platform: 'Windows', vendor: 'falcon' });
    expect(windowsFalcon).toMatchObject({ total: 2, connectors: [expect.objectContaining({ connectorId: 'f' })], asOf: '2026-11-25T09:00:00.000Z' });
    expect(windowsFalcon.riskiest.map((r) => r.hostId)).toEqual(['h4']);
  });

  it('keeps only the changes of hosts the filters show; the moved count stays', () => {
    const changes = { enteredHighRisk: [move('d', 'h1'), move('f', 'h4'), move('d', 'gone')], leftHighRisk: [move('d', 'h2')], biggestMovers: [move('f', 'h5'), move('d', 'h3')], moved: 7 };
    const windows = changesInScope(s, { platform: 'Windows' }, changes);
    expect(windows.enteredHighRisk.map((m) => m.hostId)).toEqual(['h1', 'h4']);
    expect(windows.leftHighRisk).toEqual([]);
    expect(windows.biggestMovers.map((m) => m.hostId)).toEqual(['h3']);
    expect(windows.moved).toBe(7);
    // A host id is kept with its own connector only.
    expect(changesInScope(s, { connector: 'f' }, changes).enteredHighRisk.map((m) => m.hostId)).toEqual(['h4']);
  });

  it('gives the reasons that add points, largest first, at most three; the scope and shares in words', () => {
    const c = (indicator: string, scoreShare: number): Contribution => ({ indicator, group: 'critical', points: 1, scoreShare, detail: indicator });
    expect(reasonsOf([c('a', 2), c('b', 0), c('c', 9), c('d', 4), c('e', 1)]).map((x) => x.indicator)).toEqual(['c', 'd', 'a']);
    expect(reasonsOf([c('a', 0)])).toEqual([]);
    expect(scopeWords({}, [])).toBe('All hosts');
    expect(scopeWords({ connector: 'f', customer: 'acme', platform: 'Mac', band: 'High Risk', q: 'web' }, s.connectors)).toBe('Hosts: f name · customer acme · macOS · High Risk · matching “web”');
    expect([percent(0, 10), percent(1, 300), percent(1, 3)]).toEqual(['0 %', '<1 %', '33 %']);
  });
});
