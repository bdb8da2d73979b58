/**
 * Publication against a real RabbitMQ broker and the management node simulator: every cycle is
 * published once to each target, in 5,000-host messages, retried after a failure without
 * sending anything twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMessages, ScorePublisher, type ScoreMessage } from '../../../electron/edr/publisher';
import { amqpTarget, mgmtTarget } from '../../../electron/edr/targets';
import { createMemoryLogger } from '../../../electron/log';
import { MgmtClient } from '../../../electron/mgmt';
import { startMgmtSimulator, type MgmtSimulator } from '@northbound/simulators/testing';
import { EdrDb } from '../../../electron/edr/store/edr-db';
import { SqliteEdrStore } from '../../../electron/edr/store/sqlite-edr-store';
import { makeScoredHosts } from '../../support/edr-fixtures';
import { ensureRabbitMq, RABBITMQ_START_MS } from '../../support/rabbitmq';

let broker: Awaited<ReturnType<typeof ensureRabbitMq>>;
let sim: MgmtSimulator;
let client: MgmtClient;
let dir: string;
let store: EdrDb;
let conn: amqp.ChannelModel;
let ch: amqp.Channel;
const queue = `nb-test-${process.pid}`;
const exchange = `northbound.zta.test.${process.pid}`;

beforeAll(async () => {
  broker = await ensureRabbitMq();
  sim = await startMgmtSimulator();
  const op = sim.users.find((u) => u.role === 'operator')!;
  client = new MgmtClient({
    profile: { id: 'p', host: '127.0.0.1', basicPort: sim.basicPort, oauthPort: sim.oauthPort, authMode: 'basic', username: op.username, tls: { mode: 'pinned', fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem } },
    secrets: { getPassword: async () => op.password, getClientSecret: async () => undefined },
  });
  await client.signIn();
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-pub-'));
  store = new EdrDb(path.join(dir, 'edr.db'));
  conn = await amqp.connect(broker.url);
  ch = await conn.createChannel();
  await ch.assertExchange(exchange, 'topic', { durable: true });
  await ch.assertQueue(queue, { exclusive: true });
  await ch.bindQueue(queue, exchange, 'zta.scores.#');
}, RABBITMQ_START_MS + 30_000);

afterAll(async () => {
  await ch?.close().catch(() => undefined);
  await conn?.close().catch(() => undefined);
  store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
  await client?.close();
  await sim?.close();
}, 90_000);

async function drain(): Promise<ScoreMessage[]> {
  const out: ScoreMessage[] = [];
  for (;;) {
    const m = await ch.get(queue, { noAck: true });
    if (!m) return out;
    out.push(JSON.parse(m.content.toString()) as ScoreMessage);
  }
}

function completedCycle(hosts: number): number {
  const id = store.beginCycle('conn-1', 'defender', 'tenant-a', new Date());
  store.writeScores(id, 'conn-1', makeScoredHosts(hosts, { cycleSalt: id }));
  store.finishCycle(id, 'completed', { hosts, at: new Date() });
  return id;
}

const targets = () => [amqpTarget({ url: broker.url, exchange }), mgmtTarget('lab', (m, p, b) => client.request(m, p, b))];

describe('publication', () => {
  it('publishes a cycle of 12,000 hosts once to RabbitMQ and to the management node, in 5,000-host parts', async () => {
    const publisher = new ScorePublisher({ store: new SqliteEdrStore(store), targets, logger: createMemoryLogger(), retryDelayMs: 10 });
    const cycle = completedCycle(12_000);
    await Promise.all([publisher.publishCycle(cycle), publisher.publishCycle(cycle)]);
    await publisher.publishCycle(cycle);
    await publisher.publishPending();
    // Each send counted only once the broker confirmed it: the messages are in the queue now.
    const got = await drain();
    expect(got.map((m) => m.messageId)).toEqual([`conn-1:${cycle}:1`, `conn-1:${cycle}:2`, `conn-1:${cycle}:3`]);
    expect(got.reduce((n, m) => n + m.hosts.length, 0)).toBe(12_000);
    expect(got[0]).toMatchObject({ type: 'northbound.zta.scores', vendor: 'defender', tenantId: 'tenant-a', parts: 3, summary: { hosts: 12_000 } });
    expect(sim.receivedScores.filter((r) => r.message.cycleId === cycle)).toHaveLength(3);
    expect(store.cycle(cycle)?.publishedAt).not.toBeNull();
  });

  it('retries a failed target later without sending the cycle twice to the one that worked', async () => {
    const publisher = new ScorePublisher({ store: new SqliteEdrStore(store), targets, logger: createMemoryLogger(), attempts: 2, retryDelayMs: 10 });
    const cycle = completedCycle(10);
    sim.faults.loginPage = true; // the management node answers its login page: publication there fails
    await expect(publisher.publishCycle(cycle)).rejects.toThrow(/mgmt:lab/);
    expect(store.cycle(cycle)?.publishedAt).toBeNull();
    expect(store.unpublishedCycles().map((c) => c.id)).toContain(cycle);
    sim.faults.loginPage = false;
    await publisher.publishPending();
    const got = (await drain()).filter((m) => m.cycleId === cycle);
    expect(got).toHaveLength(1);
    expect(sim.receivedScores.filter((r) => r.message.cycleId === cycle)).toHaveLength(1);
    expect(store.cycle(cycle)?.publishedAt).not.toBeNull();
  });

  it('does not publish a cycle that failed', async () => {
    const publisher = new ScorePublisher({ store: new SqliteEdrStore(store), targets, logger: createMemoryLogger() });
    const id = store.beginCycle('conn-1', 'defender', 'tenant-a', new Date());
    store.finishCycle(id, 'failed', { hosts: 0, error: 'x', at: new Date() });
    await publisher.publishCycle(id);
    expect(await drain()).toEqual([]);
    expect(sim.receivedScores.some((r) => r.message.cycleId === id)).toBe(false);
  });

  it('an exchange the broker refuses (declared otherwise) fails the send with the broker\'s reason; the process lives on', async () => {
    const other = `${exchange}.fanout`;
    await ch.assertExchange(other, 'fanout', { durable: false, autoDelete: true });
    const uncaught: unknown[] = [];
    const onUncaught = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', onUncaught);
    try {
      const target = amqpTarget({ url: broker.url, exchange: other });
      const [message] = await buildMessages(new SqliteEdrStore(store), store.cycle(completedCycle(3))!);
      await expect(target.send([message!])).rejects.toThrow(/PRECONDITION_FAILED|inequivalent/);
      // The connection's own error after the refusal reaches nobody's uncaught handler.
      await new Promise((resolve) => setImmediate(resolve));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await ch.deleteExchange(other).catch(() => undefined);
    }
  });
});

