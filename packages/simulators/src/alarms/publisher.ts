/**
 * The simulated node's AMQP side (MN-AL8): every alarm event goes to a durable topic exchange on
 * a real RabbitMQ broker, as a persistent JSON message on a confirm channel. Messages wait in an
 * outbox in event order until the broker confirms them; when the connection drops (a broker
 * restart), the simulator reconnects with capped backoff and sends every unconfirmed message
 * again, in order. The broker may so hold a message twice; the console drops the second copy.
 * The outbox is bounded: past `maxOutbox` the oldest message is dropped and counted (the console
 * sees the gap in `message_id` and backfills over REST).
 */
import type { Channel, ChannelModel, ConfirmChannel } from 'amqplib';
import type { SimLogger as Logger } from '../log';
import { backoffMs } from '../backoff';
import type { AlarmMessage } from './wire';

/** The address with a heartbeat (seconds) unless it names one: a broker that went away is noticed within seconds. */
export function withHeartbeat(url: string, seconds: number): string {
  const u = new URL(url);
  if (!u.searchParams.has('heartbeat')) u.searchParams.set('heartbeat', String(seconds));
  return u.toString();
}

export interface AlarmPublisherOptions {
  url: string;
  exchange: string;
  logger: Logger;
  /** Unconfirmed messages on the wire at once (default 2,000). */
  window?: number;
  maxOutbox?: number;
  /** Reconnect backoff (default 100 ms doubling to 2 s). */
  retry?: { baseDelayMs: number; maxDelayMs: number };
}

interface Entry {
  message: AlarmMessage;
  content: Buffer;
  /** pending: to send; sent: on the wire, unconfirmed; done: confirmed (waits for the entries before it). */
  state: 'pending' | 'sent' | 'done';
}

export interface AlarmPublisherStats {
  connected: boolean;
  /** Messages the broker confirmed. */
  confirmed: number;
  /** Messages waiting for the broker (sent or not). */
  pending: number;
  /** Messages sent again after a reconnect. */
  resent: number;
  /** Messages dropped because the outbox was full. */
  dropped: number;
  connects: number;
}

export class AlarmPublisher {
  private readonly outbox: Entry[] = [];
  private head = 0;
  /** No entry before this index is pending (where the pump looks first). */
  private cursor = 0;
  private inFlight = 0;
  private conn: ChannelModel | undefined;
  private channel: ConfirmChannel | undefined;
  private closed = false;
  private failures = 0;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private waitingForDrain = false;
  private readonly idleWaiters = new Set<() => void>();
  readonly stats: AlarmPublisherStats = { connected: false, confirmed: 0, pending: 0, resent: 0, dropped: 0, connects: 0 };

  constructor(private readonly o: AlarmPublisherOptions) {}

  start(): void {
    void this.connect();
  }

  enqueue(message: AlarmMessage): void {
    if (this.closed) return;
    this.outbox.push({ message, content: Buffer.from(JSON.stringify(message.body)), state: 'pending' });
    const max = this.o.maxOutbox ?? 1_000_000;
    while (this.outbox.length - this.head > max) {
      const dropped = this.outbox[this.head]!;
      if (dropped.state === 'sent') this.inFlight -= 1;
      dropped.state = 'done';
      this.head += 1;
      this.stats.dropped += 1;
    }
    this.stats.pending = this.outbox.length - this.head;
    this.pump();
  }

