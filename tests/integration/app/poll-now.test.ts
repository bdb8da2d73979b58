/**
 * Poll now right after a cycle reads "completed" starts a new cycle (the CI flake of 2026-11-27):
 * the store's reader sees a cycle's commit before the scheduler hears the SQL worker's reply, and
 * until then the connector's row must not say "completed" while Poll now still joins that cycle.
 * The reply is held here after the real commit, so the window is as wide as the test needs.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ConnectorStatus } from '../../../shared/contract';
import { defenderTenant, startDefenderSimulator, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { defenderConnectorSave } from '../../support/edr-fixtures';
import { until } from '../../support/until';

const tenant = defenderTenant({ hosts: 40, seed: 5 });
let sim: DefenderSimulator;
let h: AppHarness;

beforeAll(async () => {
  sim = await startDefenderSimulator({ tenants: [tenant] });
  h = await startAppHarness({ app: { edr: { publishDelayMs: 3_600_000, firstPullDelayMs: 3_600_000 } } });
});
afterAll(async () => {
  await h?.close();
  await sim?.close();
});

it('a cycle committed but not yet answered reads running, Poll now joins it; once answered, Poll now starts the next', async () => {
  const saved = await h.call<{ id: string }>('connectors.save', defenderConnectorSave(sim, tenant));
  const store = h.app.edr.store;
  const commit = store.commitCycle.bind(store);
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let committed = false;
  store.commitCycle = async (cycleId, at) => {
    const n = await commit(cycleId, at);
    committed = true;
    await held;
    return n;
  };
  const row = async () => (await h.call<ConnectorStatus[]>('connectors.list')).find((c) => c.id === saved.id)!;

  const { cycleId } = await h.call<{ cycleId: number }>('connectors.pollNow', { connectorId: saved.id });
  await until('the cycle committed in the store', () => committed, 30_000);
  expect((await store.lastCycle(saved.id))?.status).toBe('completed');
  const during = await row();
  expect(during.running).toBe(true);
  expect(during.lastCycle).toMatchObject({ id: cycleId, status: 'running', finishedAt: null });
  expect((await h.call<{ cycleId: number }>('connectors.pollNow', { connectorId: saved.id })).cycleId).toBe(cycleId);

  store.commitCycle = commit;
  release();
  const after = await until('the scheduler heard the commit', async () => {
    const r = await row();
    return !r.running && r;
  }, 30_000);
  expect(after.lastCycle).toMatchObject({ id: cycleId, status: 'completed', hosts: tenant.hosts, finishedAt: expect.any(String) });
  const next = (await h.call<{ cycleId: number }>('connectors.pollNow', { connectorId: saved.id })).cycleId;
  expect(next).toBeGreaterThan(cycleId);
});
