/**
 * The app's alarms (issue 12): one alarm source per signed-in connection, started when it signs
 * in and stopped when it signs out (the stored alarms stay readable offline); the reads of the
 * alarm channels; acknowledge and clear, which go to the node first and store its answer; events
 * to the window, batched; retention, hourly.
 */
import type { EmitEvent } from '../../shared/contract';
import type { AlarmActionResult } from '../../shared/contract-alarms';
import type { ActiveSeverity, AlarmDetail, AlarmFilter, AlarmNotification, AlarmPage, AlarmRate, AlarmSourceStatus, AlarmSummary, HandlingState } from '../../shared/model/alarms';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { throttle, type Throttled } from '../throttle';
import type { Logger } from '../log';
import { DEFAULT_MAX_CHANGES, type AlarmKey, type AlarmOverview, type AlarmStore } from './store/alarm-store';
import { errorText } from './errors';
import type { NodeRequest } from '../mgmt/node-answer';
import { NodeAlarmApi } from './node-api';
import { AlarmNotifier } from './notifier';
import { AlarmSource, type AlarmSourceAmqp, type AlarmSourceOptions } from './source';

export interface AlarmBroker {
  url: () => Promise<string>;
  /** The address without its password. */
  broker: string;
  exchange: string;
}

export interface AlarmServiceOptions {
  store: AlarmStore;
  /** A signed-in request on the connection's session. */
  requestFor(profileId: string): NodeRequest;
  /** Throws the session's own error when the connection is not signed in. */
  requireSignedIn(profileId: string, what: string): void;
  /** The broker to consume from, when one is configured (the settings' RabbitMQ address, C-22). */
  broker(): Promise<AlarmBroker | undefined>;
  emit: EmitEvent;
  logger: Logger;
  retentionDays(): number;
  maxChanges?: number;
  pollIntervalMs?: number;
  /** How far after now a node's alarm time may be (default one day; issue 20). */
  futureSkewMs?: number;
  /** Events to the window at most this often per connection (default 250 ms changes, 1 s status). */
  changedEveryMs?: number;
  statusEveryMs?: number;
  now?: () => number;
  /**
   * Announces new changes of the severities `notifySeverities` names (C-31): the desktop's system
   * notification, or an event to the window. Without it nothing is announced (the CLI).
   */
  notify?(n: AlarmNotification): void;
  notifySeverities?(): readonly ActiveSeverity[];
  /** A connection's name, for the notifications' text. */
  nameOf?(profileId: string): string | undefined;
  /** At most one notification per connection this often (default 5 s). */
  notifyEveryMs?: number;
  /** A collector of a fleet (`alarms follow --database-url`, C-64, C-66): the node's queue is shared, gaps and backfills are the fleet's. */
  fleet?: AlarmSourceOptions['fleet'];
  /** A fleet collector's database went away or came back (C-69): the CLI says so on stderr. */
  onStoreWaiting?: AlarmSourceOptions['onStoreWaiting'];
}

interface Running {
  source: AlarmSource;
  changed: Throttled<[]>;
  status: Throttled<[]>;
  pendingIds: Set<number>;
  pendingChanges: number;
  headSeq: number;
  more: boolean;
}

const RETENTION_EVERY_MS = 3_600_000;
const MAX_IDS_PER_EVENT = 500;

export class AlarmService {
  private readonly running = new Map<string, Running>();
  private readonly starting = new Map<string, Promise<void>>();
  private retentionTimer: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  private readonly notifier: AlarmNotifier | undefined;

  constructor(private readonly o: AlarmServiceOptions) {
    const notify = o.notify;
    this.notifier = notify
      ? new AlarmNotifier({
          store: o.store,
          severities: o.notifySeverities ?? (() => ['critical']),
          deliver: (n) => notify(n),
          nameOf: (id) => o.nameOf?.(id),
          ...(o.now ? { now: o.now } : {}),
          ...(o.notifyEveryMs !== undefined ? { everyMs: o.notifyEveryMs } : {}),
        })
      : undefined;
  }

  private get now(): () => number {
    return this.o.now ?? Date.now;
  }

