/**
 * The alarm commands as a user runs them (issue 12): `simulate --alarms` says what it raises and
 * where, `alarms follow --poll` collects from it, `alarms export` prints what was collected, and
 * wrong options or refused credentials end with the exit codes the help promises.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../../electron/log';
import { openConfSettings } from '../../../electron/store/settings';
import { controlChars } from '../../support/control-chars';
import { openAlarmStore } from '../../support/alarm-fixtures';
import { until } from '../../support/until';

const bin = path.resolve('bin/northbound.mjs');
const children: ChildProcessWithoutNullStreams[] = [];
let dir = '';

function run(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent', ...env } });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exit, stdout: () => stdout, stderr: () => stderr };
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nb-alarms-cli-'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await rm(dir, { recursive: true, force: true });
});

describe('northbound alarms', () => {
  it('simulate --alarms, follow --poll, export: a collector from the shell', async () => {
    const sim = run(['simulate', '--mgmt-basic-port', '0', '--mgmt-oauth-port', '0', '--alarms', '--alarm-rate', '50']);
    const firstLine = await until('the JSON line', () => sim.stdout().includes('\n') && sim.stdout().split('\n')[0], 30_000);
    const info = JSON.parse(firstLine) as { mgmt: { basicUrl: string }; users: Array<{ username: string; password: string }>; alarms: { ratePerSecond: number; amqpUrl: null; exchange: null; caFile: string; routingKey: string } };
    expect(info.alarms).toMatchObject({ ratePerSecond: 50, amqpUrl: null, exchange: null, routingKey: '<severity>.<event-type>.<entity>.<organization>.<user>' });
    await until('the ready lines', () => sim.stderr().includes('50 changes/s (REST only: no --amqp-url)'), 20_000);
    const operator = info.users.find((u) => u.username === 'operator')!;
    const dataDir = path.join(dir, 'collector');
    const follow = run(['alarms', 'follow', '--data-dir', dataDir, '--poll', '--poll-interval', '0.5', '--node', info.mgmt.basicUrl, '--username', 'operator', '--password-env', 'NB_CLI_PW', '--ca-file', info.alarms.caFile, '--progress-every', '1'], { NB_CLI_PW: operator.password });
    await until('a progress line with stored changes', () => /poll live, \+\d+ changes in \d+ s, stored [1-9]\d* alarms/.test(follow.stderr()), 30_000);
    follow.child.kill('SIGTERM');
    expect(await follow.exit).toBe(0);
    expect(follow.stderr()).toContain(`Following the alarms of 127.0.0.1:${new URL(info.mgmt.basicUrl).port} into ${path.join(dataDir, 'alarms.db')} by polling every 0.5 s.`);
    expect(follow.stderr()).not.toContain(operator.password);
    sim.child.kill('SIGTERM');
    expect(await sim.exit).toBe(0);

    const csv = run(['alarms', 'export', '--data-dir', dataDir, '--format', 'csv', '--since', '1h']);
    expect(await csv.exit).toBe(0);
    const lines = csv.stdout().trim().split('\r\n');
    expect(lines[0]).toMatch(/^source,sourceName,id,device,deviceName,org,object,type,specificProblem,severity,/);
    expect(lines.length).toBeGreaterThan(1);
    // Filled by `alarms follow`: no connection of the folder's by that id, so no name.
    expect(lines[1]).toMatch(/^node:127\.0\.0\.1:\d+,,\d+,/);
  }, 90_000);

  it('export --format csv writes a device\'s formula with a line break, and its terminal escapes, as text', async () => {
    const dataDir = path.join(dir, 'hostile');
    const store = openAlarmStore(path.join(dataDir, 'alarms.db'));
    const at = Date.now() - 60_000;
    const text = '=HYPERLINK("http://x","click")\nsecond line';
    const deviceName = '@SUM(1)\r\n\x1b]0;owned\x07';
    await store.ingest(
      'node:127.0.0.1:1',
      [
        {
          head: { device: 'dev-1', deviceName, org: '-1+2\n', object: 'cpu', type: 'threshold', specificProblem: 'high', severity: 'major', cleared: false, text, lastChangeMs: at },
          changes: [{ eventMs: at, severity: 'major', text }],
          handlings: [],
          messageId: null,
        },
      ],
      { storedMs: at },
    );
    await store.close();
    const csv = run(['alarms', 'export', '--data-dir', dataDir, '--format', 'csv']);
    expect(await csv.exit).toBe(0);
    expect(controlChars(csv.stdout())).toEqual([]);
    const [row] = Papa.parse<Record<string, string>>(csv.stdout().trim(), { header: true, delimiter: ',' }).data;
    expect(row).toMatchObject({ text: `'${text}`, deviceName: "'@SUM(1)\r\n\\u001B]0;owned\\u0007", org: "'-1+2\n" });
  }, 30_000);

  it('export names the connection an alarm came from (sourceName) when the folder\'s settings know it', async () => {
    const dataDir = path.join(dir, 'named');
    await mkdir(dataDir, { recursive: true });
    openConfSettings(dataDir, silentLogger).set('profiles', [{ id: 'c0ffee00-0000-4000-8000-000000000001', name: 'Lab node (OAuth)' }]);
    const store = openAlarmStore(path.join(dataDir, 'alarms.db'));
    const at = Date.now() - 60_000;
    for (const source of ['c0ffee00-0000-4000-8000-000000000001', 'c0ffee00-0000-4000-8000-000000000002']) {
      await store.ingest(
        source,
        [{ head: { device: 'dev-1', deviceName: 'branch-1', org: 'Acme', object: 'vni-0/3', type: 'interface', specificProblem: 'down', severity: 'major', cleared: false, text: 'Interface vni-0/3 is down', lastChangeMs: at }, changes: [{ eventMs: at, severity: 'major', text: 'Interface vni-0/3 is down' }], handlings: [], messageId: null }],
        { storedMs: at },
      );
    }
    await store.close();
    const csv = run(['alarms', 'export', '--data-dir', dataDir, '--format', 'csv']);
    expect(await csv.exit).toBe(0);
    const rows = Papa.parse<Record<string, string>>(csv.stdout().trim(), { header: true, delimiter: ',' }).data;
    expect(rows.map((r) => [r.source, r.sourceName]).sort()).toEqual([
      ['c0ffee00-0000-4000-8000-000000000001', 'Lab node (OAuth)'],
      // A connection deleted since: its id, and no name.
      ['c0ffee00-0000-4000-8000-000000000002', ''],
    ]);
  }, 30_000);

  it('ends with 2 on wrong options and 1 when the node refuses the credentials', async () => {
    const both = run(['alarms', 'follow', '--data-dir', dir, '--poll', '--amqp-url', 'amqp://127.0.0.1', '--node', 'https://127.0.0.1:1', '--username', 'u', '--password-env', 'NB_X'], { NB_X: 'x' });
    expect(await both.exit).toBe(2);
    expect(both.stderr()).toContain('Give exactly one of --amqp-url');
    const noPassword = run(['alarms', 'follow', '--data-dir', dir, '--poll', '--node', 'https://127.0.0.1:1', '--username', 'u', '--password-env', 'NB_UNSET_VARIABLE']);
    expect(await noPassword.exit).toBe(2);
    expect(noPassword.stderr()).toContain('NB_UNSET_VARIABLE is empty');
    const http = run(['alarms', 'follow', '--data-dir', dir, '--poll', '--node', 'http://127.0.0.1:9182', '--username', 'u', '--password-env', 'NB_X'], { NB_X: 'x' });
    expect(await http.exit).toBe(2);
    const amqpOnly = run(['simulate', '--mgmt-basic-port', '0', '--mgmt-oauth-port', '0', '--amqp-url', 'amqp://127.0.0.1']);
    expect(await amqpOnly.exit).toBe(2);
    expect(amqpOnly.stderr()).toContain('add --alarms');

    const sim = run(['simulate', '--mgmt-basic-port', '0', '--mgmt-oauth-port', '0', '--alarms']);
    const info = JSON.parse(await until('the JSON line', () => sim.stdout().includes('\n') && sim.stdout().split('\n')[0], 30_000)) as { mgmt: { basicUrl: string }; alarms: { caFile: string } };
    const refused = run(['alarms', 'follow', '--data-dir', dir, '--poll', '--node', info.mgmt.basicUrl, '--username', 'operator', '--password-env', 'NB_X', '--ca-file', info.alarms.caFile], { NB_X: 'wrong-password' });
    expect(await refused.exit).toBe(1);
    expect(refused.stderr()).toMatch(/refused or could not be reached/);
    sim.child.kill('SIGTERM');
    expect(await sim.exit).toBe(0);
  }, 90_000);
});
