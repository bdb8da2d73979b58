/**
 * `northbound worker` (issue 24.2, C-67): a headless process of a team's collector fleet. It
 * claims due connector polls from the team's PostgreSQL (claims.ts: SKIP LOCKED under a lease),
 * runs each with the desk's scheduler, vendor clients, scoring and publication code, commits each
 * cycle in one transaction in the shared store, and publishes every completed cycle once: the
 * publication of a cycle runs under an advisory lock keyed by its id, and the store marks each
 * target as sent (ScorePublisher), so a redone, repeated or orphaned cycle is never sent twice.
 *
 * - A connector taken over from a worker whose lease lapsed has that worker's unfinished cycle
 *   marked interrupted first (its commit is then refused), and is polled again here.
 * - Leases are renewed every third of their length; a lease found taken stops its cycle.
 * - A cycle completed by a worker that died before publishing is published by the sweep of any
 *   other worker once the publish delay has passed.
 * - `stop()` (SIGTERM): no new claims; running cycles get `graceMs` to finish, the rest are
 *   cancelled and handed back (due at once for another worker); then the worker says it stopped.
 * - Health in the database (fleet_workers: heartbeat, running connectors, cycles, last error) and
 *   on the logger (stderr).
 * - A connector an admin console saved new risk settings for is owed a rescore (C-93): claimed
 *   before due polls, its newest completed cycle's stored hosts are scored again under the settings
 *   read after the claim, as a cycle of kind `rescore` committed and published like a poll (the
 *   desk's what-if Save, zta-what-if.ts); the next poll keeps its time. A poll that was due instead
 *   serves the request itself.
 */
import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { notAssessedOf } from '../../shared/model/connector';
import { scoreHost } from '../../shared/risk';
import { FleetClaims, type Claim } from '../edr/fleet/claims';
import { FleetConnectors } from '../edr/fleet/fleet-connectors';
import { ScorePublisher, type PublishTarget } from '../edr/publisher';
import type { StoredConnector } from '../edr/registry';
import { EdrScheduler, type ConnectorRuntime, type ConnectorSource } from '../edr/scheduler';
import { storedHostsSource } from '../edr/zta-what-if';
import type { EdrStore } from '../edr/store/edr-store';
import type { PgEdrStore } from '../edr/store/edr-pg';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { Logger } from '../log';
import type { PgPool } from '../store/postgres';
import type { WorkerKeyPair } from '../store/sealed-box';
import { RiskConfigs } from './edr-risk-configs';
import { ConnectorRuntimes } from './edr-runtimes';

/** The EDR store a fleet shares (edr-pg.ts): the desk's interface, interrupting a connector's orphaned cycles, and a commit fenced by the claim. */
export type FleetEdrStore = Pick<PgEdrStore, keyof EdrStore | 'interruptCycles' | 'commitCycleFenced'>;

export interface FleetWorkerOptions {
  pool: PgPool;
  store: FleetEdrStore;
  keys: WorkerKeyPair;
  targets: () => PublishTarget[];
  logger: Logger;
  runtimeFor(connector: StoredConnector, secret: () => Promise<string | undefined>): ConnectorRuntime;
  workerId?: string;
  /** Cycles run at once (default 4). */
  concurrency?: number;
  /** A claim's lease (default 60 s); renewed every third of it. */
  leaseMs?: number;
  /** How often due connectors are looked for (default 2 s). */
  claimEveryMs?: number;
  /** After a cycle completes, its publication waits this long (spec: about a minute). */
  publishDelayMs?: number;
}

/** Both halves of a publication lock's key (pg_try_advisory_lock(int, int)): a constant, then the cycle. */
const PUBLISH_LOCK = 0x4e42_5055; // "NBPU"

interface Running {
  connector: StoredConnector;
  /** What the claim is for, and the rescore requests it serves once a cycle of it commits. */
  claim: Claim;
  cycleId?: number;
  /** Its claim was released by the cycle's commit (in its transaction). */
  released?: boolean;
  done: Promise<void>;
}

export class FleetWorker {
  readonly id: string;
  private readonly claims: FleetClaims;
  private readonly connectors: FleetConnectors;
  private readonly scheduler: EdrScheduler;
  private readonly publisher: ScorePublisher;
  private readonly runtimes: ConnectorRuntimes;
  private readonly running = new Map<string, Running>();
  private readonly claimed = new Map<string, StoredConnector>();
  private readonly concurrency: number;
  private readonly leaseMs: number;
  private readonly claimEveryMs: number;
  private readonly publishDelayMs: number;
  private readonly timers = new Set<NodeJS.Timeout>();
  private stopping = false;
  private cycles = 0;
  private failed = 0;
  /** The database was unreachable at the last attempt (said once per outage). */
  private offline = false;
  private ticking: Promise<void> | undefined;
  /** The publications of this worker, one after the other (publishLocked). */
  private publishing: Promise<void> = Promise.resolve();
  /** A sweep of unpublished cycles is under way (the next timer's waits for none). */
  private sweeping = false;

