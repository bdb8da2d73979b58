/**
 * Issue 12, must show: the consumer process (`northbound alarms follow`, a real child process) is
 * killed with SIGKILL mid-stream and started again; afterwards every change the simulator emitted
 * is stored exactly once (compared by message_id). The broker is a RabbitMQ node of this test's own.
 * Also: `alarms export` prints what the collector stored, offline.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPrivateRabbitMq, type PrivateRabbitMq } from '../../support/rabbitmq-node';
import { until } from '../../support/until';
import { exactlyOnce, startAlarmWorld, storedIds, type AlarmWorld } from './world';

const bin = path.resolve('bin/northbound.mjs');
const EXCHANGE = 'nb.test.kill';
let rabbit: PrivateRabbitMq;
let w: AlarmWorld;
let caFile = '';
const children: ChildProcessWithoutNullStreams[] = [];

beforeAll(async () => {
  rabbit = await startPrivateRabbitMq();
  w = await startAlarmWorld({ generator: { ratePerSecond: 150 }, amqp: { url: rabbit.url, exchange: EXCHANGE } });
  caFile = path.join(w.dir, 'node-ca.pem');
  await writeFile(caFile, w.sim.certificatePem);
}, 150_000);

afterAll(async () => {
  // Each step runs whatever the one before did: the broker node must never outlive the test.
  try {
    for (const c of children) if (c.exitCode === null && c.signalCode === null && c.pid !== undefined) process.kill(c.pid, 'SIGKILL');
    await w?.close();
  } finally {
    await rabbit?.destroy();
  }
}, 120_000);

function collector(dataDir: string, ...extra: string[]) {
  const child = spawn(
    process.execPath,
    [bin, 'alarms', 'follow', '--data-dir', dataDir, '--amqp-url', rabbit.url, '--exchange', EXCHANGE, '--node', w.sim.basicUrl, '--username', w.operator.username, '--password-env', 'NB_TEST_NODE_PW', '--ca-file', caFile, ...extra],
    { env: { ...process.env, NB_TEST_NODE_PW: w.operator.password, ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent' } },
  );
  children.push(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  child.stdout.resume();
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exit, stderr: () => stderr };
}

describe('alarms follow, killed and started again', () => {
  it('stores every change exactly once across a SIGKILL mid-stream', async () => {
    const dataDir = path.join(w.dir, 'collector');
    const db = path.join(dataDir, 'alarms.db');
    const sim = w.sim;
    const first = collector(dataDir, '--progress-every', '1');
    // The queue exists (bound to the exchange) once the consumer is live: from then on nothing is unroutable.
    await until('the collector to consume', () => /amqp live/.test(first.stderr()) || (first.child.exitCode !== null && Promise.reject(new Error(first.stderr()))), 60_000);
    sim.alarms.generator.start();
    await until('the collector to store a first stretch', () => sim.alarms.lastMessageId() >= 300 && storedIds(db).distinct >= 200, 30_000);
    first.child.kill('SIGKILL');
    expect(await first.exit).toBeNull();
    const atKill = sim.alarms.lastMessageId();
    await until('changes while no collector runs', () => sim.alarms.lastMessageId() >= atKill + 200, 20_000);
    const second = collector(dataDir, '--progress-every', '1');
    await until('the second collector to consume', () => /amqp live/.test(second.stderr()), 60_000);
    const atRestart = sim.alarms.lastMessageId();
    await until('changes after the restart', () => sim.alarms.lastMessageId() >= atRestart + 300, 20_000);
    sim.alarms.generator.stop();
    const emitted = sim.alarms.lastMessageId();
    await sim.alarms.published(60_000);
    await until(`all ${emitted} changes stored with their message IDs`, () => {
      const s = storedIds(db);
      return s.distinct === emitted && s.withoutId === 0;
    }, 60_000);
    expect(storedIds(db)).toEqual(exactlyOnce(emitted));
    // A progress line a period, and a clean stop on SIGTERM.
    expect(second.stderr()).toMatch(/alarms follow: \S+ amqp live, \+\d+ changes in \d+ s, stored \d+ alarms, \d+ changes, lag \d+ ms, backlog \d+, set aside 0/);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
    expect(second.stderr()).toContain('alarms follow: stopped.');

    // Offline: the export reads the same store.
    const exported = spawn(process.execPath, [bin, 'alarms', 'export', '--data-dir', dataDir, '--format', 'jsonl'], { env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent' } });
    let out = '';
    exported.stdout.on('data', (d) => (out += String(d)));
    expect(await new Promise((resolve) => exported.once('exit', resolve))).toBe(0);
    const lines = out.trim().split('\n').map((l) => JSON.parse(l) as { deviceName: string; changes: number });
    expect(lines).toHaveLength(sim.alarms.model.count);
    expect(lines.reduce((n, l) => n + l.changes, 0)).toBe(emitted);
  }, 240_000);
});
