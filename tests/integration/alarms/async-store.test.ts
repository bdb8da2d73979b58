/**
 * Issue 21.1: the alarm source over an `AlarmStore` that answers as a server database would (every
 * call on a later turn, no `db` behind it), consuming the simulator's messages from the shared
 * RabbitMQ. A batch is acknowledged to the broker only after its commit (MN-AL9), however late the
 * commit comes, and every change is still stored once.
 */
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { AlarmSource } from '../../../electron/alarms/source';
import { laterStore } from '../../support/alarm-fixtures';
import { ensureRabbitMq, RABBITMQ_START_MS } from '../../support/rabbitmq';
import { until } from '../../support/until';
import { exactlyOnce, startAlarmWorld, storedIds, type AlarmWorld } from './world';

let url: string;
/** The prototype of amqplib's channels (the product's consumer gets its channel from the same class). */
let channelProto: { ack(...a: unknown[]): void };
const worlds: AlarmWorld[] = [];
const sources: AlarmSource[] = [];
const queues: string[] = [];
const run = `${process.pid}.${Date.now()}`;

beforeAll(async () => {
  url = (await ensureRabbitMq()).url;
  const conn = await amqp.connect(url);
  channelProto = Object.getPrototypeOf(await conn.createChannel()) as typeof channelProto;
  await conn.close();
}, RABBITMQ_START_MS + 10_000);

afterAll(async () => {
  vi.restoreAllMocks();
  for (const s of sources) await s.stop();
  for (const w of worlds) await w.close();
  const conn = await amqp.connect(url);
  const ch = await conn.createChannel();
  for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
  await conn.close();
}, 60_000);

describe('an alarm source over a store that answers later', () => {
  it('acknowledges each broker batch only after the store committed it, and stores every change once', async () => {
    const exchange = `nb.test.h21.async.${run}`;
    const queue = `${exchange}.q`;
    queues.push(queue);
    const w = await startAlarmWorld({ amqp: { url, exchange } });
    worlds.push(w);
    const events: string[] = [];
    const ack = channelProto.ack;
    vi.spyOn(channelProto, 'ack').mockImplementation(function (this: unknown, ...a: unknown[]) {
      events.push('ack');
      return ack.apply(this, a);
    });
    const store = laterStore(w.store, { delayMs: 30, onCommit: (_, broker) => broker && events.push('commit') });
    expect((store as unknown as { db?: unknown }).db).toBeUndefined();
    const source = await AlarmSource.open({
      id: 'node-a',
      store,
      api: w.api,
      amqp: { url: async () => url, broker: url, exchange, queue, retry: { baseDelayMs: 100, maxDelayMs: 1000 } },
      logger: w.logger,
      retry: { baseDelayMs: 100, maxDelayMs: 1000 },
    });
    sources.push(source);
    source.start();
    await until('the consumer to connect', () => source.status().connected, 30_000);
    for (let i = 0; i < 4; i++) {
      w.sim.alarms.generator.step(25);
      await w.sim.alarms.published(10_000);
    }
    await until('every change stored and acknowledged', () => storedIds(w.file).distinct === 100 && events.filter((e) => e === 'ack').length === events.filter((e) => e === 'commit').length, 20_000);
    expect(storedIds(w.file)).toEqual(exactlyOnce(100));
    // Commit, then ack, batch after batch: never an ack before its batch's commit.
    expect(events.length).toBeGreaterThanOrEqual(2);
    events.forEach((e, i) => expect(e).toBe(i % 2 === 0 ? 'commit' : 'ack'));
    expect(source.status()).toMatchObject({ connected: true, stored: { changes: 100 } });
  }, 60_000);
});
