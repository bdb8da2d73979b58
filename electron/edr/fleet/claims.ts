/**
 * Which worker polls which connector (issue 24.2, C-67): claims in `fleet_claims` taken with
 * `FOR UPDATE SKIP LOCKED` under a lease measured by the database's clock (so workers' clocks
 * never disagree about it). A claim is taken when the connector's poll is due and nobody holds it
 * (or its holder's lease lapsed: the holder died, hung or lost the database), renewed while its
 * cycle runs, and released when the cycle ends, with the next poll due one interval after the
 * claim was taken. `fleet_workers` keeps each worker's heartbeat and what it runs.
 *
 * A connector owed a rescore (an admin saved its risk settings: `rescore_requests` > `rescored`,
 * C-93) is claimed too, before any due poll, enabled or not (a desk rescores a disabled tenant's
 * stored hosts as well). The claim says which it is for: a poll when one is due (it scores with the
 * settings read after the claim, so it serves the request too), else the rescore. A rescore's
 * release leaves the next poll's time where it was.
 */
import { isoText, withTransaction, type PgPool, type PoolClient } from '../../store/postgres';
import { AppError, ErrorCodes } from '../../../shared/model/errors';

export interface Claim {
  connectorId: string;
  /** The worker whose lease lapsed, when the connector was taken over from one. */
  previousWorker: string | null;
  /** A poll is due (enabled and due); else the claim is for a rescore. */
  poll: boolean;
  /**
   * The rescore requests counted when the claim was taken: a cycle of this claim scores with the
   * settings read after it, so its commit serves them all (`rescored`). An admin's request and a
   * claim both write the claim's row, so one is wholly before the other.
   */
  rescoreRequests: number;
}

export interface CycleOutcome {
  cycleId: number | null;
  status: string;
  error: string | null;
}

/** Frees a claim its worker holds ($2) after a cycle: the next poll one interval ($3, minutes) after the claim, and how the cycle ended. */
const RELEASE = `UPDATE fleet_claims
    SET worker = NULL, lease_until = NULL, cycle_id = NULL, last_worker = $2,
        due_at = claimed_at + make_interval(mins => $3),
        last_cycle_id = $4, last_status = $5, last_error = $6, last_finished_at = now()
  WHERE connector_id = $1 AND worker = $2`;

/** Frees a rescore's claim ($2): as RELEASE, but the next poll keeps its time (`due_at` untouched). */
const RELEASE_RESCORE = `UPDATE fleet_claims
    SET worker = NULL, lease_until = NULL, cycle_id = NULL, last_worker = $2,
        last_cycle_id = $3, last_status = $4, last_error = $5, last_finished_at = now()
  WHERE connector_id = $1 AND worker = $2`;

/** Frees a claim ($2) without a finished cycle: nothing of its outcome noted, the next poll's time untouched. */
const HAND_BACK = 'UPDATE fleet_claims SET worker = NULL, lease_until = NULL, cycle_id = NULL, last_worker = $2 WHERE connector_id = $1 AND worker = $2';

export class FleetClaims {
  constructor(
    private readonly pool: PgPool,
    readonly workerId: string,
    private readonly leaseMs: number,
  ) {}

  private get leaseSeconds(): number {
    return this.leaseMs / 1000;
  }

  async register(info: { host: string; pid: number; concurrency: number }): Promise<void> {
    await this.pool.query(
      `INSERT INTO fleet_workers (id, host, pid, concurrency, lease_seconds) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (id) DO UPDATE SET host = EXCLUDED.host, pid = EXCLUDED.pid, concurrency = EXCLUDED.concurrency, lease_seconds = EXCLUDED.lease_seconds,
         started_at = now(), heartbeat_at = now(), stopped_at = NULL, running = '{}', last_error = NULL, last_error_at = NULL`,
      [this.workerId, info.host, info.pid, info.concurrency, Math.ceil(this.leaseSeconds)],
    );
  }

