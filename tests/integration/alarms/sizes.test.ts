/**
 * Issue 20.5 through a real RabbitMQ (the shared broker, on an exchange of this test's own): a
 * node's bus messages with huge alarm texts reach the app's store bounded, a message too large
 * to read is set aside with its reason, one `alarms.list` answer stays within its byte budget and
 * says there is more, and the notification and every event carry short text.
 */
import amqp from 'amqplib';
import { statSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALARM_EXCHANGE_KEY } from '../../../electron/app/services';
import type { AlarmDetail, AlarmNotification, AlarmPage, AlarmSourceStatus } from '../../../shared/model/alarms';
import { isTruncated, LIMITS } from '../../../shared/model/limits';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { ensureRabbitMq, RABBITMQ_START_MS } from '../../support/rabbitmq';
import { until } from '../../support/until';

const exchange = `nb.test.sizes.${process.pid}.${Date.now()}`;
let h: AppHarness;
let broker: { url: string };
let profileId = '';
let queue = '';

beforeAll(async () => {
  broker = await ensureRabbitMq();
  h = await startAppHarness({ app: { demoEdr: false, edr: { env: { NORTHBOUND_AMQP_URL: broker.url } }, alarms: { changedEveryMs: 20, statusEveryMs: 50, notifyEveryMs: 0 } } });
  // The demo node and the app's queue use this test's exchange: nothing reaches other tests' queues on the shared broker.
  h.adapters.settings.set(ALARM_EXCHANGE_KEY, exchange);
  await h.call('demo.open');
  h.app.demo.simulator!.alarms.generator.stop(true);
  profileId = h.app.demo.status().oauthProfileId!;
  await h.call('session.signIn', { profileId });
  const st = await until('the app to consume from the broker', async () => {
    const s = await h.call<AlarmSourceStatus>('alarms.status', { profileId });
    return s.connected && s.state === 'live' && s;
  }, 30_000);
  queue = st.queue!;
}, RABBITMQ_START_MS + 60_000);

afterAll(async () => {
  await h?.close();
  const conn = await amqp.connect(broker.url);
  const ch = await conn.createChannel();
  if (queue) await ch.deleteQueue(queue).catch(() => undefined);
  await ch.deleteExchange(exchange).catch(() => undefined);
  await conn.close();
}, 30_000);

const nodeTime = (ms: number) => new Date(ms).toISOString().replace('Z', '+0000');

/** A node's message of one status change (MN-AL8) of the alarm on `object`. */
function message(id: number, object: string, severity: string, text: string): Buffer {
  const at = nodeTime(Date.now());
  return Buffer.from(
    JSON.stringify({
      message_id: id,
      severity,
      event_type: 'alarm',
      event_time: at,
      director_hostname: 'sizes-director',
      alarm: { device: 'edge-1', deviceName: 'edge-1', org: 'acme', object, type: 'interfaceDown', 'specific-problem': '', lastAlarmText: text, lastPerceivedSeverity: severity, isCleared: false, lastStatusChangeTimeStamp: at },
      statusChange: { eventTime: at, perceivedSeverity: severity, alarmText: text },
    }),
  );
}

const dbBytes = () => ['alarms.db', 'alarms.db-wal'].reduce((n, f) => n + (statSync(path.join(h.dataDir, f), { throwIfNoEntry: false })?.size ?? 0), 0);

