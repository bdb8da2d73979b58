/**
 * A team's collector fleet for tests and the bench (issue 24): the Falcon and Defender simulators
 * with `tenants` tenants each; per team a database of a private cluster set up through the command
 * line (`team init`, `team connectors import` of every simulated tenant), an exchange with a queue
 * that records what is published, and `northbound worker` processes started on it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type amqp from 'amqplib';
import { startFalconSimulator, type FalconSimulator } from '@northbound/simulators/testing/falcon';
import { defenderTenant, startDefenderSimulator, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import type { ScoreMessage } from '../../electron/edr/publisher';
import type { PgPool } from '../../electron/store/postgres';
import { runCli, type CliResult } from './cli';
import { teamInit } from '../../electron/app/team';
import { storeMigrations } from '../../electron/cli-team';
import { FleetConnectors } from '../../electron/edr/fleet/fleet-connectors';

export interface FleetSimulators {
  falcon: FalconSimulator;
  defender: DefenderSimulator;
  tenants: ReturnType<typeof defenderTenant>[];
  /** Both vendors' tenants as a bulk connector document (secrets in it: sealed by the import). */
  document(): { version: 1; connectors: unknown[] };
  close(): Promise<void>;
}

export async function startFleetSimulators(perVendor: number, hosts: number): Promise<FleetSimulators> {
  const falcon = await startFalconSimulator({ regions: ['us-1'], clients: Array.from({ length: perVendor }, (_, i) => ({ region: 'us-1' as const, tenant: { hosts, seed: 100 + i } })) });
  const tenants = Array.from({ length: perVendor }, (_, i) => defenderTenant({ hosts, seed: 200 + i }));
  const defender = await startDefenderSimulator({ tenants });
  return {
    falcon,
    defender,
    tenants,
    document: () => ({
      version: 1,
      connectors: [
        ...falcon.clients.map((c, i) => ({ vendor: 'falcon', name: `Falcon ${i + 1}`, tenantId: c.cid, clientId: c.clientId, clientSecret: c.clientSecret, cloudRegion: 'us-1', apiUrl: falcon.baseUrl('us-1'), tls: { mode: 'custom-ca', caName: 'sim.pem', caPem: falcon.certificatePem }, pollIntervalMinutes: 60 })),
        ...tenants.map((t, i) => ({ vendor: 'defender', name: `Defender ${i + 1}`, tenantId: t.tenantId, clientId: t.clientId, clientSecret: t.clientSecret, apiUrl: defender.apiUrl, idpUrl: defender.idpUrl, tls: { mode: 'custom-ca', caName: 'sim.pem', caPem: defender.certificatePem }, pollIntervalMinutes: 60 })),
      ],
    }),
    close: async () => {
      await Promise.all([falcon.close(), defender.close()]);
    },
  };
}

export interface CycleRow {
  id: string;
  connector_id: string;
  status: string;
  published_at: string | null;
  hosts: number;
  error: string | null;
}

export interface FleetWorkerProcess {
  id: string;
  child: ChildProcess;
  stderr: string;
  exited: Promise<number | null>;
}

const AMQP_PASSWORD_ENV = 'NB_TEST_AMQP_PW';

const ok = (what: string, r: CliResult) => {
  if (r.code !== 0) throw new Error(`${what} exited ${r.code}: ${r.stderr}`);
  return r;
};

/**
 * A team on `db` (a fresh database): set up through the command line, its exchange and queue on
 * `ch` (everything published is in `received`), and `worker(id)` to start a worker process.
 */
export async function startFleetTeam(o: { name: string; db: { url: string; pool: PgPool }; dir: string; sims: FleetSimulators; ch: amqp.Channel; children: ChildProcess[]; amqpUrl?: string; viaCli?: boolean }) {
  const { db, name } = o;
  // The broker's address for the workers without its password (given in the environment, as a worker takes it).
  const broker = new URL(o.amqpUrl ?? 'amqp://guest:guest@127.0.0.1:5672');
  const amqpPassword = decodeURIComponent(broker.password);
  broker.password = '';
  const keyFile = path.join(o.dir, `${name}.key`);
  const doc = o.sims.document();
  if (o.viaCli === false) {
    // The same calls the commands make, in this process (a command's start costs seconds of CPU).
    await teamInit({ pool: db.pool, keyFile, migrations: await storeMigrations() });
    const results = await new FleetConnectors(db.pool).registerBulk(doc);
    if (!results.every((r) => r.ok)) throw new Error(`connectors refused: ${JSON.stringify(results.filter((r) => !r.ok))}`);
  } else {
    ok('team init', await runCli(['team', 'init', '--database-url', db.url, '--key-file', keyFile]));
    const file = path.join(o.dir, `${name}.json`);
    writeFileSync(file, JSON.stringify(doc));
    const imported = ok('team connectors import', await runCli(['team', 'connectors', 'import', '--database-url', db.url, '--file', file]));
    const lines = imported.stdout.trim().split('\n');
    if (lines.length !== doc.connectors.length) throw new Error(`team connectors import answered ${lines.length} lines for ${doc.connectors.length} connectors`);
  }
  const exchange = `northbound.zta.${name}.${process.pid}`;
  const queue = `nb-${name}-${process.pid}`;
  await o.ch.assertExchange(exchange, 'topic', { durable: true });
  await o.ch.assertQueue(queue, { exclusive: true });
  await o.ch.bindQueue(queue, exchange, 'zta.scores.#');
  const received: Array<{ id: string; body: ScoreMessage }> = [];
  await o.ch.consume(queue, (m) => {
    if (m) received.push({ id: String(m.properties.messageId), body: JSON.parse(m.content.toString()) as ScoreMessage });
  }, { noAck: true });
  const workers: FleetWorkerProcess[] = [];
  const worker = (id: string, extra: string[] = []): FleetWorkerProcess => {
    const child = spawn(
      process.execPath,
      [
        path.resolve('bin/northbound.mjs'), 'worker',
        '--database-url', db.url,
        '--amqp-url', broker.toString(), '--amqp-password-env', AMQP_PASSWORD_ENV, '--amqp-exchange', exchange,
        '--key-file', keyFile, '--worker-id', id,
        '--concurrency', '4', '--lease-seconds', '5', '--publish-delay-seconds', '1', '--grace-seconds', '0',
        ...extra,
      ],
      { env: { ...process.env, [AMQP_PASSWORD_ENV]: amqpPassword }, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    o.children.push(child);
    const w: FleetWorkerProcess = { id, child, stderr: '', exited: new Promise((resolve) => child.on('exit', (code) => resolve(code))) };
    child.stderr!.on('data', (d) => (w.stderr += String(d)));
    workers.push(w);
    return w;
  };
  const cycles = async () => (await db.pool.query<CycleRow>('SELECT id::text AS id, connector_id, status, published_at, hosts, error FROM edr.cycles ORDER BY id')).rows;
  return { pool: db.pool, url: db.url, connectors: doc.connectors.length, received, worker, workers, cycles };
}

export type FleetTeam = Awaited<ReturnType<typeof startFleetTeam>>;
