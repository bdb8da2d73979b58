/**
 * The Overview's Fleet card of a joined console (issue 25.4, C-89), read from the team's database
 * by its own clock: the workers and whether each is alive (not stopped, its heartbeat fresher than
 * its lease), the enabled connectors whose poll is due with no live lease on them, the claims whose
 * lease lapsed, the alarm collectors with their lag and backlog (`fleet_collectors`), the database's
 * reachability, and the broker's (the AMQP address this console knows, checked without signing in).
 * The read goes through TeamReach (C-90): while the database is away the card shows the last read
 * with its time and says the database cannot be reached.
 */
import net from 'node:net';
import type { FleetBroker, FleetHealth, FleetRead } from '../../shared/model/fleet-health';
import { isoText, type PgPool } from '../store/postgres';
import type { TeamReach } from './team-reach';

/** A connector due this long with nobody on it counts as "without a worker" (workers look every 2 s). */
export const UNCLAIMED_GRACE_SECONDS = 30;
/** Workers and collectors stay listed this long after their last heartbeat (a collector killed and started again has a new row). */
const STOPPED_SHOWN = "interval '1 day'";
/** Listed at most per list (the counts are whole). */
export const FLEET_LISTED = 50;
/** The broker's check is reused this long. */
const BROKER_EVERY_MS = 15_000;
const BROKER_TIMEOUT_MS = 3_000;

export interface FleetHealthDeps {
  joined(): boolean;
  /** The team's pool (throws while not connected). */
  pool(): PgPool;
  /** host:port/database of the team's server. */
  address(): Promise<string>;
  /** The AMQP address this console knows, without its password. */
  brokerAddress(): string | undefined;
  reach: Pick<TeamReach, 'read' | 'health'>;
  now?: () => Date;
}

const iso = (col: string, as: string) => `${isoText(col)} AS "${as}"`;

/** A worker is alive while not stopped and its heartbeat is fresher than its lease (C-89). */
const WORKER_ALIVE = '(stopped_at IS NULL AND heartbeat_at > now() - make_interval(secs => coalesce(lease_seconds, 60)))';

/** How many of the team's workers are alive now (a risk save says whether one will rescore at once: C-93). */
export async function workersAlive(pool: PgPool): Promise<number> {
  return Number((await pool.query<{ n: string }>(`SELECT count(*) AS n FROM fleet_workers WHERE ${WORKER_ALIVE}`)).rows[0]?.n ?? 0);
}

export async function readFleet(pool: PgPool, asOf: () => string): Promise<FleetRead> {
  const workers = (
    await pool.query<FleetRead['workers'][number]>(
      `SELECT id, host, ${iso('heartbeat_at', 'heartbeatAt')}, coalesce(lease_seconds, 60) AS "leaseSeconds", stopped_at IS NOT NULL AS stopped,
              ${WORKER_ALIVE} AS alive,
              cardinality(running) AS running, last_error AS "lastError"
         FROM fleet_workers WHERE heartbeat_at > now() - ${STOPPED_SHOWN}
        ORDER BY alive DESC, id LIMIT ${FLEET_LISTED}`,
    )
  ).rows;
  const claims = (
    await pool.query<{ connectorId: string; name: string; worker: string | null; since: string; kind: 'lapsed' | 'unclaimed' | 'ok' }>(
      `SELECT c.connector_id AS "connectorId", coalesce(k.config->>'name', c.connector_id) AS name,
              CASE WHEN c.worker IS NOT NULL AND c.lease_until < now() THEN 'lapsed'
                   WHEN c.worker IS NULL AND c.due_at < now() - make_interval(secs => ${UNCLAIMED_GRACE_SECONDS}) THEN 'unclaimed' ELSE 'ok' END AS kind,
              coalesce(c.worker, c.last_worker) AS worker,
              ${isoText('CASE WHEN c.worker IS NOT NULL AND c.lease_until < now() THEN c.lease_until ELSE c.due_at END')} AS since
         FROM fleet_claims c JOIN fleet_connectors k ON k.id = c.connector_id
        WHERE coalesce((k.config->>'enabled')::boolean, false)
        ORDER BY since, name`,
    )
  ).rows;
  const collectors = (
    await pool.query<FleetRead['collectors'][number] & { backlog: string | null }>(
      `SELECT id, source, host, stopped_at IS NOT NULL AS stopped,
              (stopped_at IS NULL AND heartbeat_at > now() - make_interval(secs => 3 * every_seconds)) AS alive,
              ${iso('heartbeat_at', 'heartbeatAt')}, state, connected, lag_ms AS "lagMs", backlog, ${iso('last_stored_at', 'lastStoredAt')}, last_error AS "lastError"
         FROM fleet_collectors WHERE heartbeat_at > now() - ${STOPPED_SHOWN}
        ORDER BY alive DESC, source, id LIMIT ${FLEET_LISTED}`,
    )
  ).rows.map((r) => ({ ...r, backlog: r.backlog === null ? null : Number(r.backlog) }));
  const pick = (kind: string) => claims.filter((c) => c.kind === kind).slice(0, FLEET_LISTED).map(({ connectorId, name, worker, since }) => ({ connectorId, name, worker, since }));
  return { asOf: asOf(), workers, connectors: claims.length, withoutWorker: pick('unclaimed'), lapsed: pick('lapsed'), collectors };
}

