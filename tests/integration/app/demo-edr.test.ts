import { X509Certificate } from 'node:crypto';
/**
 * The demo workspace includes EDR: a Defender and a Falcon simulator in the app and one connector
 * for each, which poll, score and store for real. Reopening the demo on the next start keeps the
 * two connectors (same ids, same tenants) with fresh secrets and the new certificates pinned.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectorStatus } from '../../../shared/contract';
import { createNodeAdapters } from '../../../electron/app/node-platform';
import { createApp, type App } from '../../../electron/app/services';
import { DEMO_DEFENDER_NAME, DEMO_FALCON_NAME } from '../../../electron/app/demo-edr';
import { createMemoryLogger } from '../../../electron/log';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { until } from '../../support/until';

let h: AppHarness;

// Each test opens the demo in an app of its own (the last one restarts it): any test runs alone.
let first: ConnectorStatus[] = [];
beforeEach(async () => {
  h = await startAppHarness({ openDemo: true, app: { edr: { firstPullDelayMs: 3_600_000, publishDelayMs: 3_600_000 } } });
  first = await h.call<ConnectorStatus[]>('connectors.list');
});
afterEach(() => h?.close());

async function waitForCycle(call: AppHarness['call'], connectorId: string, cycleId: number): Promise<ConnectorStatus> {
  return until(
    `cycle ${cycleId} of connector ${connectorId} finished`,
    async () => {
      const c = (await call<ConnectorStatus[]>('connectors.list')).find((x) => x.id === connectorId)!;
      return !c.running && c.lastCycle?.id === cycleId && c;
    },
    30_000,
  );
}

describe('demo workspace with EDR', () => {
  it('registers one Defender and one Falcon connector, enabled, with their secrets in the vault', async () => {
    expect(first.map((c) => [c.name, c.vendor, c.enabled, c.hasClientSecret]).sort()).toEqual([
      [DEMO_DEFENDER_NAME, 'defender', true, true],
      [DEMO_FALCON_NAME, 'falcon', true, true],
    ]);
    // The first pull is scheduled (5 s after registration in the app; an hour in this test).
    expect(first.every((c) => c.nextCycleAt !== undefined)).toBe(true);
  });

  it('both demo connectors pass their test and poll every simulated host', async () => {
    for (const c of first) {
      const test = await h.call<{ ok: boolean; checks: Array<{ ok: boolean; message: string }> }>('connectors.test', { connectorId: c.id });
      expect(test.ok, JSON.stringify(test.checks)).toBe(true);
      const { cycleId } = await h.call<{ cycleId: number }>('connectors.pollNow', { connectorId: c.id });
      const done = await waitForCycle(h.call, c.id, cycleId);
      expect(done.lastCycle).toMatchObject({ status: 'completed', hosts: 250, error: null });
      expect((await h.app.edr.store.cycleSummary(cycleId)).hosts).toBe(250);
    }
  });

  it('the demo management node serves the bulk document of its tenants: importing it updates the two connectors', async () => {
    const results = await h.call<Array<{ ok: boolean; action?: string; id?: string }>>('connectors.importBulk', { source: 'node', profileId: h.app.demo.status().oauthProfileId! });
    expect(results.map((r) => [r.ok, r.action])).toEqual([
      [true, 'updated'],
      [true, 'updated'],
    ]);
    expect(results.map((r) => r.id).sort()).toEqual(first.map((c) => c.id).sort());
    const list = await h.call<ConnectorStatus[]>('connectors.list');
    expect(list.map((c) => c.source)).toEqual(['bulk', 'bulk']);
  });

  it('reopens on the next start with the same two connectors, new secrets and the new certificates trusted', async () => {
    // The operator customised the Defender tenant's scoring and interval; a restart keeps both.
    const defender = first.find((c) => c.vendor === 'defender')!;
    const current = h.app.edr.registry.get(defender.id);
    await h.app.edr.registry.register({ ...current, pollIntervalMinutes: 45, risk: { weights: { critical: 70, operational: 30 } } }, 'ui');
    const simsBefore = h.app.demo.edr!.simulators;
    const pinsBefore = [simsBefore.defender!.fingerprint256, simsBefore.falcon!.fingerprint256];
    await h.app.shutdown();
    const adapters = await createNodeAdapters({ dataDir: h.dataDir, passphrase: 'test-vault-passphrase-1', logger: createMemoryLogger(), demoPorts: { basic: 0, oauth: 0 } });
    let again: App | undefined;
    try {
      again = await createApp(adapters, { edr: { firstPullDelayMs: 3_600_000, publishDelayMs: 3_600_000 } });
      const list = again.edr.registry.list();
      expect(list.map((c) => c.id).sort()).toEqual(first.map((c) => c.id).sort());
      expect(list.map((c) => c.tenantId).sort()).toEqual(first.map((c) => c.tenantId).sort());
      expect(again.edr.registry.get(defender.id)).toMatchObject({ pollIntervalMinutes: 45, risk: { weights: { critical: 70, operational: 30 } } });
      const sims = again.demo.edr!.simulators;
      // Each connector trusts its simulator's new self-signed certificate as its CA.
      const pins = list.map((c) => (c.tls.mode === 'custom-ca' && c.tls.caPem ? new X509Certificate(c.tls.caPem).fingerprint256 : undefined)).sort();
      expect(pins).toEqual([sims.defender!.fingerprint256, sims.falcon!.fingerprint256].sort());
      expect(pins).not.toEqual(pinsBefore.sort());
      // The stored secrets are the new ones: a test signs in on both simulators.
      for (const c of list) {
        const test = await again.router.invoke('connectors.test', { connectorId: c.id });
        expect(test).toMatchObject({ ok: true, value: { ok: true } });
      }
    } finally {
      await again?.shutdown();
    }
  });
});
