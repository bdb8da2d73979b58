/**
 * Issue 12, must show: with a real RabbitMQ started by this test (a node of its own, since other
 * test files use the default broker at the same time), the broker is restarted mid-stream and
 * afterwards every change the simulator emitted is stored exactly once (compared by message_id);
 * and malformed messages are set aside with a logged reason without blocking the queue or
 * crashing the consumer.
 */
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlarmSource } from '../../../electron/alarms/source';
import type { AlarmDetail, AlarmPage, AlarmSourceStatus } from '../../../shared/model/alarms';
import { startAppHarness } from '../../support/app-harness';
import { startPrivateRabbitMq, type PrivateRabbitMq } from '../../support/rabbitmq-node';
import { until } from '../../support/until';
import { exactlyOnce, startAlarmWorld, storedIds, type AlarmWorld } from './world';

let rabbit: PrivateRabbitMq;
const worlds: AlarmWorld[] = [];
const sources: AlarmSource[] = [];

beforeAll(async () => {
  rabbit = await startPrivateRabbitMq();
}, 150_000);

afterAll(async () => {
  // Each step runs whatever the one before did: the broker node must never outlive the test.
  try {
    for (const s of sources) await s.stop();
    for (const w of worlds) await w.close();
  } finally {
    await rabbit?.destroy();
  }
}, 120_000);

async function setUp(exchange: string, queue: string, generator: { ratePerSecond: number; burst?: { everyMs: number; size: number } }) {
  const w = await startAlarmWorld({ generator, amqp: { url: rabbit.url, exchange } });
  worlds.push(w);
  const source = await AlarmSource.open({
    id: 'node-a',
    store: w.store,
    api: w.api,
    amqp: { url: async () => rabbit.url, broker: rabbit.url, exchange, queue, prefetch: 200, retry: { baseDelayMs: 100, maxDelayMs: 1000 } },
    logger: w.logger,
    retry: { baseDelayMs: 100, maxDelayMs: 1000 },
  });
  sources.push(source);
  source.start();
  await until('the consumer to connect', () => source.status().connected, 30_000);
  return { w, source };
}

