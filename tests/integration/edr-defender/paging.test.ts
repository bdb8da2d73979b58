/**
 * A large tenant at the documented (unscaled) limits: 12 000 devices need three machine pages
 * ($top=5000 by default, then the absolute @odata.nextLink; two at the maximum $top=10000) and a
 * few bulk export pages; no 429 arrives.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { HostRecord } from '../../../shared/model/edr';
import type { DefenderConnector } from '../../../electron/edr/defender';
import type { DefenderSimulator } from '@northbound/simulators/testing/defender';
import { BULK, MACHINES, calls, connectorFor, expectedFacts, startSim, tenant } from './harness';

const ANCHOR = Date.UTC(2025, 5, 1, 12);
const big = tenant({ hosts: 12_000, seed: 4242 });
let sim: DefenderSimulator;
let connector: DefenderConnector;

beforeAll(async () => {
  sim = await startSim({ tenants: [big], dataAnchorMs: ANCHOR });
});
afterAll(async () => {
  await sim.close();
});
// Each test counts the simulator's calls and reads the connector's report (one token) of its own.
beforeEach(() => {
  sim.stats.reset();
  connector = connectorFor(sim, big);
});
afterEach(async () => {
  await connector.close();
});

describe('Defender paging past 10 000 devices (documented limits)', () => {
  it('lists every device over three machine pages and scores them from the bulk export, with zero 429s', async () => {
    const seen: string[] = [];
    const hosts = await connector.poll({ onProgress: (p) => seen.push(`${p.phase}:${p.machines}`) });

    expect(hosts).toHaveLength(12_000);
    expect(new Set(hosts.map((h) => h.hostId)).size).toBe(12_000);
    expect(calls(sim, MACHINES)).toBe(3);
    expect(seen).toContain('machines:5000');
    expect(seen).toContain('machines:10000');
    expect(seen).toContain('machines:12000');
    expect(calls(sim, BULK)).toBeGreaterThanOrEqual(2);
    expect(calls(sim, 'GET /api/machines/{id}/vulnerabilities')).toBe(0);
    expect(sim.stats.throttled).toBe(0);
    expect(connector.lastReport).toMatchObject({ source: 'bulk', machinePages: 3, throttled: 0, retries: 0, tokensFetched: 1 });

    for (const h of hosts.slice(0, 200)) expect(HostRecord.safeParse(h).success).toBe(true);
    const byId = new Map(hosts.map((h) => [h.hostId, h]));
    for (const i of [0, 1, 4_999, 5_000, 9_999, 10_000, 11_999, 4_321]) {
      const want = expectedFacts(big, i, ANCHOR);
      const got = byId.get(want.id)!;
      expect(got.defender).toMatchObject({ cveCount: want.cveCount, criticalCveCount: want.criticalCveCount, maxCvss: want.maxCvss });
      expect(got).toMatchObject({ vendor: 'defender', customerId: big.tenantId, tenantId: big.tenantId });
    }
    const platforms = new Set(hosts.map((h) => h.platform));
    expect([...platforms].sort()).toEqual(['Linux', 'Mac', 'Other', 'Windows']);
    expect(hosts.some((h) => h.defender!.criticalCveCount > 0)).toBe(true);
  });

  it('with onHosts hands the same records out in batches of at most 2,000 and keeps none', async () => {
    const batches: HostRecord[][] = [];
    const returned = await connector.poll({ onHosts: (b) => void batches.push(b) });
    expect(returned).toEqual([]);
    expect(batches.map((b) => b.length)).toEqual([2_000, 2_000, 2_000, 2_000, 2_000, 2_000]);
    const byId = new Map(batches.flat().map((h) => [h.hostId, h]));
    expect(byId.size).toBe(12_000);
    for (const i of [0, 10_000, 11_999]) {
      const want = expectedFacts(big, i, ANCHOR);
      expect(byId.get(want.id)!.defender).toMatchObject({ cveCount: want.cveCount, criticalCveCount: want.criticalCveCount, maxCvss: want.maxCvss });
    }
  });

  it('listMachines yields the pages as the API sends them (5,000 by default, up to the maximum $top of 10,000)', async () => {
    const sizes: number[] = [];
    for await (const page of connector.listMachines()) sizes.push(page.length);
    expect(sizes).toEqual([5_000, 5_000, 2_000]);
    const widest = connectorFor(sim, big, { machinePageSize: 10_000 });
    try {
      const wide: number[] = [];
      for await (const page of widest.listMachines()) wide.push(page.length);
      expect(wide).toEqual([10_000, 2_000]);
    } finally {
      await widest.close();
    }
  });
});
