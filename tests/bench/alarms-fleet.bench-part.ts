/**
 * Issue 24's collector bench: alarm changes per second stored in PostgreSQL by 1 and by 2
 * collectors (`northbound alarms follow --database-url`, child processes) sharing the node's one
 * queue. The node simulator (in this process) raises `perSecond` changes for `seconds` and
 * publishes each to RabbitMQ (a node of the bench's own, below the collectors' priority, standing
 * in for a broker on another machine); PostgreSQL is a private cluster (fsync off, as in the
 * tests). Measured: the rate the simulator achieved, the rate the fleet stored (stored changes over
 * the time from the first commit to the last), lost (emitted message IDs not stored after a bounded
 * drain), duplicates, and the store latency per change (node change time to commit, both on this
 * machine's clock) p50 / p99 / max.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { startMgmtSimulator } from '@northbound/simulators/testing';
import { openPostgres } from '../../electron/store/postgres';
import { startPostgres } from '../support/pg-cluster';
import { startPrivateRabbitMq } from '../support/rabbitmq-node';
import { until } from '../support/until';
import { benchDir } from './poller-process';

export interface AlarmFleetBench {
  collectors: number;
  seconds: number;
  target: number;
  emitted: number;
  /** Changes per second the simulator achieved. */
  rate: number;
  stored: number;
  /** Changes per second the fleet stored (first commit to last). */
  storedRate: number;
  lost: number;
  duplicates: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  drainMs: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

export async function benchAlarmFleet(collectors: number, perSecond = 10_000, seconds = 20): Promise<AlarmFleetBench> {
  const tmp = benchDir();
  const rabbit = await startPrivateRabbitMq({ nice: 5 });
  const cluster = await startPostgres();
  const exchange = 'bench.alarms.fleet';
  const sim = await startMgmtSimulator({ seedDevices: 1_000, alarms: { generator: { ratePerSecond: perSecond, seed: 99, start: false }, amqp: { url: rabbit.url, exchange } } });
  const operator = sim.users.find((u) => u.role === 'operator')!;
  const caFile = tmp.write('node-ca.pem', sim.certificatePem);
  const admin = openPostgres({ url: cluster.url, max: 1 });
  await admin.query('CREATE DATABASE fleet_bench');
  await admin.end();
  const url = cluster.urlOf('fleet_bench');
  const pool = openPostgres({ url, max: 2 });
  const children: ChildProcess[] = [];
  const stderr: string[] = [];
  try {
    for (let i = 0; i < collectors; i++) {
      const child = spawn(
        process.execPath,
        [path.resolve('bin/northbound.mjs'), 'alarms', 'follow', '--database-url', url, '--amqp-url', rabbit.url, '--exchange', exchange, '--node', sim.basicUrl, '--username', operator.username, '--password-env', 'NB_BENCH_PW', '--ca-file', caFile, '--progress-every', '5'],
        { env: { ...process.env, NB_BENCH_PW: operator.password, ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent' }, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      children.push(child);
      stderr.push('');
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (d: string) => (stderr[i] += d));
      await until(`collector ${i + 1} to consume`, () => /amqp live/.test(stderr[i]!) || (child.exitCode !== null && Promise.reject(new Error(stderr[i]))), 60_000);
    }
    const t0 = performance.now();
    sim.alarms.generator.start();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    sim.alarms.generator.stop();
    const elapsed = (performance.now() - t0) / 1000;
    const emitted = sim.alarms.lastMessageId();
    const drainStart = performance.now();
    await sim.alarms.published(120_000);
    const count = async () => Number((await pool.query<{ n: string }>('SELECT COUNT(DISTINCT message_id) AS n FROM alarm_changes WHERE message_id IS NOT NULL')).rows[0]!.n);
    // Bounded drain: whatever is not stored two minutes after the last change counts as lost.
    await until('the fleet to store every change', async () => (await count()) >= emitted, 120_000).catch(() => undefined);
    const drainMs = performance.now() - drainStart;
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    const rows = (await pool.query<{ id: string; ms: string; stored: string }>('SELECT message_id AS id, stored_ms - event_ms AS ms, stored_ms AS stored FROM alarm_changes WHERE message_id IS NOT NULL')).rows;
    const all = Number((await pool.query<{ n: string }>('SELECT COUNT(*) AS n FROM alarm_changes')).rows[0]!.n);
    const distinct = new Set(rows.map((r) => r.id)).size;
    const lat = rows.map((r) => Number(r.ms)).sort((a, b) => a - b);
    const storedAt = rows.map((r) => Number(r.stored));
    const span = (storedAt.reduce((a, b) => Math.max(a, b), 0) - storedAt.reduce((a, b) => Math.min(a, b), Infinity)) / 1000;
    return {
      collectors,
      seconds,
      target: perSecond,
      emitted,
      rate: emitted / elapsed,
      stored: distinct,
      storedRate: span > 0 ? distinct / span : 0,
      lost: emitted - distinct,
      duplicates: all - distinct,
      p50Ms: quantile(lat, 0.5),
      p99Ms: quantile(lat, 0.99),
      maxMs: lat[lat.length - 1] ?? 0,
      drainMs,
    };
  } finally {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await pool.end().catch(() => undefined);
    await sim.close();
    await rabbit.destroy();
    await cluster.stop();
    tmp.dispose();
  }
}

/**
 * The PostgreSQL alarm store alone, without broker or collector: `ingest` of batches of `size`
 * broker messages (one change each over 14,000 alarms, with their marks), one batch after another
 * on one connection; changes per second and milliseconds a batch.
 */
export async function benchAlarmPgIngest(size: number, batches = 20): Promise<{ size: number; perSecond: number; batchMs: number }> {
  const { openPgAlarmStore } = await import('../../electron/alarms/store/pg-alarm-store');
  const cluster = await startPostgres();
  const pool = openPostgres({ url: cluster.url, max: 2 });
  try {
    const s = await openPgAlarmStore(pool);
    const t = Date.now() - 3_600_000;
    let id = 0;
    const message = () => {
      id += 1;
      const device = `dev-${id % 1000}`;
      const head = { device, deviceName: device, org: 'Org', object: `slot-${(id * 7) % 14}`, type: 'interface-down', specificProblem: 'link-down', severity: 'major' as const, cleared: false, text: 'down', lastChangeMs: t + id };
      return { head, changes: [{ eventMs: t + id, severity: 'major' as const, text: 'down' }], handlings: [], messageId: id };
    };
    // A first batch creates the alarms; the ones measured change them.
    await s.ingest('node:bench', Array.from({ length: 14_000 }, message), { storedMs: Date.now() });
    const t0 = performance.now();
    for (let b = 0; b < batches; b++) {
      const items = Array.from({ length: size }, message);
      await s.ingest('node:bench', items, { storedMs: Date.now(), marks: items.map((i) => ({ director: 'bench', messageId: i.messageId, newestEventMs: i.head.lastChangeMs })) });
    }
    const ms = performance.now() - t0;
    return { size, perSecond: (size * batches * 1000) / ms, batchMs: ms / batches };
  } finally {
    await pool.end().catch(() => undefined);
    await cluster.stop();
  }
}
