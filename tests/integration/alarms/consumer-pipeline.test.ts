/**
 * The broker consumer with several batches in flight (C-70), against the tests' RabbitMQ: an
 * acknowledgement never passes a batch that is not stored yet (a later batch committed first waits
 * for it), and deliveries that waited for a free slot go out as one larger batch.
 */
import amqp, { type ChannelModel, type ConsumeMessage } from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AmqpAlarmConsumer } from '../../../electron/alarms/amqp-consumer';
import { createMemoryLogger } from '../../../electron/log';
import { ensureRabbitMq, RABBITMQ_START_MS } from '../../support/rabbitmq';
import { until } from '../../support/until';

let url = '';
let conn: ChannelModel;
const queues: string[] = [];
const consumers: AmqpAlarmConsumer[] = [];
const run = `${process.pid}.${Date.now()}`;

beforeAll(async () => {
  url = (await ensureRabbitMq()).url;
  conn = await amqp.connect(url);
}, RABBITMQ_START_MS + 10_000);

afterAll(async () => {
  for (const c of consumers) await c.stop();
  const ch = await conn.createChannel();
  for (const q of queues) await ch.deleteQueue(q).catch(() => undefined);
  for (const q of queues) await ch.deleteExchange(`${q}.x`).catch(() => undefined);
  await conn.close();
}, 60_000);

/** A queue and exchange of this test's own, `n` messages published to it (numbered from 1). */
async function queueWith(name: string, n: number) {
  const queue = `nb.test.pipeline.${name}.${run}`;
  const exchange = `${queue}.x`;
  queues.push(queue);
  const ch = await conn.createConfirmChannel();
  await ch.assertExchange(exchange, 'topic', { durable: true });
  await ch.assertQueue(queue, { durable: true, autoDelete: false });
  await ch.bindQueue(queue, exchange, '#');
  for (let i = 1; i <= n; i++) ch.publish(exchange, 'major.alarm', Buffer.from(String(i)), { persistent: true });
  await ch.waitForConfirms();
  await ch.close();
  return { queue, exchange };
}

/** Ready messages in the queue (after the consumer is gone: those it did not acknowledge). */
async function ready(queue: string): Promise<number> {
  const ch = await conn.createChannel();
  try {
    return (await ch.checkQueue(queue)).messageCount;
  } finally {
    await ch.close();
  }
}

const numbers = (ms: readonly ConsumeMessage[]) => ms.map((m) => Number(m.content.toString()));

describe('the alarm consumer with batches in flight', () => {
  it('acknowledges a later batch stored first only once the earlier one is stored; never past it', async () => {
    const { queue, exchange } = await queueWith('order', 10);
    const batches: number[][] = [];
    let failFirst = true;
    let releaseFirst!: () => void;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const c = new AmqpAlarmConsumer({
      url: async () => url,
      exchange,
      queue,
      batchSize: 5,
      flushMs: 60_000,
      maxInFlight: 2,
      prefetch: 100,
      logger: createMemoryLogger('error'),
      storeRetry: { baseDelayMs: 10, maxDelayMs: 10 },
      async onBatch(ms) {
        const ids = numbers(ms);
        batches.push(ids);
        // The first batch is still being stored (and then fails) while the second commits.
        if (ids[0] === 1 && failFirst) {
          await firstHeld;
          throw new Error('the database went away');
        }
      },
    });
    consumers.push(c);
    c.start();
    await until('both batches handed over', () => batches.length >= 2, 20_000);
    expect(batches.slice(0, 2)).toEqual([
      [1, 2, 3, 4, 5],
      [6, 7, 8, 9, 10],
    ]);
    // The second is stored; the first is not: nothing may be acknowledged yet. Stop while the first is held.
    const stopped = c.stop();
    releaseFirst();
    await stopped;
    expect(await ready(queue)).toBe(10);

    // Again, and this time the first batch is stored after the second: both acknowledged.
    failFirst = false;
    batches.length = 0;
    const again = new AmqpAlarmConsumer({ url: async () => url, exchange, queue, batchSize: 5, flushMs: 60_000, maxInFlight: 2, prefetch: 100, logger: createMemoryLogger('error'), onBatch: async (ms) => void batches.push(numbers(ms)) });
    consumers.push(again);
    again.start();
    await until('every message stored again', () => batches.flat().length >= 10, 20_000);
    await again.stop();
    expect(batches.flat().sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(await ready(queue)).toBe(0);
  }, 60_000);

  it('hands deliveries that waited for a free slot over as larger batches, up to maxBatch', async () => {
    const { queue, exchange } = await queueWith('grow', 50);
    const sizes: number[] = [];
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const c = new AmqpAlarmConsumer({
      url: async () => url,
      exchange,
      queue,
      batchSize: 5,
      maxBatch: 20,
      maxInFlight: 1,
      prefetch: 100,
      logger: createMemoryLogger('error'),
      async onBatch(ms) {
        sizes.push(ms.length);
        // The first batch is stored only once the broker handed every message to this consumer.
        if (sizes.length === 1) await held;
      },
    });
    consumers.push(c);
    c.start();
    await until('the first batch', () => sizes.length === 1, 20_000);
    await until('every message delivered to the consumer', async () => (await ready(queue)) === 0, 20_000);
    release();
    await until('every message stored', () => sizes.reduce((a, b) => a + b, 0) === 50, 20_000);
    expect(sizes).toEqual([5, 20, 20, 5]);
    await c.stop();
    expect(await ready(queue)).toBe(0);
  }, 60_000);

  it('creates a missing queue as a classic queue of version 2 (C-71) and consumes one made before as it is', async () => {
    const made = `nb.test.pipeline.v2.${run}`;
    queues.push(made);
    const { queue: before, exchange } = await queueWith('v1', 3);
    const got: number[] = [];
    const consumer = (queue: string) =>
      new AmqpAlarmConsumer({ url: async () => url, exchange, queue, batchSize: 1, flushMs: 10, logger: createMemoryLogger('error'), onBatch: (ms) => void got.push(...numbers(ms)) });
    const a = consumer(made);
    const b = consumer(before);
    consumers.push(a, b);
    a.start();
    b.start();
    await until('both consumers to be connected', () => a.connected && b.connected, 20_000);
    await until('the queue made before to be consumed', () => got.length >= 3, 20_000);
    expect(got.sort()).toEqual([1, 2, 3]);
    // The broker refuses a declaration whose arguments differ from the queue's: the new queue is version 2.
    const ch = await conn.createChannel();
    await expect(ch.assertQueue(made, { durable: true, autoDelete: false, arguments: { 'x-queue-version': 2 } })).resolves.toMatchObject({ queue: made });
    await ch.close();
    const refused = await conn.createChannel();
    refused.on('error', () => undefined);
    await expect(refused.assertQueue(made, { durable: true, autoDelete: false })).rejects.toThrow(/x-queue-version/);
    await a.stop();
    await b.stop();
  }, 60_000);
});
