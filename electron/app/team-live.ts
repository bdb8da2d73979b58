/**
 * A joined console's live view of the team's store (issue 25.2, C-88): the team's writers NOTIFY
 * in the transactions they commit — a collector's alarm batch (`northbound_alarms`: node, headSeq,
 * the alarms), an activity entry (`northbound_activity`: its id), a worker's cycle
 * (`northbound_edr`: connector, cycle, hosts) — and one dedicated listening connection
 * (store/pg-listen.ts) turns them into the events the window already follows: `alarms.changed` per
 * connection to that node (at most one per connection every 250 ms, folded as the desk's are),
 * `activity.changed` (at most one every 250 ms, the newest entry), `edr.progress` completed (the
 * dashboard, the Overview and the Connectors page read again), and an admin console's write of the
 * connectors or a tenant's risk settings (`northbound_connectors`: the ids, C-93) as
 * `connectors.changed` once the team's list was read again (at most one every 250 ms, the ids
 * folded). After the listening connection was
 * lost and made again, one `team.changed` tells the window to read everything again: what was
 * committed meanwhile was not told.
 */
import type { EmitEvent } from '../../shared/contract';
import { ALARMS_CHANNEL, type AlarmNotice } from '../alarms/store/pg-alarm-ingest';
import { CONNECTORS_CHANNEL } from '../edr/fleet/fleet-connectors';
import { EDR_CHANNEL } from '../edr/store/edr-pg-commit';
import type { Logger } from '../log';
import { throttle, type Throttled } from '../throttle';
import { ACTIVITY_CHANNEL } from '../store/activity-pg';
import type { ActivityStore } from '../store/activity-store';
import { PgListener } from '../store/pg-listen';
import type { PgPool } from '../store/postgres';

/** At most one event per connection (alarms), one for the log, one per connector, this often. */
export const LIVE_EVERY_MS = 250;
const MAX_IDS = 500;

export interface TeamLiveOptions {
  pool: PgPool;
  logger: Logger;
  emit: EmitEvent;
  activity: ActivityStore;
  profileIds(): string[];
  /** The alarm source the fleet stores a connection's node under (undefined: no such connection). */
  sourceOf(profileId: string): string | undefined;
  /** Reads the team's connector list again (before the window is told it changed). */
  refreshConnectors(): Promise<unknown>;
  everyMs?: number;
  /** For the tests: the listener's waits. */
  listen?: { minWaitMs?: number; maxWaitMs?: number; pingMs?: number };
}

interface PendingAlarms {
  headSeq: number;
  changes: number;
  ids: Set<number>;
  more: boolean;
  send: Throttled<[]>;
}

const isNotice = (v: unknown): v is AlarmNotice => {
  const n = v as Partial<AlarmNotice> | null;
  return !!n && typeof n.source === 'string' && Number.isSafeInteger(n.headSeq) && Number.isSafeInteger(n.changes) && Array.isArray(n.aids) && n.aids.every((a) => Number.isSafeInteger(a));
};

export class TeamLive {
  private readonly listener: PgListener;
  private readonly alarms = new Map<string, PendingAlarms>();
  private readonly cycles = new Map<string, Throttled<[cycleId: number, hosts: number]>>();
  private newestActivity = 0;
  private readonly activity: Throttled<[]>;
  /** Connector ids changed since the last `connectors.changed` (none named: read the whole list). */
  private readonly changedConnectors = new Set<string>();
  private readonly connectors: Throttled<[]>;
  private closed = false;

  constructor(private readonly o: TeamLiveOptions) {
    this.listener = new PgListener({
      pool: o.pool,
      channels: [ALARMS_CHANNEL, ACTIVITY_CHANNEL, EDR_CHANNEL, CONNECTORS_CHANNEL],
      logger: o.logger,
      onNotify: (channel, payload) => this.notified(channel, payload),
      onReconnect: () => {
        if (this.closed) return;
        this.o.logger.info('listening again: the window reads the team’s store again');
        this.o.emit('team.changed', { joined: true });
      },
      ...o.listen,
    });
    this.activity = throttle(() => void this.announceActivity(), this.every);
    this.connectors = throttle(() => void this.announceConnectors(), this.every);
  }

