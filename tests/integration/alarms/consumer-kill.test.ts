/**
 * Issue 12, must show: the consumer process (`northbound alarms follow`, a real child process) is
 * killed with SIGKILL mid-stream and started again; afterwards every change the simulator emitted
 * is stored exactly once (compared by message_id). The broker is a RabbitMQ node of this test's own.
 * Also: `alarms export` prints what the collector stored, offline.
 *
 * Issue 20, must show: the same against a node that caps its pages at 100 (MN-47), with the
 * broker restarted under the second collector, messages the broker drops (skipped message_ids),
 * duplicates, malformed message_ids and a forged far-away one: every change stored exactly once,
 * and `alarms export` equal to the node's own record of what it emitted, alarm by alarm.
 */
import Database from 'better-sqlite3';
import amqp from 'amqplib';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmQueueName } from '../../../electron/alarms/service';
import { startPrivateRabbitMq, type PrivateRabbitMq } from '../../support/rabbitmq-node';
import { until } from '../../support/until';
import { startAlarmWorld, storedIds, type AlarmWorld } from './world';

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
  it('stores every change exactly once across a SIGKILL mid-stream, a broker restart and hostile message_ids, against pages capped at 100', async () => {
    const dataDir = path.join(w.dir, 'collector');
    const db = path.join(dataDir, 'alarms.db');
    const sim = w.sim;
    sim.faults.pageCap = 100;
    const first = collector(dataDir, '--progress-every', '1');
    // The queue exists (bound to the exchange) once the consumer is live: from then on nothing is unroutable.
    await until('the collector to consume', () => /amqp live/.test(first.stderr()) || (first.child.exitCode !== null && Promise.reject(new Error(first.stderr()))), 60_000);
    const installId = (() => {
      const d = new Database(db, { readonly: true });
      try {
        return (d.prepare("SELECT value FROM meta WHERE key = 'install_id'").get() as { value: string }).value;
      } finally {
        d.close();
      }
    })();
    const queue = alarmQueueName(installId, `node:${new URL(sim.basicUrl).host}`);
    // A spy queue of the test's own sees the node's real messages, to send them again.
    const conn = await amqp.connect(rabbit.url);
    conn.on('error', () => undefined);
    const ch = await conn.createConfirmChannel();
    const spy = (await ch.assertQueue('', { exclusive: true })).queue;
    await ch.bindQueue(spy, EXCHANGE, '#');
    sim.alarms.generator.start();
    await until('the collector to store a first stretch', () => sim.alarms.lastMessageId() >= 300 && storedIds(db).distinct >= 200, 30_000);
    // Skipped message_ids: the broker drops what is published while the collector's queue is unbound.
    await ch.unbindQueue(queue, EXCHANGE, '#');
    const atUnbind = sim.alarms.lastMessageId();
    await until('messages the broker drops', () => sim.alarms.lastMessageId() >= atUnbind + 40, 20_000);
    // Each of them reached the broker (and was dropped) before the queue is bound again: a message
    // still on its way when the bind landed was routed to the queue (seen under load: 39 dropped).
    sim.alarms.generator.stop();
    await sim.alarms.published(20_000);
    await ch.bindQueue(queue, EXCHANGE, '#');
    sim.alarms.generator.start();
    // A duplicate, malformed message_ids, and a real change under a forged far-away ID.
    const real = (await ch.get(spy, { noAck: true })) as amqp.GetMessage;
    const body = JSON.parse(real.content.toString()) as Record<string, unknown>;
    for (const id of [body.message_id, 'abc', 0, -5, 1.5, 999_999_999_999_999]) ch.publish(EXCHANGE, real.fields.routingKey, Buffer.from(JSON.stringify({ ...body, message_id: id })), { persistent: true });
    await ch.waitForConfirms();
    await conn.close();
    await until('the hostile messages consumed', () => /set aside 4\b/.test(first.stderr()), 20_000);
    first.child.kill('SIGKILL');
    expect(await first.exit).toBeNull();
    const atKill = sim.alarms.lastMessageId();
    await until('changes while no collector runs', () => sim.alarms.lastMessageId() >= atKill + 200, 20_000);
    const second = collector(dataDir, '--progress-every', '1');
    await until('the second collector to consume', () => /amqp live/.test(second.stderr()), 60_000);
    const atRestart = sim.alarms.lastMessageId();
    await until('changes after the restart', () => sim.alarms.lastMessageId() >= atRestart + 150, 20_000);
    // The broker restarts under the second collector.
    await rabbit.stop();
    const atStop = sim.alarms.lastMessageId();
    await until('changes while the broker is down', () => sim.alarms.lastMessageId() >= atStop + 150, 20_000);
    await rabbit.start();
    // A state line (not a progress line): live, reconnecting, live again.
    await until('the collector to reconnect', () => (second.stderr().match(/alarms follow: amqp live \(queue/g) ?? []).length >= 2, 60_000);
    await until('the node to publish again', () => sim.alarms.publisher?.connected, 60_000);
    const atBack = sim.alarms.lastMessageId();
    await until('changes after the broker restart', () => sim.alarms.lastMessageId() >= atBack + 150, 20_000);
    sim.alarms.generator.stop();
    const emitted = sim.alarms.lastMessageId();
    await sim.alarms.published(60_000);
    // Each change once: those the broker dropped came by REST (no message ID), every other with its own.
    const stored = await until(`all ${emitted} changes stored`, () => {
      const s = storedIds(db);
      return s.rows === emitted && s.max === emitted && s;
    }, 60_000);
    expect(stored).toMatchObject({ rows: emitted, min: 1, max: emitted, twice: [] });
    expect(stored.distinct + stored.withoutId).toBe(emitted);
    expect(stored.withoutId).toBeGreaterThanOrEqual(40);
    // A progress line a period, and a clean stop on SIGTERM.
    expect(second.stderr()).toMatch(/alarms follow: \S+ amqp live, \+\d+ changes in \d+ s, stored \d+ alarms, \d+ changes, lag \d+ ms, backlog \d+, set aside 0, unreadable 0/);
    second.child.kill('SIGTERM');
    expect(await second.exit).toBe(0);
    expect(second.stderr()).toContain('alarms follow: stopped.');

    // Offline: the export reads the same store.
    const exported = spawn(process.execPath, [bin, 'alarms', 'export', '--data-dir', dataDir, '--format', 'jsonl'], { env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent' } });
    let out = '';
    exported.stdout.on('data', (d) => (out += String(d)));
    expect(await new Promise((resolve) => exported.once('exit', resolve))).toBe(0);
    const lines = out.trim().split('\n').map((l) => JSON.parse(l) as { deviceName: string; object: string; type: string; severity: string; changes: number });
    expect(lines).toHaveLength(sim.alarms.model.count);
    expect(lines.reduce((n, l) => n + l.changes, 0)).toBe(emitted);
    // Alarm by alarm, what the node says it emitted.
    const key = (a: { deviceName: string; object: string; type: string }) => `${a.deviceName} ${a.object} ${a.type}`;
    const node = new Map(sim.alarms.model.all().map((a) => [key(a), { changes: a.changes.length, severity: a.changes.at(-1)!.perceivedSeverity }]));
    expect(new Map(lines.map((l) => [key(l), { changes: l.changes, severity: l.severity }]))).toEqual(node);
  }, 240_000);
});
