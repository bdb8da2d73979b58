/**
 * Per-tenant risk scoring (spec 2.3, EDR-S8): the `risk` overrides of a connector input are
 * validated by merging them onto the defaults, stored with the connector (settings, not the
 * vault), and used by the app's scorer, which recompiles when they change and falls back to the
 * defaults (with a warning) when a stored one does not validate.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EdrService } from '../../../electron/app/edr-service';
import { createEventHub } from '../../../electron/app/events';
import type { SessionManager } from '../../../electron/app/sessions';
import { ConnectorRegistry } from '../../../electron/edr/registry';
import { createLogger } from '../../../electron/log';
import { ConnectorInput, ConnectorView, compactRiskOverrides } from '../../../shared/model/connector';
import type { HostRecord } from '../../../shared/model/edr';
import { defaultRiskConfig, scoreHost, tenantRiskConfigOrThrow } from '../../../shared/risk';
import { memorySettings, memoryVault } from '../../support/memory-ports';
import { edrDb } from '../../support/edr-fixtures';

const TENANT = '0f9c2b6e-1d3a-4c5b-9e8f-7a6b5c4d3e2f';
const defender = { vendor: 'defender', tenantId: TENANT, clientId: 'fe9643fa-ccd2-4235-881c-49a705ef7e01', clientSecret: 'Def-Secret-Value-1', pollIntervalMinutes: 30 } as const;
const falcon = { vendor: 'falcon', tenantId: '6606d5918768259d6ad47e9100b32f51', clientId: '0fc04dde95f3fa7727a4fb1b6076f5ac', clientSecret: 'Falcon-Secret-Value-2' } as const;

const issuesOf = (input: unknown) => {
  const r = ConnectorInput.safeParse(input);
  return r.success ? [] : r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};

describe('connector input: risk overrides', () => {
  it('refuses weights that do not total 100 with a risk.weights issue', () => {
    const issues = issuesOf({ ...defender, risk: { weights: { critical: 70, operational: 40 } } });
    expect(issues).toEqual([{ path: 'risk.weights', message: expect.stringContaining('= 110') }]);
    // One weight alone is merged onto the other default: 70 + 40 again.
    expect(issuesOf({ ...defender, risk: { weights: { critical: 70 } } })).toEqual([{ path: 'risk.weights', message: expect.stringContaining('must total 100') }]);
    expect(issuesOf({ ...defender, risk: { weights: { critical: 70, operational: 30 } } })).toEqual([]);
  });

  it('refuses unknown settings, at the level where they appear', () => {
    expect(issuesOf({ ...defender, risk: { weight: { critical: 70 } } })).toEqual([{ path: 'risk', message: 'Unknown setting "weight".' }]);
    expect(issuesOf({ ...falcon, risk: { points: { riskScore: { Extreme: 50 } } } })).toEqual([{ path: 'risk.points.riskScore', message: 'Unknown setting "points.riskScore.Extreme".' }]);
    expect(issuesOf({ ...falcon, risk: 'strict' })).toEqual([{ path: 'risk', message: 'Risk scoring settings must be an object.' }]);
  });

  it('reports each field by its path: points, tuple elements, whole tuples, Falcon thresholds', () => {
    expect(issuesOf({ ...defender, risk: { points: { riskScore: { High: 5 } } } })).toEqual([{ path: 'risk.points.riskScore.High', message: expect.stringContaining('worse value cannot earn fewer points') }]);
    expect(issuesOf({ ...defender, risk: { thresholds: { inactivityDayEdges: [1, 4, 4, 15] } } })).toEqual([{ path: 'risk.thresholds.inactivityDayEdges.2', message: expect.stringContaining('must increase') }]);
    expect(issuesOf({ ...defender, risk: { bands: [50, 40, 60, 80] } })).toEqual([{ path: 'risk.bands', message: expect.stringContaining('increase strictly') }]);
    expect(issuesOf({ ...falcon, risk: { falcon: { postureMinOverall: 101 } } })).toEqual([{ path: 'risk.falcon.postureMinOverall', message: expect.stringContaining('0 to 100') }]);
    expect(issuesOf({ ...defender, risk: { weights: { critical: '70', operational: 30 } } })[0]?.path).toBe('risk.weights.critical');
  });

  it('keeps the overrides as given (deep-partial); merged onto the defaults they give the tenant configuration', () => {
    const risk = { weights: { critical: 80, operational: 20 }, points: { riskScore: { High: 60 } }, bands: [10, 30, 50, 70] };
    const parsed = ConnectorInput.parse({ ...defender, risk });
    expect(parsed.risk).toEqual(risk);
    const config = tenantRiskConfigOrThrow(parsed.risk);
    expect(config.weights).toEqual({ critical: 80, operational: 20 });
    expect(config.points.riskScore).toEqual({ Low: 10, Medium: 25, High: 60 });
    expect(config.points.exposureLevel).toEqual(defaultRiskConfig.points.exposureLevel);
    expect(config.bands).toEqual([10, 30, 50, 70]);
    expect(config.falcon).toEqual(defaultRiskConfig.falcon);
    expect(ConnectorInput.parse(defender).risk).toBeUndefined();
  });

  it('the view carries stored overrides without validating them (a bad stored one still lists)', () => {
    const view = { id: 'c1', vendor: 'defender', name: 'x', enabled: true, tenantId: TENANT, clientId: 'a', pollIntervalMinutes: 30, hasClientSecret: true, source: 'ui', createdAt: 'a', updatedAt: 'b' };
    expect(ConnectorView.parse({ ...view, risk: { weights: { critical: 99, operational: 99 } } }).risk).toEqual({ weights: { critical: 99, operational: 99 } });
    expect(ConnectorView.safeParse({ ...view, risk: [1] }).success).toBe(false);
  });

  it('compacts empty groups away', () => {
    expect(compactRiskOverrides({ weights: {}, points: { riskScore: {} } })).toBeUndefined();
    expect(compactRiskOverrides({ weights: {}, bands: [10, 30, 50, 70] })).toEqual({ bands: [10, 30, 50, 70] });
  });
});

describe('registry: risk stored with the connector', () => {
  it('stores the overrides in settings, shows them in the view, and a registration without risk keeps none', async () => {
    const settings = memorySettings();
    const reg = new ConnectorRegistry(settings, memoryVault());
    const risk = { weights: { critical: 70, operational: 30 } };
    const { connector } = await reg.register({ ...defender, risk });
    expect(connector.risk).toEqual(risk);
    expect((await reg.view(connector)).risk).toEqual(risk);
    expect(JSON.stringify(settings.data.get('edrConnectors'))).toContain('"critical":70');
    expect((await reg.setEnabled(connector.id, false)).risk).toEqual(risk);

    const again = await reg.register({ ...defender, clientSecret: undefined });
    expect(again.action).toBe('updated');
    expect(again.connector.risk).toBeUndefined();
    expect(reg.get(connector.id).risk).toBeUndefined();
    // Empty groups are no override at all.
    expect((await reg.register({ ...defender, risk: { weights: {} } })).connector.risk).toBeUndefined();
  });

  it('refuses invalid overrides with the field path and keeps what was stored', async () => {
    const reg = new ConnectorRegistry(memorySettings(), memoryVault());
    const { connector } = await reg.register({ ...defender, risk: { bands: [10, 30, 50, 70] } });
    await expect(reg.register({ ...defender, risk: { weights: { critical: 70, operational: 40 } } })).rejects.toMatchObject({
      code: 'request.invalid',
      details: { issues: [{ path: 'risk.weights' }] },
    });
    expect(reg.get(connector.id).risk).toEqual({ bands: [10, 30, 50, 70] });
  });

  it('bulk entries may carry risk: stored per entry, a bad one reported by index with its path', async () => {
    const reg = new ConnectorRegistry(memorySettings(), memoryVault());
    const results = await reg.registerBulk({
      version: 1,
      connectors: [
        { ...defender, risk: { weights: { critical: 50, operational: 50 }, points: { criticalCves: { perCve: 20 } } } },
        { ...falcon, risk: { falcon: { postureMinOverall: 80 } } },
        { ...falcon, tenantId: 'd0a63cc6b963929985da3a1b3ce71e77', risk: { falcon: { noAssessmentScore: 'high' } } },
      ],
    });
    expect(results.map((r) => r.ok)).toEqual([true, true, false]);
    expect(results[2]).toMatchObject({ index: 2, error: { issues: [{ path: 'risk.falcon.noAssessmentScore' }] } });
    const byTenant = new Map(reg.list().map((c) => [c.tenantId, c]));
    expect(byTenant.get(TENANT)).toMatchObject({ source: 'bulk', risk: { weights: { critical: 50, operational: 50 }, points: { criticalCves: { perCve: 20 } } } });
    expect(byTenant.get('6606d5918768259d6ad47e9100b32f51')?.risk).toEqual({ falcon: { postureMinOverall: 80 } });
  });
});

describe('the app scores with the connector’s overrides', () => {
  let dir = '';
  let svc: EdrService | undefined;
  afterEach(async () => {
    await svc?.stop();
    svc = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  const host: HostRecord = {
    vendor: 'defender',
    tenantId: TENANT,
    hostId: 'm1',
    hostname: 'pc-1.corp.example',
    customerId: TENANT,
    platform: 'Windows',
    osVersion: '10.0',
    lastSeen: '2026-01-09T00:00:00.000Z',
    defender: { riskScore: 'High', exposureLevel: 'Medium', healthStatus: 'Active', avStatus: 'Updated', onboardingStatus: 'Onboarded', lastSeen: '2026-01-09T00:00:00.000Z', criticalCveCount: 2, cveCount: 7, maxCvss: 9.8 },
  };
  const now = new Date('2026-01-10T00:00:00.000Z');

  function start() {
    dir = mkdtempSync(path.join(os.tmpdir(), 'nb-risk-'));
    const logs: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = [];
    const logger = createLogger((line) => logs.push(line as never), { level: 'debug' });
    const settings = memorySettings();
    svc = new EdrService({
      adapters: { mode: 'browser', dataDir: dir, vault: memoryVault(), settings, logger, version: 'test' },
      events: createEventHub(logger),
      sessions: { list: () => [] } as unknown as SessionManager,
      logger,
      runtimeFor: () => ({ poll: async () => [host] }),
    });
    return { svc, settings, logs };
  }

  it('uses the stored overrides, recompiles when they change, and falls back to the defaults (logged once) when they are invalid', async () => {
    const { svc, settings, logs } = start();
    const risk = { weights: { critical: 90, operational: 10 }, points: { riskScore: { High: 80 } } };
    const { connector } = await svc.registry.register({ ...defender, risk });
    const custom = svc.score(host, connector, now);
    const expected = scoreHost(host, tenantRiskConfigOrThrow(risk), now);
    const defaults = scoreHost(host, defaultRiskConfig, now);
    expect(custom.score).toBe(expected.score);
    expect(custom.score).not.toBe(defaults.score);

    // Saved again without overrides: the defaults, at once (no stale cache).
    const plain = (await svc.registry.register({ ...defender, clientSecret: undefined })).connector;
    expect(svc.score(host, plain, now).score).toBe(defaults.score);

    // A stored configuration that does not validate (written around the save path).
    const stored = settings.get<Array<Record<string, unknown>>>('edrConnectors')!;
    settings.set('edrConnectors', [{ ...stored[0], risk: { weights: { critical: 99, operational: 99 } } }]);
    const broken = svc.registry.get(connector.id);
    expect(broken.risk).toEqual({ weights: { critical: 99, operational: 99 } });
    expect(svc.score(host, broken, now).score).toBe(defaults.score);
    expect(svc.score(host, svc.registry.get(connector.id), now).score).toBe(defaults.score);
    const warnings = logs.filter((l) => l.level === 'warn' && l.msg.includes('risk scoring settings are not valid'));
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings[0])).toContain('risk.weights');

    // A whole cycle with the broken configuration completes and stores the default scores.
    const cycleId = await svc.scheduler.runNow(connector.id);
    expect(await svc.store.lastCycle(connector.id)).toMatchObject({ id: cycleId, status: 'completed', hosts: 1 });
    const [row] = edrDb(svc.store).latestScores({ connectorId: connector.id });
    expect(row?.score).toBe(scoreHost(host, defaultRiskConfig, new Date(row!.scoredAt)).score);
  });
});