  private get every(): number {
    return this.o.everyMs ?? LIVE_EVERY_MS;
  }

  get listening(): boolean {
    return this.listener.listening;
  }

  start(): Promise<void> {
    return this.listener.start();
  }

  private notified(channel: string, payload: string): void {
    if (this.closed) return;
    if (channel === ALARMS_CHANNEL) {
      const n: unknown = JSON.parse(payload);
      if (isNotice(n)) this.alarmsChanged(n);
    } else if (channel === ACTIVITY_CHANNEL) {
      const id = Number(payload);
      if (Number.isSafeInteger(id) && id > 0) {
        this.newestActivity = Math.max(this.newestActivity, id);
        this.activity.call();
      }
    } else if (channel === CONNECTORS_CHANNEL) {
      const ids: unknown = JSON.parse(payload);
      if (!Array.isArray(ids)) return;
      for (const id of ids) if (typeof id === 'string' && this.changedConnectors.size < MAX_IDS) this.changedConnectors.add(id);
      this.connectors.call();
    } else if (channel === EDR_CHANNEL) {
      const c = JSON.parse(payload) as { connectorId?: unknown; cycleId?: unknown; hosts?: unknown };
      if (typeof c.connectorId !== 'string' || !Number.isSafeInteger(c.cycleId)) return;
      let send = this.cycles.get(c.connectorId);
      if (!send) {
        const connectorId = c.connectorId;
        send = throttle((cycleId: number, hosts: number) => this.o.emit('edr.progress', { connectorId, cycleId, phase: 'completed', done: hosts, total: hosts }), this.every);
        this.cycles.set(connectorId, send);
      }
      const hosts = Number(c.hosts);
      send.call(c.cycleId as number, Number.isSafeInteger(hosts) ? hosts : 0);
    }
  }

  /** Told to every connection whose node the batch was stored under. */
  private alarmsChanged(n: AlarmNotice): void {
    for (const profileId of this.o.profileIds()) {
      if (this.o.sourceOf(profileId) !== n.source) continue;
      let p = this.alarms.get(profileId);
      if (!p) {
        const pending: PendingAlarms = { headSeq: 0, changes: 0, ids: new Set(), more: false, send: undefined as unknown as Throttled<[]> };
        pending.send = throttle(() => {
          const ids = [...pending.ids];
          this.o.emit('alarms.changed', { profileId, headSeq: pending.headSeq, changes: pending.changes, ids: ids.slice(0, MAX_IDS), more: pending.more || ids.length > MAX_IDS });
          pending.ids.clear();
          pending.changes = 0;
          pending.more = false;
        }, this.every);
        this.alarms.set(profileId, (p = pending));
      }
      p.headSeq = Math.max(p.headSeq, n.headSeq);
      p.changes += n.changes;
      p.more ||= n.more;
      for (const a of n.aids) if (p.ids.size <= MAX_IDS) p.ids.add(a);
      p.send.call();
    }
  }

  private async announceActivity(): Promise<void> {
    const id = this.newestActivity;
    try {
      const entry = (await this.o.activity.list({ limit: 1, beforeId: id + 1 })).rows[0];
      if (entry && !this.closed) this.o.emit('activity.changed', { entry });
    } catch (e) {
      this.o.logger.warn('a new activity entry could not be read', { id, error: e instanceof Error ? e.message : String(e) });
    }
  }

  private async announceConnectors(): Promise<void> {
    const ids = [...this.changedConnectors];
    this.changedConnectors.clear();
    try {
      await this.o.refreshConnectors();
    } catch (e) {
      this.o.logger.warn('the team’s connectors could not be read again', { error: e instanceof Error ? e.message : String(e) });
    }
    if (!this.closed) this.o.emit('connectors.changed', { ids });
  }

  async close(): Promise<void> {
    this.closed = true;
    this.connectors.cancel();
    for (const p of this.alarms.values()) p.send.cancel();
    for (const s of this.cycles.values()) s.cancel();
    this.activity.cancel();
    await this.listener.close();
  }
}
