/**
 * The ZTA dashboard's channels through the contract (issue 11), against the Defender simulator and
 * the demo management node: the snapshot after a poll, a host's details and history, the what-if's
 * Save (a rescored cycle, published), exports of the filtered view, and offline review (the vendor
 * gone, then the app restarted on the same data folder).
 */
import { readFile, rm, stat } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExportJob, ZtaCounts, ZtaFacets, ZtaWindow } from '../../../shared/contract-zta';
import { makeRowFilter, rowsInOrder, snapshotRow, type ZtaHostDetail, type ZtaOverview, type ZtaSnapshot } from '../../../shared/model/zta';
import { defenderTenant, startDefenderSimulator, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { defenderConnectorSave, edrDb } from '../../support/edr-fixtures';
import { until } from '../../support/until';

const tenant = defenderTenant({ hosts: 200, seed: 11 });

const completed = (app: AppHarness, cycleId: number) =>
  until(`cycle ${cycleId} completed`, () => app.pushed.some((p) => p.includes('"edr.progress"') && p.includes(`"cycleId":${cycleId}`) && p.includes('"phase":"completed"')), 30_000);

interface World {
  sim: DefenderSimulator;
  h: AppHarness;
  dataDir: string;
  connectorId: string;
  firstCycle: number;
}

/** A Defender simulator and the app on a data folder of its own, with one connector polled once. */
async function startWorld(): Promise<World> {
  const sim = await startDefenderSimulator({ tenants: [tenant] });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'nb-zta-'));
  const h = await startAppHarness({ dataDir, openDemo: true, app: { demoEdr: false, edr: { publishDelayMs: 20, firstPullDelayMs: 600_000 } } });
  const saved = await h.call<{ id: string }>('connectors.save', defenderConnectorSave(sim, tenant, { name: 'Contoso Defender' }));
  const firstCycle = (await h.call<{ cycleId: number }>('connectors.pollNow', { connectorId: saved.id })).cycleId;
  await completed(h, firstCycle);
  return { sim, h, dataDir, connectorId: saved.id, firstCycle };
}

async function closeWorld(w: World | undefined) {
  await w?.h.close();
  await w?.sim.close();
  if (w) await rm(w.dataDir, { recursive: true, force: true });
}

// The shared world holds one poll and is only read; the tests that rescore or take the vendor away start their own.
let world: World;
let h: AppHarness;
let dataDir: string;
let connectorId = '';
let firstCycle = 0;

beforeAll(async () => {
  world = await startWorld();
  ({ h, dataDir, connectorId, firstCycle } = world);
});
afterAll(async () => closeWorld(world));

