/** The export's bytes (issue 11.6): CSV that never runs a formula, JSON with the same rows; cancel leaves no file. */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { afterEach, describe, expect, it } from 'vitest';
import { controlChars } from '../../support/control-chars';
import { ZtaExports } from '../../../electron/edr/zta-export';
import { exportText, snapshotExportSource } from '../../support/zta-export-snapshot';
import type { ExportJob } from '../../../shared/contract-zta';
import { COLUMN_KEYS, exportFileName, type ZtaColumns, type ZtaSnapshot } from '../../../shared/model/zta';

/** A snapshot of `n` Falcon hosts; host 0 is named `names[0]`, and so on. */
function snapshot(n: number, names: string[] = []): ZtaSnapshot {
  const rows = Object.fromEntries(COLUMN_KEYS.map((k) => [k, []])) as unknown as ZtaColumns;
  for (let i = 0; i < n; i++) {
    rows.connector.push(0);
    rows.hostId.push(`aid-${i}`);
    rows.hostname.push(names[i] ?? `host-${i}`);
    rows.customer.push(0);
    rows.platform.push(i % 2);
    rows.score.push(i % 100);
    rows.band.push(Math.min(4, Math.floor((i % 100) / 20)));
    rows.lastSeen.push('2026-11-25T08:00:00.000Z');
    for (const k of ['osAssessment', 'sensorAssessment', 'overallAssessment'] as const) rows[k].push(100 - (i % 100));
    for (const k of ['sensorRunning', 'reducedFunctionality', 'riskLevel', 'exposure', 'health', 'avStatus', 'onboarding', 'criticalCves', 'cveCount', 'maxCvss', 'cvss'] as const) (rows[k] as unknown[]).push(null);
  }
  return {
    asOf: '2026-11-25T08:10:00.000Z',
    connectors: [{ connectorId: 'c1', name: 'Falcon', vendor: 'falcon', tenantId: 'cid', cycleId: 1, asOf: '2026-11-25T08:10:00.000Z', kind: 'poll', hosts: n, health: 'online', lastAttemptAt: null, lastError: null }],
    customers: ['cid-a'],
    rows,
  };
}
const text = (s: ZtaSnapshot, format: 'csv' | 'json') => exportText(snapshotExportSource(s), format, {}, new Date('2026-11-25T09:00:00Z'));

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('ZTA export', () => {
  it('a host named =HYPERLINK("x") is text in the CSV, never a formula; the JSON keeps the name as it is', async () => {
    const s = snapshot(3, ['=HYPERLINK("x")', '+cmd|calc', '@SUM(A1)']);
    const csv = await text(s, 'csv');
    const rows = Papa.parse<Record<string, string>>(csv.trim(), { header: true }).data;
    expect(rows.map((r) => r.hostname).sort()).toEqual([`'+cmd|calc`, `'=HYPERLINK("x")`, `'@SUM(A1)`]);
    for (const r of rows) expect(/^[=+\-@\t\r]/.test(r.hostname!)).toBe(false);
    const json = JSON.parse(await text(s, 'json')) as { rows: Array<{ hostname: string }>; columns: string[] };
    expect(json.rows.map((r) => r.hostname).sort()).toEqual(['+cmd|calc', '=HYPERLINK("x")', '@SUM(A1)']);
    expect(json.columns).toEqual(Object.keys(rows[0]!));
  });

  it('a hostname that starts like a formula and holds a line break, or holds terminal escapes, is text in the written file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-export-'));
    dirs.push(dir);
    const names = ['=HYPERLINK("http://x")\nline two', '@SUM(A1)\r\nz', '-2+3\n', 'host\x1b]0;pwned\x07\x9b2J'];
    const exports = new ZtaExports({ source: snapshotExportSource(snapshot(4, names)), destination: async (_id, name) => ({ file: path.join(dir, 'out.csv'), name }), onProgress: () => undefined });
    const end = await exports.finished((await exports.start('csv', {})).jobId);
    expect(end.state).toBe('done');
    const written = readFileSync(path.join(dir, 'out.csv'), 'utf8');
    expect(controlChars(written)).toEqual([]);
    const hostnames = Papa.parse<Record<string, string>>(written.trim(), { header: true, delimiter: ',' }).data.map((r) => r.hostname!);
    expect(hostnames.sort()).toEqual([`'-2+3\n`, `'=HYPERLINK("http://x")\nline two`, `'@SUM(A1)\r\nz`, 'host\\u001B]0;pwned\\u0007\\u009B2J'].sort());
  });

  it('CSV and JSON carry the same rows in the same order, riskiest first, with every column', async () => {
    const s = snapshot(4_500);
    const csv = Papa.parse<Record<string, string>>((await text(s, 'csv')).trim(), { header: true }).data;
    const json = (JSON.parse(await text(s, 'json')) as { rows: Array<Record<string, string | number | null>> }).rows;
    expect(csv).toHaveLength(4_500);
    expect(json.map((r) => r.host_id)).toEqual(csv.map((r) => r.host_id));
    // One meaning per column (issue 22.8): Falcon's numbers under falcon_*, nothing under defender_*; the connector by name.
    expect(json[0]).toEqual({
      host_id: json[0]!.host_id,
      hostname: json[0]!.hostname,
      vendor: 'falcon',
      connector: expect.any(String),
      customer_id: 'cid-a',
      platform: expect.stringMatching(/Windows|Mac/),
      score: 99,
      band: 'High Risk',
      last_seen: '2026-11-25T08:00:00.000Z',
      as_of: '2026-11-25T08:10:00.000Z',
      falcon_os_assessment: 1,
      falcon_sensor_assessment: 1,
      falcon_overall_assessment: 1,
      defender_exposure_level: null,
      defender_health_status: null,
      defender_risk_level: null,
      defender_av_status: null,
    });
    expect(json[0]!.connector).toBe(s.connectors[0]!.name);
    expect(Object.keys(csv[0]!)).toEqual(Object.keys(json[0]!));
    const scores = json.map((r) => r.score as number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('names the file for what it holds: the filters (a connector by its name) and the data\'s as-of', () => {
    const s = snapshot(10);
    expect(exportFileName(s, {}, 'csv')).toBe('northbound-zta-asof-20261125-0810z.csv');
    expect(exportFileName(s, { platform: 'Windows', band: 'High Risk', connector: 'c1', q: 'WS 00/1' }, 'json')).toBe('northbound-zta-connector-falcon-platform-windows-band-high-risk-search-ws-00-1-asof-20261125-0810z.json');
    expect(exportFileName({ ...s, asOf: null }, { customer: '../../etc' }, 'csv')).toBe('northbound-zta-customer-etc-no-data.csv');
  });

  it('a cancelled export reports its progress, ends cancelled and leaves no file', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-export-'));
    dirs.push(dir);
    const events: ExportJob[] = [];
    const control: { cancel?: () => void } = {};
    const exports = new ZtaExports({
      source: snapshotExportSource(snapshot(100_000)),
      destination: async (_id, name) => ({ file: path.join(dir, name), name }),
      onProgress: (job) => {
        events.push(job);
        if (job.done >= 4_000) control.cancel?.();
      },
    });
    const job = await exports.start('csv', {});
    control.cancel = () => exports.cancel(job.jobId);
    const end = await exports.finished(job.jobId);
    expect(end.state).toBe('cancelled');
    expect(end.done).toBeLessThan(100_000);
    expect(events.filter((e) => e.state === 'running').map((e) => e.done).slice(0, 2)).toEqual([2_000, 4_000]);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a finished export is renamed into place whole', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-export-'));
    dirs.push(dir);
    const exports = new ZtaExports({ source: snapshotExportSource(snapshot(10)), destination: async (_id, name) => ({ file: path.join(dir, 'out.json'), name }), onProgress: () => undefined });
    const job = await exports.start('json', { band: 'Trustworthy' });
    const end = await exports.finished(job.jobId);
    expect(end).toMatchObject({ state: 'done', done: 10, total: 10 });
    expect(existsSync(path.join(dir, 'out.json.part'))).toBe(false);
    expect((JSON.parse(readFileSync(path.join(dir, 'out.json'), 'utf8')) as { rows: unknown[] }).rows).toHaveLength(10);
  });
});
