/**
 * A fleet collector's side of the node's stream (issue 24.4, C-66): several `alarms follow
 * --database-url` share one queue per node, so none of them sees the node's whole numbering and
 * gaps are found over what the fleet stored (store/pg-alarm-fleet.ts). Every `everyMs` this
 * collector tries the node's advisory lock; holding it, it runs the fleet's stream check and, when
 * a message is still missing after the grace time, the REST backfill that closes the hole. Every
 * other backfill (at start, after a reconnect) takes the same lock: one collector at a time
 * backfills a node, the others skip it and go on consuming.
 */
import type { Logger } from '../log';
import { errorText } from './errors';
import type { StoreOutage } from './store-outage';
import type { AlarmFleet } from './store/pg-alarm-store';

export interface FleetCheckOptions {
  id: string;
  fleet: AlarmFleet;
  /** How often the stream is checked (default 1 s). */
  everyMs?: number;
  /** How long a message may be missing while a higher one is stored before it is a gap (default 5 s: another collector's batch on its way). */
  graceMs?: number;
  now: () => number;
  logger: Logger;
  /** The collector's database outage (store-outage.ts): a failure to reach it is said there, once. */
  outage?: StoreOutage;
  /** One REST backfill from the cursor; true when it reached the end. */
  backfill(reason: string): Promise<boolean>;
}

export class FleetStreamCheck {
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | undefined;
  private stopped = true;
  /** Stream checks that found a hole and backfilled, and backfills skipped for another collector's. */
  readonly counts = { holes: 0, skipped: 0 };

  constructor(private readonly o: FleetCheckOptions) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.checkOnce().finally(() => (this.running = undefined));
    }, this.o.everyMs ?? 1_000);
    this.timer.unref?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** A backfill holding the node's lock; true (nothing to retry) when another collector holds it. */
  async exclusive(reason: string, run: () => Promise<boolean>): Promise<boolean> {
    let r: { ran: true; value: boolean } | { ran: false };
    try {
      r = await this.o.fleet.exclusive(this.o.id, run);
    } catch (e) {
      // The database cannot be reached for the lock: a failed backfill, retried with backoff.
      if (!this.o.outage?.failed(e)) this.o.logger.warn('the node’s backfill lock could not be taken; retrying', { reason, error: errorText(e) });
      return false;
    }
    if (r.ran) return r.value;
    this.counts.skipped += 1;
    this.o.logger.info('another collector is backfilling this node; skipped', { reason });
    return true;
  }

  /** One stream check (never rejects: a failure is logged and the next tick tries again). */
  async checkOnce(): Promise<void> {
    if (this.stopped) return;
    try {
      await this.o.fleet.exclusive(this.o.id, async () => {
        const check = await this.o.fleet.checkStream(this.o.id, { nowMs: this.o.now(), graceMs: this.o.graceMs ?? 5_000 });
        if (check.holes.length === 0 || this.stopped) return;
        this.counts.holes += 1;
        this.o.logger.warn('alarm stream gap over the fleet: messages missing, backfilling', { holes: check.holes.slice(0, 5) });
        // The backfill starts after the check: whatever was marked then is on the node's list now.
        if (await this.o.backfill('gap')) await this.o.fleet.closeHoles(this.o.id, check);
      });
      this.o.outage?.reached();
    } catch (e) {
      if (!this.o.outage?.failed(e)) this.o.logger.warn('the fleet stream check failed; trying again', { error: errorText(e) });
    }
  }
}
