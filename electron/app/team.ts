/**
 * `northbound team init` (issue 24.3, C-68): run once by the database owner (and again after an
 * upgrade, to migrate): creates every store's schema in the team's PostgreSQL, the three group
 * roles and their privileges, and the workers' key pair (the private half in a 0600 file for the
 * workers, the public half in the database for the consoles).
 *
 * Roles (NOLOGIN groups; a person or a worker logs in as a user made a member of one):
 * - `northbound_worker`: reads the connectors and their sealed secrets; writes cycles, hosts,
 *   alarms, claims and its health. Cannot change a connector.
 * - `northbound_console`: reads the stores and the fleet's status (a secret's binding and date, never
 *   the sealed value); writes the activity log.
 * - `northbound_admin`: a console that also registers connectors and stores sealed secrets (writes
 *   them, cannot read them back), and saves a tenant's risk settings (its connector's `risk`) with a
 *   rescore request for the workers (`fleet_claims.rescore_requests`, C-93).
 */
import { withTransaction, type PgPool } from '../store/postgres';
import { newWorkerKeyPair, publicKeyText, writeWorkerKeyFile } from '../store/sealed-box';

export const TEAM_ROLES = { worker: 'northbound_worker', console: 'northbound_console', admin: 'northbound_admin' } as const;

/** Tables only admins (connectors) or team init (the key) write; workers read them. */
const CONNECTOR_TABLES = ['fleet_keys', 'fleet_connectors', 'fleet_secrets'];

export interface TeamInitOptions {
  pool: PgPool;
  /** Where the workers' private key is written (must not exist) when the team has none. */
  keyFile: string;
  /** Each store's migrations (their own functions, so each feature keeps its schema). */
  migrations: ReadonlyArray<readonly [name: string, migrate: (pool: PgPool) => Promise<unknown>]>;
}

export interface TeamInitResult {
  stores: string[];
  roles: string[];
  /** A key pair was made now (false: the team had one; the key file was left alone). */
  keyCreated: boolean;
  publicKey: string;
}

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

export async function teamInit(o: TeamInitOptions): Promise<TeamInitResult> {
  const { pool } = o;
  for (const [, migrate] of o.migrations) await migrate(pool);
  let keyCreated = false;
  let publicKey = '';
  await withTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', ['northbound:team-init']);
    for (const role of Object.values(TEAM_ROLES)) {
      const exists = (await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role])).rowCount;
      if (!exists) await client.query(`CREATE ROLE ${quote(role)} NOLOGIN`);
    }
    const { worker, console: viewer, admin } = TEAM_ROLES;
    const all = `${quote(worker)}, ${quote(viewer)}, ${quote(admin)}`;
    const database = (await client.query<{ db: string }>('SELECT current_database() AS db')).rows[0]!.db;
    await client.query(`GRANT CONNECT ON DATABASE ${quote(database)} TO ${all}`);
    // Every schema the stores made (public; edr): the same privileges in each.
    const schemas = (await client.query<{ s: string }>("SELECT DISTINCT table_schema AS s FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1")).rows.map((r) => quote(r.s));
    for (const schema of schemas) {
      await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${all}`);
      // Workers: read and write the stores.
      await client.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA ${schema} TO ${quote(worker)}`);
      await client.query(`GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${quote(worker)}`);
      // Consoles: read them.
      await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${quote(viewer)}`);
      await client.query(`GRANT USAGE ON ALL SEQUENCES IN SCHEMA ${schema} TO ${quote(viewer)}`);
    }
    // Workers read the connectors and their sealed secrets, and never change them.
    await client.query(`REVOKE INSERT, UPDATE, DELETE ON ${CONNECTOR_TABLES.join(', ')} FROM ${quote(worker)}`);
    await client.query(`REVOKE INSERT, UPDATE, DELETE ON northbound_migrations FROM ${quote(worker)}`);
    // Consoles: never a sealed secret; they record what their operators do.
    await client.query(`REVOKE SELECT ON fleet_secrets FROM ${quote(viewer)}`);
    await client.query(`GRANT SELECT (connector_id, binding, sealed_at) ON fleet_secrets TO ${quote(viewer)}`);
    await client.query(`GRANT INSERT ON activity TO ${quote(viewer)}`);
    // Admins: consoles that register connectors and seal secrets (write, never read them).
    await client.query(`GRANT ${quote(viewer)} TO ${quote(admin)}`);
    await client.query(`GRANT INSERT, UPDATE, DELETE ON fleet_connectors TO ${quote(admin)}`);
    await client.query(`GRANT INSERT, DELETE ON fleet_secrets TO ${quote(admin)}`);
    await client.query(`GRANT INSERT, DELETE ON fleet_claims TO ${quote(admin)}`);
    // A risk save asks the workers for a rescore (C-93): those two columns of a claim, nothing else of it.
    await client.query(`GRANT UPDATE (rescore_requests, rescore_requested_at) ON fleet_claims TO ${quote(admin)}`);
    const row = (await client.query<{ public_key: string }>('SELECT public_key FROM fleet_keys WHERE id = 1')).rows[0];
    if (row) {
      publicKey = row.public_key;
    } else {
      const keys = await newWorkerKeyPair();
      publicKey = publicKeyText(keys);
      // The file first: a key in the database that no file holds would seal secrets nobody can open.
      await writeWorkerKeyFile(o.keyFile, keys);
      await client.query('INSERT INTO fleet_keys (id, public_key) VALUES (1, $1)', [publicKey]);
      keyCreated = true;
    }
  });
  return { stores: o.migrations.map(([name]) => name), roles: Object.values(TEAM_ROLES), keyCreated, publicKey };
}
