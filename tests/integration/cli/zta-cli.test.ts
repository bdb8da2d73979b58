/**
 * Issue 11.7 as an operator runs it: `northbound edr poll --once … --data-dir DIR` stores its
 * cycles in DIR's edr.db as the app does (history only for changes, the app opened on DIR shows
 * them; a tenant DIR registers keeps its connector and its risk settings), and `northbound zta
 * export` writes the stored scores back, offline, with the rows and columns of the app's export.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_COLUMNS, exportRecord, snapshotRow, type ZtaFilter, type ZtaSnapshot } from '../../../shared/model/zta';
import { cliConnectorId } from '../../../electron/edr/connector-ids';
import { exportedRows } from '../../../electron/edr/zta-export';
import { defenderTenant, startDefenderSimulator, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import { EdrDb } from '../../../electron/edr/store/edr-db';
import { startAppHarness } from '../../support/app-harness';
import { defenderConnectorSave, makeScoredHosts } from '../../support/edr-fixtures';
import { until } from '../../support/until';
import { runCli } from '../../support/cli';

const tenant = defenderTenant({ hosts: 40, seed: 5 });
const registeredTenant = defenderTenant({ hosts: 30, seed: 6 });
let sim: DefenderSimulator;
let tmp: string;
let caFile: string;
/** A folder the CLI polled `tenant` into once (40 hosts), only read by the tests. */
let polled: string;

beforeAll(async () => {
  sim = await startDefenderSimulator({ tenants: [tenant, registeredTenant] });
  tmp = mkdtempSync(path.join(os.tmpdir(), 'nb-zta-cli-'));
  caFile = path.join(tmp, 'sim-ca.pem');
  writeFileSync(caFile, sim.certificatePem);
  polled = path.join(tmp, 'polled');
  const r = await poll(tenant, polled);
  if (r.code !== 0) throw new Error(`the fixture poll failed: ${r.stderr}`);
});
afterAll(async () => {
  await sim?.close();
  rmSync(tmp, { recursive: true, force: true });
});


const poll = (t: typeof tenant, dataDir: string, ...more: string[]) =>
  runCli(
    ['edr', 'poll', '--once', '--vendor', 'defender', '--tenant-id', t.tenantId, '--client-id', t.clientId, '--client-secret-env', 'NB_TEST_SECRET', '--poll-interval', '30', '--api-url', sim.apiUrl, '--idp-url', sim.idpUrl, '--ca-file', caFile, '--data-dir', dataDir, ...more],
    { NB_TEST_SECRET: t.clientSecret },
  );

/** What the database holds for a cycle: its row, and how many hosts got a history row in it. */
function stored(dataDir: string, cycleId: number) {
  const db = new Database(path.join(dataDir, 'edr.db'), { readonly: true });
  try {
    const cycle = db.prepare('SELECT connector_id AS connectorId, status, kind, hosts FROM cycles WHERE id = ?').get(cycleId) as { connectorId: string; status: string; kind: string; hosts: number };
    const changes = db.prepare('SELECT COUNT(*) FROM score_changes WHERE cycle_id = ?').pluck().get(cycleId) as number;
    return { ...cycle, changes };
  } finally {
    db.close();
  }
}

/** The app's snapshot of a folder (the app opened on it, no polling). */
async function appSnapshot(dataDir: string): Promise<ZtaSnapshot> {
  const h = await startAppHarness({ dataDir, app: { demoEdr: false, edr: { firstPullDelayMs: 600_000 } } });
  try {
    return await h.call<ZtaSnapshot>('zta.snapshot');
  } finally {
    await h.close();
  }
}

/** The rows the app's export writes for a filter, as records. */
const expectedRecords = (s: ZtaSnapshot, f: ZtaFilter) => exportedRows(s, f).map((i) => exportRecord(snapshotRow(s, i)));
const csvRecords = (text: string) => Papa.parse<Record<string, string>>(text.trim(), { header: true }).data;
const asCsv = (r: Record<string, string | number | null>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, v === null ? '' : String(v)]));

