/**
 * Publication of aggregated ZTA scores, once per completed cycle, to every configured target: a
 * RabbitMQ exchange when one is configured, and the management node. The message shape is in
 * docs/spec-decisions.md (EDR-P1..P3). Each (cycle, target) is marked in the store when sent, so
 * a retry after a partial failure never sends a cycle twice to the same target.
 */
import { DEFAULT_NOT_ASSESSED, type NotAssessedPublication } from '../../shared/model/connector';
import { NOT_ASSESSED, type RiskBand, type Vendor } from '../../shared/model/edr';
import { NOT_ASSESSED_SCORE } from '../../shared/risk/bands';
import type { Logger } from '../log';
import type { CycleHost, CycleRow, EdrStore } from './store/edr-store';
import { withRetries, type RetryPolicy } from '../net/retry';

export const HOSTS_PER_MESSAGE = 5_000;

export interface ScoreMessage {
  type: 'northbound.zta.scores';
  version: 1;
  /** `<connectorId>:<cycleId>:<part>` — stable, so a consumer can drop duplicates. */
  messageId: string;
  cycleId: number;
  connectorId: string;
  vendor: Vendor;
  tenantId: string;
  collectedAt: string;
  part: number;
  parts: number;
  /**
   * The cycle's hosts: `bands` counts Not assessed apart, `meanScore` is over the assessed hosts,
   * and `notAssessed` says what was done with those (EDR-N2).
   */
  summary: { hosts: number; meanScore: number; bands: Record<RiskBand, number>; notAssessed: NotAssessedPublication };
  /**
   * `profiles` (Falcon only): the predefined profiles of spec 2.4 by identifier, true when the host
   * passes. A host not assessed is here only under `fail-closed`: as High Risk, score 100, `assessed: false`.
   */
  hosts: PublishedHost[];
}

/** One host as published: `assessed` is false for a host its vendor has not assessed, sent fail-closed. */
export type PublishedHost = CycleHost & { assessed: boolean };

/** A cycle's hosts as a connector publishes them under its choice for hosts not assessed (EDR-N2). */
export function publishedHosts(hosts: readonly CycleHost[], notAssessed: NotAssessedPublication): PublishedHost[] {
  const out: PublishedHost[] = [];
  for (const h of hosts) {
    if (h.band !== NOT_ASSESSED) out.push({ ...h, assessed: true });
    else if (notAssessed === 'fail-closed') out.push({ ...h, score: NOT_ASSESSED_SCORE, band: 'High Risk', assessed: false });
  }
  return out;
}

export interface PublishTarget {
  /** Stable name used in the publication marks (e.g. `amqp:northbound.zta`, `mgmt:<profile id>`). */
  readonly name: string;
  send(messages: ScoreMessage[]): Promise<void>;
  close?(): Promise<void>;
}

export async function buildMessages(store: Pick<EdrStore, 'cycleHosts' | 'cycleSummary'>, cycle: CycleRow, notAssessed: NotAssessedPublication = DEFAULT_NOT_ASSESSED): Promise<ScoreMessage[]> {
  const hosts = publishedHosts(await store.cycleHosts(cycle.id), notAssessed);
  const summary = { ...(await store.cycleSummary(cycle.id)), notAssessed };
  const parts = Math.max(1, Math.ceil(hosts.length / HOSTS_PER_MESSAGE));
  const out: ScoreMessage[] = [];
  for (let part = 0; part < parts; part++) {
    out.push({
      type: 'northbound.zta.scores',
      version: 1,
      messageId: `${cycle.connectorId}:${cycle.id}:${part + 1}`,
      cycleId: cycle.id,
      connectorId: cycle.connectorId,
      vendor: cycle.vendor,
      tenantId: cycle.tenantId,
      collectedAt: cycle.finishedAt ?? cycle.startedAt,
      part: part + 1,
      parts,
      summary,
      hosts: hosts.slice(part * HOSTS_PER_MESSAGE, (part + 1) * HOSTS_PER_MESSAGE),
    });
  }
  return out;
}

