/**
 * A team's EDR connectors in its PostgreSQL (issue 24.3, C-68). Registrations go through the
 * desk's `ConnectorRegistry` (the same validation, one connector per vendor and tenant, a secret
 * bound to its endpoint and trust, the bulk push never moving a connector) over an in-memory copy
 * of the team's list; what it would store is written in one transaction: the connectors, and each
 * secret typed with them sealed to the workers' public key (the writer cannot read one back).
 *
 * A worker reads the list and opens a connector's secret with its private key; the sealed value
 * holds the secret bound to the endpoint and trust it was entered for (store/bound-secret.ts), so
 * a connector moved to another address without a new secret finds none.
 *
 * A tenant's risk settings (the connector's `risk`, issue 25.1, C-93) are saved by `setRisk`,
 * validated by the desk's registry, with a rescore request for the workers in the same
 * transaction. Every write NOTIFYs `northbound_connectors` with the connector ids it changed, on
 * commit, so every joined console reads the list again (C-88).
 */
import type { BulkResult, StoredConnector as StoredConnectorType } from '../registry';
import { ConnectorRegistry, StoredConnector, connectorSecretBinding, connectorSecretKey } from '../registry';
import { getBoundSecret } from '../../store/bound-secret';
import type { SettingsBackend, Vault } from '../../store/ports';
import type { PgPool, PoolClient } from '../../store/postgres';
import { isoText, migratePg, withTransaction } from '../../store/postgres';
import { createMemoryVault } from '../../store/vault';
import { openSealed, sealTo, type WorkerKeyPair } from '../../store/sealed-box';
import { AppError, ErrorCodes } from '../../../shared/model/errors';
import { FLEET_MIGRATIONS, FLEET_STORE } from './fleet-schema';

const KEY = 'edrConnectors';

/** The channel a write of the team's connectors NOTIFYs on commit: a JSON array of the connector ids it changed (C-88, C-93). */
export const CONNECTORS_CHANNEL = 'northbound_connectors';

/** Tells every listening console, when `client`'s transaction commits, that these connectors changed. */
async function notifyChanged(client: Pick<PoolClient, 'query'>, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  // A notice holds under 8,000 bytes: a bigger import says "some changed" ([]), and consoles read the whole list.
  const payload = JSON.stringify(ids);
  await client.query('SELECT pg_notify($1, $2)', [CONNECTORS_CHANNEL, payload.length < 7_000 ? payload : '[]']);
}

/** What `setRisk` stored: the connector, and when its rescore was asked for (null: none asked). */
export interface RiskSaved {
  connector: StoredConnectorType;
  rescoreRequestedAt: string | null;
}

/** Applies the fleet's migrations (a role that may create tables: team init, or the owner). */
export function migrateFleet(pool: PgPool): Promise<number> {
  return migratePg(pool, FLEET_STORE, FLEET_MIGRATIONS);
}

function memorySettings(initial: Record<string, unknown>): SettingsBackend {
  const data = new Map(Object.entries(initial));
  return { get: <T>(k: string) => data.get(k) as T | undefined, set: (k, v) => void data.set(k, v), delete: (k) => void data.delete(k) };
}

export async function workersPublicKey(pool: PgPool): Promise<string> {
  const row = (await pool.query<{ public_key: string }>('SELECT public_key FROM fleet_keys WHERE id = 1')).rows[0];
  if (!row) throw new AppError(ErrorCodes.notFound, "The team has no workers' key yet.", 'Run northbound team init --database-url … as the database owner first.');
  return row.public_key;
}

const notRegistered = () => new AppError(ErrorCodes.notFound, 'That connector is no longer registered in the team.', 'Reload the Connectors page.');

export class FleetConnectors {
  constructor(private readonly pool: PgPool) {}

  async list(): Promise<StoredConnectorType[]> {
    const rows = (await this.pool.query<{ config: unknown }>('SELECT config FROM fleet_connectors ORDER BY id')).rows;
    return rows.flatMap((r) => {
      const p = StoredConnector.safeParse(r.config);
      return p.success ? [p.data] : [];
    });
  }

