/**
 * PostgreSQL for the fleet (issue 24), on a private cluster this file starts (tests/support/postgres.ts):
 * the pool from a --database-url without a password, and versioned migrations applied once, in one
 * transaction, by several processes starting together.
 */
import { describe, expect, it } from 'vitest';
import { migratePg, parseDatabaseUrl } from '../../../electron/store/postgres';
import { usePostgres } from '../../support/postgres';

const pg = usePostgres();

describe('the database URL', () => {
  it('names host, port, database and user; refuses a password, another scheme or an sslmode PostgreSQL does not know, saying what to do', () => {
    expect(parseDatabaseUrl('postgres://nb_worker@db.example:6432/northbound?sslmode=verify-ca')).toEqual({ host: 'db.example', port: 6432, database: 'northbound', user: 'nb_worker', sslmode: 'verify-ca' });
    // TLS that checks the server by default, plain only on this machine.
    expect(parseDatabaseUrl('postgresql://nb@db/northbound')).toMatchObject({ port: 5432, sslmode: 'verify-full' });
    expect(parseDatabaseUrl('postgres://nb@127.0.0.1:5433/northbound').sslmode).toBe('disable');
    expect(() => parseDatabaseUrl('postgres://nb@db.example/northbound?sslmode=require')).toThrow("sslmode=require encrypts without checking the server's certificate.");
    expect(() => parseDatabaseUrl('postgres://nb@db.example/northbound?sslmode=disable')).toThrow('would send the password and the data to db.example unencrypted');
    expect(() => parseDatabaseUrl('postgres://nb:s3cret@db/northbound')).toThrow(expect.objectContaining({ message: 'The database URL carries a password.', hint: expect.stringContaining('NORTHBOUND_DATABASE_PASSWORD') }));
    expect(() => parseDatabaseUrl('mysql://nb@db/northbound')).toThrow('must start with postgres://');
    expect(() => parseDatabaseUrl('postgres://nb@db/northbound?sslmode=always')).toThrow('sslmode=always is not one PostgreSQL knows.');
    expect(() => parseDatabaseUrl('postgres://db/northbound')).toThrow('names no user');
    expect(() => parseDatabaseUrl('not a url')).toThrow('is not a URL');
  });
});

describe('migrations', () => {
  const steps = ['CREATE TABLE a (id integer PRIMARY KEY)', 'CREATE TABLE b (id integer PRIMARY KEY)'];

  it('apply each step once, also when three pools start together', async () => {
    const { name } = await pg.freshDatabase('migrate_once');
    const three = [pg.pool(name), pg.pool(name), pg.pool(name)];
    // Re-running a step would fail (CREATE TABLE without IF NOT EXISTS): all three succeed.
    expect(await Promise.all(three.map((p) => migratePg(p, 'test', steps)))).toEqual([2, 2, 2]);
    expect(await migratePg(three[0]!, 'test', steps)).toBe(2);
    const tables = (await three[0]!.query<{ tablename: string }>("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename")).rows.map((r) => r.tablename);
    expect(tables).toEqual(['a', 'b', 'northbound_migrations']);
    // A later version adds only its own step.
    expect(await migratePg(three[1]!, 'test', [...steps, 'ALTER TABLE a ADD COLUMN name text'])).toBe(3);
  });

  it('leave the schema as it was when a step fails, and refuse a database a newer version migrated', async () => {
    const { pool: p } = await pg.freshDatabase('migrate_fail');
    expect(await migratePg(p, 'test', steps.slice(0, 1))).toBe(1);
    await expect(migratePg(p, 'test', [...steps.slice(0, 1), 'CREATE TABLE b (id integer PRIMARY KEY)', 'CREATE TABLE oops ('])).rejects.toThrow(/syntax error/);
    expect((await p.query("SELECT to_regclass('public.b') AS t")).rows[0].t).toBeNull();
    expect((await p.query<{ version: number }>("SELECT version FROM northbound_migrations WHERE store = 'test'")).rows[0]!.version).toBe(1);
    await p.query("UPDATE northbound_migrations SET version = 9 WHERE store = 'test'");
    await expect(migratePg(p, 'test', steps)).rejects.toThrow('The test schema in this database is at version 9, newer than this Northbound knows (2).');
  });
});
