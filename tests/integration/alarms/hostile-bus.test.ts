/**
 * Issue 20, items 2–4 on the bus: hostile but well-formed messages published to the node's
 * exchange on a real RabbitMQ (the shared broker, with this file's own exchanges and queues) while
 * the simulator publishes its real changes. One message with a far-future time must not blind
 * the collector (it is set aside, and later losses are still backfilled); one forged message_id
 * must not switch gap detection off, across a restart of the source; a change without its own
 * severity or time takes the message's.
 */
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlarmSource } from '../../../electron/alarms/source';
import { DEFAULT_DIRECTOR_HOSTNAME } from '@northbound/simulators/testing/alarms';
import { ensureRabbitMq, RABBITMQ_START_MS } from '../../support/rabbitmq';
import { until } from '../../support/until';
import { startAlarmWorld, storedIds, type AlarmWorld } from './world';

let url: string;
const worlds: AlarmWorld[] = [];
const sources: AlarmSource[] = [];
const queues: string[] = [];
const run = `${process.pid}.${Date.now()}`;

beforeAll(async () => {
  url = (await ensureRabbitMq()).url;
}, RABBITMQ_START_MS + 10_000);

afterAll(async () => {
  for (const s of sources) await s.stop();
  for (const w of worlds) await w.close();
  const conn = await amqp.connect(url);
  const ch = await conn.createChannel();
  for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
  await conn.close();
}, 60_000);

async function newSource(w: AlarmWorld, exchange: string, queue: string): Promise<AlarmSource> {
  const source = await AlarmSource.open({
    id: 'node-a',
    store: w.store,
    api: w.api,
    amqp: { url: async () => url, broker: url, exchange, queue, retry: { baseDelayMs: 100, maxDelayMs: 1000 } },
    logger: w.logger,
    retry: { baseDelayMs: 100, maxDelayMs: 1000 },
  });
  sources.push(source);
  source.start();
  return source;
}

async function setUp(name: string) {
  const exchange = `nb.test.h20.${name}.${run}`;
  const queue = `${exchange}.q`;
  queues.push(queue);
  const w = await startAlarmWorld({ amqp: { url, exchange } });
  worlds.push(w);
  const source = await newSource(w, exchange, queue);
  await until('the consumer to connect', () => source.status().connected, 30_000);
  const conn = await amqp.connect(url);
  const ch = await conn.createConfirmChannel();
  const publish = async (body: unknown, key = 'major.alarm.forged.org.system') => {
    ch.publish(exchange, key, Buffer.from(JSON.stringify(body)), { persistent: true });
    await ch.waitForConfirms();
  };
  /** `n` real changes the broker drops (the queue is unbound meanwhile): the node's numbers skip. */
  const lose = async (n: number) => {
    await ch.unbindQueue(queue, exchange, '#');
    w.sim.alarms.generator.step(n);
    await w.sim.alarms.published(10_000);
    await ch.bindQueue(queue, exchange, '#');
  };
  const step = async (n: number) => {
    w.sim.alarms.generator.step(n);
    await w.sim.alarms.published(10_000);
  };
  return { w, source, exchange, queue, publish, lose, step, close: () => conn.close() };
}

/** A well-formed alarm message of the node's shape (MN-AL8). */
function message(o: { id: number; director?: string; device?: string; t: number; severity?: string; change?: Record<string, unknown> }) {
  const device = o.device ?? 'forged-device';
  return {
    message_id: o.id,
    severity: o.severity ?? 'major',
    event_type: 'alarm',
    event_entity: device,
    organization: 'org',
    user: 'system',
    event_time: o.t,
    director_hostname: o.director ?? DEFAULT_DIRECTOR_HOSTNAME,
    alarm: { device, deviceName: device, org: 'org', object: 'vni-0/9', type: 'interface-down', 'specific-problem': '', lastAlarmText: 'x', lastPerceivedSeverity: o.severity ?? 'major', isCleared: false, lastStatusChangeTimeStamp: o.t },
    statusChange: o.change ?? { eventTime: o.t, perceivedSeverity: o.severity ?? 'major', alarmText: 'x' },
  };
}

