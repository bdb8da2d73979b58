/**
 * EDR through the contract, as the Connectors page drives it: register a Defender connector,
 * poll now, watch progress events, read the stored cycle, see the scores published once to the
 * management node of the demo workspace; the client secret never leaves main.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectorStatus } from '../../../shared/contract';
import { defenderTenant, startDefenderSimulator, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { edrDb } from '../../support/edr-fixtures';
import { until } from '../../support/until';

const tenant = defenderTenant({ hosts: 120, seed: 5 });
let sim: DefenderSimulator;
let h: AppHarness;
let dir: string;

beforeAll(async () => {
  sim = await startDefenderSimulator({ tenants: [tenant] });
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-edr-app-'));
  writeFileSync(path.join(dir, 'ca.pem'), sim.certificatePem);
});
afterAll(async () => {
  await sim?.close();
  rmSync(dir, { recursive: true, force: true });
});
// Each test has an app of its own (demo open) and registers what it needs: any test runs alone.
beforeEach(async () => {
  h = await startAppHarness({ openDemo: true, app: { edr: { publishDelayMs: 50, firstPullDelayMs: 60_000 } } });
});
afterEach(async () => {
  await h?.close();
});

/** Registers the Defender connector (a missing poll interval refused first); returns its id. */
async function register(): Promise<string> {
  const base = { vendor: 'defender', tenantId: tenant.tenantId, clientId: tenant.clientId, clientSecret: tenant.clientSecret, apiUrl: sim.apiUrl, idpUrl: sim.idpUrl, tls: { mode: 'custom-ca', caName: 'ca.pem', caPem: sim.certificatePem } };
  const bad = await h.callRaw('connectors.save', base);
  expect(bad.error?.code).toBe('request.invalid');
  // The field in words (C-23), and its key for the form.
  expect(bad.error?.message).toContain('Enter the poll interval in minutes');
  expect(bad.error?.details?.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'pollIntervalMinutes' })]));
  const saved = await h.call<{ id: string; hasClientSecret: boolean }>('connectors.save', { ...base, pollIntervalMinutes: 30 });
  expect(saved.hasClientSecret).toBe(true);
  const test = await h.call<{ ok: boolean; checks: Array<{ name: string; ok: boolean }> }>('connectors.test', { connectorId: saved.id });
  expect(test.ok).toBe(true);
  expect(test.checks.filter((c) => c.name.includes('.Read.All')).every((c) => c.ok)).toBe(true);
  return saved.id;
}

async function pollAndPublish(id: string): Promise<void> {
  const { cycleId } = await h.call<{ cycleId: number }>('connectors.pollNow', { connectorId: id });
  const status = await until(
    `cycle ${cycleId} published`,
    async () => {
      const c = (await h.call<ConnectorStatus[]>('connectors.list')).find((x) => x.id === id);
      return c?.lastCycle?.publishedAt ? c : undefined;
    },
    30_000,
  );
  expect(status.lastCycle).toMatchObject({ id: cycleId, status: 'completed', hosts: 120 });
  expect(status.lastCycle?.publishedAt).toBeTruthy();
  const phases = h.pushed.filter((p) => p.includes('"edr.progress"')).map((p) => (JSON.parse(p) as { payload: { phase: string } }).payload.phase);
  expect(phases).toEqual(expect.arrayContaining(['devices', 'vulnerabilities', 'scoring', 'storing', 'completed']));
  expect(edrDb(h.app.edr.store).latestScores({ connectorId: id, limit: 500 })).toHaveLength(120);
  const demo = h.app.demo.simulator!;
  const received = demo.receivedScores.filter((r) => r.message.cycleId === cycleId);
  expect(received).toHaveLength(1);
  expect(received[0]!.message).toMatchObject({ vendor: 'defender', tenantId: tenant.tenantId, summary: { hosts: 120 } });
}

describe('EDR connectors through the contract', () => {
  it('registers a Defender connector with a clear error for a missing poll interval', async () => {
    await register();
  });

  it('polls now: progress events, every host scored and stored, published once to the management node', async () => {
    await pollAndPublish(await register());
  });

  it('keeps the client secret out of answers, events, logs and files', async () => {
    await pollAndPublish(await register());
    const files = await h.files();
    for (const text of [...h.answers, ...h.pushed, ...h.logs, ...files.map((f) => f.text)]) expect(text.includes(tenant.clientSecret)).toBe(false);
  });
});