export interface PublisherOptions {
  store: EdrStore;
  targets: () => PublishTarget[];
  logger: Logger;
  now?: () => Date;
  /** Attempts per target per call, with a doubling pause between them (net/retry: equal jitter, cancelled by `stop`). */
  attempts?: number;
  retryDelayMs?: number;
  /** Injected by tests (net/retry's jitter). */
  random?: () => number;
  /** The connector's choice for hosts not assessed (EDR-N2); absent: fail-closed. */
  notAssessed?: (connectorId: string) => NotAssessedPublication;
  /** After every attempt on a cycle, published or not (the app refreshes the connector's status). */
  onSettled?: (cycle: CycleRow) => void;
}

export const NO_TARGET = 'No publication target: sign in to a management node, or set a RabbitMQ address on the Settings page. The scores are kept and published then.';

export class ScorePublisher {
  private readonly inFlight = new Map<number, Promise<void>>();
  /** Aborted by `stop`: a pause between attempts ends at once and no target is tried again. */
  private readonly stopping = new AbortController();

  constructor(private readonly o: PublisherOptions) {}

  /** Publishes a completed cycle to every target not yet done; concurrent calls share one run. */
  publishCycle(cycleId: number): Promise<void> {
    const running = this.inFlight.get(cycleId);
    if (running) return running;
    const run = this.run(cycleId).finally(() => this.inFlight.delete(cycleId));
    this.inFlight.set(cycleId, run);
    return run;
  }

  private async run(cycleId: number): Promise<void> {
    const { store } = this.o;
    const cycle = await store.cycle(cycleId);
    if (!cycle || cycle.status !== 'completed' || cycle.publishedAt) return;
    try {
      await this.publishTo(cycle);
    } finally {
      const after = await store.cycle(cycleId);
      if (after) this.o.onSettled?.(after);
    }
  }

  private async publishTo(cycle: CycleRow): Promise<void> {
    const { store, logger } = this.o;
    const now = this.o.now ?? (() => new Date());
    const cycleId = cycle.id;
    const targets = this.o.targets();
    if (targets.length === 0) {
      // Nothing to publish to yet: the cycle stays pending, so a later target still receives it.
      await store.recordPublishAttempt(cycleId, NO_TARGET);
      logger.info('no publication target; the cycle stays pending', { cycleId });
      return;
    }
    const messages = await buildMessages(store, cycle, this.o.notAssessed?.(cycle.connectorId) ?? DEFAULT_NOT_ASSESSED);
    const failures: string[] = [];
    for (const target of targets) {
      if (await store.targetPublished(cycleId, target.name)) continue;
      try {
        await this.withRetry(() => target.send(messages), this.stopping.signal);
        await store.markTargetPublished(cycleId, target.name, now());
        logger.info('scores published', { cycleId, target: target.name, messages: messages.length });
      } catch (e) {
        failures.push(`${target.name}: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    if (failures.length) {
      await store.recordPublishAttempt(cycleId, `Publication failed for ${failures.join('; ')}. It is retried with the next cycle.`);
      throw new Error(`Publication of cycle ${cycleId} failed for ${failures.join('; ')}`);
    }
    await store.markPublished(cycleId, now());
  }

  /** Any failure of a send is tried again, `attempts` tries in all, the pauses doubling from `retryDelayMs`. */
  private withRetry(fn: () => Promise<void>, signal: AbortSignal): Promise<void> {
    const policy: RetryPolicy = { maxAttempts: this.o.attempts ?? 3, max429: 0, baseDelayMs: this.o.retryDelayMs ?? 1_000, maxDelayMs: Number.POSITIVE_INFINITY };
    return withRetries(
      async () => {
        try {
          return { kind: 'done', value: await fn() };
        } catch (e) {
          return { kind: 'retry', why: String(e), exhausted: () => (e instanceof Error ? e : new Error(String(e))) };
        }
      },
      { policy, signal, ...(this.o.random ? { random: this.o.random } : {}) },
    );
  }

  /** Ends the pauses between attempts (their publication fails as cancelled and stays pending) and waits for the runs to settle. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.all([...this.inFlight.values()].map((run) => run.catch(() => undefined)));
  }

  /** Retries every completed cycle that is not fully published (at start and after each cycle). */
  async publishPending(): Promise<void> {
    for (const c of await this.o.store.unpublishedCycles()) {
      if (this.stopping.signal.aborted) return;
      await this.publishCycle(c.id).catch((e: unknown) => this.o.logger.warn('pending publication failed', { cycleId: c.id, error: String(e) }));
    }
  }
}
