/** The bulk push's lookup answers what findRegisteredConnector's scan answers, through every put. */
import { describe, expect, it } from 'vitest';
import { findRegisteredConnector } from '../../../shared/model/connector-secret';
import { RegisteredList } from '../../../electron/edr/registered-list';
import { seededRandom } from '../../bench/scoring.bench-part';

type C = { id: string; vendor: string; tenantId: string; n: number };

describe('RegisteredList', () => {
  it('finds as the scan does (first match by ID, else by vendor and tenant without case) after any sequence of puts', () => {
    const rand = seededRandom(20);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const vendors = ['falcon', 'defender'];
    const tenants = ['T1', 't1', 'T2', 'contoso.onmicrosoft.com', 'CONTOSO.onmicrosoft.com'];
    // Duplicates of ID and of tenant on purpose: the first one wins in both.
    const start: C[] = [
      { id: 'a', vendor: 'falcon', tenantId: 'T1', n: 0 },
      { id: 'a', vendor: 'defender', tenantId: 'T2', n: 1 },
      { id: 'b', vendor: 'falcon', tenantId: 't1', n: 2 },
    ];
    const list = new RegisteredList(start.map((c) => ({ ...c })));
    let scanned = start.map((c) => ({ ...c }));
    for (let step = 0; step < 2_000; step++) {
      const input = { ...(rand() < 0.3 ? { id: pick(ids) } : {}), vendor: pick(vendors), tenantId: rand() < 0.2 ? ` ${pick(tenants)} ` : pick(tenants) };
      expect(list.find(input)).toEqual(findRegisteredConnector(scanned, input));
      const c: C = { id: pick(ids), vendor: pick(vendors), tenantId: pick(tenants), n: step };
      list.put(c);
      const at = scanned.findIndex((x) => x.id === c.id);
      scanned = at >= 0 ? scanned.map((x, i) => (i === at ? c : x)) : [...scanned, c];
      expect(list.all).toEqual(scanned);
    }
  });
});
