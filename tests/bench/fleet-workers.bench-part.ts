/**
 * Issue 24's worker bench: polls per minute with 1, 2 and 3 `northbound worker` processes
 * (concurrency 4 each) over 30 simulated tenants (15 Falcon, 15 Defender, `hosts` hosts each), side
 * by side in one run: each count gets a fresh team database of one private PostgreSQL cluster
 * (fsync off, as in the tests), the simulators run in this process, the broker is a RabbitMQ node
 * of the bench's own. Measured: the span from the first cycle's start to the last cycle's end (so
 * process start-up is left out), polls per minute over it, and the CPU seconds each party used in
 * the span (workers, this process's simulators, PostgreSQL, RabbitMQ) against what the machine's
 * cores offer in it: what bounds the rate here.
 */
import type { ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import { openPostgres } from '../../electron/store/postgres';
import { startFleetSimulators, startFleetTeam } from '../support/fleet';
import { startPostgres } from '../support/pg-cluster';
import { startPrivateRabbitMq } from '../support/rabbitmq-node';
import { until } from '../support/until';
import { benchDir } from './poller-process';

export interface FleetWorkersBench {
  workers: number;
  tenants: number;
  hosts: number;
  spanMs: number;
  pollsPerMinute: number;
  /** CPU seconds over the span: the workers, this process (simulators), PostgreSQL, RabbitMQ. */
  cpu: { workers: number; simulators: number; postgres: number; rabbitmq: number };
  /** Core-seconds the machine offered over the span. */
  capacity: number;
  /** Core-seconds the whole machine was busy (anyone's processes) over the span. */
  machineBusy: number;
}

const TICK = 100; // USER_HZ on Linux

/** utime + stime of a process in seconds (0 when it is gone). */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICK;
  } catch {
    return 0;
  }
}

/** Busy CPU seconds of the whole machine so far (/proc/stat: all but idle and iowait). */
function machineBusySeconds(): number {
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = f;
  return (user + nice + system + irq + softirq + steal) / TICK;
}

/** The postmaster of a data folder and its children (the backends), by /proc. */
function clusterPids(dataDir: string): number[] {
  const master = Number(readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const out = [master];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const status = readFileSync(`/proc/${d}/status`, 'utf8');
      if (Number(/PPid:\s+(\d+)/.exec(status)?.[1]) === master) out.push(Number(d));
    } catch {
      // gone
    }
  }
  return out;
}

export async function benchFleetWorkers(perVendor = 15, hosts = 1_000, counts: readonly number[] = [1, 2, 3]): Promise<FleetWorkersBench[]> {
  const rabbit = await startPrivateRabbitMq({ nice: 5 });
  const cluster = await startPostgres();
  const sims = await startFleetSimulators(perVendor, hosts);
  const tmp = benchDir();
  const children: ChildProcess[] = [];
  const conn = await amqp.connect(rabbit.url);
  const ch = await conn.createChannel();
  const admin = openPostgres({ url: cluster.url, max: 1 });
  const out: FleetWorkersBench[] = [];
  try {
    for (const n of counts) {
      const name = `bench_workers_${n}`;
      await admin.query(`CREATE DATABASE ${name}`);
      const pool = openPostgres({ url: cluster.urlOf(name), max: 2 });
      try {
        const team = await startFleetTeam({ name, db: { url: cluster.urlOf(name), pool }, dir: tmp.dir, sims, ch, children, amqpUrl: rabbit.url });
        const pgPids = () => clusterPids(path.join(cluster.dir, 'data'));
        const before = { sim: process.cpuUsage(), pg: pgPids().reduce((a, p) => a + cpuSeconds(p), 0), mq: cpuSeconds(rabbit.pid() ?? 0) };
        const workers = Array.from({ length: n }, (_, i) => team.worker(`bench-${n}-${i + 1}`, ['--publish-delay-seconds', '0']));
        // The workers' CPU from when they are up (their start-up, tsx's compile, is not polling).
        await until('the workers registered', async () => Number((await pool.query<{ n: string }>('SELECT count(*) AS n FROM fleet_workers')).rows[0]!.n) >= n || undefined, 120_000);
        const workerStart = workers.reduce((a, w) => a + cpuSeconds(w.child.pid ?? 0), 0);
        const busyStart = machineBusySeconds();
        await until(
          `${team.connectors} cycles completed by ${n} worker(s)`,
          async () => Number((await pool.query<{ n: string }>("SELECT count(DISTINCT connector_id) AS n FROM edr.cycles WHERE status = 'completed'")).rows[0]!.n) >= team.connectors || undefined,
          600_000,
        );
        const workerCpu = workers.reduce((a, w) => a + cpuSeconds(w.child.pid ?? 0), 0) - workerStart;
        const pgCpu = pgPids().reduce((a, p) => a + cpuSeconds(p), 0) - before.pg;
        const mqCpu = cpuSeconds(rabbit.pid() ?? 0) - before.mq;
        const sim = process.cpuUsage(before.sim);
        const machineBusy = machineBusySeconds() - busyStart;
        const span = (await pool.query<{ ms: string }>("SELECT extract(epoch FROM max(finished_at) - min(started_at)) * 1000 AS ms FROM edr.cycles WHERE status = 'completed'")).rows[0]!;
        const spanMs = Number(span.ms);
        for (const w of workers) w.child.kill('SIGTERM');
        await Promise.all(workers.map((w) => w.exited));
        out.push({
          workers: n,
          tenants: team.connectors,
          hosts,
          spanMs,
          pollsPerMinute: team.connectors / (spanMs / 60_000),
          cpu: { workers: workerCpu, simulators: (sim.user + sim.system) / 1e6, postgres: pgCpu, rabbitmq: mqCpu },
          capacity: (os.cpus().length * spanMs) / 1000,
          machineBusy,
        });
      } finally {
        await pool.end();
      }
    }
  } finally {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await ch.close().catch(() => undefined);
    await conn.close().catch(() => undefined);
    await admin.end();
    await sims.close();
    await cluster.stop();
    await rabbit.destroy();
    tmp.dispose();
  }
  return out;
}