describe('the broker stream into alarms.db', () => {
  it('sets a malformed message aside with its reason, acknowledges it and goes on', async () => {
    const { w, source } = await setUp('nb.test.malformed', 'nb.test.malformed.q', { ratePerSecond: 0 });
    const conn = await amqp.connect(rabbit.url);
    const ch = await conn.createConfirmChannel();
    const bad = [
      ['critical.alarm.x.y.z', 'this is not JSON {'],
      ['major.alarm.x.y.z', JSON.stringify({ message_id: 9_000_001, severity: 'major', event_type: 'alarm' })],
      ['fatal.alarm.x.y.z', JSON.stringify({ message_id: 9_000_002, severity: 'catastrophic', event_type: 'alarm', event_time: '2026-05-01T12:00:00.000+0000', alarm: {} })],
    ] as const;
    for (const [key, body] of bad) ch.publish('nb.test.malformed', key, Buffer.from(body), { persistent: true });
    await ch.waitForConfirms();
    // Real changes after them still come through.
    w.sim.alarms.generator.step(5);
    await w.sim.alarms.published(10_000);
    await until('the valid changes to be stored', () => storedIds(w.file).distinct === 5, 15_000);
    expect(source.status()).toMatchObject({ setAside: 3, state: 'live', connected: true });
    const dead = await w.store.deadLetters('node-a');
    expect(dead.map((d) => d.reason).sort()).toEqual(['event_time is missing', 'not JSON', 'severity “catastrophic” is not a known severity']);
    expect(dead.find((d) => d.reason === 'not JSON')).toMatchObject({ routingKey: 'critical.alarm.x.y.z', excerpt: 'this is not JSON {' });
    const logged = w.logger.lines.filter((l) => l.includes('alarm message set aside'));
    expect(logged).toHaveLength(3);
    expect(logged.join('\n')).toContain('not JSON');
    // Nothing left waiting or unacknowledged: the queue is not blocked.
    await until('the queue to be empty', async () => (await ch.checkQueue('nb.test.malformed.q')).messageCount === 0, 10_000);
    expect(storedIds(w.file)).toEqual(exactlyOnce(5));
    await conn.close();
  }, 60_000);

  it('stores every change exactly once when the broker restarts mid-stream', async () => {
    const { w, source } = await setUp('nb.test.restart', 'nb.test.restart.q', { ratePerSecond: 150, burst: { everyMs: 1500, size: 60 } });
    const sim = w.sim;
    sim.alarms.generator.start();
    await until('a first stretch of changes', () => sim.alarms.lastMessageId() >= 300, 20_000);
    await rabbit.stop();
    const atStop = sim.alarms.lastMessageId();
    await until('changes while the broker is down', () => sim.alarms.lastMessageId() >= atStop + 150, 20_000);
    expect(source.status().connected).toBe(false);
    await rabbit.start();
    await until('the consumer to reconnect', () => source.status().connected, 60_000);
    await until('the publisher to reconnect', () => sim.alarms.publisher?.connected, 60_000);
    const atStart = sim.alarms.lastMessageId();
    await until('changes after the restart', () => sim.alarms.lastMessageId() >= atStart + 300, 20_000);
    sim.alarms.generator.stop();
    const emitted = sim.alarms.lastMessageId();
    await sim.alarms.published(60_000);
    await until(`all ${emitted} changes stored with their message IDs`, () => {
      const s = storedIds(w.file);
      return s.distinct === emitted && s.withoutId === 0 && s;
    }, 60_000);
    expect(storedIds(w.file)).toEqual(exactlyOnce(emitted));
    expect(sim.alarms.publisher!.connects).toBeGreaterThanOrEqual(2);
    // The reconnect was followed by a backfill, and the stream is live again.
    expect(source.status()).toMatchObject({ state: 'live', connected: true, setAside: 0 });
    expect(source.status().lastBackfillAt).not.toBeNull();
    expect(w.logger.lines.some((l) => l.includes('alarm broker connection lost'))).toBe(true);
  }, 180_000);

  it('backfills over REST what the broker lost (the queue deleted mid-stream): a message_id gap', async () => {
    const { w, source } = await setUp('nb.test.gap', 'nb.test.gap.q', { ratePerSecond: 150 });
    const sim = w.sim;
    sim.alarms.generator.start();
    await until('a first stretch stored', () => storedIds(w.file).distinct >= 200, 20_000);
    // Messages published while the queue is gone are dropped by the broker: the node's numbers skip.
    const conn = await amqp.connect(rabbit.url);
    const ch = await conn.createChannel();
    await ch.deleteQueue('nb.test.gap.q');
    await conn.close();
    const atDelete = sim.alarms.lastMessageId();
    // Back when messages published after the new queue exists arrive (those before it are lost).
    await until('the consumer to be back on a new queue', () => source.status().connected && storedIds(w.file).max! > atDelete + 30, 30_000);
    sim.alarms.generator.stop();
    const emitted = sim.alarms.lastMessageId();
    await sim.alarms.published(30_000);
    // Every change is stored once; those the broker lost came by REST (no message ID). A backfill
    // can store the newest changes before their broker copies arrive: those fill in the row's
    // message ID (alarms-db fillChangeId), so the wait is for the last message ID too.
    const s = await until('every change stored, the last one with its message ID', () => {
      const x = storedIds(w.file);
      return x.rows === emitted && x.max === emitted && x;
    }, 30_000);
    expect(s).toMatchObject({ rows: emitted, twice: [], max: emitted });
    expect(s.withoutId).toBe(emitted - s.distinct);
    expect(s.withoutId).toBeGreaterThan(0);
    expect(w.logger.lines.some((l) => l.includes('alarm stream gap'))).toBe(true);
  }, 90_000);

  it('feeds the app from the Settings’ broker: a signed-in connection consumes its own durable queue', async () => {
    const h = await startAppHarness({ openDemo: true, app: { demoEdr: false, edr: { env: { NORTHBOUND_AMQP_URL: rabbit.url } }, alarms: { changedEveryMs: 20, statusEveryMs: 50 } } });
    try {
      const sim = h.app.demo.simulator!;
      sim.alarms.generator.stop(true);
      const profileId = h.app.demo.status().oauthProfileId!;
      await h.call('session.signIn', { profileId });
      const status = await until('the app to consume from the broker', async () => {
        const st = await h.call<AlarmSourceStatus>('alarms.status', { profileId });
        return st.connected && st.state === 'live' && st;
      }, 30_000);
      expect(status).toMatchObject({ source: 'amqp', exchange: 'mgmt.alarms', broker: rabbit.url.replace('guest:guest@', 'guest@') });
      expect(status.queue).toMatch(new RegExp(`^northbound\\.alarms\\.[0-9a-f-]{36}\\.${profileId}$`));
      sim.alarms.generator.step(10);
      await sim.alarms.published(10_000);
      const page = await until('the ten changes to come through the broker', async () => {
        const p = await h.call<AlarmPage>('alarms.list', { profileId, filter: { cleared: 'all' }, limit: 100 });
        const details = await Promise.all(p.rows.map((r) => h.call<AlarmDetail>('alarms.get', { profileId, id: r.id })));
        const ids = details.flatMap((d) => d.statusChanges.map((c) => c.messageId)).filter((id) => id !== null);
        return ids.length >= 10 && new Set(ids).size === ids.length && details;
      }, 15_000);
      expect(page.length).toBeGreaterThan(0);
      // The password of the address never reaches the window.
      expect(h.answers.join('\n')).not.toContain('guest:guest');
      expect(h.pushed.join('\n')).not.toContain('guest:guest');
      expect(h.logs.some((l) => l.includes('event payload outside its schema'))).toBe(false);
    } finally {
      await h.close();
    }
  }, 90_000);
});

