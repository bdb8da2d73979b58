/**
 * The poll scheduler, following the timeline of spec 3: at publish the connector is registered
 * and its token and risk profile loaded; the first device pull starts 5 s later; vulnerabilities
 * are fetched, scores calculated and stored per device; the aggregated scores are published about
 * a minute after collection; the cycle repeats every Poll Interval. Cycles of one connector never
 * overlap; each can be cancelled; progress is reported as it goes.
 */
import type { HostRecord, ScoredHost } from '../../shared/model/edr';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { Logger } from '../log';
import type { EdrStore } from './store/edr-store';
import type { ConnectorRegistry, StoredConnector } from './registry';

/** What the scheduler reads of the registered connectors (a desk's registry, or a fleet worker's claimed ones). */
export type ConnectorSource = Pick<ConnectorRegistry, 'list' | 'get' | 'onChange' | 'onMove'>;

export type CyclePhase = 'starting' | 'devices' | 'vulnerabilities' | 'scoring' | 'storing' | 'completed' | 'failed' | 'cancelled';

export interface CycleProgress {
  connectorId: string;
  cycleId: number;
  phase: CyclePhase;
  done: number;
  total: number | null;
  message?: string;
}

/** What a vendor connector offers the scheduler. */
export interface ConnectorRuntime {
  /**
   * One cycle's hosts. With `onHosts` they arrive there in batches as the connector completes them
   * and are not kept (memory bounded by a batch); the promise then resolves to an empty array.
   */
  poll(opts: {
    signal: AbortSignal;
    onProgress: (p: { phase: 'devices' | 'vulnerabilities'; done: number; total: number | null }) => void;
    onHosts?: (batch: HostRecord[]) => void | Promise<void>;
  }): Promise<HostRecord[]>;
  /** Credentials, permissions and region, without polling (the Connectors page's Test). */
  test?(signal?: AbortSignal): Promise<{ ok: boolean; checks: Array<{ name: string; ok: boolean; ran?: boolean; message: string; hint?: string }> }>;
  close?(): Promise<void>;
}

export interface Timers {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const realTimers: Timers = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

export interface SchedulerDeps {
  registry: ConnectorSource;
  store: EdrStore;
  runtimeFor(connector: StoredConnector): ConnectorRuntime;
  score(host: HostRecord, connector: StoredConnector, now: Date): Omit<ScoredHost, 'host' | 'scoredAt'>;
  /** Publishes one completed cycle; the scheduler calls it once the publish delay has passed. */
  publish(cycleId: number): Promise<void>;
  onProgress(p: CycleProgress): void;
  logger: Logger;
  timers?: Timers;
  firstPullDelayMs?: number;
  publishDelayMs?: number;
  /**
   * false: a cycle does not schedule the next one (a fleet worker: the database says when a
   * connector is due and which worker polls it, claims.ts). Default true.
   */
  recurring?: boolean;
}

/** Everything of a connector that its schedule depends on (all but its risk settings). */
const scheduleKey = (c: StoredConnector) => {
  const { risk: _risk, ...rest } = c;
  return JSON.stringify(rest);
};

interface Slot {
  connector: StoredConnector;
  timer?: unknown;
  nextAt?: number;
  /** `progress` once the store has begun the cycle (and numbered it). */
  running?: { abort: AbortController; begun: Promise<number>; done: Promise<number>; progress?: CycleProgress };
}

export class EdrScheduler {
  private readonly slots = new Map<string, Slot>();
  private readonly timers: Timers;
  private readonly firstPullDelayMs: number;
  private readonly publishDelayMs: number;
  private readonly publishTimers = new Set<unknown>();
  /** Why a cycle was cancelled, when `cancel` said (stored as the cycle's error). */
  private readonly cancelReasons = new WeakMap<AbortSignal, string>();
  private unsubscribe: (() => void) | undefined;
  private stopped = false;

  constructor(private readonly d: SchedulerDeps) {
    this.timers = d.timers ?? realTimers;
    this.firstPullDelayMs = d.firstPullDelayMs ?? 5_000;
    this.publishDelayMs = d.publishDelayMs ?? 60_000;
  }

