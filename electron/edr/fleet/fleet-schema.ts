/**
 * The fleet's own tables in a team's PostgreSQL (issue 24.2-24.3, C-67, C-68), store `fleet`
 * (postgres.ts `migratePg`):
 * - `fleet_keys`: the workers' public key (one row): consoles seal client secrets to it.
 * - `fleet_connectors`: the team's EDR connectors, each the JSON a desk keeps in its settings
 *   (`StoredConnector`, validated by the same registry).
 * - `fleet_secrets`: each connector's client secret sealed to the workers (sealed-box.ts) and the
 *   binding it was entered for (a digest of the endpoint and trust, readable: a console tells
 *   "has a secret" from it without reading the secret). Consoles may write a sealed secret, never
 *   read one (column privileges, team-roles.ts).
 * - `fleet_claims`: per connector, when its next poll is due and which worker holds it (lease),
 *   and how its last cycle went: what any console shows on the Connectors page.
 * - `fleet_workers`: every worker's heartbeat, what it runs, its last error; from step 2 its lease
 *   (`lease_seconds`): a worker is alive while its heartbeat is fresher than that (C-89).
 * - `fleet_collectors` (step 2): every alarm collector's (`alarms follow --database-url`) heartbeat,
 *   how often it beats, its source's state, lag and backlog, and when it last stored a change (C-89).
 * - `fleet_claims.rescore_requests` / `rescored` (step 3, C-93): an admin console that saves a
 *   tenant's risk settings adds one to `rescore_requests` (with `rescore_requested_at`); a worker
 *   that rescored the tenant's stored hosts under them (or polled it after the save) sets
 *   `rescored` to the count it served. A connector is owed a rescore while the first is larger.
 */
export const FLEET_STORE = 'fleet';

export const FLEET_MIGRATIONS: readonly string[] = [
  `CREATE TABLE fleet_keys (
     id smallint PRIMARY KEY CHECK (id = 1),
     public_key text NOT NULL,
     created_at timestamptz NOT NULL DEFAULT now()
   );
   CREATE TABLE fleet_connectors (
     id text PRIMARY KEY,
     config jsonb NOT NULL,
     updated_at timestamptz NOT NULL DEFAULT now()
   );
   CREATE TABLE fleet_secrets (
     connector_id text PRIMARY KEY REFERENCES fleet_connectors(id) ON DELETE CASCADE,
     binding text NOT NULL,
     sealed text NOT NULL,
     sealed_at timestamptz NOT NULL DEFAULT now()
   );
   CREATE TABLE fleet_claims (
     connector_id text PRIMARY KEY REFERENCES fleet_connectors(id) ON DELETE CASCADE,
     due_at timestamptz NOT NULL DEFAULT now(),
     worker text,
     claimed_at timestamptz,
     lease_until timestamptz,
     cycle_id bigint,
     last_worker text,
     last_cycle_id bigint,
     last_status text,
     last_finished_at timestamptz,
     last_error text
   );
   CREATE INDEX fleet_claims_due ON fleet_claims(due_at);
   CREATE TABLE fleet_workers (
     id text PRIMARY KEY,
     host text NOT NULL,
     pid integer NOT NULL,
     started_at timestamptz NOT NULL DEFAULT now(),
     heartbeat_at timestamptz NOT NULL DEFAULT now(),
     stopped_at timestamptz,
     concurrency integer NOT NULL,
     running text[] NOT NULL DEFAULT '{}',
     cycles integer NOT NULL DEFAULT 0,
     last_error text,
     last_error_at timestamptz
   );`,
  `ALTER TABLE fleet_workers ADD COLUMN lease_seconds integer;
   CREATE TABLE fleet_collectors (
     id text PRIMARY KEY,
     source text NOT NULL,
     host text NOT NULL,
     pid integer NOT NULL,
     started_at timestamptz NOT NULL DEFAULT now(),
     heartbeat_at timestamptz NOT NULL DEFAULT now(),
     every_seconds integer NOT NULL,
     stopped_at timestamptz,
     state text,
     connected boolean NOT NULL DEFAULT false,
     lag_ms double precision,
     backlog bigint,
     last_message_at timestamptz,
     last_stored_at timestamptz,
     last_error text
   );`,
  `ALTER TABLE fleet_claims
     ADD COLUMN rescore_requests bigint NOT NULL DEFAULT 0,
     ADD COLUMN rescored bigint NOT NULL DEFAULT 0,
     ADD COLUMN rescore_requested_at timestamptz;`,
];
