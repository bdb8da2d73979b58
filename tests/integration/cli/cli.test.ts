/** The `northbound` command as a user runs it: a real child process, real ports, real signals. */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';

const bin = path.resolve('bin/northbound.mjs');
const children: ChildProcessWithoutNullStreams[] = [];

function run(args: string[]) {
  const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent' } });
  children.push(child);
  const queue: string[] = [];
  const waiters: Array<(l: string) => void> = [];
  createInterface({ input: child.stdout }).on('line', (l) => {
    const w = waiters.shift();
    if (w) w(l);
    else queue.push(l);
  });
  const next = () =>
    new Promise<string>((resolve, reject) => {
      const queued = queue.shift();
      if (queued !== undefined) return resolve(queued);
      const t = setTimeout(() => reject(new Error('no output in 20 s')), 20_000);
      waiters.push((l) => {
        clearTimeout(t);
        resolve(l);
      });
    });
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  /** Resolves with stderr so far once it contains `text` (20 s deadline). */
  const stderrWith = (text: string) =>
    new Promise<string>((resolve, reject) => {
      if (stderr.includes(text)) return resolve(stderr);
      const t = setTimeout(() => reject(new Error(`stderr did not say ${JSON.stringify(text)} in 20 s: ${stderr}`)), 20_000);
      const check = () => {
        if (!stderr.includes(text)) return;
        clearTimeout(t);
        child.stderr.off('data', check);
        resolve(stderr);
      };
      child.stderr.on('data', check);
    });
  return { child, next, exit, stderr: () => stderr, stderrWith };
}

/** Holds a port on 127.0.0.1 for the duration of `fn`, as another program would. */
async function withTakenPort<T>(fn: (port: number) => Promise<T>): Promise<T> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await fn((server.address() as AddressInfo).port);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
}

afterEach(() => {
  for (const c of children.splice(0)) if (c.exitCode === null) c.kill('SIGKILL');
});

