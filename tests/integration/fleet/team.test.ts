/**
 * A team's roles and sealed secrets (issue 24.3) on a private PostgreSQL cluster: team init makes
 * the schema, the roles and the workers' key pair (0600 file); an admin registers connectors with
 * their secrets sealed to the workers; a console reads the connectors but never a sealed secret and
 * cannot register; a worker opens a secret with its key, only for the endpoint it was entered for.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FleetConnectors, migrateFleet } from '../../../electron/edr/fleet/fleet-connectors';
import { teamInit, TEAM_ROLES } from '../../../electron/app/team';
import { openPgActivityStore } from '../../../electron/store/activity-pg';
import { openPgEdrStore } from '../../../electron/edr/store/edr-pg';
import { makeScoredHosts, teamFalconEntry } from '../../support/edr-fixtures';
import { newWorkerKeyPair, readWorkerKeyFile } from '../../../electron/store/sealed-box';
import { openPostgres, type PgPool } from '../../../electron/store/postgres';
import { usePostgres } from '../../support/postgres';

const pg = usePostgres();
let dir: string;
let owner: PgPool;
let url: string;
const pools: PgPool[] = [];
const as = (user: string) => {
  const p = openPostgres({ url: url.replace('postgres://postgres@', `postgres://${user}@`), max: 2 });
  pools.push(p);
  return p;
};

const falcon = teamFalconEntry;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-team-'));
  const db = await pg.freshDatabase('team');
  owner = db.pool;
  url = db.url;
  await teamInit({ pool: owner, keyFile: path.join(dir, 'worker.key'), migrations: [['activity', (p) => openPgActivityStore(p)], ['edr', (p) => openPgEdrStore(p)], ['fleet', migrateFleet]] });
  for (const [user, role] of [['w1', TEAM_ROLES.worker], ['alice', TEAM_ROLES.console], ['bob', TEAM_ROLES.admin]] as const) {
    await owner.query(`CREATE ROLE ${user} LOGIN IN ROLE ${role}`);
  }
}, 60_000);

afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
  rmSync(dir, { recursive: true, force: true });
});

describe('team init', () => {
  it('writes the workers\' private key owner-only and keeps the public key in the database; a second run keeps both', async () => {
    const file = path.join(dir, 'worker.key');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const keys = await readWorkerKeyFile(file);
    const stored = (await owner.query<{ public_key: string }>('SELECT public_key FROM fleet_keys')).rows;
    expect(stored).toEqual([{ public_key: Buffer.from(keys.publicKey).toString('base64') }]);
    const again = await teamInit({ pool: owner, keyFile: path.join(dir, 'other.key'), migrations: [['fleet', migrateFleet]] });
    expect(again.keyCreated).toBe(false);
    expect(again.publicKey).toBe(stored[0]!.public_key);
    expect(() => statSync(path.join(dir, 'other.key'))).toThrow();
  });

  it('refuses a key file others can read', async () => {
    const loose = path.join(dir, 'loose.key');
    writeFileSync(loose, '{}', { mode: 0o644 });
    await expect(readWorkerKeyFile(loose)).rejects.toThrow(/can be read by others/);
  });

  it('a role that may not create tables is told to run team init as the owner', async () => {
    const fresh = await pg.freshDatabase('noschema');
    await fresh.pool.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
    await fresh.pool.query('CREATE ROLE carol LOGIN');
    const carol = openPostgres({ url: fresh.url.replace('postgres://postgres@', 'postgres://carol@'), max: 1 });
    pools.push(carol);
    await expect(migrateFleet(carol)).rejects.toThrow(/may not create/);
  });
});

describe('sealed secrets and roles', () => {
  it('an admin registers a connector with its secret sealed; a console reads the connector but not the secret, and cannot register', async () => {
    const bob = new FleetConnectors(as('bob'));
    const results = await bob.registerBulk({ version: 1, connectors: [falcon()] });
    expect(results, JSON.stringify(results)).toMatchObject([{ ok: true, action: "created" }]);
    const sealed = (await owner.query<{ sealed: string }>('SELECT sealed FROM fleet_secrets')).rows[0]!.sealed;
    expect(sealed).not.toContain('falcon-secret-1');
    expect(Buffer.from(sealed, 'base64').toString('latin1')).not.toContain('falcon-secret-1');

    const alicePool = as('alice');
    const alice = new FleetConnectors(alicePool);
    const [c] = await alice.list();
    expect(c).toMatchObject({ vendor: 'falcon', clientId: '0123456789abcdef0123456789abcdef' });
    expect(await alice.hasSecret(c!)).toBe(true);
    await expect(alicePool.query('SELECT sealed FROM fleet_secrets')).rejects.toThrow(/permission denied/);
    await expect(alicePool.query('SELECT * FROM fleet_secrets')).rejects.toThrow(/permission denied/);
    await expect(alice.registerBulk({ version: 1, connectors: [falcon({ clientId: 'fedcba9876543210fedcba9876543210', tenantId: 'b1b2c3d4e5f60718293a4b5c6d7e8f90' })] })).rejects.toThrow(/permission denied/);
    // Nor can the admin read back what it sealed.
    await expect(as('bob').query('SELECT sealed FROM fleet_secrets')).rejects.toThrow(/permission denied/);
  });

  it('a worker writes hosts, which a console reads through the same store', async () => {
    const worker = await openPgEdrStore(as('w1'));
    const id = await worker.beginCycle('c1', 'falcon', 't1', new Date('2026-11-29T10:00:00Z'));
    await worker.stageScores(id, 'c1', makeScoredHosts(5, { cycleSalt: id }));
    expect(await worker.commitCycle(id, new Date('2026-11-29T10:01:00Z'))).toBe(5);
    const viewer = await openPgEdrStore(as('alice'));
    expect((await viewer.latestCycles()).map((c) => [c.connectorId, c.hosts])).toEqual([['c1', 5]]);
    expect((await viewer.cycleHosts(id)).length).toBe(5);
    // A console cannot write scores.
    await expect(viewer.beginCycle('c1', 'falcon', 't1', new Date())).rejects.toThrow(/permission denied/);
  });

  it('a worker opens the secret with its key; another key opens nothing; a worker cannot change a connector', async () => {
    const w1 = as('w1');
    const worker = new FleetConnectors(w1);
    const [c] = await worker.list();
    const keys = await readWorkerKeyFile(path.join(dir, 'worker.key'));
    expect(await worker.openSecret(c!, keys)).toBe('falcon-secret-1');
    await expect(worker.openSecret(c!, await newWorkerKeyPair())).rejects.toThrow(/cannot be opened/);
    await expect(w1.query("UPDATE fleet_connectors SET config = config || '{\"apiUrl\":\"https://evil.example\"}'")).rejects.toThrow(/permission denied/);
  });

  it('a secret bound to one endpoint is not given for another', async () => {
    const worker = new FleetConnectors(as('w1'));
    const keys = await readWorkerKeyFile(path.join(dir, 'worker.key'));
    const [c] = await worker.list();
    // Whoever moved the connector in the database (an admin by hand): the worker reads it moved.
    await owner.query(`UPDATE fleet_connectors SET config = jsonb_set(config, '{apiUrl}', '"https://attacker.example"')`);
    const moved = (await worker.list())[0]!;
    expect(moved.apiUrl).toBe('https://attacker.example');
    expect(await worker.openSecret(moved, keys)).toBeUndefined();
    // The bulk push never moves a connector either: refused, the stored one unchanged.
    await owner.query(`UPDATE fleet_connectors SET config = jsonb_set(config, '{apiUrl}', to_jsonb($1::text))`, [c!.apiUrl]);
    const results = await new FleetConnectors(as('bob')).registerBulk({ version: 1, connectors: [falcon({ apiUrl: 'https://elsewhere.example', clientSecret: undefined })] });
    expect(results[0]).toMatchObject({ ok: false });
    expect((await worker.list())[0]!.apiUrl).toBe(c!.apiUrl);
    expect(await worker.openSecret((await worker.list())[0]!, keys)).toBe('falcon-secret-1');
  });
});