  /**
   * Takes up to `limit` due connectors nobody holds (enabled ones, oldest due first); a connector
   * whose holder's lease lapsed is taken over.
   */
  async claim(limit: number): Promise<Claim[]> {
    if (limit <= 0) return [];
    const r = await this.pool.query<{ connector_id: string; previous: string | null; poll: boolean; requests: string }>(
      `UPDATE fleet_claims f
          SET worker = $1, claimed_at = now(), lease_until = now() + make_interval(secs => $2), cycle_id = NULL
         FROM (SELECT c.connector_id, c.worker AS previous,
                      (coalesce((k.config->>'enabled')::boolean, false) AND c.due_at <= now()) AS poll
                 FROM fleet_claims c JOIN fleet_connectors k ON k.id = c.connector_id
                WHERE ((coalesce((k.config->>'enabled')::boolean, false) AND c.due_at <= now()) OR c.rescore_requests > c.rescored)
                  AND (c.worker IS NULL OR c.lease_until < now())
                ORDER BY (c.rescore_requests > c.rescored) DESC, c.due_at
                LIMIT $3
                  FOR UPDATE OF c SKIP LOCKED) p
        WHERE f.connector_id = p.connector_id
      RETURNING f.connector_id, p.previous, p.poll, f.rescore_requests::text AS requests`,
      [this.workerId, this.leaseSeconds, limit],
    );
    return r.rows.map((row) => ({ connectorId: row.connector_id, previousWorker: row.previous, poll: row.poll, rescoreRequests: Number(row.requests) }));
  }

  /** Notes the cycle a claim runs (shown to consoles). */
  async started(connectorId: string, cycleId: number): Promise<void> {
    await this.pool.query('UPDATE fleet_claims SET cycle_id = $3 WHERE connector_id = $1 AND worker = $2', [connectorId, this.workerId, cycleId]);
  }

  /**
   * Extends the leases of the claims this worker holds; answers the ones it no longer holds
   * (taken over after its lease lapsed): their cycles must stop.
   */
  async renew(connectorIds: readonly string[]): Promise<string[]> {
    if (connectorIds.length === 0) return [];
    const r = await this.pool.query<{ connector_id: string }>(
      `UPDATE fleet_claims SET lease_until = now() + make_interval(secs => $3)
        WHERE worker = $1 AND connector_id = ANY($2::text[]) RETURNING connector_id`,
      [this.workerId, connectorIds, this.leaseSeconds],
    );
    const held = new Set(r.rows.map((row) => row.connector_id));
    return connectorIds.filter((id) => !held.has(id));
  }

  /**
   * Releases a claim after its cycle: the next poll is due one interval after the claim was taken
   * (`intervalMinutes`). Answers false when the claim was no longer this worker's.
   */
  async release(connectorId: string, intervalMinutes: number, outcome: CycleOutcome): Promise<boolean> {
    const r = await this.pool.query(RELEASE, [connectorId, this.workerId, intervalMinutes, outcome.cycleId, outcome.status, outcome.error]);
    return (r.rowCount ?? 0) > 0;
  }

  /**
   * Inside a cycle's commit transaction (`client`): the claim must still be this worker's (its row
   * locked until the commit ends, so no other worker can take it meanwhile); it is released there,
   * with the cycle, so a committed cycle and a free claim go together. Throws when the claim was
   * taken over: the commit is refused and the other worker's poll is the one that counts.
   */
  async releaseWithCommit(client: PoolClient, connectorId: string, intervalMinutes: number, cycleId: number): Promise<void> {
    const holder = (await client.query<{ worker: string | null }>('SELECT worker FROM fleet_claims WHERE connector_id = $1 FOR UPDATE', [connectorId])).rows[0];
    if (holder?.worker !== this.workerId) {
      throw new AppError(ErrorCodes.cancelled, `This worker's claim on the connector was taken over by ${holder?.worker ?? 'nobody'}; its cycle is not stored.`, 'Nothing to do: the worker holding the connector polls it.');
    }
    await client.query(RELEASE, [connectorId, this.workerId, intervalMinutes, cycleId, 'completed', null]);
  }

  /**
   * Inside a completed cycle's commit transaction, after `releaseWithCommit` or
   * `releaseRescoreWithCommit`: the rescore requests its claim counted are served (a later one
   * stays owed).
   */
  async served(client: PoolClient, connectorId: string, requests: number): Promise<void> {
    await client.query('UPDATE fleet_claims SET rescored = GREATEST(rescored, $2) WHERE connector_id = $1', [connectorId, requests]);
  }

  /**
   * A rescore's commit (`client`'s transaction): as `releaseWithCommit`, but the next poll keeps its
   * time, and the requests the claim counted are served.
   */
  async releaseRescoreWithCommit(client: PoolClient, connectorId: string, cycleId: number, requests: number): Promise<void> {
    const holder = (await client.query<{ worker: string | null }>('SELECT worker FROM fleet_claims WHERE connector_id = $1 FOR UPDATE', [connectorId])).rows[0];
    if (holder?.worker !== this.workerId) {
      throw new AppError(ErrorCodes.cancelled, `This worker's claim on the connector was taken over by ${holder?.worker ?? 'nobody'}; its rescore is not stored.`, 'Nothing to do: the worker holding the connector rescores it.');
    }
    await client.query(RELEASE_RESCORE, [connectorId, this.workerId, cycleId, 'completed', null]);
    await this.served(client, connectorId, requests);
  }

