/**
 * The fleet collectors' tests' shared pieces (issue 24.4): a world of their own (the node simulator
 * publishing to a RabbitMQ node of the file's own: the shared one may be stopped by another run's
 * teardown), a collector process (`northbound alarms follow --database-url`, real child process)
 * against it, whether one consumes, what the team's database holds by message ID, and what a
 * collector's progress lines say it stored.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { fleetQueueName } from '../../../electron/alarms/service';
import type { PgPool } from '../../../electron/store/postgres';
import { collectorLive, killCollectors, startCollector, type Collector } from '../../support/collector';
import { startPrivateRabbitMq, type PrivateRabbitMq } from '../../support/rabbitmq-node';
import { startAlarmWorld, type AlarmWorld } from './world';

export type { Collector } from '../../support/collector';

/**
 * The file's world on `exchange` (started in beforeAll, closed in afterAll with every collector
 * still running): its broker, node and CA file, the node's fleet queue, and `collector(url)` to
 * start a collector on a team's database.
 */
export function useCollectorWorld(exchange: string) {
  let rabbit: PrivateRabbitMq | undefined;
  let w: AlarmWorld | undefined;
  let caFile = '';
  let queue = '';
  const children: ChildProcessWithoutNullStreams[] = [];
  beforeAll(async () => {
    rabbit = await startPrivateRabbitMq();
    w = await startAlarmWorld({ generator: { ratePerSecond: 150 }, amqp: { url: rabbit.url, exchange } });
    caFile = path.join(w.dir, 'node-ca.pem');
    await writeFile(caFile, w.sim.certificatePem);
    queue = fleetQueueName(`node:${new URL(w.sim.basicUrl).host}`);
  }, 150_000);
  afterAll(async () => {
    try {
      killCollectors(children);
      await w?.close();
    } finally {
      await rabbit?.destroy();
    }
  }, 120_000);
  return {
    get rabbit() {
      return rabbit!;
    },
    get world() {
      return w!;
    },
    /** The node's one durable queue the fleet shares. */
    get queue() {
      return queue;
    },
    collector: (databaseUrl: string) => startCollector({ databaseUrl, amqpUrl: rabbit!.url, exchange, node: { url: w!.sim.basicUrl, ...w!.operator }, caFile, children }),
    /** Whether a collector consumes the node's queue (for `until`); one that exited fails the wait with what it said. */
    live: (c: Collector) => collectorLive(c, queue),
  };
}

/** What the team's database holds by message ID. */
export async function storedIds(pool: PgPool) {
  const all = 'SELECT message_id FROM alarm_changes UNION ALL SELECT message_id FROM alarm_handlings';
  const t = (await pool.query<Record<string, string | null>>(`SELECT COUNT(*) AS rows, COUNT(*) FILTER (WHERE message_id IS NULL) AS without, COUNT(DISTINCT message_id) AS distinct_, MIN(message_id) AS min, MAX(message_id) AS max FROM (${all}) x`)).rows[0]!;
  const twice = (await pool.query<{ message_id: string }>(`SELECT message_id FROM (${all}) x WHERE message_id IS NOT NULL GROUP BY message_id HAVING COUNT(*) > 1 LIMIT 20`)).rows.map((r) => Number(r.message_id));
  const n = (v: string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return { rows: n(t.rows)!, withoutId: n(t.without)!, distinct: n(t.distinct_)!, min: n(t.min), max: n(t.max), twice };
}

/** Changes a collector's progress lines say it stored. */
export const storedBy = (stderr: string) => [...stderr.matchAll(/amqp \w+(?: \(not connected\))?, \+(\d+) changes/g)].reduce((s, m) => s + Number(m[1]), 0);
