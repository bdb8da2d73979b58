/**
 * Per-tenant risk scoring through the contract (spec 2.3, EDR-S8): a Defender connector saved with
 * custom weights and points scores its hosts with them (not with the defaults); a bulk document
 * entry may carry `risk`; an invalid `risk` is refused with the path of its field.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectorStatus } from '../../../shared/contract';
import { defaultRiskConfig, scoreHost, tenantRiskConfigOrThrow } from '../../../shared/risk';
import { defenderTenant, startDefenderSimulator, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { edrDb } from '../../support/edr-fixtures';
import { until } from '../../support/until';

const tenant = defenderTenant({ hosts: 150, seed: 11 });
const risk = {
  weights: { critical: 85, operational: 15 },
  points: { riskScore: { Low: 20, Medium: 45, High: 90 }, avStatus: { Disabled: 60 }, criticalCves: { perCve: 25 } },
  thresholds: { criticalCveCap: 2 },
  bands: [10, 30, 50, 70],
};

let sim: DefenderSimulator;
let h: AppHarness;
let dir: string;
let base: Record<string, unknown>;

beforeAll(async () => {
  sim = await startDefenderSimulator({ tenants: [tenant] });
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-edr-risk-'));
  writeFileSync(path.join(dir, 'ca.pem'), sim.certificatePem);
  base = {
    vendor: 'defender',
    tenantId: tenant.tenantId,
    clientId: tenant.clientId,
    clientSecret: tenant.clientSecret,
    apiUrl: sim.apiUrl,
    idpUrl: sim.idpUrl,
    tls: { mode: 'custom-ca', caName: 'ca.pem', caPem: sim.certificatePem },
    pollIntervalMinutes: 60,
  };
});
afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});

// Each test has an app of its own (no connector yet) and saves what it needs: any test runs alone.
beforeEach(async () => {
  h = await startAppHarness({ app: { edr: { publishDelayMs: 50, firstPullDelayMs: 3_600_000 } } });
});
afterEach(async () => {
  await h?.close();
});

async function pollAndWait(connectorId: string): Promise<number> {
  const { cycleId } = await h.call<{ cycleId: number }>('connectors.pollNow', { connectorId });
  const status = await until(
    `cycle ${cycleId} finished`,
    async () => {
      const c = (await h.call<ConnectorStatus[]>('connectors.list')).find((x) => x.id === connectorId);
      return c?.lastCycle?.id === cycleId && c.lastCycle.status !== 'running' && c;
    },
    30_000,
  );
  expect(status.lastCycle).toMatchObject({ status: 'completed', hosts: tenant.hosts });
  return cycleId;
}

/** Stored score, the score under the overrides and under the defaults, per host of the latest cycle. */
function storedVersusExpected(connectorId: string, overrides: unknown) {
  const config = tenantRiskConfigOrThrow(overrides);
  return edrDb(h.app.edr.store).latestScores({ connectorId, limit: 1000 }).map((row) => {
    const detail = edrDb(h.app.edr.store).hostDetail(connectorId, row.hostId)!;
    const at = new Date(row.scoredAt);
    const custom = scoreHost(detail.host, config, at);
    return { stored: row.score, band: row.band, custom: custom.score, customBand: custom.band, defaults: scoreHost(detail.host, defaultRiskConfig, at).score };
  });
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/** Saves the connector with the custom risk and polls it once: its hosts scored with the overrides. */
async function savedWithRiskAndScored(): Promise<string> {
  const saved = await h.call<{ id: string; risk?: unknown }>('connectors.save', { ...base, risk });
  expect(saved.risk).toEqual(risk);
  const id = saved.id;
  expect((await h.call<ConnectorStatus[]>('connectors.list')).find((c) => c.id === id)?.risk).toEqual(risk);

  await pollAndWait(id);
  const rows = storedVersusExpected(id, risk);
  expect(rows).toHaveLength(tenant.hosts);
  for (const r of rows) {
    expect(r.stored).toBeCloseTo(r.custom, 2);
    expect(r.band).toBe(r.customBand);
  }
  // The overrides matter for this fleet: many hosts score differently, and the mean moves.
  expect(rows.filter((r) => Math.abs(r.custom - r.defaults) > 0.5).length).toBeGreaterThan(tenant.hosts / 4);
  expect(Math.abs(mean(rows.map((r) => r.stored)) - mean(rows.map((r) => r.defaults)))).toBeGreaterThan(1);
  return id;
}

describe('per-tenant risk scoring configuration', () => {

  it('refuses an invalid risk with the path of the field, before anything is stored', async () => {
    const bad = await h.callRaw('connectors.save', { ...base, risk: { weights: { critical: 70, operational: 40 } } });
    expect(bad.ok).toBe(false);
    expect(bad.error?.code).toBe('request.invalid');
    expect(bad.error?.details?.issues).toEqual([{ path: 'risk.weights', message: expect.stringContaining('must total 100') }]);
    const unknown = await h.callRaw('connectors.save', { ...base, risk: { points: { riskScore: { Critical: 99 } } } });
    expect(unknown.error?.details?.issues).toEqual([{ path: 'risk.points.riskScore', message: expect.stringContaining('Unknown setting') }]);
    expect(await h.call<ConnectorStatus[]>('connectors.list')).toEqual([]);
  });

  it('a connector saved with custom weights and points scores its hosts with them, not with the defaults', async () => {
    await savedWithRiskAndScored();
  });

  it('saving the connector again without risk goes back to the defaults for the next cycle', async () => {
    const id = await savedWithRiskAndScored();
    const saved = await h.call<{ id: string; risk?: unknown }>('connectors.save', { ...base, id, clientSecret: undefined });
    expect(saved.risk).toBeUndefined();
    await pollAndWait(id);
    for (const r of storedVersusExpected(id, undefined)) expect(r.stored).toBeCloseTo(r.defaults, 2);
  });

  it('a bulk document entry carries risk: stored with the connector; a bad one is reported with its path', async () => {
    const doc = {
      version: 1,
      connectors: [
        { vendor: 'falcon', tenantId: '4fd94508190a1c4c53605dc21a1f07bf', clientId: 'e020ea474eadb81232f488287ff3257a', clientSecret: 'Bulk-Falcon-Secret-1', risk: { falcon: { postureMinOverall: 85, noAssessmentScore: 90 }, bands: [15, 35, 55, 75] } },
        { vendor: 'defender', tenantId: 'contoso.onmicrosoft.com', clientId: 'd5f15945-bf56-4b68-87ef-3d591339aefa', clientSecret: 'Bulk-Defender-Secret-2', pollIntervalMinutes: 60, risk: { weights: { critical: 50, operational: 50 } } },
        { vendor: 'falcon', tenantId: '6ac89c173b30926693e42ee52a11e485', clientId: 'd13b4c1d38ec1159041850ec156921d2', clientSecret: 'Bulk-Falcon-Secret-3', risk: { bands: [15, 35, 55, 100] } },
      ],
    };
    const results = await h.call<Array<{ index: number; ok: boolean; error?: { issues: Array<{ path: string }> } }>>('connectors.importBulk', { source: 'document', name: 'connectors.json', text: JSON.stringify(doc) });
    expect(results.map((r) => r.ok)).toEqual([true, true, false]);
    expect(results[2]?.error?.issues.map((i) => i.path)).toEqual(['risk.bands']);
    const list = await h.call<ConnectorStatus[]>('connectors.list');
    expect(list.find((c) => c.tenantId === '4fd94508190a1c4c53605dc21a1f07bf')).toMatchObject({ source: 'bulk', risk: doc.connectors[0]!.risk });
    expect(list.find((c) => c.tenantId === 'contoso.onmicrosoft.com')).toMatchObject({ source: 'bulk', risk: { weights: { critical: 50, operational: 50 } } });
    expect(list.some((c) => c.tenantId === '6ac89c173b30926693e42ee52a11e485')).toBe(false);
  });
});
