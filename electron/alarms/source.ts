/**
 * One alarm source (issue 12): a node's alarms into alarms.db, exactly once, and a status that
 * says which path is live and how far behind it is (MN-AL9, MN-AL12).
 *
 * With a broker: the durable queue of this install (amqp-consumer.ts), every batch stored in one
 * transaction and acknowledged after it; a REST backfill at start, after every (re)connection and
 * whenever `message_id` skips (gaps.ts), from the source's cursor. The cursor is the time up to
 * which the store is known to hold every change: the broker moves it on while the stream has no
 * hole, a finished backfill moves it to the newest change it saw; while a hole is open it stays
 * where the hole began. Without a broker: the same backfill every `pollIntervalMs` (incremental
 * polling with last_change_after). Failures are retried with capped backoff for as long as the
 * source runs; nothing here gives up.
 */
import type { ConsumeMessage } from 'amqplib';
import type { AlarmSourceStatus } from '../../shared/model/alarms';
import { errorText } from './errors';
import type { Logger } from '../log';
import { backoffMs, sleep } from '../net/retry';
import type { AlarmStore, DeadLetter, IngestResult, SourceState } from './store/alarm-store';
import { AmqpAlarmConsumer } from './amqp-consumer';
import { backfill } from './backfill';
import { FleetStreamCheck } from './fleet-check';
import { StoreOutage } from './store-outage';
import type { AlarmFleet } from './store/pg-alarm-store';
import { GapTracker, StreamCursor } from './gaps';
import type { NodeAlarmApi } from './node-api';
import { DEFAULT_FUTURE_SKEW_MS, timeWindow, type TimeWindow } from './time-window';
import type { AlarmMessageIn } from './wire';
import { readDeliveries, SetAsideLog } from './deliveries';

export interface AlarmSourceAmqp {
  /** The broker address with its password, read at every connection. */
  url: () => Promise<string>;
  /** The address without its password (status, logs). */
  broker: string;
  exchange: string;
  queue: string;
  prefetch?: number;
  /** Reconnect backoff (default 250 ms doubling to 10 s). */
  retry?: { baseDelayMs: number; maxDelayMs: number };
}

export interface AlarmSourceOptions {
  /** The source's key in the store: a profile ID in the app, `node:<origin>` in the CLI. */
  id: string;
  store: AlarmStore;
  api: NodeAlarmApi;
  amqp?: AlarmSourceAmqp;
  /** Poll period without a broker (default 2 s). */
  pollIntervalMs?: number;
  /** A backfill starts this long before the cursor (node clocks, changes stored out of order; default 5 s). */
  marginMs?: number;
  logger: Logger;
  now?: () => number;
  /** Something was stored: which alarms, the store's newest sequence, how many changes. */
  onChanged?(c: { aids: number[]; headSeq: number; changes: number }): void;
  /** The status moved on (read it with `status()`); `urgent` for a change of state, else progress. */
  onStatus?(urgent: boolean): void;
  /** Backoff of failed backfills and polls (default 1 s doubling to 30 s). */
  retry?: { baseDelayMs: number; maxDelayMs: number };
  /** How far after now a node's time may be (clock skew, default one day); later times are set aside (issue 20). */
  futureSkewMs?: number;
  /** Times before this are set aside (default 2000-01-01, before any node's retention). */
  timeFloorMs?: number;
  /**
   * One of a fleet of collectors on the node's queue (C-66): gaps are found over what the fleet
   * stored, and every backfill holds the node's lock (fleet-check.ts).
   */
  fleet?: { store: AlarmFleet; checkEveryMs?: number; graceMs?: number };
  /** A fleet collector's database went away (`waiting`, with the first error) or came back (C-69); said once each. */
  onStoreWaiting?(waiting: boolean, error?: string): void;
}

type State = AlarmSourceStatus['state'];

/** A fleet collector's batching (C-70): a batch at 1,000 deliveries or 100 ms after its first, up to 2,000 when more waited; two in flight; a prefetch that lets them fill. */
export const FLEET_BATCHING = { batchSize: 1_000, flushMs: 100, maxBatch: 2_000, maxInFlight: 2, prefetch: 6_000 } as const;

export class AlarmSource {
  private readonly now: () => number;
  private readonly stream: StreamCursor;
  private consumer: AmqpAlarmConsumer | undefined;
  private state: State = 'stopped';
  private running = false;
  private abort = new AbortController();
  private backfilling: Promise<void> | undefined;
  private backfillAgain = false;
  private backfillFailures = 0;
  private retryTimer: ReturnType<typeof setTimeout> | undefined;
  private pollLoop: Promise<void> | undefined;
  private error: string | null = null;
  private setAside = 0;
  /** Records, status changes and handlings from REST the console could not read (or outside the time window). */
  private unreadable = 0;
  private lastMessageMs: number | null = null;
  private lastLagMs: number | null = null;
  private lastPollOkMs: number | null = null;
  private counts: { alarms: number; changes: number };
  /** The newest change sequence the last recount saw (noteStored). */
  private countedSeq = 0;
  /** The source's last backfill as stored (this source is the one that records it). */
  private lastBackfill: { ms: number | null; added: number | null };
  private readonly setAsideLog: SetAsideLog;
  private readonly fleet: FleetStreamCheck | undefined;
  private readonly outage: StoreOutage;