  async get(id: string): Promise<StoredConnectorType | undefined> {
    const row = (await this.pool.query<{ config: unknown }>('SELECT config FROM fleet_connectors WHERE id = $1', [id])).rows[0];
    const p = row ? StoredConnector.safeParse(row.config) : undefined;
    return p?.success ? p.data : undefined;
  }

  /** Bindings of the stored secrets, by connector (readable by consoles: no secret in them). */
  private async bindings(): Promise<Map<string, string>> {
    const rows = (await this.pool.query<{ connector_id: string; binding: string }>('SELECT connector_id, binding FROM fleet_secrets')).rows;
    return new Map(rows.map((r) => [r.connector_id, r.binding]));
  }

  /** Has a secret stored for its endpoint and trust as registered now. */
  async hasSecret(c: StoredConnectorType): Promise<boolean> {
    return (await this.bindings()).get(c.id) === connectorSecretBinding(c);
  }

  /**
   * Registers a bulk document (the desk's format, `{"version":1,"connectors":[…]}`; a secret in an
   * entry is sealed to the workers): every entry validated on its own, what passed stored in one
   * transaction. Answers each entry's result.
   */
  async registerBulk(document: unknown): Promise<BulkResult[]> {
    const results = await this.registering((registry) => registry.registerBulk(document), (results) => results.flatMap((r) => (r.ok && r.id ? [r.id] : [])));
    return results;
  }

  /**
   * Registers or changes one connector as the Connectors page's form does (`ConnectorInput`: the
   * same validation as a desk's; a move of endpoint or trust drops the stored secret unless a new
   * one is typed, which is sealed to the workers). Answers the connector as stored.
   */
  async register(input: unknown): Promise<StoredConnectorType> {
    const { connector } = await this.registering((registry) => registry.register(input, 'ui'), (r) => [r.connector.id]);
    return connector;
  }

  /**
   * Runs a registration through a desk's registry over an in-memory copy of the team's list, then
   * writes what it stored for the connectors `touched` names in one transaction: each connector
   * and its claim, and a secret typed with it sealed to the workers' public key (a connector moved
   * without a new secret loses the stored one, as on a desk).
   */
  private async registering<T>(run: (registry: ConnectorRegistry) => Promise<T>, touched: (result: T) => string[]): Promise<T> {
    const publicKey = await workersPublicKey(this.pool);
    const bindings = await this.bindings();
    const settings = memorySettings({ [KEY]: await this.list() });
    const secrets = new Map<string, string>();
    const vault: Vault = {
      persistent: false,
      kind: 'sealed',
      get: async () => undefined,
      has: async () => false,
      set: async (k, v) => void secrets.set(k, v),
      setMany: async (entries) => entries.forEach(([k, v]) => secrets.set(k, v)),
      delete: async () => undefined,
      deletePrefix: async () => undefined,
    };
    const registry = new ConnectorRegistry(settings, vault, () => new Date(), { hasSecret: async (id, binding) => bindings.get(id) === binding });
    const result = await run(registry);
    const next = settings.get<StoredConnectorType[]>(KEY) ?? [];
    const ids = new Set(touched(result));
    await withTransaction(this.pool, async (client) => {
      for (const c of next) {
        if (!ids.has(c.id)) continue;
        await client.query(
          `INSERT INTO fleet_connectors (id, config, updated_at) VALUES ($1, $2, now())
           ON CONFLICT (id) DO UPDATE SET config = EXCLUDED.config, updated_at = now()`,
          [c.id, JSON.stringify(c)],
        );
        await client.query('INSERT INTO fleet_claims (connector_id) VALUES ($1) ON CONFLICT (connector_id) DO NOTHING', [c.id]);
        const value = secrets.get(connectorSecretKey(c.id));
        if (value !== undefined) {
          await client.query('DELETE FROM fleet_secrets WHERE connector_id = $1', [c.id]);
          await client.query('INSERT INTO fleet_secrets (connector_id, binding, sealed) VALUES ($1, $2, $3)', [c.id, connectorSecretBinding(c), await sealTo(publicKey, value)]);
        }
      }
      await notifyChanged(client, [...ids]);
    });
    return result;
  }