  /** Retention now and every hour. */
  start(): void {
    void this.retain();
    this.retentionTimer = setInterval(() => void this.retain(), RETENTION_EVERY_MS);
    this.retentionTimer.unref?.();
  }

  /** Never rejects: a failure is logged. */
  async retain(): Promise<void> {
    try {
      // A time past now plus the skew never ages out: it is set aside here (and when the store opens).
      const repaired = await this.o.store.repairTimes(this.now(), this.o.futureSkewMs);
      if (repaired.cursors + repaired.changes + repaired.handlings + repaired.alarms > 0) this.o.logger.warn('alarm times past now plus the allowed clock skew were set aside', { ...repaired });
      const r = await this.o.store.applyRetention({ nowMs: this.now(), days: this.o.retentionDays(), maxChanges: this.o.maxChanges ?? DEFAULT_MAX_CHANGES });
      if (r.changes + r.alarms + r.handlings + repaired.changes + repaired.alarms > 0) {
        this.o.logger.info('alarm retention', { ...r });
        await Promise.all([...this.running.values()].map((run) => run.source.recount()));
      }
    } catch (e) {
      this.o.logger.warn('alarm retention failed', { error: errorText(e) });
    }
  }

  /** A session changed: a signed-in connection gets its source, any other state stops it. */
  onSession(profileId: string, state: string): void {
    if (state === 'signed-in') void this.startSource(profileId);
    else if (state !== 'signing-in') void this.stopSource(profileId);
  }

  isRunning(profileId: string): boolean {
    return this.running.has(profileId);
  }

  startSource(profileId: string): Promise<void> {
    if (this.closed || this.running.has(profileId)) return Promise.resolve();
    const pending = this.starting.get(profileId);
    if (pending) return pending;
    const p = this.create(profileId).finally(() => this.starting.delete(profileId));
    this.starting.set(profileId, p);
    return p;
  }

  private async create(profileId: string): Promise<void> {
    let broker: AlarmBroker | undefined;
    try {
      broker = await this.o.broker();
    } catch (e) {
      this.o.logger.warn('the RabbitMQ address is not usable; alarms are polled', { error: errorText(e) });
    }
    if (this.closed || this.running.has(profileId)) return;
    const installId = broker ? await this.o.store.installId() : undefined;
    const amqp: AlarmSourceAmqp | undefined = broker && installId !== undefined ? { url: broker.url, broker: broker.broker, exchange: broker.exchange, queue: this.o.fleet ? fleetQueueName(profileId) : alarmQueueName(installId, profileId) } : undefined;
    const run = {} as Running;
    run.pendingIds = new Set();
    run.pendingChanges = 0;
    run.headSeq = await this.o.store.headSeq(profileId);
    run.more = false;
    run.changed = throttle(() => {
      this.announce(profileId);
      const ids = [...run.pendingIds];
      this.o.emit('alarms.changed', { profileId, headSeq: run.headSeq, changes: run.pendingChanges, ids: ids.slice(0, MAX_IDS_PER_EVENT), more: run.more || ids.length > MAX_IDS_PER_EVENT });
      run.pendingIds.clear();
      run.pendingChanges = 0;
      run.more = false;
    }, this.o.changedEveryMs ?? 250);
    run.status = throttle(() => this.o.emit('alarms.status', run.source.status()), this.o.statusEveryMs ?? 1000);
    const source = await AlarmSource.open({
      id: profileId,
      store: this.o.store,
      api: new NodeAlarmApi(this.o.requestFor(profileId)),
      ...(amqp ? { amqp } : {}),
      ...(this.o.pollIntervalMs ? { pollIntervalMs: this.o.pollIntervalMs } : {}),
      ...(this.o.futureSkewMs !== undefined ? { futureSkewMs: this.o.futureSkewMs } : {}),
      ...(this.o.fleet ? { fleet: this.o.fleet } : {}),
      ...(this.o.onStoreWaiting ? { onStoreWaiting: this.o.onStoreWaiting } : {}),
      logger: this.o.logger.child(profileId.slice(0, 8)),
      now: this.now,
      onChanged: (c) => this.noteChanged(run, c),
      onStatus: (urgent) => {
        run.status.call();
        if (urgent) run.status.flush();
      },
    });
    // Changes stored from here on may notify; read last, right before the source starts.
    const notifyFrom = await this.notifier?.head();
    if (this.closed || this.running.has(profileId)) return;
    run.source = source;
    this.running.set(profileId, run);
    if (notifyFrom !== undefined) this.notifier?.begin(profileId, notifyFrom);
    this.o.logger.info('alarm source started', { profileId, source: run.source.mode, ...(amqp ? { broker: amqp.broker, exchange: amqp.exchange, queue: amqp.queue } : {}) });
    run.source.start();
  }