  /** A source with what the store holds of it (its message IDs, lag, counts). */
  static async open(o: AlarmSourceOptions): Promise<AlarmSource> {
    const [state, counts] = await Promise.all([o.store.sourceState(o.id), o.store.counts(o.id)]);
    return new AlarmSource(o, state, counts);
  }

  private constructor(
    private readonly o: AlarmSourceOptions,
    state: SourceState,
    counts: { alarms: number; changes: number },
  ) {
    this.now = o.now ?? Date.now;
    this.setAsideLog = new SetAsideLog(o.logger, this.now);
    this.stream = new StreamCursor(new GapTracker(state.messageIds));
    this.lastLagMs = state.lastLagMs;
    this.lastMessageMs = o.amqp ? state.lastStoredMs : null;
    this.lastBackfill = { ms: state.lastBackfillMs, added: state.lastBackfillNew };
    this.counts = counts;
    const f = o.fleet;
    this.outage = new StoreOutage({
      unreachable: (e) => f?.store.unreachable(e) ?? false,
      onChange: (waiting, error) => {
        this.error = waiting ? `The team's database cannot be reached: ${error}; waiting for it (nothing is acknowledged to the broker until it is stored)` : null;
        this.o.logger.info(waiting ? 'the team’s database could not be reached; waiting for it' : 'the team’s database is reachable again', waiting ? { error } : {});
        this.o.onStoreWaiting?.(waiting, error);
        this.o.onStatus?.(true);
      },
    });
    this.fleet = f ? new FleetStreamCheck({ id: o.id, fleet: f.store, now: this.now, logger: o.logger, outage: this.outage, backfill: (reason) => this.backfillNow(reason), ...(f.checkEveryMs !== undefined ? { everyMs: f.checkEveryMs } : {}), ...(f.graceMs !== undefined ? { graceMs: f.graceMs } : {}) }) : undefined;
  }

  get mode(): 'amqp' | 'poll' {
    return this.o.amqp ? 'amqp' : 'poll';
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.abort = new AbortController();
    this.setState('starting');
    if (this.o.amqp) {
      const a = this.o.amqp;
      this.consumer = new AmqpAlarmConsumer({
        url: a.url,
        exchange: a.exchange,
        queue: a.queue,
        // A fleet collector stores several batches at once, larger when the queue is deep (C-70).
        ...(this.o.fleet ? FLEET_BATCHING : {}),
        ...(a.prefetch ? { prefetch: a.prefetch } : {}),
        ...(a.retry ? { retry: a.retry } : {}),
        logger: this.o.logger.child('amqp'),
        onBatch: (messages) => this.storeBatch(messages),
        // The database away is said once (the batch waits, unacknowledged); anything else at every try.
        onStoreFailed: (e, failures) => {
          if (!this.outage.failed(e)) this.o.logger.error('alarm batch not stored; trying again', { failures, error: errorText(e) });
        },
        onConnected: () => {
          this.error = null;
          this.setState('live');
          // What the console missed while it was not consuming.
          this.requestBackfill('connected');
        },
        onDisconnected: (why) => {
          this.error = `The broker connection is down: ${why}`;
          this.setState('reconnecting');
        },
      });
      this.consumer.start();
      this.fleet?.start();
      this.requestBackfill('start');
    } else {
      this.pollLoop = this.poll();
    }
  }

  async stop(): Promise<void> {
    if (!this.running) return;
    this.running = false;
    this.abort.abort();
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
    await this.consumer?.stop();
    this.consumer = undefined;
    await this.fleet?.stop();
    await Promise.allSettled([this.backfilling, this.pollLoop]);
    this.setState('stopped');
  }

  private setState(s: State): void {
    const changed = this.state !== s;
    this.state = s;
    this.o.onStatus?.(changed);
  }

