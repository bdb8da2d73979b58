/**
 * The per-device path (bulk export refused, or chosen): at most 10 calls in flight, paced under
 * 50 calls/minute (vendor time scaled ×600 on both sides so 20 vendor minutes take about 2 s),
 * zero 429s, and the same CVE facts as the bulk export.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HostRecord } from '../../../shared/model/edr';
import type { DefenderSimulator } from '@northbound/simulators/testing/defender';
import { BULK, PER_MACHINE, calls, connectorFor, expectedFacts, startSim, tenant } from './harness';

const ANCHOR = Date.UTC(2025, 5, 1, 12);
const RATE_SCALE = 600;
const t = tenant({ hosts: 400, seed: 99 });
let sim: DefenderSimulator;

const factsById = (hosts: HostRecord[]) => new Map(hosts.map((h) => [h.hostId, { cveCount: h.defender!.cveCount, criticalCveCount: h.defender!.criticalCveCount, maxCvss: h.defender!.maxCvss }]));
/** The facts of one bulk-export poll, made once here: the reference each test compares with. */
let bulkFacts: Map<string, unknown>;

beforeAll(async () => {
  sim = await startSim({ tenants: [t], dataAnchorMs: ANCHOR, rateScale: RATE_SCALE });
  const c = connectorFor(sim, t, { rateScale: RATE_SCALE });
  bulkFacts = factsById(await c.poll());
  await c.close();
});
afterAll(() => sim.close());
beforeEach(async () => {
  Object.assign(sim.faults, { bulkRefused: 0, delayMs: 0 });
  sim.stats.reset();
  // Each test starts a fresh connector, which knows nothing of the calls the previous one made
  // for the same app: let them leave the simulator's per-minute window first.
  await new Promise((r) => setTimeout(r, 60_000 / RATE_SCALE + 20));
});

describe('per-device vulnerability path', () => {
  it('bulk export (default) gives the reference facts', async () => {
    const c = connectorFor(sim, t, { rateScale: RATE_SCALE });
    const hosts = await c.poll();
    await c.close();
    expect(c.lastReport?.source).toBe('bulk');
    expect(calls(sim, PER_MACHINE)).toBe(0);
    const facts = factsById(hosts);
    expect(facts).toEqual(bulkFacts);
    for (const i of [0, 17, 399]) {
      const want = expectedFacts(t, i, ANCHOR);
      expect(facts.get(want.id)).toEqual({ cveCount: want.cveCount, criticalCveCount: want.criticalCveCount, maxCvss: want.maxCvss });
    }
  });

  it('falls back to per-device calls when the export answers 403, never more than 10 in flight, no 429', async () => {
    sim.faults.bulkRefused = 403;
    sim.faults.delayMs = 3;
    const c = connectorFor(sim, t, { rateScale: RATE_SCALE });
    const started = performance.now();
    const hosts = await c.poll();
    const ms = performance.now() - started;
    await c.close();

    expect(hosts).toHaveLength(400);
    expect(c.lastReport).toMatchObject({ source: 'per-machine', throttled: 0 });
    expect(c.lastReport?.fallbackReason).toContain('403');
    expect(calls(sim, BULK)).toBe(1);
    const assessed = hosts.filter((h) => h.defender!.onboardingStatus === 'Onboarded').length;
    expect(calls(sim, PER_MACHINE)).toBe(assessed);
    expect(sim.stats.maxInFlightVulnerabilities).toBeLessThanOrEqual(10);
    expect(sim.stats.maxInFlightVulnerabilities).toBeGreaterThan(1);
    expect(sim.stats.throttled).toBe(0);
    expect(factsById(hosts)).toEqual(bulkFacts);
    // ~370 calls at 50 per (scaled) minute: at least 7 full windows of 100 ms.
    expect(ms).toBeGreaterThanOrEqual(7 * (60_000 / RATE_SCALE));
  });

  it('falls back on 404 as well', async () => {
    sim.faults.bulkRefused = 404;
    const c = connectorFor(sim, t, { rateScale: RATE_SCALE });
    const hosts = await c.poll();
    await c.close();
    expect(c.lastReport?.source).toBe('per-machine');
    expect(c.lastReport?.fallbackReason).toContain('404');
    expect(factsById(hosts)).toEqual(bulkFacts);
    expect(sim.stats.throttled).toBe(0);
  });

  it('honours a lower concurrency and the per-machine source when asked', async () => {
    sim.faults.delayMs = 3;
    const c = connectorFor(sim, t, { rateScale: RATE_SCALE, vulnerabilitySource: 'per-machine', concurrency: 3 });
    await c.poll();
    await c.close();
    expect(calls(sim, BULK)).toBe(0);
    expect(sim.stats.maxInFlightVulnerabilities).toBeLessThanOrEqual(3);
    expect(sim.stats.throttled).toBe(0);
  });

  it('a connector that ignores the pacing (no rate scale) would be throttled: the limits are real', async () => {
    // Sanity check of the simulator side: calls in a burst beyond 50 per (scaled) minute → 429s. A
    // vendor minute of 2 s here (not the 100 ms above), so the burst exceeds it however slow the
    // machine: 50 calls in 2 s with 10 in flight allows 400 ms a call.
    const slowScale = 30;
    const burst = tenant({ hosts: 120, seed: 98 });
    const own = await startSim({ tenants: [burst], dataAnchorMs: ANCHOR, rateScale: slowScale });
    try {
      const c = connectorFor(own, burst, { rateScale: slowScale, vulnerabilitySource: 'per-machine', limits: { vulnerabilities: [{ calls: 1_000, windowMs: 1 }] } });
      const hosts = await c.poll();
      await c.close();
      expect(hosts).toHaveLength(120);
      expect(own.stats.rateLimited).toBeGreaterThan(0);
      expect(c.lastReport!.throttled).toBe(own.stats.throttled);
    } finally {
      await own.close();
    }
  });
});