describe('hostile messages on the bus (issue 20)', () => {
  it('sets a far-future time aside: the cursor stays near now and later losses are still backfilled', async () => {
    const t = await setUp('time');
    await t.step(5);
    await until('the first changes stored', () => storedIds(t.w.file).rows === 5, 15_000);
    // The next ID of the node's own numbering, times 9e15: valid in every other respect.
    await t.publish(message({ id: 6, t: 9e15 }));
    await until('the message handled (set aside, or stored before issue 20)', () => t.source.status().setAside === 1 || storedIds(t.w.file).rows === 6, 15_000);
    // Changes the broker loses afterwards come back over REST.
    await t.lose(20);
    await t.step(5);
    const emitted = t.w.sim.alarms.lastMessageId();
    await until(`all ${emitted} changes stored`, () => storedIds(t.w.file).rows === emitted, 20_000);
    expect(storedIds(t.w.file)).toMatchObject({ rows: 30, withoutId: 20, twice: [] });
    expect(t.source.status().setAside).toBe(1);
    expect((await t.w.store.deadLetters('node-a'))[0]!.reason).toMatch(/lastStatusChangeTimeStamp .* is outside the plausible window/);
    expect((await t.w.store.sourceState('node-a')).cursorMs).toBeLessThanOrEqual(Date.now() + 86_400_000);
    // The list reads every stored alarm; none of them is the far-future one.
    const list = await t.w.store.list('node-a', { cleared: 'all' }, 0, 1000);
    expect(list.rows.some((r) => r.deviceName === 'forged-device')).toBe(false);
    await t.close();
  }, 60_000);

  it('a change without its own severity or time takes the message’s', async () => {
    const t = await setUp('fallback');
    const at = Date.now() - 1000;
    await t.publish(message({ id: 1, director: 'edge-node-2', device: 'fallback-device', t: at, severity: 'minor', change: { alarmText: 'no severity, no time' } }));
    const row = await until('the change stored', async () => (await t.w.store.list('node-a', { cleared: 'all', device: 'fallback-device' }, 0, 1)).rows[0], 15_000);
    const d = (await t.w.store.detail('node-a', row.id))!;
    expect(d.statusChanges).toEqual([expect.objectContaining({ at: new Date(at).toISOString(), severity: 'minor', text: 'no severity, no time' })]);
    expect(t.source.status().setAside).toBe(0);
    await t.close();
  }, 60_000);

  it('one forged message_id does not switch gap detection off, across a restart', async () => {
    const t = await setUp('ids');
    await t.step(5);
    await until('the first changes stored', () => storedIds(t.w.file).rows === 5, 15_000);
    // Well-formed, under the node's real name, with an ID far beyond the next one.
    await t.publish(message({ id: 999_999_999_999_999, t: Date.now() }));
    await until('the forged message stored', () => storedIds(t.w.file).max === 999_999_999_999_999, 15_000);
    // A real gap of 60 is still found and backfilled (the forged change is the one extra row).
    await t.lose(60);
    await t.step(5);
    let emitted = t.w.sim.alarms.lastMessageId();
    await until('the 60 lost changes backfilled', () => storedIds(t.w.file).rows === emitted + 1, 20_000);
    expect((await t.w.store.sourceState('node-a')).messageIds.get(DEFAULT_DIRECTOR_HOSTNAME)).toBe(emitted);
    expect(t.w.logger.lines.some((l) => l.includes('message_id far from the last one trusted'))).toBe(true);

    // The same after the source starts again from what the store kept.
    await t.source.stop();
    const backfills = () => t.w.logger.lines.filter((l) => l.includes('alarm backfill done')).length;
    const before = backfills();
    const again = await newSource(t.w, t.exchange, t.queue);
    await until('the restarted source to be live, its first backfill done', () => again.status().connected && backfills() > before && again.status().state === 'live', 30_000);
    await t.lose(60);
    await t.step(5);
    emitted = t.w.sim.alarms.lastMessageId();
    await until('the next 60 lost changes backfilled', () => storedIds(t.w.file).rows === emitted + 1, 20_000);
    expect(storedIds(t.w.file)).toMatchObject({ rows: emitted + 1, twice: [] });
    await t.close();
  }, 90_000);
});