  status(): AlarmSourceStatus {
    const a = this.o.amqp;
    const connected = a ? Boolean(this.consumer?.connected) : this.lastPollOkMs !== null && this.state === 'live';
    const lagMs = a ? this.lastLagMs : this.lastPollOkMs !== null ? Math.max(0, this.now() - this.lastPollOkMs) : null;
    const st = this.lastBackfill;
    return {
      profileId: this.o.id,
      source: this.running ? this.mode : 'none',
      state: this.state,
      connected,
      lagMs,
      backlog: this.consumer?.backlog ?? null,
      lastMessageAt: this.lastMessageMs !== null ? new Date(this.lastMessageMs).toISOString() : null,
      lastBackfillAt: st.ms !== null ? new Date(st.ms).toISOString() : null,
      lastBackfillNew: st.added,
      setAside: this.setAside,
      unreadable: this.unreadable,
      broker: a?.broker ?? null,
      exchange: a?.exchange ?? null,
      queue: a?.queue ?? null,
      error: this.error,
      stored: { ...this.counts },
    };
  }

  /** Recounts what is stored (after retention removed some of it). */
  async recount(): Promise<void> {
    const { counts, seq } = await this.o.store.countsAt(this.o.id);
    this.counts = counts;
    this.countedSeq = seq;
  }

  private noteStored(r: { aids: number[]; headSeq: number; newChanges: number; newHandlings?: number; newAlarms?: number }): void {
    // A batch written on the store's worker may be in a recount made before its answer came: not counted twice.
    if (r.headSeq > this.countedSeq) {
      this.counts.alarms += r.newAlarms ?? 0;
      this.counts.changes += r.newChanges;
    }
    if (r.aids.length > 0) this.o.onChanged?.({ aids: r.aids, headSeq: r.headSeq, changes: r.newChanges + (r.newHandlings ?? 0) });
  }

  /** A batch of broker deliveries into one transaction (MN-AL9, MN-AL10); throws only if the store failed. */
  private async storeBatch(messages: readonly ConsumeMessage[]): Promise<void> {
    const window = this.window();
    const { items, dead } = readDeliveries(messages, window);
    if (this.fleet) return this.storeFleetBatch(items, dead, window);
    const batch = this.stream.batch(items.map((i) => ({ director: i.director, messageId: i.messageId, ...(i.changes.length ? { newestEventMs: Math.max(...i.changes.map((c) => c.eventMs)) } : {}) })));
    batch.verdicts.forEach((v, k) => {
      if (v.kind === 'gap') this.o.logger.warn('alarm stream gap: messages missing, backfilling', { director: items[k]!.director, from: v.from, to: v.to, missing: v.missing });
      if (v.kind === 'jump') this.o.logger.warn('alarm message_id far from the last one trusted: checking with a backfill, not believed', { director: items[k]!.director, trusted: v.from, got: v.to });
    });
    // Runs after this batch is stored (it starts on a later turn), even if storing fails.
    if (batch.gap) this.requestBackfill('gap');
    const ids = new Map<string, number>();
    for (const i of items) ids.set(i.director, this.stream.gaps.lastSeen(i.director)!);
    const storedMs = this.now();
    // Committed when this resolves; the consumer acknowledges the batch only after that (MN-AL9).
    const r = await this.o.store.ingest(this.o.id, items, {
      storedMs,
      messageIds: ids,
      // While a hole is open the cursor stays where it began.
      ...(batch.cursorMs !== undefined ? { cursorMs: Math.min(batch.cursorMs, window.maxMs) } : {}),
      deadLetters: dead,
    });
    this.stored(items, dead, storedMs, r);
  }

  /** What a stored batch tells the source: the set-aside messages, when it last stored, the lag. */
  private stored(items: readonly AlarmMessageIn[], dead: readonly DeadLetter[], storedMs: number, r: IngestResult): void {
    for (const d of dead) this.setAsideLog.log(d);
    this.setAside += dead.length;
    if (items.length > 0) this.lastMessageMs = storedMs;
    if (r.lagMs !== null) this.lastLagMs = r.lagMs;
    this.noteStored(r);
    this.o.onStatus?.(false);
  }

  /** A fleet collector's batch: its messages marked for the fleet's stream check, which alone moves the watermark and the cursor (C-66). */
  private async storeFleetBatch(items: readonly AlarmMessageIn[], dead: DeadLetter[], window: TimeWindow): Promise<void> {
    const marks = items.map((i) => ({ director: i.director, messageId: i.messageId, ...(i.changes.length ? { newestEventMs: Math.min(window.maxMs, Math.max(...i.changes.map((c) => c.eventMs))) } : {}) }));
    const storedMs = this.now();
    const r = await this.o.store.ingest(this.o.id, items, { storedMs, marks, deadLetters: dead });
    this.outage.reached();
    this.stored(items, dead, storedMs, r);
  }

  /** The plausible window of alarm times now (time-window.ts). */
  private window(): TimeWindow {
    const w = timeWindow(this.now(), this.o.futureSkewMs ?? DEFAULT_FUTURE_SKEW_MS);
    return this.o.timeFloorMs !== undefined ? { ...w, minMs: this.o.timeFloorMs } : w;
  }

