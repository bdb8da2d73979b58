/**
 * The broker side of an alarm source (MN-AL9): a durable queue of this console install bound to
 * the node's topic exchange, consumed with a bounded prefetch. Deliveries are handed over in
 * batches; a batch is acknowledged (one `ack` up to its last delivery) only after the handler has
 * committed it, so a crash between the two redelivers it and the store drops the copies. A batch
 * the handler could not store (the database away) is kept, unacknowledged, and handed over again
 * with capped backoff until it is stored (C-69): nothing is requeued to come straight back, and
 * while it waits the prefetch window stays full, so the broker gives this consumer nothing more. A lost
 * connection is retried with capped backoff (net/retry.ts) for as long as the source runs; every
 * new connection is announced, because what the console missed meanwhile has to be backfilled.
 */
import type { Channel, ChannelModel, ConsumeMessage } from 'amqplib';
import type { Logger } from '../log';
import { backoffMs, sleep } from '../net/retry';

export interface AmqpConsumerOptions {
  /** The broker address with its password (read at every connection: the settings may change). */
  url: () => Promise<string>;
  exchange: string;
  queue: string;
  /** Unacknowledged deliveries at most (default 1,000). */
  prefetch?: number;
  /** A batch is handed over when it has this many deliveries, or `flushMs` after its first (default 500, 25 ms). */
  batchSize?: number;
  flushMs?: number;
  /** Stores a batch; throws when it could not (the batch is then kept and handed over again after a backoff). */
  onBatch(messages: readonly ConsumeMessage[]): void | Promise<void>;
  /** A batch could not be stored (`failures`: in a row for this batch); without it the failure is logged. */
  onStoreFailed?(error: unknown, failures: number): void;
  /** Backoff between two tries of a batch that could not be stored (default 500 ms doubling to 5 s). */
  storeRetry?: { baseDelayMs: number; maxDelayMs: number };
  /** Connected (again): consuming has started. */
  onConnected?(): void;
  /** The connection is gone; `error` says why. */
  onDisconnected?(error: string): void;
  logger: Logger;
  retry?: { baseDelayMs: number; maxDelayMs: number };
  /** How often the queue's backlog is read (default 2 s). */
  backlogEveryMs?: number;
}

/** The consumer's connection heartbeat (seconds): a broker gone without a word is noticed within two of them. */
const HEARTBEAT_S = 5;

export class AmqpAlarmConsumer {
  private conn: ChannelModel | undefined;
  private channel: Channel | undefined;
  private batch: ConsumeMessage[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private backlogTimer: ReturnType<typeof setInterval> | undefined;
  private flushing: Promise<void> = Promise.resolve();
  private failures = 0;
  private stopped = true;
  /** Aborted by `stop`: a batch waiting to be tried again gives up waiting (it is not acknowledged). */
  private stopping = new AbortController();
  /** Ready messages in the queue at the last look; null when unknown. */
  backlog: number | null = null;
  connected = false;

  constructor(private readonly o: AmqpConsumerOptions) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.stopping = new AbortController();
    void this.connect();
  }

  private async connect(): Promise<void> {
    if (this.stopped) return;
    let conn: ChannelModel | undefined;
    try {
      const { default: amqp } = await import('amqplib');
      const url = new URL(await this.o.url());
      if (!url.searchParams.has('heartbeat')) url.searchParams.set('heartbeat', String(HEARTBEAT_S));
      conn = await amqp.connect(url.toString());
      if (this.stopped) {
        await conn.close().catch(() => undefined);
        return;
      }
      conn.on('error', (e: Error) => this.o.logger.warn('alarm broker connection error', { error: e.message }));
      conn.on('close', () => this.lost(conn!, 'the broker closed the connection'));
      const ch = await conn.createChannel();
      ch.on('error', (e: Error) => this.o.logger.warn('alarm broker channel error', { error: e.message }));
      ch.on('close', () => {
        // A channel closed on its own (a refused ack, a deleted queue) ends the connection too: one path back.
        if (this.channel === ch) void conn!.close().catch(() => undefined);
      });
      await ch.prefetch(this.o.prefetch ?? 1000);
      await ch.assertExchange(this.o.exchange, 'topic', { durable: true });
      await ch.assertQueue(this.o.queue, { durable: true, autoDelete: false });
      await ch.bindQueue(this.o.queue, this.o.exchange, '#');
      this.conn = conn;
      this.channel = ch;
      await ch.consume(
        this.o.queue,
        (m) => {
          if (m) this.deliver(ch, m);
          // The broker cancelled the consumer (the queue was deleted): start over on a new connection.
          else void conn!.close().catch(() => undefined);
        },
        { noAck: false },
      );
      this.failures = 0;
      this.connected = true;
      this.watchBacklog(ch);
      this.o.logger.info('alarm consumer connected', { exchange: this.o.exchange, queue: this.o.queue });
      this.o.onConnected?.();
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      this.o.logger.warn('alarm consumer cannot reach the broker', { error: why });
      if (conn) await conn.close().catch(() => undefined);
      this.conn = undefined;
      this.channel = undefined;
      this.o.onDisconnected?.(why);
      this.scheduleReconnect();
    }
  }

