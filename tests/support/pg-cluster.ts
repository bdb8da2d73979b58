/**
 * A private PostgreSQL cluster for a test (issue 24): Debian's `postgresql` binaries, a data folder
 * in a temp folder, a free port on 127.0.0.1, the socket in that folder, trust authentication for
 * loopback (the tests' own cluster), fsync off. initdb refuses root, so as root the cluster runs as
 * the `postgres` user, which owns the folder. `stop()` stops this cluster only (by its data folder)
 * and removes it. About a second to start. Without vitest, so the bench starts one too
 * (`durable`: PostgreSQL's own defaults for fsync and commits, as a server runs; the tests' cluster
 * turns them off).
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:PORT/postgres */
  url: string;
  port: number;
  dir: string;
  /** A URL for another database of this cluster. */
  urlOf(database: string): string;
  /** Stops the server (fast shutdown: open sessions are cut), keeping its data, to `resume` later. */
  pause(): Promise<void>;
  /** Starts the paused server again on the same port. */
  resume(): Promise<void>;
  stop(): Promise<void>;
}

/** The newest installed major version's bin folder; undefined when PostgreSQL is not installed. */
export function postgresBin(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a));
  const bin = versions.map((v) => path.join(root, v, 'bin')).find((b) => existsSync(path.join(b, 'pg_ctl')));
  return bin;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function startPostgres(opts: { durable?: boolean } = {}): Promise<PgCluster> {
  const bin = postgresBin();
  if (!bin) throw new Error('PostgreSQL is not installed: on Debian, apt-get install postgresql (.ci/run does).');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-pg-'));
  const root = process.getuid?.() === 0;
  // As root, everything runs as `postgres`, which owns the folder.
  const as = async (cmd: string, args: string[]) => (root ? run('runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]) : run(path.join(bin, cmd), args));
  if (root) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(stdout.trim()), Number(gid.trim()));
  }
  const data = path.join(dir, 'data');
  await as('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale', 'C']);
  let port = 0;
  const start = () => as('pg_ctl', ['-D', data, '-l', path.join(dir, 'server.log'), '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1${opts.durable ? '' : ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off'}`, '-w', '-t', '30', 'start']);
  // A port taken between choosing and binding: try another.
  for (let attempt = 0; ; attempt += 1) {
    port = await freePort();
    try {
      await start();
      break;
    } catch (e) {
      if (attempt >= 2) {
        rmSync(dir, { recursive: true, force: true });
        throw e;
      }
    }
  }
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let stopped = false;
  return {
    url: urlOf('postgres'),
    port,
    dir,
    urlOf,
    async pause() {
      await as('pg_ctl', ['-D', data, '-m', 'fast', '-w', 'stop']);
    },
    async resume() {
      await start();
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await as('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