  /**
   * A rescore claim that ends without a commit: nothing to rescore (no completed cycle yet: the
   * next poll scores with the new settings) or a failed rescore (said in `last_error`; not tried
   * again at once, the next poll scores with the settings). Either way its requests are served and
   * the next poll keeps its time. Answers false when the claim was no longer this worker's.
   */
  async releaseRescore(connectorId: string, requests: number, outcome: CycleOutcome | null): Promise<boolean> {
    return withTransaction(this.pool, async (client) => {
      const r = outcome
        ? await client.query(RELEASE_RESCORE, [connectorId, this.workerId, outcome.cycleId, outcome.status, outcome.error])
        : await client.query(HAND_BACK, [connectorId, this.workerId]);
      if ((r.rowCount ?? 0) === 0) return false;
      await this.served(client, connectorId, requests);
      return true;
    });
  }

  /** Gives a claim back without a finished cycle (the worker stops): due again at once, for any worker. */
  async handBack(connectorId: string): Promise<void> {
    await this.pool.query(HAND_BACK, [connectorId, this.workerId]);
  }

  async heartbeat(running: readonly string[], cycles: number): Promise<void> {
    await this.pool.query('UPDATE fleet_workers SET heartbeat_at = now(), running = $2::text[], cycles = $3 WHERE id = $1', [this.workerId, running, cycles]);
  }

  async recordError(message: string): Promise<void> {
    await this.pool.query('UPDATE fleet_workers SET last_error = $2, last_error_at = now() WHERE id = $1', [this.workerId, message]);
  }

  async stopped(): Promise<void> {
    await this.pool.query("UPDATE fleet_workers SET stopped_at = now(), running = '{}', heartbeat_at = now() WHERE id = $1", [this.workerId]);
  }
}

export interface ConnectorClaimRow {
  connectorId: string;
  name: string;
  vendor: string;
  tenantId: string;
  dueAt: string;
  worker: string | null;
  claimedAt: string | null;
  leaseUntil: string | null;
  leaseLapsed: boolean;
  cycleId: number | null;
  lastWorker: string | null;
  lastCycleId: number | null;
  lastStatus: string | null;
  lastFinishedAt: string | null;
  lastError: string | null;
}

export interface WorkerRow {
  id: string;
  host: string;
  pid: number;
  startedAt: string;
  heartbeatAt: string;
  stoppedAt: string | null;
  concurrency: number;
  running: string[];
  cycles: number;
  lastError: string | null;
}

const iso = (col: string, as: string) => `${isoText(col)} AS "${as}"`;

/** What any console (or `team status`) shows of the fleet: each connector's claim and each worker. */
export async function fleetStatus(pool: PgPool): Promise<{ connectors: ConnectorClaimRow[]; workers: WorkerRow[] }> {
  const connectors = (
    await pool.query<ConnectorClaimRow & { cycleId: string | null; lastCycleId: string | null }>(
      `SELECT c.connector_id AS "connectorId", k.config->>'name' AS name, k.config->>'vendor' AS vendor, k.config->>'tenantId' AS "tenantId",
              ${iso('c.due_at', 'dueAt')}, c.worker, ${iso('c.claimed_at', 'claimedAt')}, ${iso('c.lease_until', 'leaseUntil')},
              (c.worker IS NOT NULL AND c.lease_until < now()) AS "leaseLapsed", c.cycle_id AS "cycleId", c.last_worker AS "lastWorker",
              c.last_cycle_id AS "lastCycleId", c.last_status AS "lastStatus", ${iso('c.last_finished_at', 'lastFinishedAt')}, c.last_error AS "lastError"
         FROM fleet_claims c JOIN fleet_connectors k ON k.id = c.connector_id ORDER BY k.config->>'name', c.connector_id`,
    )
  ).rows.map((r) => ({ ...r, cycleId: r.cycleId === null ? null : Number(r.cycleId), lastCycleId: r.lastCycleId === null ? null : Number(r.lastCycleId) }));
  const workers = (
    await pool.query<WorkerRow>(
      `SELECT id, host, pid, ${iso('started_at', 'startedAt')}, ${iso('heartbeat_at', 'heartbeatAt')}, ${iso('stopped_at', 'stoppedAt')},
              concurrency, running, cycles, last_error AS "lastError" FROM fleet_workers ORDER BY id`,
    )
  ).rows;
  return { connectors, workers };
}