  /** New changes of a notifying severity are announced; a failure to announce never stops the stream. */
  private announce(profileId: string): void {
    this.notifier?.check(profileId).catch((e: unknown) => this.o.logger.warn('alarm notification failed', { error: errorText(e) }));
  }

  private noteChanged(run: Running, c: { aids: readonly number[]; headSeq: number; changes: number }): void {
    for (const id of c.aids) {
      if (run.pendingIds.size >= MAX_IDS_PER_EVENT * 4) {
        run.more = true;
        break;
      }
      run.pendingIds.add(id);
    }
    run.pendingChanges += c.changes;
    run.headSeq = Math.max(run.headSeq, c.headSeq);
    run.changed.call();
  }

  async stopSource(profileId: string): Promise<void> {
    await this.starting.get(profileId);
    const run = this.running.get(profileId);
    if (!run) return;
    this.running.delete(profileId);
    await run.source.stop();
    run.changed.flush();
    this.notifier?.end(profileId);
    run.status.cancel();
    this.o.emit('alarms.status', run.source.status());
    this.o.logger.info('alarm source stopped', { profileId });
  }

  /** The broker settings changed: running sources start again with the new address (or polling). */
  async reconfigure(): Promise<void> {
    const ids = [...this.running.keys()];
    for (const id of ids) await this.stopSource(id);
    for (const id of ids) await this.startSource(id);
  }

  async status(profileId: string): Promise<AlarmSourceStatus> {
    const run = this.running.get(profileId);
    if (run) return run.source.status();
    const [st, stored] = await Promise.all([this.o.store.sourceState(profileId), this.o.store.counts(profileId)]);
    return {
      profileId,
      source: 'none',
      state: 'stopped',
      connected: false,
      lagMs: null,
      backlog: null,
      lastMessageAt: null,
      lastBackfillAt: st.lastBackfillMs !== null ? new Date(st.lastBackfillMs).toISOString() : null,
      lastBackfillNew: st.lastBackfillNew,
      setAside: 0,
      unreadable: 0,
      broker: null,
      exchange: null,
      queue: null,
      error: null,
      stored,
    };
  }

  async list(profileId: string, filter: AlarmFilter, offset: number, limit: number): Promise<AlarmPage> {
    // Read before the page: a batch committed in between shows again after it, never not at all.
    const headSeq = await this.o.store.headSeq(profileId);
    return { profileId, offset, headSeq, ...(await this.o.store.list(profileId, filter, offset, limit)) };
  }

  async get(profileId: string, id: number): Promise<AlarmDetail> {
    const d = await this.o.store.detail(profileId, id);
    if (!d) throw new AppError(ErrorCodes.notFound, 'This alarm is no longer stored.', 'It may have been removed by retention; the list shows what is stored now.');
    return d;
  }

  async summary(profileId: string): Promise<AlarmSummary> {
    return { profileId, ...(await this.o.store.summary(profileId)) };
  }