  constructor(private readonly o: FleetWorkerOptions) {
    this.id = o.workerId ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.concurrency = o.concurrency ?? 4;
    this.leaseMs = o.leaseMs ?? 60_000;
    this.claimEveryMs = o.claimEveryMs ?? 2_000;
    this.publishDelayMs = o.publishDelayMs ?? 60_000;
    this.claims = new FleetClaims(o.pool, this.id, this.leaseMs);
    this.connectors = new FleetConnectors(o.pool);
    const riskConfigs = new RiskConfigs(o.logger);
    this.runtimes = new ConnectorRuntimes((c) => o.runtimeFor(c, () => this.connectors.openSecret(c, o.keys)));
    const source: ConnectorSource = {
      list: () => [...this.claimed.values()],
      get: (id) => {
        const c = this.claimed.get(id);
        if (!c) throw new AppError(ErrorCodes.notFound, 'That connector is not claimed by this worker.', '');
        return c;
      },
      onChange: () => () => undefined,
      onMove: () => () => undefined,
    };
    this.publisher = new ScorePublisher({
      store: o.store,
      targets: o.targets,
      logger: o.logger.child('publish'),
      notAssessed: (id) => notAssessedOf(this.claimed.get(id) ?? {}),
    });
    // A cycle commits only while this worker holds its connector's claim, and releases it in the same transaction.
    const fenced: EdrStore = Object.assign(Object.create(null) as EdrStore, o.store, {
      commitCycle: (cycleId: number, at: Date) =>
        o.store.commitCycleFenced(cycleId, at, async (client, connectorId) => {
          const c = this.claimed.get(connectorId);
          const run = this.running.get(connectorId);
          if (!c || !run) throw new AppError(ErrorCodes.cancelled, 'That connector is not claimed by this worker.', '');
          if (run.claim.poll) {
            await this.claims.releaseWithCommit(client, connectorId, c.pollIntervalMinutes, cycleId);
            await this.claims.served(client, connectorId, run.claim.rescoreRequests);
          } else {
            await this.claims.releaseRescoreWithCommit(client, connectorId, cycleId, run.claim.rescoreRequests);
          }
          run.released = true;
        }),
    });
    this.scheduler = new EdrScheduler({
      registry: source,
      store: fenced,
      runtimeFor: (c) => this.runtimes.of(c),
      score: (host, c, now) => scoreHost(host, riskConfigs.of(c), now),
      publish: (cycleId) => this.publishLocked(cycleId),
      onProgress: (p) => {
        if (p.phase === 'completed' || p.phase === 'failed' || p.phase === 'cancelled') o.logger.info(`cycle ${p.phase}`, { connectorId: p.connectorId, cycleId: p.cycleId, hosts: p.done, ...(p.message ? { message: p.message } : {}) });
      },
      logger: o.logger.child('scheduler'),
      publishDelayMs: this.publishDelayMs,
      recurring: false,
    });
  }

  async start(): Promise<void> {
    await this.claims.register({ host: os.hostname(), pid: process.pid, concurrency: this.concurrency });
    this.o.logger.info('worker started', { worker: this.id, concurrency: this.concurrency, leaseSeconds: this.leaseMs / 1000 });
    this.every(this.claimEveryMs, () => this.tick());
    this.every(Math.max(250, Math.floor(this.leaseMs / 3)), () => this.renew());
    this.every(Math.max(1_000, Math.min(this.publishDelayMs, 15_000)), () => this.sweepPublications());
    await this.tick();
  }

  private every(ms: number, fn: () => Promise<void>): void {
    const t = setInterval(() => void fn(), ms);
    this.timers.add(t);
  }

  /** Runs `fn` against the database; an outage is said once, and its end. */
  private async db<T>(what: string, fn: () => Promise<T>): Promise<T | undefined> {
    try {
      const v = await fn();
      if (this.offline) {
        this.offline = false;
        this.o.logger.info('the database is reachable again', { worker: this.id });
      }
      return v;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      if (!this.offline) {
        this.offline = true;
        this.o.logger.warn(`the database could not be reached (${what}); retrying`, { worker: this.id, error: message });
      }
      await this.claims.recordError(`${what}: ${message}`).catch(() => undefined);
      return undefined;
    }
  }

