/**
 * The broker side of an alarm source (MN-AL9): a durable queue of this console install bound to
 * the node's topic exchange, consumed with a bounded prefetch. Deliveries are handed over in
 * batches; a batch is acknowledged only after the handler has committed it, so a crash between the
 * two redelivers it and the store drops the copies. Up to `maxInFlight` batches are stored at once
 * (C-70); acknowledgements follow delivery order (one `ack` up to the last delivery of the batches
 * stored so far, never past one still being stored). A batch is cut at `batchSize` deliveries or
 * `flushMs` after its first; deliveries that wait for a free slot (a deep queue) make the next
 * batch larger, up to `maxBatch`. A batch the handler could not store (the database away) is
 * kept, unacknowledged, and handed over again with capped backoff until it is stored (C-69):
 * nothing is requeued to come straight back, and once the prefetch window is full the broker gives
 * this consumer nothing more meanwhile. A lost connection is retried with capped backoff (net/retry.ts) for as long as the source runs; every
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
  /** Deliveries in one batch at most, when more waited for a free slot (default `batchSize`). */
  maxBatch?: number;
  /** Batches being stored at once (default 1); acknowledged in delivery order. */
  maxInFlight?: number;
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

/**
 * The arguments of a queue this consumer creates (C-71): a classic queue of version 2, which keeps
 * the node's persistent messages at a fraction of version 1's cost to the broker (RabbitMQ 3.10 and
 * later; 4.x has no other). A broker refuses to declare an existing queue with other arguments, so
 * a queue made before is consumed as it is (an operator converts it with a policy, docs/team.md).
 */
export const QUEUE_ARGUMENTS = { 'x-queue-version': 2 } as const;

/** Whether the queue exists, asked on a channel of its own (a passive declare of a missing queue closes its channel). */
async function queueExists(conn: ChannelModel, queue: string): Promise<boolean> {
  const probe = await conn.createChannel();
  probe.on('error', () => undefined);
  try {
    await probe.checkQueue(queue);
  } catch (e) {
    if ((e as { code?: unknown }).code === 404) return false;
    throw e;
  }
  await probe.close().catch(() => undefined);
  return true;
}

export class AmqpAlarmConsumer {
  private conn: ChannelModel | undefined;
  private channel: Channel | undefined;
  /** Deliveries not yet in a batch, in delivery order. */
  private pending: ConsumeMessage[] = [];
  /** The flush time of the oldest pending delivery passed: the next free slot takes what is pending. */
  private flushDue = false;
  /** Batches of this channel handed over and not yet acknowledged, in delivery order. */
  private unacked: Array<{ last: ConsumeMessage; stored: boolean }> = [];
  /** Batches being stored (of any channel). */
  private readonly storing = new Set<Promise<void>>();
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;
  private backlogTimer: ReturnType<typeof setInterval> | undefined;
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
      // A queue that exists is taken as it is: declaring it with other arguments would be refused (C-71).
      if (!(await queueExists(conn, this.o.queue))) await ch.assertQueue(this.o.queue, { durable: true, autoDelete: false, arguments: QUEUE_ARGUMENTS });
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
    this.dropPending();
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
    // Arriving while stopping: not stored, not acknowledged; the broker hands it out again.
    if (this.channel !== ch || this.stopped) return;
    this.pending.push(m);
    this.cut();
  }

  private dropPending(): void {
    this.pending = [];
    this.unacked = [];
    this.flushDue = false;
    if (this.flushTimer) clearTimeout(this.flushTimer);
    this.flushTimer = undefined;
  }

  /** Starts batches while slots are free: a full one at once, a smaller one once its flush time passed (`force`: everything now). */
  private cut(force = false): void {
    const ch = this.channel;
    const min = this.o.batchSize ?? 500;
    while (ch && this.pending.length > 0 && (force || this.storing.size < (this.o.maxInFlight ?? 1))) {
      if (!force && !this.flushDue && this.pending.length < min) {
        this.flushTimer ??= setTimeout(() => {
          this.flushTimer = undefined;
          this.flushDue = true;
          this.cut();
        }, this.o.flushMs ?? 25);
        return;
      }
      const batch = this.pending.splice(0, Math.max(min, this.o.maxBatch ?? min));
      this.flushDue = false;
      if (this.flushTimer) clearTimeout(this.flushTimer);
      this.flushTimer = undefined;
      const entry = { last: batch[batch.length - 1]!, stored: false };
      this.unacked.push(entry);
      const task = this.store(ch, batch, entry).finally(() => {
        this.storing.delete(task);
        if (!this.stopped) this.cut();
      });
      this.storing.add(task);
    }
  }

  /** Hands a batch over; acknowledges it once it and every batch before it are stored; tries again after a backoff while it cannot be stored. */
  private async store(ch: Channel, batch: readonly ConsumeMessage[], entry: { last: ConsumeMessage; stored: boolean }): Promise<void> {
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
    entry.stored = true;
    if (this.channel !== ch) return;
    // Only up to the last batch stored with every one before it: a multiple ack never passes one still being stored.
    let last: ConsumeMessage | undefined;
    while (this.unacked[0]?.stored) last = this.unacked.shift()!.last;
    try {
      if (last) ch.ack(last, true);
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
    this.cut(true);
    await Promise.allSettled([...this.storing]);
    const conn = this.conn;
    this.conn = undefined;
    this.channel = undefined;
    this.connected = false;
    await conn?.close().catch(() => undefined);
  }
}