  /** Resolves when every message so far is confirmed (or rejects after `timeoutMs`). */
  idle(timeoutMs = 30_000): Promise<void> {
    if (this.outbox.length === this.head) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.idleWaiters.delete(done);
        reject(new Error(`${this.outbox.length - this.head} alarm messages still unconfirmed after ${timeoutMs} ms`));
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        resolve();
      };
      this.idleWaiters.add(done);
    });
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    try {
      const { default: amqp } = await import('amqplib');
      const conn = await amqp.connect(withHeartbeat(this.o.url, 5));
      if (this.closed) {
        await conn.close().catch(() => undefined);
        return;
      }
      conn.on('error', (e: Error) => this.o.logger.warn('alarm broker connection error', { error: e.message }));
      conn.on('close', () => this.lost(conn));
      const ch = await conn.createConfirmChannel();
      ch.on('error', (e: Error) => this.o.logger.warn('alarm broker channel error', { error: e.message }));
      ch.on('drain', () => {
        this.waitingForDrain = false;
        this.pump();
      });
      await ch.assertExchange(this.o.exchange, 'topic', { durable: true });
      this.conn = conn;
      this.channel = ch;
      this.failures = 0;
      this.stats.connected = true;
      this.stats.connects += 1;
      this.o.logger.info('alarm publisher connected', { exchange: this.o.exchange, pending: this.outbox.length - this.head });
      this.pump();
    } catch (e) {
      this.o.logger.warn('alarm publisher cannot reach the broker', { error: e instanceof Error ? e.message : String(e) });
      this.scheduleReconnect();
    }
  }

  private lost(conn: ChannelModel): void {
    if (this.conn !== conn) return;
    this.conn = undefined;
    this.channel = undefined;
    this.stats.connected = false;
    this.waitingForDrain = false;
    // Whatever was on the wire unconfirmed goes again, in order, on the next connection.
    let resent = 0;
    for (let i = this.head; i < this.outbox.length; i++) {
      const e = this.outbox[i]!;
      if (e.state !== 'sent') continue;
      resent += 1;
      e.state = 'pending';
    }
    this.inFlight = 0;
    this.cursor = this.head;
    this.stats.resent += resent;
    if (!this.closed) {
      this.o.logger.warn('alarm broker connection lost; reconnecting', { unconfirmed: resent });
      this.scheduleReconnect();
    }
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    this.failures += 1;
    const delay = backoffMs(this.failures, this.o.retry ?? { baseDelayMs: 100, maxDelayMs: 2_000 });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay);
  }

  private pump(): void {
    const ch = this.channel;
    if (!ch || this.waitingForDrain) return;
    const window = this.o.window ?? 2_000;
    this.cursor = Math.max(this.cursor, this.head);
    for (; this.cursor < this.outbox.length && this.inFlight < window; this.cursor++) {
      const entry = this.outbox[this.cursor]!;
      if (entry.state !== 'pending') continue;
      entry.state = 'sent';
      this.inFlight += 1;
      const ok = this.publish(ch, entry);
      if (!ok) {
        this.cursor += 1;
        this.waitingForDrain = true;
        return;
      }
    }
  }

  private publish(ch: ConfirmChannel, entry: Entry): boolean {
    const m = entry.message;
    try {
      return ch.publish(
        this.o.exchange,
        m.routingKey,
        entry.content,
        { persistent: true, contentType: 'application/json', messageId: String(m.messageId), type: String(m.body.event_type), timestamp: Math.floor(Date.now() / 1000) },
        (err) => this.confirmed(ch, entry, err),
      );
    } catch (e) {
      // The channel closed under us: the connection's close handler resends.
      this.o.logger.warn('alarm publish failed', { error: e instanceof Error ? e.message : String(e) });
      return false;
    }
  }

  private confirmed(ch: Channel, entry: Entry, err: unknown): void {
    if (this.channel !== ch || entry.state !== 'sent') return;
    this.inFlight -= 1;
    if (err) {
      entry.state = 'pending'; // nacked: send again
      this.cursor = this.head;
      this.pump();
      return;
    }
    // Confirmed: drop it and every confirmed entry at the head of the outbox.
    entry.state = 'done';
    this.stats.confirmed += 1;
    while (this.head < this.outbox.length && this.outbox[this.head]!.state === 'done') this.head += 1;
    if (this.head > 10_000 && this.head * 2 > this.outbox.length) {
      this.outbox.splice(0, this.head);
      this.cursor -= this.head;
      this.head = 0;
    }
    this.stats.pending = this.outbox.length - this.head;
    if (this.stats.pending === 0) {
      const waiters = [...this.idleWaiters];
      this.idleWaiters.clear();
      for (const w of waiters) w();
    }
    this.pump();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    const conn = this.conn;
    this.conn = undefined;
    this.channel = undefined;
    this.stats.connected = false;
    await conn?.close().catch(() => undefined);
  }
}