/**
 * Whether the broker answers as an AMQP broker: a TCP connection and, for amqp://, the protocol
 * header answered by a Connection.Start frame (type 1). Nothing is signed in; for amqps:// the
 * port's answer is what is checked (the TLS trust is the publisher's).
 */
export function checkBroker(address: string, timeoutMs = BROKER_TIMEOUT_MS): Promise<string | null> {
  let u: URL;
  try {
    u = new URL(address);
  } catch {
    return Promise.resolve('not an address');
  }
  const tls = u.protocol === 'amqps:';
  const port = Number(u.port) || (tls ? 5671 : 5672);
  const host = u.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (error: string | null) => {
      socket.destroy();
      resolve(error);
    };
    socket.setTimeout(timeoutMs, () => done(`no answer within ${timeoutMs / 1000} s`));
    socket.on('error', (e) => done(e.message));
    socket.on('connect', () => {
      if (tls) return done(null);
      socket.write(Buffer.from([0x41, 0x4d, 0x51, 0x50, 0, 0, 9, 1]));
    });
    socket.once('data', (d: Buffer) => done(d[0] === 1 ? null : 'the port does not answer as an AMQP 0-9-1 broker'));
    socket.on('end', () => done('the port closed the connection'));
  });
}

export class FleetHealthService {
  private broker: { at: number; address: string; value: FleetBroker } | undefined;
  private readonly now: () => Date;

  constructor(private readonly d: FleetHealthDeps) {
    this.now = d.now ?? (() => new Date());
  }

  async get(): Promise<FleetHealth> {
    if (!this.d.joined()) return { state: 'not-joined' };
    const [read, broker, address] = await Promise.all([
      // Away and never read: null (the card says nothing was read); any other failure is the card's error.
      this.d.reach.read('overview.fleet', () => readFleet(this.d.pool(), () => this.now().toISOString())).catch((e: unknown) => {
        if (this.d.reach.health().reachable) throw e;
        return null;
      }),
      this.brokerHealth(),
      this.d.address(),
    ]);
    const health = this.d.reach.health();
    return {
      state: 'joined',
      database: { reachable: health.reachable, checkedAt: this.now().toISOString(), address, error: health.reachable ? null : health.message },
      broker,
      read,
    };
  }

  private async brokerHealth(): Promise<FleetBroker> {
    const address = this.d.brokerAddress();
    if (!address) return { state: 'unknown' };
    const t = this.now().getTime();
    if (this.broker && this.broker.address === address && t - this.broker.at < BROKER_EVERY_MS) return this.broker.value;
    const error = await checkBroker(address);
    const value: FleetBroker = { state: error ? 'unreachable' : 'reachable', address, checkedAt: this.now().toISOString(), error };
    this.broker = { at: t, address, value };
    return value;
  }
}
