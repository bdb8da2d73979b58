/**
 * Issue 12's stream bench: the management node simulator (in this process) raises a sustained
 * 2,000 alarm changes per second for 30 s and publishes each to RabbitMQ (a node of the bench's
 * own, tests/support/rabbitmq-node.ts); `northbound alarms follow` in a child process consumes
 * them into alarms.db. Measured: the rate the simulator achieved, the changes stored, how many
 * were lost (emitted message IDs missing from the store, after a bounded drain), end-to-end latency
 * per change (from the node's change time to the consumer's commit, both on this machine's clock)
 * p50 and p99, and the consumer's peak RSS (maxRSS at exit; VmRSS sampled while it ran).
 * The window's main-thread figure is measured by alarms-page.bench-part.ts (the same `alarms` part).
 */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'better-sqlite3';
import { startMgmtSimulator } from '@northbound/simulators/testing';
import { startPrivateRabbitMq } from '../support/rabbitmq-node';
import { until } from '../support/until';
import { benchDir } from './poller-process';

export interface AlarmStreamBench {
  seconds: number;
  target: number;
  emitted: number;
  /** Changes per second the simulator achieved over the run. */
  rate: number;
  stored: number;
  lost: number;
  duplicates: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  peakRssMb: number;
  sampledRssMb: number;
  drainMs: number;
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

async function vmRssKb(pid: number): Promise<number> {
  try {
    return Number(/^VmRSS:\s+(\d+)\s+kB/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

export async function benchAlarmStream(perSecond = 2_000, seconds = 30): Promise<AlarmStreamBench> {
  const tmp = benchDir();
  const rabbit = await startPrivateRabbitMq();
  const exchange = 'bench.alarms';
  // 1,000 devices × 14 alarm slots: about 9 changes per alarm over the run.
  const sim = await startMgmtSimulator({ seedDevices: 1_000, alarms: { generator: { ratePerSecond: perSecond, seed: 99, start: false }, amqp: { url: rabbit.url, exchange } } });
  const operator = sim.users.find((u) => u.role === 'operator')!;
  const caFile = tmp.write('node-ca.pem', sim.certificatePem);
  const dataDir = path.join(tmp.dir, 'collector');
  const rssFile = path.join(tmp.dir, 'rss.json');
  const child = spawn(
    process.execPath,
    ['--import', path.resolve('tests/bench/report-rss.mjs'), path.resolve('bin/northbound.mjs'), 'alarms', 'follow', '--data-dir', dataDir, '--amqp-url', rabbit.url, '--exchange', exchange, '--node', sim.basicUrl, '--username', operator.username, '--password-env', 'NB_BENCH_PW', '--ca-file', caFile, '--progress-every', '5'],
    { env: { ...process.env, NB_BENCH_PW: operator.password, NB_BENCH_RSS_FILE: rssFile, ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let sampledKb = 0;
  const sampler = setInterval(() => void vmRssKb(child.pid!).then((kb) => (sampledKb = Math.max(sampledKb, kb))), 250);
  try {
    await until('the collector to consume', () => /amqp live/.test(stderr) || (child.exitCode !== null && Promise.reject(new Error(stderr))), 60_000);
    const t0 = performance.now();
    sim.alarms.generator.start();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    sim.alarms.generator.stop();
    const elapsed = (performance.now() - t0) / 1000;
    const emitted = sim.alarms.lastMessageId();
    const drainStart = performance.now();
    await sim.alarms.published(120_000);
    const db = path.join(dataDir, 'alarms.db');
    const count = () => {
      const d = new Database(db, { readonly: true });
      try {
        return (d.prepare('SELECT COUNT(DISTINCT message_id) AS n FROM changes WHERE message_id IS NOT NULL').get() as { n: number }).n;
      } finally {
        d.close();
      }
    };
    // Bounded drain: whatever is not stored two minutes after the last change counts as lost.
    await until('the collector to store every change', () => count() >= emitted, 120_000).catch(() => undefined);
    const drainMs = performance.now() - drainStart;
    child.kill('SIGTERM');
    await exited;
    clearInterval(sampler);
    const d = new Database(db, { readonly: true });
    const rows = d.prepare('SELECT message_id AS id, stored_ms - event_ms AS ms FROM changes WHERE message_id IS NOT NULL').all() as Array<{ id: number; ms: number }>;
    const all = (d.prepare('SELECT COUNT(*) AS n FROM changes').get() as { n: number }).n;
    d.close();
    const distinct = new Set(rows.map((r) => r.id)).size;
    const lat = rows.map((r) => r.ms).sort((a, b) => a - b);
    const rss = JSON.parse(await readFile(rssFile, 'utf8').catch(() => '{"maxRssKb":0}')) as { maxRssKb: number };
    return {
      seconds,
      target: perSecond,
      emitted,
      rate: emitted / elapsed,
      stored: distinct,
      lost: emitted - distinct,
      duplicates: all - distinct,
      p50Ms: quantile(lat, 0.5),
      p99Ms: quantile(lat, 0.99),
      maxMs: lat[lat.length - 1] ?? 0,
      peakRssMb: rss.maxRssKb / 1024,
      sampledRssMb: sampledKb / 1024,
      drainMs,
    };
  } finally {
    clearInterval(sampler);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await sim.close();
    await rabbit.destroy();
    tmp.dispose();
  }
}
