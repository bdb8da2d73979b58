/**
 * Issue 24.4, must show: a fleet of two collectors (`northbound alarms follow --database-url`, real
 * child processes) on one node's queue, storing into a real PostgreSQL (a private cluster), fed by
 * the node simulator through a real RabbitMQ (a node of this test's own). One collector is killed
 * with SIGKILL mid-stream, then the broker restarts under the other: every change the node emitted
 * is stored exactly once (the stored message IDs compared with what the simulator emitted), and
 * `alarms export --database-url` prints it alarm by alarm as the node's own record says.
 */
import amqp from 'amqplib';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { usePostgres } from '../../support/postgres';
import { until } from '../../support/until';
import { storedBy, storedIds, useCollectorWorld } from './fleet-collector';

const EXCHANGE = 'nb.test.fleet';
const pg = usePostgres();
const world = useCollectorWorld(EXCHANGE);
const { collector, live } = world;

describe('alarms follow --database-url: a fleet of collectors', () => {
  it('two collectors share the node’s queue; one killed with SIGKILL, the broker restarted: every change stored exactly once', async () => {
    const db = await pg.freshDatabase('fleet');
    const sim = world.world.sim;
    const rabbit = world.rabbit;
    const a = collector(db.url);
    const b = collector(db.url);
    const { queue } = world;
    for (const [name, c] of [['first', a], ['second', b]] as const) await until(`the ${name} collector to consume`, () => live(c), 60_000);
    expect(a.stderr()).toContain(`into the team's database ${db.url} from`);
    // One queue, named after the node, with both collectors on it.
    const conn = await amqp.connect(rabbit.url);
    conn.on('error', () => undefined);
    const ch = await conn.createChannel();
    expect(await ch.checkQueue(queue)).toMatchObject({ queue, consumerCount: 2 });
    sim.alarms.generator.start();
    // Both consume (competing consumers on one queue).
    await until('both collectors to store', () => sim.alarms.lastMessageId() >= 300 && storedBy(a.stderr()) > 0 && storedBy(b.stderr()) > 0, 30_000);
    // Messages the broker drops (the queue unbound a while): no collector sees the hole in its own
    // share of the stream; the fleet's check over what both stored finds it and one backfills it.
    await ch.unbindQueue(queue, EXCHANGE, '#');
    const atUnbind = sim.alarms.lastMessageId();
    await until('messages the broker drops', () => sim.alarms.lastMessageId() >= atUnbind + 40, 20_000);
    sim.alarms.generator.stop();
    await sim.alarms.published(20_000);
    await ch.bindQueue(queue, EXCHANGE, '#');
    await conn.close();
    sim.alarms.generator.start();
    await until('changes after the hole', () => sim.alarms.lastMessageId() >= atUnbind + 140, 20_000);
    // Closed by the fleet's stream check (nothing else backfills before the broker restart below).
    await until('the hole backfilled by REST', async () => (await storedIds(db.pool)).withoutId >= 40, 30_000);
    a.child.kill('SIGKILL');
    expect(await a.exit).toBeNull();
    const atKill = sim.alarms.lastMessageId();
    await until('changes after the kill', () => sim.alarms.lastMessageId() >= atKill + 200, 20_000);
    // The broker restarts under the collector left.
    await rabbit.stop();
    const atStop = sim.alarms.lastMessageId();
    await until('changes while the broker is down', () => sim.alarms.lastMessageId() >= atStop + 150, 20_000);
    await rabbit.start();
    await until('the collector to reconnect', () => (b.stderr().match(/alarms follow: amqp live \(queue/g) ?? []).length >= 2, 60_000);
    await until('the node to publish again', () => sim.alarms.publisher?.connected, 60_000);
    const atBack = sim.alarms.lastMessageId();
    await until('changes after the broker restart', () => sim.alarms.lastMessageId() >= atBack + 150, 20_000);
    sim.alarms.generator.stop();
    const emitted = sim.alarms.lastMessageId();
    await sim.alarms.published(60_000);
    // Each change once: what the broker lost came by REST (without its message ID), every other with its own.
    const stored = await until(`all ${emitted} changes stored`, async () => {
      const s = await storedIds(db.pool);
      return s.rows === emitted && s.max === emitted && s;
    }, 90_000);
    expect(stored).toMatchObject({ rows: emitted, min: 1, max: emitted, twice: [] });
    expect(stored.distinct + stored.withoutId).toBe(emitted);
    expect(stored.withoutId).toBeGreaterThanOrEqual(40);
    b.child.kill('SIGTERM');
    expect(await b.exit).toBe(0);
    expect(b.stderr()).toContain('alarms follow: stopped.');

    // The export reads the team's store: alarm by alarm, what the node says it emitted.
    const out = await runCli(['alarms', 'export', '--database-url', db.url, '--format', 'jsonl'], { ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent' });
    expect(out.stderr).toBe('');
    expect(out.code).toBe(0);
    const lines = out.stdout.trim().split('\n').map((l) => JSON.parse(l) as { deviceName: string; object: string; type: string; severity: string; changes: number });
    const key = (x: { deviceName: string; object: string; type: string }) => `${x.deviceName} ${x.object} ${x.type}`;
    const node = new Map(sim.alarms.model.all().map((x) => [key(x), { changes: x.changes.length, severity: x.changes.at(-1)!.perceivedSeverity }]));
    expect(new Map(lines.map((l) => [key(l), { changes: l.changes, severity: l.severity }]))).toEqual(node);
  }, 300_000);

  it('a change whose text holds a NUL (which PostgreSQL’s text cannot hold) is stored with U+FFFD, and the collector goes on with the next', async () => {
    const db = await pg.freshDatabase('fleet_nul');
    const sim = world.world.sim;
    const c = collector(db.url);
    await until('the collector to consume', () => live(c), 60_000);
    const key = { deviceName: 'branch-nul', object: 'cpu', type: 'high-cpu-utilization', specificProblem: 'nul-in-text' };
    const as = { uuid: '7d1e2a40-0000-4000-8000-00000000a0a0', org: 'Org-NUL' };
    const bad = sim.alarms.model.change(key, 'major', 'CPU\u0000at 99 %', 'system', as);
    const next = sim.alarms.model.change({ ...key, specificProblem: 'after-the-nul' }, 'minor', 'CPU at 80 %', 'system', as);
    const texts = async () => (await db.pool.query<{ message_id: string; text: string }>('SELECT message_id, text FROM alarm_changes WHERE message_id = ANY($1::bigint[]) ORDER BY message_id', [[bad.messageId, next.messageId]])).rows;
    await until('both changes stored', async () => (await texts()).length === 2 || (c.child.exitCode !== null && Promise.reject(new Error(c.stderr()))), 30_000).catch((e: unknown) => {
      throw new Error(`${String(e)}; the collector said: ${c.stderr().slice(-2_000)}`);
    });
    expect(await texts()).toEqual([
      { message_id: String(bad.messageId), text: 'CPU\uFFFDat 99 %' },
      { message_id: String(next.messageId), text: 'CPU at 80 %' },
    ]);
    process.kill(c.child.pid!, 'SIGTERM');
    expect(await c.exit).toBe(0);
  }, 120_000);

  it('refuses --data-dir with --database-url, and a password in the URL without echoing it', async () => {
    const both = await runCli(['alarms', 'follow', '--data-dir', '/tmp/x', '--database-url', 'postgres://u@127.0.0.1/db', '--poll', '--node', 'https://127.0.0.1:1', '--username', 'u', '--password-env', 'NB_X'], { NB_X: 'pw' });
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('Give either --data-dir');
    const pw = await runCli(['alarms', 'export', '--database-url', 'postgres://u:hunter2@127.0.0.1/db', '--format', 'csv']);
    expect(pw.code).toBe(2);
    expect(pw.stderr).toContain('The database URL carries a password.');
    expect(pw.stderr).not.toContain('hunter2');
  }, 60_000);
});