  /** Enables or disables a connector (an admin's); the workers stop or start claiming it. */
  async setEnabled(id: string, enabled: boolean): Promise<StoredConnectorType> {
    const c = await this.get(id);
    if (!c) throw notRegistered();
    const updated: StoredConnectorType = { ...c, enabled, updatedAt: new Date().toISOString() };
    await withTransaction(this.pool, async (client) => {
      await client.query('UPDATE fleet_connectors SET config = $2, updated_at = now() WHERE id = $1', [id, JSON.stringify(updated)]);
      await notifyChanged(client, [id]);
    });
    return updated;
  }

  /** Removes a connector with its sealed secret and claim (an admin's); its stored cycles stay. */
  async remove(id: string): Promise<boolean> {
    return withTransaction(this.pool, async (client) => {
      const r = await client.query('DELETE FROM fleet_connectors WHERE id = $1', [id]);
      const deleted = (r.rowCount ?? 0) > 0;
      if (deleted) await notifyChanged(client, [id]);
      return deleted;
    });
  }

  /**
   * Replaces a connector's risk scoring overrides (an admin console's what-if Save, C-93): checked
   * by the desk's `ConnectorRegistry.setRisk` (the same schema, messages and compaction as a desk's
   * save), stored without touching anything else of the connector. With `rescore`, the same
   * transaction asks the workers to score the tenant's stored hosts again (one more
   * `rescore_requests`); the worker that takes the request runs the rescore (fleet-worker.ts).
   */
  async setRisk(id: string, risk: unknown, o: { rescore: boolean }): Promise<RiskSaved> {
    return withTransaction(this.pool, async (client) => {
      const row = (await client.query<{ config: unknown }>('SELECT config FROM fleet_connectors WHERE id = $1 FOR UPDATE', [id])).rows[0];
      const current = row ? StoredConnector.safeParse(row.config) : undefined;
      if (!current?.success) throw notRegistered();
      const registry = new ConnectorRegistry(memorySettings({ [KEY]: [current.data] }), createMemoryVault());
      const connector = registry.setRisk(id, risk);
      await client.query('UPDATE fleet_connectors SET config = $2, updated_at = now() WHERE id = $1', [id, JSON.stringify(connector)]);
      let rescoreRequestedAt: string | null = null;
      if (o.rescore) {
        const asked = await client.query<{ at: string }>(
          `UPDATE fleet_claims SET rescore_requests = rescore_requests + 1, rescore_requested_at = now() WHERE connector_id = $1 RETURNING ${isoText('rescore_requested_at')} AS at`,
          [id],
        );
        rescoreRequestedAt = asked.rows[0]?.at ?? null;
      }
      await notifyChanged(client, [id]);
      return { connector, rescoreRequestedAt };
    });
  }

  /**
   * A worker's view of a connector's secret: opened with the workers' key, and answered only for
   * the endpoint and trust `c` gives (the connector as the cycle runs it).
   */
  async openSecret(c: StoredConnectorType, keys: WorkerKeyPair): Promise<string | undefined> {
    const row = (await this.pool.query<{ sealed: string }>('SELECT sealed FROM fleet_secrets WHERE connector_id = $1', [c.id])).rows[0];
    if (!row) return undefined;
    const opened = await openSealed(keys, row.sealed);
    if (opened === undefined) throw new AppError(ErrorCodes.missingSecret, `The client secret of ${c.name} cannot be opened with this worker's key.`, 'Give the worker the key file team init wrote for this team, or enter the secret again.');
    return getBoundSecret({ get: async () => opened, set: async () => undefined }, connectorSecretKey(c.id), connectorSecretBinding(c));
  }
}