  /** What one backfill or poll stored: the cursor (never past the window), the record, the unreadable count. */
  private async noteBackfill(r: Awaited<ReturnType<typeof backfill>>): Promise<void> {
    if (r.newestMs !== undefined) await this.o.store.advanceCursor(this.o.id, Math.min(r.newestMs, this.window().maxMs));
    const atMs = this.now();
    await this.o.store.recordBackfill(this.o.id, atMs, r.added);
    this.lastBackfill = { ms: atMs, added: r.added };
    if (r.unreadable > 0) {
      this.unreadable += r.unreadable;
      this.o.logger.warn('alarm records the console cannot read were left out', { count: r.unreadable, reasons: r.reasons });
    }
  }

  /** Runs a backfill now, or once more after the one running (reason: start, connected, gap, retry). */
  requestBackfill(reason: string): void {
    if (!this.running || !this.o.amqp) return;
    if (this.backfilling) {
      this.backfillAgain = true;
      return;
    }
    this.backfilling = this.runBackfills(reason).finally(() => {
      this.backfilling = undefined;
    });
  }

  private async runBackfills(reason: string): Promise<void> {
    let why = reason;
    for (;;) {
      this.backfillAgain = false;
      const ok = await this.backfillOnce(why);
      if (!this.running) return;
      if (!ok) {
        // Retried with backoff; a hole stays open until a backfill gets through.
        this.backfillFailures += 1;
        const delay = backoffMs(this.backfillFailures, this.o.retry ?? { baseDelayMs: 1000, maxDelayMs: 30_000 });
        this.retryTimer = setTimeout(() => {
          this.retryTimer = undefined;
          this.requestBackfill('retry');
        }, delay);
        return;
      }
      this.backfillFailures = 0;
      if (!this.backfillAgain) return;
      why = 'again';
    }
  }

  /** One backfill from the cursor (in a fleet, holding the node's lock); true when it reached the end of the node's list. */
  private backfillOnce(reason: string): Promise<boolean> {
    return this.fleet ? this.fleet.exclusive(reason, () => this.backfillNow(reason)) : this.backfillNow(reason);
  }

  private async backfillNow(reason: string): Promise<boolean> {
    const token = this.stream.backfillStarted();
    const fromMs = Math.max(0, (await this.o.store.sourceState(this.o.id)).cursorMs - (this.o.marginMs ?? 5_000));
    const was = this.state;
    if (this.o.amqp && was !== 'reconnecting') this.setState('backfilling');
    try {
      const r = await backfill(this.o.api, this.o.store, this.o.id, { fromMs, signal: this.abort.signal, now: this.now, window: this.window(), onPage: (p) => this.noteStored({ ...p, newAlarms: 0 }) });
      await this.noteBackfill(r);
      if (!this.stream.backfillFinished(token)) this.backfillAgain = true;
      this.o.logger.info('alarm backfill done', { reason, fromMs, added: r.added, pages: r.pages });
      await this.recount();
      if (this.o.amqp) {
        this.error = null;
        this.setState(this.consumer?.connected ? 'live' : 'reconnecting');
      }
      return true;
    } catch (e) {
      if (!this.running) return true;
      // The database away: said once by the outage, and the backfill is tried again when it is back.
      if (this.outage.failed(e)) return false;
      this.error = `The REST backfill failed: ${errorText(e)}`;
      this.o.logger.warn('alarm backfill failed; retrying', { reason, error: errorText(e) });
      if (this.o.amqp) this.setState(this.consumer?.connected ? 'live' : 'reconnecting');
      return false;
    }
  }

  /** Without a broker: a backfill every interval, retried with backoff when it fails. */
  private async poll(): Promise<void> {
    const interval = this.o.pollIntervalMs ?? 2_000;
    let failures = 0;
    while (this.running) {
      const fromMs = Math.max(0, (await this.o.store.sourceState(this.o.id)).cursorMs - (this.o.marginMs ?? 5_000));
      let wait = interval;
      try {
        const r = await backfill(this.o.api, this.o.store, this.o.id, { fromMs, signal: this.abort.signal, now: this.now, window: this.window(), onPage: (p) => this.noteStored({ ...p, newAlarms: 0 }) });
        await this.noteBackfill(r);
        if (r.added > 0) await this.recount();
        failures = 0;
        this.lastPollOkMs = this.now();
        this.error = null;
        this.setState('live');
      } catch (e) {
        if (!this.running) break;
        failures += 1;
        wait = Math.max(interval, backoffMs(failures, this.o.retry ?? { baseDelayMs: 1000, maxDelayMs: 30_000 }));
        this.error = `Polling the node failed: ${errorText(e)}`;
        this.o.logger.warn('alarm poll failed; retrying', { error: errorText(e), inMs: wait });
        this.setState('failing');
      }
      await sleep(wait, this.abort.signal).catch(() => undefined);
    }
  }
}