  private lost(conn: ChannelModel, why: string): void {
    if (this.conn !== conn) return;
    this.conn = undefined;
    this.channel = undefined;
    this.connected = false;
    this.backlog = null;
    if (this.backlogTimer) clearInterval(this.backlogTimer);
    // Deliveries not yet stored are redelivered on the next connection; holding them is pointless.
    this.batch = [];
    if (this.stopped) return;
    this.o.logger.warn('alarm broker connection lost; reconnecting', { why });
    this.o.onDisconnected?.(why);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (this.stopped || this.reconnectTimer) return;
    this.failures += 1;
    const delay = backoffMs(this.failures, this.o.retry ?? { baseDelayMs: 250, maxDelayMs: 10_000 });
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      void this.connect();
    }, delay);
  }

  private watchBacklog(ch: Channel): void {
    if (this.backlogTimer) clearInterval(this.backlogTimer);
    const read = () =>
      ch.checkQueue(this.o.queue).then(
        (q) => {
          if (this.channel === ch) this.backlog = q.messageCount;
        },
        () => undefined,
      );
    void read();
    this.backlogTimer = setInterval(() => void read(), this.o.backlogEveryMs ?? 2000);
    this.backlogTimer.unref?.();
  }

  private deliver(ch: Channel, m: ConsumeMessage): void {
    if (this.channel !== ch) return;
    this.batch.push(m);
    if (this.batch.length >= (this.o.batchSize ?? 500)) this.scheduleFlush(0);
    else this.scheduleFlush(this.o.flushMs ?? 25);
  }

  private scheduleFlush(ms: number): void {
    if (this.flushTimer && ms > 0) return;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      this.flushing = this.flushing.then(() => this.flush());
    }, ms);
  }

  /** Hands the batch over; acknowledges it once stored; tries again after a backoff while it cannot be stored. */
  private async flush(): Promise<void> {
    const ch = this.channel;
    const batch = this.batch;
    this.batch = [];
    if (!ch || batch.length === 0) return;
    const last = batch[batch.length - 1]!;
    for (let failures = 1; ; failures++) {
      try {
        await this.o.onBatch(batch);
        break;
      } catch (e) {
        if (this.o.onStoreFailed) this.o.onStoreFailed(e, failures);
        else this.o.logger.error('alarm batch not stored; trying again', { messages: batch.length, failures, error: e instanceof Error ? e.message : String(e) });
      }
      // Stopping, or the channel is gone: the broker hands these deliveries out again (to this consumer or another).
      if (this.stopped || this.channel !== ch) return;
      await sleep(backoffMs(failures, this.o.storeRetry ?? { baseDelayMs: 500, maxDelayMs: 5_000 }), this.stopping.signal).catch(() => undefined);
      if (this.stopped || this.channel !== ch) return;
    }
    try {
      // Every delivery up to the last of the batch is stored (earlier batches were acknowledged before).
      if (this.channel === ch) ch.ack(last, true);
    } catch (e) {
      this.o.logger.warn('alarm batch stored but not acknowledged (it comes again and is dropped as a copy)', { error: e instanceof Error ? e.message : String(e) });
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.stopping.abort();
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    if (this.backlogTimer) clearInterval(this.backlogTimer);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.reconnectTimer = undefined;
    this.flushTimer = undefined;
    // Store what arrived, then let go (what is not acknowledged comes again next time).
    this.flushing = this.flushing.then(() => this.flush());
    await this.flushing.catch(() => undefined);
    const conn = this.conn;
    this.conn = undefined;
    this.channel = undefined;
    this.connected = false;
    await conn?.close().catch(() => undefined);
  }
}