  /** Schedules every enabled connector and follows registry changes (save and publish). */
  start(): void {
    this.stopped = false;
    for (const c of this.d.registry.list()) this.sync(c.id, c);
    // The list is read once per change, however many connectors it names (a bulk push names thousands).
    const offChange = this.d.registry.onChange((ids) => {
      const byId = new Map(this.d.registry.list().map((c) => [c.id, c]));
      for (const id of ids) this.sync(id, byId.get(id));
    });
    // A cycle never goes on against an endpoint its connector has left (nor asks for its secret there).
    const offMove = this.d.registry.onMove((id) => this.cancel(id, MOVED));
    this.unsubscribe = () => {
      offChange();
      offMove();
    };
  }

  /** Follows the connector `id` as registered now (`connector`; undefined once deleted). */
  private sync(id: string, connector: StoredConnector | undefined): void {
    const slot = this.slots.get(id);
    if (!connector || !connector.enabled) {
      if (slot?.timer !== undefined) this.timers.clearTimeout(slot.timer);
      slot?.running?.abort.abort();
      this.slots.delete(id);
      return;
    }
    // A change of the risk settings alone keeps the schedule (they apply from the next scoring).
    if (slot && slot.timer !== undefined && scheduleKey(slot.connector) === scheduleKey(connector)) {
      slot.connector = connector;
      return;
    }
    if (slot?.timer !== undefined) this.timers.clearTimeout(slot.timer);
    // The same slot object: a running cycle clears `running` on the slot it started in.
    const next: Slot = slot ?? { connector };
    next.connector = connector;
    next.timer = undefined;
    delete next.nextAt;
    this.slots.set(id, next);
    if (!next.running) this.schedule(next, this.firstPullDelayMs);
  }

  private schedule(slot: Slot, delayMs: number): void {
    if (this.stopped) return;
    slot.nextAt = this.timers.now() + delayMs;
    slot.timer = this.timers.setTimeout(() => {
      slot.timer = undefined;
      void this.runNow(slot.connector.id).catch(() => undefined);
    }, delayMs);
  }

  status(id: string): { running: boolean; progress?: CycleProgress; nextCycleAt?: string } {
    const slot = this.slots.get(id);
    return {
      running: Boolean(slot?.running),
      ...(slot?.running?.progress ? { progress: slot.running.progress } : {}),
      ...(slot?.nextAt !== undefined && !slot.running ? { nextCycleAt: new Date(slot.nextAt).toISOString() } : {}),
    };
  }

  /** Runs a cycle now; if one is running, answers that one (cycles never overlap). */
  runNow(id: string): Promise<number> {
    return this.run(id);
  }

  /**
   * Poll now for the window: answers the cycle's id as soon as the store has numbered it (the
   * running one's, if one runs) and the cycle's end in `done`.
   */
  async startNow(id: string): Promise<{ cycleId: number; done: Promise<number> }> {
    const done = this.run(id);
    done.catch(() => undefined);
    const running = this.slots.get(id)?.running;
    return { cycleId: await (running ? running.begun : done), done };
  }

  /**
   * Scores a connector's stored hosts again (new risk settings) as a cycle of its own, kind
   * `rescore`, staged, committed and published like a poll: `source` hands the stored records out
   * in batches, scored as of `scoreTime` (when their facts were collected). Never beside a poll: a
   * running one is waited for. The next poll keeps its time.
   */
  async rescore(id: string, source: ConnectorRuntime, scoreTime: Date): Promise<number> {
    return (await this.startRescore(id, source, scoreTime)).done;
  }

  /** `rescore` for a caller that notes the cycle (a team's worker): its id once the store has numbered it, and its end in `done`. */
  async startRescore(id: string, source: ConnectorRuntime, scoreTime: Date): Promise<{ cycleId: number; done: Promise<number> }> {
    for (let slot = this.slots.get(id); slot?.running; slot = this.slots.get(id)) await slot.running.done.catch(() => undefined);
    const done = this.run(id, { source, scoreTime });
    done.catch(() => undefined);
    const running = this.slots.get(id)?.running;
    return { cycleId: await (running ? running.begun : done), done };
  }