describe('ZTA dashboard channels', () => {
  it('the snapshot holds every host of the newest cycle with its attributes, as of that cycle', async () => {
    const s = await h.call<ZtaSnapshot>('zta.snapshot');
    expect(s.connectors).toEqual([expect.objectContaining({ connectorId, name: 'Contoso Defender', vendor: 'defender', cycleId: firstCycle, kind: 'poll', hosts: 200, health: 'online' })]);
    expect(s.asOf).toBe(s.connectors[0]!.asOf);
    expect(s.rows.hostId).toHaveLength(200);
    const stored = edrDb(h.app.edr.store).latestScores({ limit: 1000 });
    const byId = new Map(stored.map((r) => [r.hostId, r]));
    for (let i = 0; i < 200; i++) {
      const row = snapshotRow(s, i);
      expect(byId.get(row.hostId)).toMatchObject({ score: row.score, band: row.band, hostname: row.hostname, platform: row.platform, customerId: row.customerId });
      // Defender's own assessments stand in the three columns (EDR-Z1).
      expect([row.osAssessment, row.sensorAssessment, row.overallAssessment]).toEqual([row.exposure, row.health, row.riskLevel]);
    }
    // The filter both the window and the export use.
    const windows = makeRowFilter(s, { platform: 'Windows' });
    const n = s.rows.hostId.filter((_, i) => windows(i)).length;
    expect(n).toBe(stored.filter((r) => r.platform === 'Windows').length);
    expect(n).toBeGreaterThan(0);
  });

  it('the windows (issue 25.3): facets from the band counts, rows sorted and searched in the store, counts, one connector’s snapshot; bad requests refused in words', async () => {
    const s = await h.call<ZtaSnapshot>('zta.snapshot');
    const f = await h.call<ZtaFacets>('zta.facets');
    expect(f.connectors).toEqual(s.connectors);
    expect(f.asOf).toBe(s.asOf);
    // Hosts by customer and platform, as the rows count them.
    const fromRows = new Map<string, number>();
    for (let i = 0; i < s.rows.hostId.length; i++) {
      const key = `${s.customers[s.rows.customer[i]!]}|${snapshotRow(s, i).platform}`;
      fromRows.set(key, (fromRows.get(key) ?? 0) + 1);
    }
    expect(new Map(f.groups.map((g) => [`${g.customerId}|${g.platform}`, g.hosts]))).toEqual(fromRows);
    expect(f.groups.every((g) => g.connector === 0)).toBe(true);

    // The first window in the default order of the table (score, riskiest first), a page at a time, and its total.
    const order = rowsInOrder(s, {}).map((i) => s.rows.hostId[i]!);
    const first = await h.call<ZtaWindow>('zta.window', { filter: {}, sort: { key: 'score', desc: true }, offset: 0, limit: 50 });
    expect(first.total).toBe(200);
    expect(first.exact).toBe(true);
    const scores = first.rows.map((r) => r.score ?? -1);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    const second = await h.call<ZtaWindow>('zta.window', { filter: {}, sort: { key: 'score', desc: true }, offset: 50, limit: 50 });
    expect(new Set([...first.rows, ...second.rows].map((r) => r.hostId)).size).toBe(100);
    const byDefault = await h.call<ZtaWindow>('zta.window', { filter: {}, offset: 0, limit: 200 });
    expect(byDefault.rows.map((r) => r.hostId)).toEqual(order);
    // A search and a band, in the store: the rows the snapshot's filter passes, and the counts agree.
    const q = s.rows.hostname[0]!.slice(0, 4);
    const pass = makeRowFilter(s, { q, band: s.rows.band[0] === undefined ? undefined : snapshotRow(s, 0).band });
    const matching = s.rows.hostId.filter((_, i) => pass(i));
    const searched = await h.call<ZtaWindow>('zta.window', { filter: { q, band: snapshotRow(s, 0).band }, offset: 0, limit: 1000 });
    expect(searched.rows.map((r) => r.hostId).sort()).toEqual([...matching].sort());
    const counts = await h.call<ZtaCounts>('zta.counts', { filter: { q } });
    expect(counts.total).toBe(s.rows.hostId.filter((_, i) => makeRowFilter(s, { q })(i)).length);
    expect(counts.bands[snapshotRow(s, 0).band]).toBe(searched.total);
    // One connector's snapshot (the what-if's), and one not known.
    const one = await h.call<ZtaSnapshot>('zta.snapshot', { connectorId });
    expect(one.rows.hostId).toEqual(s.rows.hostId);
    const gone = await h.callRaw('zta.snapshot', { connectorId: 'no-such-connector' });
    expect(gone.error?.code).toBe('not_found');
    // A window of more than 1,000 rows, a sort key the table does not have, a negative offset: refused, saying what to fix.
    for (const bad of [
      { filter: {}, offset: 0, limit: 1001 },
      { filter: {}, sort: { key: 'password', desc: false }, offset: 0, limit: 10 },
      { filter: {}, offset: -1, limit: 10 },
    ]) {
      const r = await h.callRaw('zta.window', bad);
      expect(r.ok).toBe(false);
      expect(r.error?.code).toBe('request.invalid');
      expect(r.error?.message).toMatch(/^The request is not valid: ./);
    }
  });

  it('a host’s details: the record with its CVEs, why it has its band, its history', async () => {
    const s = await h.call<ZtaSnapshot>('zta.snapshot');
    const i = s.rows.cveCount.findIndex((n) => (n ?? 0) > 0);
    const hostId = s.rows.hostId[i]!;
    const d = await h.call<ZtaHostDetail>('zta.host', { connectorId, hostId });
    expect(d.host.defender?.vulnerabilities?.length).toBe(s.rows.cveCount[i]);
    expect(d.host.defender?.vulnerabilities?.[0]).toEqual({ cveId: expect.stringMatching(/^CVE-/), cvss: expect.any(Number), severity: expect.stringMatching(/Critical|High|Medium|Low/) });
    expect(d.contributions.reduce((a, c) => a + c.scoreShare, 0)).toBeCloseTo(d.score!, 1);
    expect(d.history).toEqual([{ cycleId: firstCycle, at: s.asOf, score: d.score, band: d.band, kind: 'poll' }]);
    expect(d.bandEdges).toEqual([20, 40, 60, 80]);
    const missing = await h.callRaw('zta.host', { connectorId, hostId: 'no-such-host' });
    expect(missing.error?.message).toBe('No stored score for host no-such-host.');
  });

  it('the what-if’s Save stores the weights and rescores the stored hosts as a cycle of its own, published like a poll', async () => {
    // A world of its own: the rescore makes a newer cycle and history points the other tests do not expect.
    const w = await startWorld();
    const { h, connectorId, firstCycle } = w;
    try {
      const refused = await h.callRaw('zta.applyRisk', { connectorId, risk: { weights: { critical: 70, operational: 40 } } });
      expect(refused.ok).toBe(false);
      expect(refused.error?.message).toContain('Weights must total 100 %');

      const before = await h.call<ZtaSnapshot>('zta.snapshot');
      const { cycleId } = await h.call<{ cycleId: number }>('zta.applyRisk', { connectorId, risk: { weights: { critical: 100, operational: 0 } } });
      await completed(h, cycleId);
      const after = await h.call<ZtaSnapshot>('zta.snapshot');
      expect(after.connectors[0]).toMatchObject({ cycleId, kind: 'rescore', hosts: 200 });
      // The facts did not change, the scores did: a host with operational points only now scores lower.
      expect(after.rows.score).not.toEqual(before.rows.score);
      expect(h.app.edr.registry.get(connectorId).risk).toEqual({ weights: { critical: 100, operational: 0 } });
      const demo = h.app.demo.simulator!;
      await until('the rescored cycle published', () => demo.receivedScores.some((r) => r.message.cycleId === cycleId), 10_000);
      // Hosts whose score moved have a second history point.
      const moved = after.rows.hostId.findIndex((id, i) => before.rows.score[before.rows.hostId.indexOf(id)] !== after.rows.score[i]);
      const d = await h.call<ZtaHostDetail>('zta.host', { connectorId, hostId: after.rows.hostId[moved]! });
      expect(d.history.map((p) => [p.cycleId, p.kind])).toEqual([
        [firstCycle, 'poll'],
        [cycleId, 'rescore'],
      ]);
      const overview = await h.call<ZtaOverview>('zta.overview', {});
      expect(overview.trend).toHaveLength(2);
      expect(overview.changes.moved).toBeGreaterThan(0);
    } finally {
      await closeWorld(w);
    }
  });

  it('exports the filtered view to CSV and JSON with the table’s rows, offered once for download', async () => {
    const s = await h.call<ZtaSnapshot>('zta.snapshot');
    const filter = { platform: 'Windows' as const };
    const keep = makeRowFilter(s, filter);
    const expected = s.rows.hostId.filter((_, i) => keep(i));
    for (const format of ['csv', 'json'] as const) {
      const job = await h.call<ExportJob>('zta.export.start', { format, filter });
      expect(job).toMatchObject({ state: 'running', total: expected.length, name: expect.stringMatching(new RegExp(`\\.${format}$`)) });
      const done = await h.app.ztaExports.finished(job.jobId);
      expect(done).toMatchObject({ state: 'done', done: expected.length, downloadUrl: expect.stringMatching(/^\/api\/download\//) });
      const offer = h.app.downloads.take(done.downloadUrl!.split('/').pop()!)!;
      // The data folder's exports/ is owner-only like every folder of it (0700), the file 0600.
      expect(path.dirname(offer.file)).toBe(path.join(dataDir, 'exports'));
      expect((await stat(path.dirname(offer.file))).mode & 0o777).toBe(0o700);
      expect((await stat(offer.file)).mode & 0o777).toBe(0o600);
      const text = await readFile(offer.file, 'utf8');
      const ids = format === 'csv' ? Papa.parse<Record<string, string>>(text.trim(), { header: true }).data.map((r) => r.host_id) : (JSON.parse(text) as { rows: Array<{ host_id: string }> }).rows.map((r) => r.host_id);
      expect(new Set(ids)).toEqual(new Set(expected));
      expect(ids).toHaveLength(expected.length);
      await offer.discard();
      expect(h.app.downloads.take(done.downloadUrl!.split('/').pop()!)).toBeUndefined();
    }
    const progress = h.pushed.filter((p) => p.includes('"zta.export.progress"'));
    expect(progress.some((p) => p.includes('"state":"done"'))).toBe(true);
  });

  it('with the vendor gone the connector is offline and the last good data stands; a restart reviews it offline', async () => {
    // A world of its own: it closes the vendor and restarts the app.
    const w = await startWorld();
    const { sim, dataDir, connectorId } = w;
    try {
      const before = await w.h.call<ZtaSnapshot>('zta.snapshot');
      await sim.close();
      const { cycleId } = await w.h.call<{ cycleId: number }>('connectors.pollNow', { connectorId });
      await until('the poll failed', () => w.h.pushed.some((p) => p.includes(`"cycleId":${cycleId}`) && p.includes('"phase":"failed"')), 60_000);
      const s = await w.h.call<ZtaSnapshot>('zta.snapshot');
      expect(s.connectors[0]).toMatchObject({ health: 'offline', cycleId: before.connectors[0]!.cycleId, asOf: before.asOf, lastError: expect.any(String) });
      expect(s.rows.score).toEqual(before.rows.score);

      await w.h.close();
      w.h = await startAppHarness({ dataDir, app: { demoEdr: false, edr: { firstPullDelayMs: 600_000 } } });
      const again = await w.h.call<ZtaSnapshot>('zta.snapshot');
      expect(again.asOf).toBe(before.asOf);
      expect(again.rows.hostId).toEqual(before.rows.hostId);
      expect(again.connectors[0]).toMatchObject({ health: 'offline' });
    } finally {
      await closeWorld(w);
    }
  });
});
