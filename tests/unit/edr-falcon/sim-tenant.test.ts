/** The simulator's lazy fleet: ids that decode to their index, determinism, and the mix of host states. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assessmentRecord, deviceRecord } from '@northbound/simulators/internal/falcon/records';
import { MAX_SIM_HOSTS, SimTenant } from '@northbound/simulators/internal/falcon/tenant';

const ANCHOR = Date.parse('2026-11-22T12:00:00Z');

describe('SimTenant', () => {
  it('decodes every device_id back to its index (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 31 }), fc.integer({ min: 1, max: MAX_SIM_HOSTS }), fc.nat(), (seed, hosts, k) => {
        const t = new SimTenant({ hosts, seed }, ANCHOR);
        const i = k % hosts;
        const id = t.deviceId(i);
        return /^[0-9a-f]{32}$/.test(id) && t.indexOf(id) === i;
      }),
    );
  });

  it('rejects ids that are not its own', () => {
    const t = new SimTenant({ hosts: 100, seed: 3 }, ANCHOR);
    const other = new SimTenant({ hosts: 100, seed: 4 }, ANCHOR);
    expect(t.indexOf(other.deviceId(5))).toBeUndefined();
    expect(t.indexOf(new SimTenant({ hosts: 1000, seed: 3 }, ANCHOR).deviceId(500))).toBeUndefined();
    expect(t.indexOf('xyz')).toBeUndefined();
    fc.assert(fc.property(fc.stringMatching(/^[0-9a-f]{32}$/), (id) => t.indexOf(id) === undefined || t.deviceId(t.indexOf(id)!) === id));
  });

  it('gives 100,000 distinct ids without storing them', () => {
    const t = new SimTenant({ hosts: MAX_SIM_HOSTS, seed: 1 }, ANCHOR);
    const ids = new Set<string>();
    for (let i = 0; i < MAX_SIM_HOSTS; i++) ids.add(t.deviceId(i));
    expect(ids.size).toBe(MAX_SIM_HOSTS);
    expect(() => new SimTenant({ hosts: MAX_SIM_HOSTS + 1 }, ANCHOR)).toThrow(RangeError);
  }, 30_000);

  it('generates the same records from the same seed and anchor', () => {
    const a = new SimTenant({ hosts: 50, seed: 9 }, ANCHOR);
    const b = new SimTenant({ hosts: 50, seed: 9 }, ANCHOR);
    for (const i of [0, 17, 49]) {
      expect(deviceRecord(b, b.traits(i))).toEqual(deviceRecord(a, a.traits(i)));
      expect(assessmentRecord(b, b.traits(i))).toEqual(assessmentRecord(a, a.traits(i)));
    }
    expect(a.cid).toBe(b.cid);
  });

  it('mixes in hosts not assessed yet, in reduced functionality mode and not seen for days', () => {
    const t = new SimTenant({ hosts: 5_000, seed: 2 }, ANCHOR);
    let unassessed = 0;
    let rfm = 0;
    let stale = 0;
    for (let i = 0; i < t.hosts; i++) {
      const h = t.traits(i);
      if (!h.assessed) unassessed += 1;
      if (h.reducedFunctionality) rfm += 1;
      if (h.lastSeenAgoMs > 2 * 86_400_000) stale += 1;
    }
    expect(unassessed / t.hosts).toBeCloseTo(0.07, 1);
    expect(rfm / t.hosts).toBeCloseTo(0.03, 1);
    expect(stale / t.hosts).toBeCloseTo(0.08, 1);
    const d = deviceRecord(t, t.traits(0));
    expect(Date.parse(d.last_seen as string)).toBeLessThanOrEqual(ANCHOR);
    expect(Date.parse(d.first_seen as string)).toBeLessThan(Date.parse(d.last_seen as string));
  });
});