describe('edr poll --data-dir and zta export', () => {
  it('stores each cycle as the app does: a second cycle writes history only for what changed, and the app shows the tenant', async () => {
    // A folder of its own; the tenant grows during the test and is set back after it.
    const dir = () => path.join(tmp, 'two-cycles');
    sim.tenants[0]!.hosts = 40;
    try {
      const first = await poll(tenant, dir(), '--summary');
      expect(first.code, first.stderr).toBe(0);
      const s1 = JSON.parse(first.stdout.trim()) as { summary: { hosts: number; scored: number; connectorId: string; cycleId: number } };
      expect(s1.summary).toMatchObject({ hosts: 40, scored: 40, connectorId: cliConnectorId('defender', tenant.tenantId) });
      expect(first.stderr).toContain(`stored as cycle ${s1.summary.cycleId} of Microsoft Defender · ${tenant.tenantId} (not registered) in ${path.join(dir(), 'edr.db')}`);
      // Every host is new: each gets its first history row.
      expect(stored(dir(), s1.summary.cycleId)).toEqual({ connectorId: s1.summary.connectorId, status: 'completed', kind: 'poll', hosts: 40, changes: 40 });
      const before = await appSnapshot(dir());

      // Five machines join the tenant; the other 40 are as they were.
      sim.tenants[0]!.hosts = 45;
      const second = await poll(tenant, dir(), '--summary');
      expect(second.code, second.stderr).toBe(0);
      const s2 = JSON.parse(second.stdout.trim()) as { summary: { hosts: number; cycleId: number; connectorId: string } };
      expect(s2.summary).toMatchObject({ hosts: 45, connectorId: s1.summary.connectorId });
      const after = await appSnapshot(dir());
      expect(after.connectors).toEqual([
        expect.objectContaining({ connectorId: s1.summary.connectorId, name: `Microsoft Defender · ${tenant.tenantId}`, vendor: 'defender', tenantId: tenant.tenantId, cycleId: s2.summary.cycleId, kind: 'poll', hosts: 45, health: 'online' }),
      ]);
      expect(after.rows.hostId).toHaveLength(45);
      // History rows: the five new hosts, and any host whose score or band moved between the cycles.
      const was = new Map(before.rows.hostId.map((id, i) => [id, `${before.rows.score[i]}/${before.rows.band[i]}`]));
      const moved = after.rows.hostId.filter((id, i) => was.get(id) !== `${after.rows.score[i]}/${after.rows.band[i]}`).length;
      expect(moved).toBeGreaterThanOrEqual(5);
      expect(moved).toBeLessThan(10);
      expect(stored(dir(), s2.summary.cycleId)).toMatchObject({ status: 'completed', hosts: 45, changes: moved });
    } finally {
      sim.tenants[0]!.hosts = 40;
    }
  });

  it('exports the stored scores as CSV and JSON with the app export’s rows and columns, filtered by customer, platform and band', async () => {
    const dir = () => polled;
    const s = await appSnapshot(dir());
    const cases: Array<{ flags: string[]; filter: ZtaFilter }> = [
      { flags: [], filter: {} },
      { flags: ['--customer', tenant.tenantId, '--platform', 'windows'], filter: { customer: tenant.tenantId, platform: 'Windows' } },
      { flags: ['--band', 'trustworthy'], filter: { band: 'Trustworthy' } },
    ];
    for (const { flags, filter } of cases) {
      const expected = expectedRecords(s, filter);
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0);
      const csv = await runCli(['zta', 'export', '--data-dir', dir(), '--format', 'csv', ...flags]);
      expect(csv.code, csv.stderr).toBe(0);
      expect(csv.stdout.split('\r\n')[0]).toBe(EXPORT_COLUMNS.join(','));
      expect(csvRecords(csv.stdout)).toEqual(expected.map(asCsv));
      expect(csv.stderr).toBe(`zta export: ${expected.length} of 40 hosts (csv), 1 connector(s), as of ${s.asOf}\n`);
      const json = await runCli(['zta', 'export', '--data-dir', dir(), '--format', 'json', '--no-progress', ...flags]);
      expect(json.code, json.stderr).toBe(0);
      expect(json.stderr).toBe('');
      const doc = JSON.parse(json.stdout) as { asOf: string; filter: ZtaFilter; columns: string[]; rows: unknown[] };
      expect(doc).toMatchObject({ asOf: s.asOf, filter, columns: [...EXPORT_COLUMNS], connectors: [{ name: s.connectors[0]!.name, vendor: 'defender', asOf: s.asOf }] });
      expect(doc.rows).toEqual(expected);
    }
    const narrow = expectedRecords(s, { platform: 'Windows', band: 'High Risk' });
    const highRisk = await runCli(['zta', 'export', '--data-dir', dir(), '--format', 'json', '--platform', 'Windows', '--band', 'high-risk']);
    expect((JSON.parse(highRisk.stdout) as { rows: unknown[] }).rows).toEqual(narrow);
    // Seven CLI processes, each starting tsx: about 6 s alone, over 20 s on a busy two-core CI host (stop of 29 Nov).
  }, 60_000);

  it('refuses wrong options in words that name the flag (exit 2), and a folder with no scores (exit 1, as its help says)', async () => {
    const bad = await runCli(['zta', 'export', '--data-dir', polled, '--format', 'xml', '--platform', 'Amiga', '--band', 'Scary']);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toBe('');
    expect(bad.stderr).toContain('Choose the format: csv or json. (--format)');
    expect(bad.stderr).toContain('Choose a platform: “Windows”, “Mac”, “Linux” or “Other”. (--platform)');
    expect(bad.stderr).toContain('Choose a band: “Trustworthy”, “Low Risk”, “Moderate Risk”, “Suspicious”, “High Risk” or “Not assessed”. (--band)');
    const empty = path.join(tmp, 'empty');
    const none = await runCli(['zta', 'export', '--data-dir', empty, '--format', 'csv']);
    // As its help says (and as `alarms export` does): 1, the folder could not be read; 2 is for wrong options.
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(`There is no edr.db in ${empty}`);
  });

  it('in the app, a tenant only the CLI polled opens its hosts, has no risk settings of its own, and gives way once registered', async () => {
    // A folder of its own: the test registers the tenant in it.
    const dataDir = path.join(tmp, 'registered-later');
    const polledHere = await poll(tenant, dataDir);
    expect(polledHere.code, polledHere.stderr).toBe(0);
    const h = await startAppHarness({ dataDir, app: { demoEdr: false, edr: { firstPullDelayMs: 600_000 } } });
    try {
      const s = await h.call<ZtaSnapshot>('zta.snapshot');
      const connectorId = cliConnectorId('defender', tenant.tenantId);
      const detail = await h.call<{ connectorName: string; host: { hostId: string }; bandEdges: number[] }>('zta.host', { connectorId, hostId: s.rows.hostId[0] });
      expect(detail).toMatchObject({ connectorName: `Microsoft Defender · ${tenant.tenantId}`, host: { hostId: s.rows.hostId[0] }, bandEdges: [20, 40, 60, 80] });
      const refused = await h.callRaw('zta.applyRisk', { connectorId, risk: { weights: { critical: 100, operational: 0 } } });
      expect(refused.error?.message).toBe('This tenant was polled by the command line and is not registered here.');
      await h.call('connectors.save', defenderConnectorSave(sim, tenant, { tenantId: tenant.tenantId.toUpperCase(), enabled: false }));
      // The registered connector stands for the tenant now (it has no cycle yet); the CLI's rows are not shown twice.
      const again = await h.call<ZtaSnapshot>('zta.snapshot');
      expect(again.connectors.map((c) => [c.connectorId === connectorId, c.cycleId])).toEqual([[false, null]]);
      expect(again.rows.hostId).toHaveLength(0);
    } finally {
      await h.close();
    }
  });

  it('a tenant the folder registers keeps its connector and is scored with its risk settings', async () => {
    const dataDir = path.join(tmp, 'registered');
    const risk = { weights: { critical: 90, operational: 10 } };
    const h = await startAppHarness({ dataDir, app: { demoEdr: false, edr: { firstPullDelayMs: 600_000, publishDelayMs: 600_000 } } });
    let connectorId: string;
    try {
      const saved = await h.call<{ id: string }>('connectors.save', defenderConnectorSave(sim, registeredTenant, { name: 'Fabrikam', risk }));
      connectorId = saved.id;
      const appCycle = (await h.call<{ cycleId: number }>('connectors.pollNow', { connectorId })).cycleId;
      await until('the app’s cycle completed', () => h.pushed.some((p) => p.includes(`"cycleId":${appCycle}`) && p.includes('"phase":"completed"')), 30_000);
    } finally {
      await h.close();
    }
    const r = await poll(registeredTenant, dataDir, '--summary');
    expect(r.code, r.stderr).toBe(0);
    const { summary } = JSON.parse(r.stdout.trim()) as { summary: { connectorId: string; cycleId: number } };
    expect(summary.connectorId).toBe(connectorId);
    expect(r.stderr).toContain(`of Fabrikam (registered)`);
    // The same facts scored the same way as the app's cycle: no host's score moved, so no history rows.
    expect(stored(dataDir, summary.cycleId)).toEqual({ connectorId, status: 'completed', kind: 'poll', hosts: 30, changes: 0 });
    const s = await appSnapshot(dataDir);
    expect(s.connectors).toEqual([expect.objectContaining({ connectorId, name: 'Fabrikam', cycleId: summary.cycleId })]);
  });

  it('a host named =HYPERLINK("x") leaves the CSV export as text', async () => {
    const dataDir = path.join(tmp, 'formula');
    const store = new EdrDb(path.join(dataDir, 'edr.db'));
    const connectorId = cliConnectorId('defender', 't1');
    const cycleId = store.beginCycle(connectorId, 'defender', 't1', new Date('2026-11-22T03:00:00Z'));
    const hosts = makeScoredHosts(3);
    hosts[1]!.host.hostname = '=HYPERLINK("x")';
    store.writeScores(cycleId, connectorId, hosts);
    store.finishCycle(cycleId, 'completed', { hosts: 3, at: new Date('2026-11-22T03:00:05Z') });
    store.close();
    const r = await runCli(['zta', 'export', '--data-dir', dataDir, '--format', 'csv']);
    expect(r.code, r.stderr).toBe(0);
    // Papa's formula escape: a leading quote makes the spreadsheet show the text instead of running it.
    expect(r.stdout).toContain(`"'=HYPERLINK(""x"")"`);
    expect(csvRecords(r.stdout).map((row) => row.hostname)).toContain(`'=HYPERLINK("x")`);
    expect(r.stdout).not.toMatch(/(^|,)=HYPERLINK/m);
  });
});
