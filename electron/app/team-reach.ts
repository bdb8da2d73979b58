/**
 * A joined console that loses its team's database (issue 25.1, C-90): the team's views answer what
 * they last read instead of an error each, and one state says so on every page.
 *
 * Each read channel of the team's stores goes through `read`: a good answer is kept in memory per
 * channel and request (the newest `MAX_KEPT`); a failure that is the database's absence (a
 * `team.unreachable`, or any other failure while `SELECT 1` fails too) answers the kept one, or
 * `team.unreachable` when this request was never read, and marks the team unreachable once
 * (`team.health` event). While unreachable, `SELECT 1` is tried every `retryMs`; the first that
 * answers (or any good read) marks it reachable again (`team.health`), and the window refetches.
 * A console not joined passes every call through and keeps nothing.
 */
import type { TeamHealth } from '../../shared/model/fleet-health';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { ChannelName } from '../../shared/contract';
import type { Logger } from '../log';
import type { Handlers } from './router';

/** Answers kept at most (a window's requests: pages, filters, connections). */
export const MAX_KEPT = 256;

/** The channels that read the team's stores once joined (C-84): answered from the last read while the database is away. */
export const TEAM_READS = [
  'zta.snapshot', 'zta.facets', 'zta.window', 'zta.counts', 'zta.host', 'zta.overview',
  'alarms.list', 'alarms.get', 'alarms.summary', 'alarms.rate', 'alarms.status',
  'overview.get', 'overview.badges', 'activity.list', 'connectors.list',
] as const satisfies readonly ChannelName[];

export interface TeamReachOptions {
  joined(): boolean;
  /** `SELECT 1` on the team's pool; throws when it cannot be reached (or is not connected yet). */
  probe(): Promise<void>;
  emit(health: TeamHealth): void;
  logger: Logger;
  retryMs?: number;
  now?: () => Date;
}

export class TeamReach {
  private readonly kept = new Map<string, unknown>();
  private reachable = true;
  private since: string | null = null;
  private lastReadAt: string | null = null;
  private message: string | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private closed = false;
  private readonly now: () => Date;

  constructor(private readonly o: TeamReachOptions) {
    this.now = o.now ?? (() => new Date());
  }

  health(): TeamHealth {
    const joined = this.o.joined();
    return { joined, reachable: !joined || this.reachable, since: joined ? this.since : null, lastReadAt: joined ? this.lastReadAt : null, message: joined && !this.reachable ? this.message : null };
  }

  /** Joined or left: nothing read from one store is ever answered for another. */
  reset(): void {
    this.kept.clear();
    this.lastReadAt = null;
    const was = this.reachable;
    this.reachable = true;
    this.since = null;
    this.message = null;
    this.stopRetry();
    if (!was) this.o.emit(this.health());
  }

  /** `fn` once joined: its answer kept under `key`, or the kept one while the database is away. */
  async read<T>(key: string, fn: () => Promise<T>): Promise<T> {
    if (!this.o.joined()) return fn();
    try {
      const value = await fn();
      this.kept.delete(key);
      this.kept.set(key, value);
      if (this.kept.size > MAX_KEPT) this.kept.delete(this.kept.keys().next().value!);
      this.lastReadAt = this.now().toISOString();
      this.found();
      return value;
    } catch (e) {
      if (!(await this.isAbsence(e))) throw e;
      this.lost(e);
      if (this.kept.has(key)) return this.kept.get(key) as T;
      throw new AppError(ErrorCodes.teamUnreachable, 'The team’s database cannot be reached, and this view was not read from it before.', 'The page fills in when the database answers again; the other pages show what they last read.');
    }
  }

  /** The team's read channels of `handlers`, each through `read` (keyed by channel and request). */
  wrap(handlers: Handlers): Handlers {
    const out = { ...handlers } as Record<string, (r: unknown) => Promise<unknown>>;
    for (const channel of TEAM_READS) {
      const h = handlers[channel] as (r: unknown) => Promise<unknown>;
      out[channel] = (request) => this.read(`${channel}\u0000${JSON.stringify(request)}`, () => h(request));
    }
    return out as Handlers;
  }

  private async isAbsence(e: unknown): Promise<boolean> {
    if (e instanceof AppError) return e.code === ErrorCodes.teamUnreachable;
    // Known away: no probe per failed read (a probe of a silent host waits for its connect timeout).
    if (!this.reachable) return true;
    try {
      await this.o.probe();
      return false;
    } catch {
      return true;
    }
  }

  private lost(e: unknown): void {
    if (!this.reachable) return;
    this.reachable = false;
    this.since = this.now().toISOString();
    this.message = e instanceof AppError ? e.message : 'The team’s database cannot be reached.';
    this.o.logger.warn('the team’s database cannot be reached; the views answer what they last read', { error: e instanceof Error ? e.message : String(e), lastReadAt: this.lastReadAt });
    this.o.emit(this.health());
    this.retry();
  }

  private found(): void {
    if (this.reachable) return;
    this.reachable = true;
    this.since = null;
    this.message = null;
    this.stopRetry();
    this.o.logger.info('the team’s database answers again');
    this.o.emit(this.health());
  }

  private retry(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (this.closed || this.reachable || !this.o.joined()) return;
      this.o.probe().then(
        () => this.found(),
        () => this.retry(),
      );
    }, this.o.retryMs ?? 2_000);
    this.timer.unref?.();
  }

  private stopRetry(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  close(): void {
    this.closed = true;
    this.stopRetry();
  }
}