  private run(id: string, rescore?: { source: ConnectorRuntime; scoreTime: Date }): Promise<number> {
    let connector: StoredConnector;
    try {
      connector = this.d.registry.get(id);
    } catch (e) {
      // Deleted before its timer fired (the registry tells its listeners once the secret is gone):
      // no cycle, its idle slot goes, and the caller gets the registry's reason as a rejection.
      const idle = this.slots.get(id);
      if (idle && !idle.running) {
        if (idle.timer !== undefined) this.timers.clearTimeout(idle.timer);
        this.slots.delete(id);
      }
      this.d.logger.info('edr: no cycle, the connector no longer exists', { connectorId: id });
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    const slot = this.slots.get(id) ?? { connector };
    this.slots.set(id, slot);
    if (slot.running) return slot.running.done;
    const nextPollAt = rescore ? slot.nextAt : undefined;
    if (slot.timer !== undefined) this.timers.clearTimeout(slot.timer);
    slot.timer = undefined;
    delete slot.nextAt;
    const abort = new AbortController();
    const started = new Date(this.timers.now());
    const begun = this.d.store.beginCycle(connector.id, connector.vendor, connector.tenantId, started, rescore ? 'rescore' : 'poll');
    const done = begun
      .then((cycleId) => {
        const progress: CycleProgress = { connectorId: id, cycleId, phase: 'starting', done: 0, total: null };
        running.progress = progress;
        const report = (p: Partial<CycleProgress>) => {
          Object.assign(progress, p);
          this.d.onProgress({ ...progress });
        };
        report({});
        return this.cycle(connector, cycleId, abort.signal, report, rescore);
      })
      .finally(() => {
        slot.running = undefined;
        const current = this.slots.get(id);
        if (current === slot && slot.connector.enabled && !this.stopped && this.d.recurring !== false) {
          const interval = slot.connector.pollIntervalMinutes * 60_000;
          // Next cycle one interval after this one started; never before this one ended. A rescore
          // leaves the next poll where it was.
          const at = rescore ? (nextPollAt ?? started.getTime() + interval) : started.getTime() + interval;
          this.schedule(slot, Math.max(0, at - this.timers.now()));
        }
      });
    // The slot is taken before the store numbers the cycle, so a second call shares this one.
    const running: NonNullable<Slot['running']> = { abort, begun, done };
    slot.running = running;
    return done;
  }

  /**
   * One cycle, memory bounded by a batch (and a light row per host seen as it was, edr-staging.ts):
   * each batch the connector hands out (`onHosts`) is scored and appended to the cycle's staging
   * rows, then dropped. The views keep showing the
   * previous cycle until `commitCycle` moves the staged rows into hosts and scores and marks the
   * cycle completed, in one transaction; a failed or cancelled cycle's staged rows are deleted.
   */
  private async cycle(
    c: StoredConnector,
    cycleId: number,
    signal: AbortSignal,
    report: (p: Partial<CycleProgress>) => void,
    rescore?: { source: ConnectorRuntime; scoreTime: Date },
  ): Promise<number> {
    const log = this.d.logger.child(`cycle.${c.vendor}`);
    try {
      const runtime = rescore ? rescore.source : this.d.runtimeFor(c);
      report({ phase: 'devices' });
      let received = 0;
      let staged = 0;
      let skipped = 0;
      /** Hosts the connector said the cycle has (its last known total), for the scoring progress. */
      let expected: number | null = null;
      const stage = async (batch: readonly HostRecord[]) => {
        if (signal.aborted) throw cancelled();
        const now = rescore ? rescore.scoreTime : new Date(this.timers.now());
        const at = now.toISOString();
        // Scored as they are written (a generator): a scored host lives only until its row is written.
        const d = this.d;
        function* scored(): Generator<ScoredHost> {
          for (const h of batch) {
            let s: Omit<ScoredHost, 'host' | 'scoredAt'>;
            try {
              s = d.score(h, c, now);
            } catch (e) {
              // A host without its vendor's facts is skipped (and counted), not the whole cycle.
              skipped += 1;
              if (skipped <= 3) log.warn('host not scored', { hostId: h.hostId, error: e instanceof Error ? e.message : String(e) });
              continue;
            }
            yield { host: h, ...s, scoredAt: at };
          }
        }
        const n = await this.d.store.stageScores(cycleId, c.id, scored());
        staged += n;
        received += batch.length;
        report({
          phase: 'scoring',
          done: received,
          total: expected === null ? null : Math.max(expected, received),
          ...(skipped ? { message: `${skipped} host(s) had no data to score and were skipped.` } : {}),
        });
      };
      const rest = await runtime.poll({
        signal,
        onProgress: (p) => {
          if (p.phase === 'vulnerabilities' && p.total !== null) expected = p.total;
          report(p);
        },
        onHosts: stage,
      });
      // A runtime that ignores onHosts answers the whole cycle here: it is staged the same way, batch by batch.
      for (let i = 0; i < rest.length; i += STAGE_BATCH) await stage(rest.slice(i, i + STAGE_BATCH));
      if (signal.aborted) throw cancelled();
      report({ phase: 'storing', done: 0, total: staged });
      const hosts = await this.d.store.commitCycle(cycleId, new Date(this.timers.now()));
      report({ phase: 'completed', done: hosts, total: hosts });
      log.info('cycle completed', { connectorId: c.id, cycleId, hosts, skipped });
      this.schedulePublish(cycleId);
      return cycleId;
    } catch (e) {
      const aborted = signal.aborted || (e instanceof AppError && e.code === ErrorCodes.cancelled);
      const message = e instanceof Error ? e.message : String(e);
      // Also deletes what the cycle had staged: none of it was ever visible.
      await this.d.store.finishCycle(cycleId, aborted ? 'cancelled' : 'failed', {
        hosts: 0,
        error: aborted ? (this.cancelReasons.get(signal) ?? 'cancelled by the operator') : message,
        ...(e instanceof AppError ? { errorCode: e.code } : {}),
        at: new Date(this.timers.now()),
      });
      report({ phase: aborted ? 'cancelled' : 'failed', message: aborted ? 'Cancelled.' : message });
      log.warn(aborted ? 'cycle cancelled' : 'cycle failed', { connectorId: c.id, cycleId, error: message });
      if (aborted) throw cancelled();
      throw e;
    }
  }

  private schedulePublish(cycleId: number): void {
    const t = this.timers.setTimeout(() => {
      this.publishTimers.delete(t);
      this.d.publish(cycleId).catch((e: unknown) => this.d.logger.warn('publication failed; it is retried with the next cycle', { cycleId, error: String(e) }));
    }, this.publishDelayMs);
    this.publishTimers.add(t);
  }

  /** Cancels the running cycle of a connector (`why` is stored as its error); true if there was one. */
  cancel(id: string, why = 'cancelled by the operator'): boolean {
    const running = this.slots.get(id)?.running;
    if (running) this.cancelReasons.set(running.abort.signal, why);
    running?.abort.abort();
    return Boolean(running);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.unsubscribe?.();
    for (const t of this.publishTimers) this.timers.clearTimeout(t);
    this.publishTimers.clear();
    const running: Promise<unknown>[] = [];
    for (const slot of this.slots.values()) {
      if (slot.timer !== undefined) this.timers.clearTimeout(slot.timer);
      if (slot.running) {
        slot.running.abort.abort();
        running.push(slot.running.done.catch(() => undefined));
      }
    }
    await Promise.all(running);
    this.slots.clear();
  }
}

/** Hosts scored and staged at a time when a runtime answers a whole cycle at once. */
const STAGE_BATCH = 5_000;

const MOVED = 'cancelled: the connector was moved to another address or certificate trust';

const cancelled = () => new AppError(ErrorCodes.cancelled, 'The poll cycle was cancelled.', 'Start it again with Poll now, or wait for the next cycle.');