describe('sizes from the alarm bus are bounded (issue 20.5)', () => {
  it('stores huge texts cut with their size, sets a message too large aside, and keeps the window, the notification and the events short', async () => {
    const before = dbBytes();
    const conn = await amqp.connect(broker.url);
    const ch = await conn.createConfirmChannel();
    let id = 0;
    // Ten critical changes with 450,000-character texts (twice in each message, still under the byte limit: read, text cut).
    const huge = 'x'.repeat(450_000);
    for (let i = 0; i < 10; i++) ch.publish(exchange, 'critical.alarm.edge-1.acme.system', message(++id, `vni-0/${i}`, 'critical', `${i} ${huge}`));
    // One message of 3 MB (its text twice): over the byte limit, set aside unread.
    ch.publish(exchange, 'critical.alarm.edge-1.acme.system', message(++id, 'vni-9/9', 'critical', 'y'.repeat(1_500_000)));
    // 100 minor alarms with texts of 5,000 CJK characters (3 bytes each in UTF-8): a window of them is over 1 MiB.
    const wide = '漢'.repeat(5_000);
    for (let i = 0; i < 100; i++) ch.publish(exchange, 'minor.alarm.edge-1.acme.system', message(++id, `port-${i}`, 'minor', wide));
    await ch.waitForConfirms();
    await conn.close();

    const status = await until('every message stored or set aside', async () => {
      const s = await h.call<AlarmSourceStatus>('alarms.status', { profileId });
      return s.stored.changes + s.setAside === 111 && s;
    }, 30_000);
    expect(status).toMatchObject({ setAside: 1, stored: { alarms: 110, changes: 110 } });
    const setAside = h.logs.filter((l) => l.includes('alarm message set aside')).map((l) => (JSON.parse(l) as { fields: { reason: string } }).fields.reason);
    expect(setAside).toEqual([expect.stringMatching(/^the message is 3,000,\d{3} bytes, more than the 1,048,576 a message may have$/)]);

    // Stored cut, with its size said.
    const all = await h.call<AlarmPage>('alarms.list', { profileId, filter: { severity: ['critical'] }, limit: 20 });
    expect(all.rows).toHaveLength(10);
    for (const r of all.rows) {
      expect(r.text.length).toBeLessThanOrEqual(LIMITS.text);
      expect(r.text).toMatch(/^\d x+… \[truncated, 450,002 characters\]$/);
      const d = await h.call<AlarmDetail>('alarms.get', { profileId, id: r.id });
      expect(d.statusChanges.map((c) => c.text)).toEqual([r.text]);
    }
    // 9 MB of critical text and 3 MB of minor text came in (each kept twice: the alarm and its change); the store grew by far less.
    expect(dbBytes() - before).toBeLessThan(4_000_000);

    // A window of 100 rows stops at its byte budget and says there is more; the rest follows from there.
    const window = await h.call<AlarmPage>('alarms.list', { profileId, filter: { severity: ['minor'] }, limit: 100 });
    expect(Buffer.byteLength(JSON.stringify(window))).toBeLessThanOrEqual(LIMITS.alarmWindowBytes + 1_000);
    expect(window.more).toBe(true);
    expect(window.rows.length).toBeLessThan(100);
    expect(window.rows.every((r) => isTruncated(r.text) && r.text.length <= LIMITS.text)).toBe(true);
    const rest = await h.call<AlarmPage>('alarms.list', { profileId, filter: { severity: ['minor'] }, offset: window.rows.length, limit: 100 - window.rows.length });
    expect(rest.more).toBe(false);
    expect(new Set([...window.rows, ...rest.rows].map((r) => r.id)).size).toBe(100);

    // The notification: one short line each; no event on the socket carries a big text.
    const notes = await until('a notification of the critical changes', () => {
      const n = h.pushed.map((p) => JSON.parse(p) as { event: string; payload: AlarmNotification }).filter((p) => p.event === 'alarms.notification');
      return n.length > 0 && n.map((p) => p.payload);
    }, 15_000);
    for (const n of notes) {
      expect(n.title.length).toBeLessThanOrEqual(LIMITS.notificationLine);
      expect(n.body.length).toBeLessThanOrEqual(LIMITS.notificationLine);
      expect(n.body).not.toMatch(/\n/);
    }
    // Cut where the alarm's text is long: the device, the place and the connection still show.
    const last = notes.at(-1)!;
    expect(`${last.title} ${last.body}`).toContain('edge-1');
    expect(last.body).toMatch(/x… \(acme · vni-0\/\d\) — /);
    expect(Math.max(...h.pushed.map((p) => p.length))).toBeLessThan(10_000);
  }, 90_000);
});
