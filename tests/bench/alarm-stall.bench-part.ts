/**
 * Main's event loop during a 2,000 alarms/s stream (issue 21 item 5): the real app in this process
 * (node adapters, no window), its demo node seeded with 1,000 devices publishing every change to a
 * RabbitMQ node of the bench's own, the app's alarm source consuming them into alarms.db. Measured
 * over the streaming seconds: main's longest event-loop stall (loop-stall.ts; target < 50 ms) and
 * the longest single `ingest` (one batch's transaction on main), so a stall is known to be the
 * store's or not. The demo node's generator runs on this thread too, as it does in the app.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createNodeAdapters } from '../../electron/app/node-platform';
import { createApp } from '../../electron/app/services';
import { createMemoryLogger } from '../../electron/log';
import { AlarmDb } from '../../electron/alarms/store/alarms-db';
import { startPrivateRabbitMq } from '../support/rabbitmq-node';
import { until } from '../support/until';
import { watchStalls, type StallReport } from './loop-stall';

export interface AlarmStallBench {
  seconds: number;
  target: number;
  emitted: number;
  stored: number;
  stall: StallReport;
  /** The longest batch write and how many batches were written while measured. */
  longestIngestMs: number;
  ingests: number;
}

export async function benchAlarmStall(perSecond = 2_000, seconds = 15): Promise<AlarmStallBench> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-alarm-stall-'));
  // The broker stands in for the management node's, on another machine: niced, it does not take main's CPU.
  const rabbit = await startPrivateRabbitMq({ nice: 10 });
  // Every batch write the app makes, timed (the store's own method, wrapped for the bench only).
  let longestIngestMs = 0;
  let ingests = 0;
  const ingest = AlarmDb.prototype.ingest;
  AlarmDb.prototype.ingest = function (this: AlarmDb, ...args: Parameters<typeof ingest>) {
    const t0 = performance.now();
    try {
      return ingest.apply(this, args);
    } finally {
      ingests += 1;
      longestIngestMs = Math.max(longestIngestMs, performance.now() - t0);
    }
  };
  const logger = createMemoryLogger('warn');
  const adapters = await createNodeAdapters({ dataDir, passphrase: 'bench-alarms-passphrase', logger, mode: 'browser', demoPorts: { basic: 0, oauth: 0 } });
  const app = await createApp(adapters, { openDemo: true, demoEdr: false, demoInventory: { devices: 1_000, organizations: 20 }, edr: { env: { NORTHBOUND_AMQP_URL: rabbit.url } } });
  try {
    const sim = app.demo.simulator!;
    const profileId = app.demo.status().oauthProfileId!;
    const status = () => app.alarms.status(profileId);
    await until('the alarm source to be live', async () => (await status()).state === 'live', 60_000);
    sim.alarms.generator.step(2_000);
    const firstId = sim.alarms.lastMessageId();
    const storedBefore = (await status()).stored.changes;
    sim.alarms.generator.setRate(perSecond);
    sim.alarms.generator.start();
    // Settle into the stream for a second, then measure.
    await new Promise((r) => setTimeout(r, 1_000));
    longestIngestMs = 0;
    ingests = 0;
    const probe = watchStalls();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const stall = probe.stop();
    sim.alarms.generator.stop(true);
    const s = await status();
    return { seconds, target: perSecond, emitted: sim.alarms.lastMessageId() - firstId, stored: s.stored.changes - storedBefore, stall, longestIngestMs, ingests };
  } finally {
    AlarmDb.prototype.ingest = ingest;
    await app.shutdown();
    await rabbit.destroy();
    await rm(dataDir, { recursive: true, force: true });
  }
}
