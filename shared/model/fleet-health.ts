/**
 * The Overview's Fleet card (issue 25.4, C-89) and a joined console's reach of its team's database
 * (issue 25.1, C-90). Every part says when it was true ("as of"): the workers, the connectors'
 * claims and the collectors as of the last read of the team's database, the database and the
 * broker as of their last check.
 */
import { z } from 'zod';
import '../validation/install';

const int = z.number().int();
const iso = z.string();

export const FleetWorker = z.object({
  id: z.string(),
  host: z.string(),
  /** Alive: not stopped, and its last heartbeat fresher than its lease (by the database's clock). */
  alive: z.boolean(),
  stopped: z.boolean(),
  heartbeatAt: iso,
  leaseSeconds: int,
  running: int,
  lastError: z.string().nullable(),
});
export type FleetWorker = z.infer<typeof FleetWorker>;

export const FleetConnectorClaim = z.object({
  connectorId: z.string(),
  name: z.string(),
  /** The worker that held it (lapsed) or held it last. */
  worker: z.string().nullable(),
  /** Lapsed: when the lease ran out; without a worker: since when the poll has been due. */
  since: iso,
});
export type FleetConnectorClaim = z.infer<typeof FleetConnectorClaim>;

export const FleetCollector = z.object({
  id: z.string(),
  /** The node whose alarms it collects (`node:host:port`). */
  source: z.string(),
  host: z.string(),
  /** Alive: not stopped, and its last beat within three of its beats. */
  alive: z.boolean(),
  stopped: z.boolean(),
  heartbeatAt: iso,
  state: z.string().nullable(),
  connected: z.boolean(),
  /** How old the newest stored change was when it was stored (ms). */
  lagMs: z.number().nullable(),
  /** Messages waiting in its queue (amqp only). */
  backlog: int.nullable(),
  lastStoredAt: iso.nullable(),
  lastError: z.string().nullable(),
});
export type FleetCollector = z.infer<typeof FleetCollector>;

/** What the team's database said at its last read (null: never read since this console joined or started). */
export const FleetRead = z.object({
  asOf: iso,
  workers: z.array(FleetWorker),
  /** Enabled connectors. */
  connectors: int,
  /** Enabled connectors whose poll is due and that no worker holds a live lease on. */
  withoutWorker: z.array(FleetConnectorClaim),
  /** Claims whose holder's lease ran out (the holder died, hung or lost the database). */
  lapsed: z.array(FleetConnectorClaim),
  collectors: z.array(FleetCollector),
});
export type FleetRead = z.infer<typeof FleetRead>;

export const FleetDatabase = z.object({
  reachable: z.boolean(),
  /** When reachability was checked. */
  checkedAt: iso,
  /** Where (host:port/database), for the words. */
  address: z.string(),
  error: z.string().nullable(),
});

export const FleetBroker = z.discriminatedUnion('state', [
  /** No AMQP address known to this console (Settings → Publication, or NORTHBOUND_AMQP_URL). */
  z.object({ state: z.literal('unknown') }),
  z.object({ state: z.enum(['reachable', 'unreachable']), address: z.string(), checkedAt: iso, error: z.string().nullable() }),
]);
export type FleetBroker = z.infer<typeof FleetBroker>;

export const FleetHealth = z.discriminatedUnion('state', [
  /** A console on its own: no fleet. */
  z.object({ state: z.literal('not-joined') }),
  z.object({
    state: z.literal('joined'),
    database: FleetDatabase,
    broker: FleetBroker,
    read: FleetRead.nullable(),
  }),
]);
export type FleetHealth = z.infer<typeof FleetHealth>;

/** A joined console's reach of its team's database (C-90): what the banner on every page says. */
export const TeamHealth = z.object({
  joined: z.boolean(),
  reachable: z.boolean(),
  /** When the database was found unreachable (null while reachable). */
  since: iso.nullable(),
  /** The last answer read from it (what the views show while it is away). */
  lastReadAt: iso.nullable(),
  message: z.string().nullable(),
});
export type TeamHealth = z.infer<typeof TeamHealth>;
