/**
 * An alarm collector's health in the team's database (issue 25.4, C-89): `alarms follow
 * --database-url` writes one row of `fleet_collectors` when it starts and beats every few seconds
 * with its source's state, lag and backlog and when it last stored a change; it says when it
 * stopped. Consoles read it for the Overview's Fleet card (app/fleet-health.ts). A beat that cannot
 * be written (the database away) is skipped: the collector's own outage notices say so (C-69).
 */
import { isoText, type PgPool } from '../../store/postgres';

export interface CollectorBeat {
  state: string;
  connected: boolean;
  lagMs: number | null;
  backlog: number | null;
  lastMessageAt: string | null;
  lastStoredAt: string | null;
  error: string | null;
}

/** How often a collector beats by default (a console calls it gone after three missed beats). */
export const COLLECTOR_BEAT_MS = 5_000;

export class CollectorHealth {
  constructor(
    private readonly pool: PgPool,
    readonly id: string,
    private readonly source: string,
    readonly everyMs: number = COLLECTOR_BEAT_MS,
  ) {}

  private info: { host: string; pid: number } | undefined;

  async register(info: { host: string; pid: number }): Promise<void> {
    this.info = info;
    await this.pool.query(
      `INSERT INTO fleet_collectors (id, source, host, pid, every_seconds) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET source = EXCLUDED.source, host = EXCLUDED.host, pid = EXCLUDED.pid, every_seconds = EXCLUDED.every_seconds,
         started_at = now(), heartbeat_at = now(), stopped_at = NULL, state = NULL, connected = false, lag_ms = NULL, backlog = NULL,
         last_message_at = NULL, last_stored_at = NULL, last_error = NULL`,
      [this.id, this.source, info.host, info.pid, Math.max(1, Math.ceil(this.everyMs / 1000))],
    );
  }

  /** A beat; the row is made first when the start could not write it (the database was away then). */
  async beat(b: CollectorBeat, again = true): Promise<void> {
    const r = await this.pool.query(
      `UPDATE fleet_collectors SET heartbeat_at = now(), state = $2, connected = $3, lag_ms = $4, backlog = $5,
         last_message_at = $6, last_stored_at = coalesce($7::timestamptz, last_stored_at), last_error = $8 WHERE id = $1`,
      [this.id, b.state, b.connected, b.lagMs, b.backlog, b.lastMessageAt, b.lastStoredAt, b.error],
    );
    if ((r.rowCount ?? 0) === 0 && this.info && again) {
      await this.register(this.info);
      await this.beat(b, false);
    }
  }

  async stopped(): Promise<void> {
    await this.pool.query("UPDATE fleet_collectors SET stopped_at = now(), heartbeat_at = now(), state = 'stopped', connected = false WHERE id = $1", [this.id]);
  }
}

/** A collector of one source as a console reads it (C-91): alive by the Fleet card's rule (C-89: its beat within three beats). */
export interface SourceCollector extends Omit<CollectorBeat, 'state'> {
  id: string;
  alive: boolean;
  /** Null until its first beat. */
  state: string | null;
}

/** The collectors of `source` that were heard from in the last day, the liveliest first (alive and connected, then the newest beat). */
export async function collectorsOf(pool: PgPool, source: string): Promise<SourceCollector[]> {
  const rows = (
    await pool.query<Omit<SourceCollector, 'backlog'> & { backlog: string | null }>(
      `SELECT id, (stopped_at IS NULL AND heartbeat_at > now() - make_interval(secs => 3 * every_seconds)) AS alive,
              state, connected, lag_ms AS "lagMs", backlog, ${isoText('last_message_at')} AS "lastMessageAt", ${isoText('last_stored_at')} AS "lastStoredAt", last_error AS error
         FROM fleet_collectors WHERE source = $1 AND heartbeat_at > now() - interval '1 day'
        ORDER BY 2 DESC, connected DESC, heartbeat_at DESC LIMIT 10`,
      [source],
    )
  ).rows;
  return rows.map((r) => ({ ...r, backlog: r.backlog === null ? null : Number(r.backlog) }));
}