  /** Claims what is due, up to the free slots, and runs it. */
  tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = (async () => {
      if (this.stopping) return;
      const free = this.concurrency - this.running.size;
      const claims = (await this.db('claiming due connectors', () => this.claims.claim(free))) ?? [];
      for (const claim of claims) this.begin(claim);
    })().finally(() => {
      this.ticking = undefined;
    });
    return this.ticking;
  }

  private begin(claim: Claim): void {
    const id = claim.connectorId;
    const run: Running = { connector: undefined as unknown as StoredConnector, claim, done: Promise.resolve() };
    run.done = this.runClaim(claim, run).finally(() => {
      this.running.delete(id);
      this.claimed.delete(id);
      void this.tick();
    });
    this.running.set(id, run);
  }

  private async runClaim(claim: Claim, run: Running): Promise<void> {
    const id = claim.connectorId;
    const log = this.o.logger;
    const connector = await this.db('reading a connector', () => this.connectors.get(id));
    if (!connector) {
      await this.db('releasing a claim', () => this.claims.handBack(id));
      return;
    }
    run.connector = connector;
    this.claimed.set(id, connector);
    // Whatever another worker left running for this connector is over (it lost its lease).
    const interrupted = await this.db('interrupting orphaned cycles', () => this.o.store.interruptCycles(id, new Date()));
    if (interrupted === undefined) {
      await this.db('releasing a claim', () => this.claims.handBack(id));
      return;
    }
    if (interrupted > 0) log.warn('took over a connector whose worker stopped; its unfinished cycle is marked interrupted', { connectorId: id, previousWorker: claim.previousWorker, cycles: interrupted });
    if (!claim.poll) return this.runRescore(claim, run);
    let outcome: { cycleId: number | null; status: string; error: string | null };
    try {
      const started = await this.scheduler.startNow(id);
      run.cycleId = started.cycleId;
      await this.db('noting the cycle', () => this.claims.started(id, started.cycleId));
      await started.done;
      this.cycles += 1;
      outcome = { cycleId: started.cycleId, status: 'completed', error: null };
    } catch (e) {
      outcome = this.outcomeOf(e, run);
    }
    if (this.stopping && outcome.status === 'cancelled') {
      await this.db('handing a claim back', () => this.claims.handBack(id));
      return;
    }
    if (run.released) return;
    const released = await this.db('releasing a claim', () => this.claims.release(id, connector.pollIntervalMinutes, outcome));
    if (released === false) log.warn('the claim was taken over before the cycle ended', { connectorId: id, cycleId: outcome.cycleId });
  }

  private outcomeOf(e: unknown, run: Running): { cycleId: number | null; status: string; error: string | null } {
    const code = e instanceof AppError ? e.code : undefined;
    const outcome = { cycleId: run.cycleId ?? null, status: code === ErrorCodes.cancelled ? 'cancelled' : 'failed', error: e instanceof Error ? e.message : String(e) };
    if (outcome.status === 'failed') this.failed += 1;
    return outcome;
  }

  /**
   * A claim for a rescore (C-93): the hosts of the connector's newest completed cycle scored again
   * under its settings as read after the claim, as of when their facts were collected. Nothing
   * stored yet: nothing to rescore (the next poll scores with the settings).
   */
  private async runRescore(claim: Claim, run: Running): Promise<void> {
    const id = claim.connectorId;
    const log = this.o.logger;
    const latest = await this.db('reading the newest cycle', async () => (await this.o.store.latestCycles()).find((c) => c.connectorId === id) ?? null);
    if (latest === undefined) {
      await this.db('releasing a claim', () => this.claims.handBack(id));
      return;
    }
    if (latest === null) {
      log.info('no stored hosts to rescore; the next poll scores with the new risk settings', { connectorId: id });
      await this.db('releasing a claim', () => this.claims.releaseRescore(id, claim.rescoreRequests, null));
      return;
    }
    log.info('rescoring the stored hosts under new risk settings', { connectorId: id, fromCycle: latest.cycleId, hosts: latest.hosts });
    let outcome: { cycleId: number | null; status: string; error: string | null };
    try {
      const started = await this.scheduler.startRescore(id, storedHostsSource(this.o.store, id, latest), new Date(latest.finishedAt));
      run.cycleId = started.cycleId;
      await this.db('noting the cycle', () => this.claims.started(id, started.cycleId));
      const cycleId = await started.done;
      this.cycles += 1;
      outcome = { cycleId, status: 'completed', error: null };
    } catch (e) {
      outcome = this.outcomeOf(e, run);
    }
    if (outcome.status === 'cancelled') {
      // Stopping, or the lease was lost: the request stays owed, for whoever holds the connector next.
      await this.db('handing a claim back', () => this.claims.handBack(id));
      return;
    }
    if (run.released) return;
    const released = await this.db('releasing a claim', () => this.claims.releaseRescore(id, claim.rescoreRequests, { ...outcome, error: outcome.error && `rescore: ${outcome.error}` }));
    if (released === false) log.warn('the claim was taken over before the rescore ended', { connectorId: id, cycleId: outcome.cycleId });
  }

  /** Renews the leases of the running cycles; a lease found taken over stops its cycle. */
  private async renew(): Promise<void> {
    const ids = [...this.running.keys()];
    await this.db('heartbeat', () => this.claims.heartbeat(ids, this.cycles));
    const lost = await this.db('renewing leases', () => this.claims.renew(ids));
    for (const id of lost ?? []) {
      this.o.logger.warn('lost the lease of a connector (another worker took it over); its cycle stops', { connectorId: id });
      this.scheduler.cancel(id, 'cancelled: this worker lost its lease on the connector');
    }
  }

  /**
   * Publishes a cycle under its advisory lock; another worker holding it is publishing it. One at a
   * time in this worker: each holds a connection for its lock while its reads need another, so
   * publications running side by side (a burst of cycles ending after an outage) could take every
   * connection of the pool and wait for one another forever.
   */
  private publishLocked(cycleId: number): Promise<void> {
    const run = this.publishing.then(() => this.publishUnderLock(cycleId));
    this.publishing = run.catch(() => undefined);
    return run;
  }

  private async publishUnderLock(cycleId: number): Promise<void> {
    const client = await this.o.pool.connect();
    try {
      const got = (await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock($1::int, $2::int) AS ok', [PUBLISH_LOCK, cycleId])).rows[0]?.ok;
      if (!got) return;
      try {
        await this.publisher.publishCycle(cycleId);
      } finally {
        await client.query('SELECT pg_advisory_unlock($1::int, $2::int)', [PUBLISH_LOCK, cycleId]).catch(() => undefined);
      }
    } finally {
      client.release();
    }
  }

  /** Publishes completed cycles nobody published once their delay has passed (their worker died, or publication failed). */
  private async sweepPublications(): Promise<void> {
    if (this.stopping || this.sweeping) return;
    this.sweeping = true;
    try {
      await this.sweep();
    } finally {
      this.sweeping = false;
    }
  }

  private async sweep(): Promise<void> {
    const pending = await this.db('reading unpublished cycles', () => this.o.store.unpublishedCycles());
    const now = Date.now();
    for (const c of pending ?? []) {
      if (this.stopping) return;
      if (!c.finishedAt || Date.parse(c.finishedAt) + this.publishDelayMs > now) continue;
      await this.publishLocked(c.id).catch((e: unknown) => this.o.logger.warn('publication failed; it is tried again', { cycleId: c.id, error: e instanceof Error ? e.message : String(e) }));
    }
  }

  /** One line for the person at the terminal: what runs, what was done, whether the database answers. */
  progressLine(): string {
    const names = [...this.running.values()].map((r) => r.connector?.name).filter(Boolean);
    const running = names.length ? `${names.length} running (${names.slice(0, 3).join(', ')}${names.length > 3 ? ', …' : ''})` : 'idle';
    return `worker ${this.id}: ${running}; ${this.cycles} cycle(s) completed, ${this.failed} failed since start; database ${this.offline ? 'unreachable' : 'reachable'}`;
  }

  /**
   * Stops claiming; running cycles get `graceMs` to finish; the rest are cancelled and handed back
   * (due at once for another worker). Publications in flight end; the worker is marked stopped.
   */
  async stop(graceMs = 30_000): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    await this.ticking;
    const all = () => Promise.all([...this.running.values()].map((r) => r.done.catch(() => undefined)));
    if (this.running.size > 0) {
      this.o.logger.info('stopping: waiting for the running cycles', { running: this.running.size, graceSeconds: graceMs / 1000 });
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([all(), new Promise((resolve) => (timer = setTimeout(resolve, graceMs)))]);
      clearTimeout(timer);
      for (const id of this.running.keys()) this.scheduler.cancel(id, 'cancelled: the worker is stopping; another worker polls the tenant');
      await all();
    }
    for (const t of this.timers) clearInterval(t);
    this.timers.clear();
    await this.scheduler.stop();
    await this.publisher.stop();
    await this.runtimes.closeAll();
    await this.db('marking the worker stopped', () => this.claims.stopped());
    this.o.logger.info('worker stopped', { worker: this.id, cycles: this.cycles });
  }
}
