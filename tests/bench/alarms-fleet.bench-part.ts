/**
 * Issue 24's collector bench: alarm changes per second stored in PostgreSQL by 1 and by 2
 * collectors (`northbound alarms follow --database-url`, child processes) sharing the node's one
 * queue. The node simulator (in this process) raises `perSecond` changes for `seconds` and
 * publishes each to RabbitMQ (a node of the bench's own, below the collectors' priority, standing
 * in for a broker on another machine); PostgreSQL is a private cluster (fsync off, as in the
 * tests). Measured: the rate the simulator achieved, the rate the fleet stored (stored changes over
 * the time from the first commit to the last), lost (emitted message IDs not stored after a bounded
 * drain), duplicates, and the store latency per change (node change time to commit, both on this
 * machine's clock) p50 / p99 / max. And what took the machine's two cores meanwhile: CPU seconds of
 * the simulator (this process), RabbitMQ, each collector and PostgreSQL from the start of the
 * emission to the end of the drain, and every second the queue's backlog and the changes the
 * simulator raised that the broker has not confirmed yet (where a backlog before the queue waits).
 * NB_BENCH_CPU_PROF=<dir> runs the collectors with `node --cpu-prof` into that folder.
 */
import amqp from 'amqplib';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fleetQueueName } from '../../electron/alarms/service';
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
  /** CPU seconds from the emission's start to the drain's end: this process (the simulator), RabbitMQ, each collector, PostgreSQL; and the wall seconds. */
  cpu: { simulator: number; rabbit: number; collectors: number[]; postgres: number; wallS: number };
  /** The queue's ready messages: the most seen, and when the emission stopped. */
  backlog: { max: number; atStop: number };
  /** Changes the simulator raised that the broker had not confirmed yet (its outbox): the most seen, and when the emission stopped. */
  unconfirmed: { max: number; atStop: number };
}

/** CPU seconds of a process (with its reaped children) from /proc; 0 when it is gone. */
function cpuS(pid: number | undefined): number {
  if (pid === undefined) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime, stime, cutime, cstime (fields 14-17), in clock ticks of 1/100 s.
    return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100;
  } catch {
    return 0;
  }
}

/** The postmaster's and its live backends' CPU seconds (a cluster's data folder holds postmaster.pid). */
function postgresCpuS(dataDir: string): number {
  const master = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  let total = cpuS(master);
  for (const d of readdirSync('/proc').filter((x) => /^\d+$/.test(x))) {
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === master) total += cpuS(Number(d));
    } catch {
      /* gone meanwhile */
    }
  }
  return total;
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
        [...(process.env.NB_BENCH_CPU_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.NB_BENCH_CPU_PROF}`] : []), path.resolve('bin/northbound.mjs'), 'alarms', 'follow', '--database-url', url, '--amqp-url', rabbit.url, '--exchange', exchange, '--node', sim.basicUrl, '--username', operator.username, '--password-env', 'NB_BENCH_PW', '--ca-file', caFile, '--progress-every', '5'],
        { env: { ...process.env, NB_BENCH_PW: operator.password, ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent' }, stdio: ['ignore', 'ignore', 'pipe'] },
      );
      children.push(child);
      stderr.push('');
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (d: string) => (stderr[i] += d));
      await until(`collector ${i + 1} to consume`, () => /amqp live/.test(stderr[i]!) || (child.exitCode !== null && Promise.reject(new Error(stderr[i]))), 60_000);
    }
    const pgData = path.join(cluster.dir, 'data');
    const cpu = () => ({ simulator: process.cpuUsage().user / 1e6 + process.cpuUsage().system / 1e6, rabbit: cpuS(rabbit.pid()), collectors: children.map((c) => cpuS(c.pid)), postgres: postgresCpuS(pgData) });
    const conn = await amqp.connect(rabbit.url);
    const ch = await conn.createChannel();
    const queue = fleetQueueName(`node:${new URL(sim.basicUrl).host}`);
    const backlog = { max: 0, atStop: 0 };
    const unconfirmed = { max: 0, atStop: 0 };
    const sampler = setInterval(() => {
      unconfirmed.max = Math.max(unconfirmed.max, sim.alarms.publisher?.pending ?? 0);
      void ch.checkQueue(queue).then((q) => (backlog.max = Math.max(backlog.max, q.messageCount)), () => undefined);
    }, 1000);
    const cpu0 = cpu();
    const t0 = performance.now();
    sim.alarms.generator.start();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    sim.alarms.generator.stop();
    const elapsed = (performance.now() - t0) / 1000;
    backlog.atStop = (await ch.checkQueue(queue)).messageCount;
    unconfirmed.atStop = sim.alarms.publisher?.pending ?? 0;
    const emitted = sim.alarms.lastMessageId();
    const drainStart = performance.now();
    await sim.alarms.published(120_000);
    const count = async () => Number((await pool.query<{ n: string }>('SELECT COUNT(DISTINCT message_id) AS n FROM alarm_changes WHERE message_id IS NOT NULL')).rows[0]!.n);
    // Bounded drain: whatever is not stored two minutes after the last change counts as lost. The
    // count (50 ms over 200,000 rows) at most every 500 ms: counted back to back it took a quarter of
    // PostgreSQL's CPU from the collectors it measures.
    let countedAt = 0;
    await until('the fleet to store every change', async () => performance.now() - countedAt >= 500 && ((countedAt = performance.now()), (await count()) >= emitted), 120_000).catch(() => undefined);
    const drainMs = performance.now() - drainStart;
    const cpu1 = cpu();
    const wallS = (performance.now() - t0) / 1000;
    clearInterval(sampler);
    await conn.close().catch(() => undefined);
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
      cpu: { simulator: cpu1.simulator - cpu0.simulator, rabbit: cpu1.rabbit - cpu0.rabbit, collectors: cpu1.collectors.map((c, i) => c - cpu0.collectors[i]!), postgres: cpu1.postgres - cpu0.postgres, wallS },
      backlog,
      unconfirmed,
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
 * on one connection, or `inFlight` batches at once on as many connections (two collectors, or one
 * with batches in flight: they share alarms and wait for each other's row locks); changes per
 * second and milliseconds a batch.
 */
export async function benchAlarmPgIngest(size: number, batches = 20, inFlight = 1): Promise<{ size: number; inFlight: number; perSecond: number; batchMs: number }> {
  const { openPgAlarmStore } = await import('../../electron/alarms/store/pg-alarm-store');
  const cluster = await startPostgres();
  const pool = openPostgres({ url: cluster.url, max: inFlight + 1 });
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
    let left = batches;
    const lane = async () => {
      while (left-- > 0) {
        const items = Array.from({ length: size }, message);
        await s.ingest('node:bench', items, { storedMs: Date.now(), marks: items.map((i) => ({ director: 'bench', messageId: i.messageId, newestEventMs: i.head.lastChangeMs })) });
      }
    };
    await Promise.all(Array.from({ length: inFlight }, lane));
    const ms = performance.now() - t0;
    return { size, inFlight, perSecond: (size * batches * 1000) / ms, batchMs: (ms * inFlight) / batches };
  } finally {
    await pool.end().catch(() => undefined);
    await cluster.stop();
  }
}