describe('northbound CLI', () => {
  it('simulate prints one JSON line with URLs, fingerprint and credentials, serves HTTPS, and stops on SIGTERM', async () => {
    const { child, next, exit } = run(['simulate', '--mgmt-basic-port', '0', '--mgmt-oauth-port', '0']);
    const info = JSON.parse(await next()) as { mgmt: { basicUrl: string; oauthUrl: string; fingerprint256: string }; users: Array<{ username: string; password: string }>; bootstrapClient: { clientId: string; clientSecret: string } };
    expect(info.mgmt.basicUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(info.mgmt.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const admin = info.users.find((u) => u.username === 'admin')!;
    // The self-signed certificate is not trusted by default; trusting the announced one works.
    await expect(request(`${info.mgmt.oauthUrl}/auth/token`, { method: 'POST' })).rejects.toThrow(/self-signed|certificate/i);
    const res = await request(`${info.mgmt.oauthUrl}/auth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ client_id: info.bootstrapClient.clientId, client_secret: info.bootstrapClient.clientSecret, username: admin.username, password: admin.password, grant_type: 'password' }),
      dispatcher: new Agent({ connect: { ca: await fetchPem(info.mgmt.oauthUrl) } }),
    });
    expect(res.statusCode).toBe(200);
    expect(await fingerprintOf(info.mgmt.oauthUrl)).toBe(info.mgmt.fingerprint256);
    expect(((await res.body.json()) as { token_type: string }).token_type).toBe('Bearer');
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
  });

  it('simulate --edr adds a Defender and a Falcon tenant that `edr poll` can read with the printed details', async () => {
    const { child, next, exit } = run(['simulate', '--mgmt-basic-port', '0', '--mgmt-oauth-port', '0', '--organizations', '30', '--devices', '250', '--edr', '--edr-hosts', '25']);
    const info = JSON.parse(await next()) as {
      mgmt: { basicUrl: string };
      users: Array<{ username: string; password: string }>;
      edr: {
        defender: { idpUrl: string; apiUrl: string; caFile: string; tenantId: string; clientId: string; clientSecret: string; hosts: number };
        falcon: { baseUrls: Record<string, string>; caFile: string; cloudRegion: string; tenantId: string; clientId: string; clientSecret: string };
      };
    };
    // The seeded inventory follows --organizations and --devices.
    const admin = info.users.find((u) => u.username === 'admin')!;
    const list = await request(`${info.mgmt.basicUrl}/mgmt/sdwan/workflow/devices?limit=1`, {
      headers: { accept: 'application/json', authorization: `Basic ${Buffer.from(`${admin.username}:${admin.password}`).toString('base64')}` },
      dispatcher: new Agent({ connect: { ca: await fetchPem(info.mgmt.basicUrl) } }),
    });
    expect(((await list.body.json()) as { totalCount: number }).totalCount).toBe(250);
    const d = info.edr.defender;
    expect(d.hosts).toBe(25);
    const poll = spawnSync(
      process.execPath,
      [bin, 'edr', 'poll', '--once', '--vendor', 'defender', '--tenant-id', d.tenantId, '--client-id', d.clientId, '--client-secret-env', 'NB_SIM_SECRET', '--poll-interval', '10', '--api-url', d.apiUrl, '--idp-url', d.idpUrl, '--ca-file', d.caFile],
      { env: { ...process.env, NB_SIM_SECRET: d.clientSecret }, encoding: 'utf8' },
    );
    expect(poll.status).toBe(0);
    expect(JSON.parse(poll.stdout.trim().split('\n').at(-1)!)).toMatchObject({ summary: { vendor: 'defender', hosts: 25 } });
    const f = info.edr.falcon;
    const fpoll = spawnSync(
      process.execPath,
      [bin, 'edr', 'poll', '--once', '--vendor', 'falcon', '--tenant-id', f.tenantId, '--client-id', f.clientId, '--client-secret-env', 'NB_SIM_SECRET', '--cloud-region', f.cloudRegion, '--api-url', f.baseUrls[f.cloudRegion]!, '--ca-file', f.caFile],
      { env: { ...process.env, NB_SIM_SECRET: f.clientSecret }, encoding: 'utf8' },
    );
    expect(fpoll.status).toBe(0);
    expect(JSON.parse(fpoll.stdout.trim().split('\n').at(-1)!)).toMatchObject({ summary: { vendor: 'falcon', hosts: 25 } });
    child.kill('SIGINT');
    expect(await exit).toBe(0);
    // The certificate files are removed with the simulators.
    expect(existsSync(d.caFile)).toBe(false);
  });

  it('simulate says on stderr that it is ready, where and how to stop; stdout starts with the JSON line', async () => {
    const { child, next, exit, stderrWith } = run(['simulate', '--mgmt-basic-port', '0', '--mgmt-oauth-port', '0']);
    const info = JSON.parse(await next()) as { mgmt: { basicUrl: string; oauthUrl: string } };
    const said = await stderrWith('Press Ctrl-C to stop.');
    expect(said).toContain('Simulators ready (127.0.0.1 only):');
    expect(said).toContain(`management node  ${info.mgmt.basicUrl} (basic auth), ${info.mgmt.oauthUrl} (OAuth)`);
    expect(said).toContain('are in the JSON line on stdout');
    child.kill('SIGINT');
    expect(await exit).toBe(0);
  });

  it('simulate on a taken port names the flag and suggests 0 instead of a stack trace', async () => {
    await withTakenPort(async (port) => {
      for (const flag of ['--mgmt-basic-port', '--mgmt-oauth-port']) {
        const other = flag === '--mgmt-basic-port' ? '--mgmt-oauth-port' : '--mgmt-basic-port';
        const { exit, stderr } = run(['simulate', flag, String(port), other, '0']);
        expect(await exit).toBe(1);
        expect(stderr()).toContain(`Port ${port} on 127.0.0.1`);
        expect(stderr()).toContain(`${flag}) is taken by another program`);
        expect(stderr()).toContain(`pass \`${flag} 0\` to take any free port`);
        expect(stderr()).not.toMatch(/EADDRINUSE|^\s+at /m);
      }
    });
    const same = run(['simulate', '--mgmt-basic-port', '9555', '--mgmt-oauth-port', '9555']);
    expect(await same.exit).toBe(2);
    expect(same.stderr()).toContain('--mgmt-basic-port and --mgmt-oauth-port are both 9555');
  });

  it('simulate refuses a port that is not a port', async () => {
    const { child, exit } = run(['simulate', '--mgmt-basic-port', 'http']);
    let err = '';
    child.stderr.on('data', (d) => (err += String(d)));
    expect(await exit).toBe(2); // wrong options: 2, as every usage error
    expect(err).toMatch(/port is a whole number/);
  });

  it('serve prints a tokenised 127.0.0.1 address that answers only with its token', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nb-cli-'));
    try {
      await mkdir(path.join(dir, 'static'));
      await writeFile(path.join(dir, 'static', 'index.html'), '<!doctype html><title>Northbound</title>');
      const { child, next, exit } = run(['serve', '--port', '0', '--data-dir', path.join(dir, 'data'), '--static-dir', path.join(dir, 'static')]);
      expect(await next()).toMatch(/Open this address/);
      const url = new URL(await next());
      expect(url.hostname).toBe('127.0.0.1');
      // The token is the launch's, not one-time: it says so, and how to stop.
      expect(await next()).toBe('The address (its token) works until this process stops; each launch prints a new one. Press Ctrl-C to stop.');
      const token = url.searchParams.get('token')!;
      expect((await fetch(`${url.origin}/`)).status).toBe(401);
      const opening = await fetch(url, { redirect: 'manual' });
      expect(opening.status).toBe(303);
      const cookie = (opening.headers.get('set-cookie') ?? '').split(';')[0]!;
      expect((await fetch(`${url.origin}/`, { headers: { cookie } })).status).toBe(200);
      const info = await fetch(`${url.origin}/api/invoke/app.info`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-northbound-token': token }, body: '{}' });
      expect(await info.json()).toMatchObject({ ok: true, value: { name: 'Northbound', mode: 'browser', firstRun: true, secretsPersist: false } });
      child.kill('SIGINT');
      expect(await exit).toBe(0);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('serve on a taken port suggests --port 0', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'nb-cli-'));
    try {
      await mkdir(path.join(dir, 'static'));
      await writeFile(path.join(dir, 'static', 'index.html'), '<!doctype html><title>Northbound</title>');
      await withTakenPort(async (port) => {
        const { exit, stderr } = run(['serve', '--port', String(port), '--data-dir', path.join(dir, 'data'), '--static-dir', path.join(dir, 'static')]);
        expect(await exit).toBe(1);
        expect(stderr()).toContain(`Port ${port} on 127.0.0.1 (the browser-mode address, --port) is taken by another program`);
        expect(stderr()).toContain('pass `--port 0` to take any free port');
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('--version and --help tell what the command is and what it does', () => {
    const version = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(version.status).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = spawnSync(process.execPath, [bin, '--help'], { encoding: 'utf8' });
    expect(help.status).toBe(0);
    for (const command of ['simulate', 'serve', 'edr']) expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    expect(help.stdout).toContain('Examples:');
    const poll = spawnSync(process.execPath, [bin, 'edr', 'poll', '--help'], { encoding: 'utf8' });
    expect(poll.stdout).toContain('--summary');
    expect(poll.stdout).toContain('--no-progress');
  });
});

async function fingerprintOf(url: string): Promise<string> {
  const { probeCertificate } = await import('../../../electron/net');
  const u = new URL(url);
  return (await probeCertificate(u.hostname, Number(u.port))).info.fingerprint256;
}

/** Reads the server's certificate the way the operator's trust dialog does (probe, then compare). */
async function fetchPem(url: string): Promise<string> {
  const { probeCertificate } = await import('../../../electron/net');
  const u = new URL(url);
  return (await probeCertificate(u.hostname, Number(u.port))).pem;
}