  /**
   * The Overview's alarm tile (issue 13): undefined when nothing of this connection was ever
   * collected; otherwise the counts, whether the source is live (its numbers follow the node), and
   * the last time the console heard from the node (what they are as of when not live).
   */
  async overview(profileId: string): Promise<(AlarmOverview & { live: boolean; source: AlarmSourceStatus['source']; heardMs: number }) | undefined> {
    if (!(await this.o.store.collected(profileId))) return undefined;
    // A running source's status is in memory; a stopped one is not live and has no source (C-82: not `status()`, which counts what is stored).
    const status = this.running.get(profileId)?.source.status() ?? { connected: false, state: 'stopped', source: 'none' as const };
    const seen = await this.o.store.sourceState(profileId);
    return {
      ...(await this.o.store.overview(profileId)),
      live: status.connected && (status.state === 'live' || status.state === 'backfilling'),
      source: status.source,
      // Never 0: a store with alarms stored them at some time (the newest change's time at worst).
      heardMs: Math.max(seen.lastBackfillMs ?? 0, seen.lastStoredMs ?? 0) || (await this.o.store.newestChangeMs(profileId)),
    };
  }

  /** Active critical alarms nobody handled; undefined when nothing of this connection was ever collected. */
  async criticalUnacknowledged(profileId: string): Promise<number | undefined> {
    return (await this.o.store.collected(profileId)) ? this.o.store.criticalUnacknowledged(profileId) : undefined;
  }

  async rate(profileId: string, minutes: number): Promise<AlarmRate> {
    return { profileId, ...(await this.o.store.rate(profileId, minutes, this.now())) };
  }

  acknowledge(profileId: string, ids: readonly number[], state: HandlingState, note: string): Promise<AlarmActionResult> {
    return this.act(profileId, ids, 'handle alarms', (api, keys) => api.handle(keys, state, note));
  }

  clear(profileId: string, ids: readonly number[], note: string): Promise<AlarmActionResult> {
    return this.act(profileId, ids, 'clear alarms', (api, keys) => api.clear(keys, note));
  }

  /** One call to the node for every alarm still stored; what it answers is stored at once (the stream brings it too). */
  private async act(profileId: string, ids: readonly number[], what: string, call: (api: NodeAlarmApi, keys: AlarmKey[]) => ReturnType<NodeAlarmApi['handle']>): Promise<AlarmActionResult> {
    this.o.requireSignedIn(profileId, what);
    const keys = await this.o.store.keys(profileId, [...new Set(ids)]);
    const found = new Set(keys.map((k) => k.aid));
    const missing = ids.filter((id) => !found.has(id));
    if (keys.length === 0) return { updated: 0, missing };
    const items = await call(new NodeAlarmApi(this.o.requestFor(profileId)), keys);
    const r = await this.o.store.ingest(profileId, items, { storedMs: this.now() });
    const run = this.running.get(profileId);
    await run?.source.recount();
    if (run) this.noteChanged(run, { aids: r.aids, headSeq: r.headSeq, changes: r.newChanges + r.newHandlings });
    else this.o.emit('alarms.changed', { profileId, headSeq: r.headSeq, changes: r.newChanges + r.newHandlings, ids: r.aids.slice(0, MAX_IDS_PER_EVENT), more: r.aids.length > MAX_IDS_PER_EVENT });
    this.o.logger.info('alarms handled on the node', { profileId, what, alarms: keys.length, stored: r.newChanges + r.newHandlings });
    return { updated: items.length > 0 ? items.length : keys.length, missing };
  }

  /** A deleted connection: its source stops and its alarms go. */
  async forgetProfile(profileId: string): Promise<void> {
    await this.stopSource(profileId);
    await this.o.store.forgetSource(profileId);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.retentionTimer) clearInterval(this.retentionTimer);
    await Promise.allSettled([...this.starting.values()]);
    await Promise.allSettled([...this.running.keys()].map((id) => this.stopSource(id)));
    this.notifier?.close();
    await this.o.store.close();
  }
}

/** A durable queue per console install and connection (MN-AL9): the install's id keeps two consoles from sharing one. */
export const alarmQueueName = (installId: string, sourceId: string): string => `northbound.alarms.${installId}.${sourceId}`.slice(0, 255);

/**
 * The one durable queue of a node that a fleet of collectors shares (C-64): named after the node,
 * not after an install, so every `alarms follow --database-url` of that node consumes from it as a
 * competing consumer and a message goes to one of them.
 */
export const fleetQueueName = (sourceId: string): string => `northbound.alarms.fleet.${sourceId}`.slice(0, 255);
