/**
 * PostgreSQL for the fleet (issue 24), on a private cluster this file starts (tests/support/postgres.ts):
 * the pool from a --database-url without a password, and versioned migrations applied once, in one
 * transaction, by several processes starting together.
 */
import { describe, expect, it } from 'vitest';
import { copyRows, migratePg, parseDatabaseUrl, textArray, withTransaction } from '../../../electron/store/postgres';
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

describe('bulk values', () => {
  // What vendors send: quotes, backslashes, tabs, line breaks, braces and commas, an empty string, the word NULL, a stray NUL, other scripts.
  const tricky = ['plain', 'a "quoted" \\ back\\slash', 'tab\there', 'line\nbreak\r\n', '{braces},commas', '', 'NULL', 'nul\u0000inside', 'ünïcødé ✓ 日本', '\\N'];
  const stored = tricky.map((v) => v.replaceAll('\u0000', '\uFFFD'));

  it('copyRows loads text, numbers and NULL byte for byte through COPY (a NUL, which text cannot hold, as U+FFFD)', async () => {
    const db = await pg.freshDatabase('copy_rows');
    await db.pool.query('CREATE TABLE t (i integer, s text, f float8)');
    await withTransaction(db.pool, (c) => copyRows(c, 't', ['i', 's', 'f'], [...tricky.map((v, i) => [i, v, i / 3]), [99, null, null]]));
    const r = await db.pool.query<{ i: number; s: string | null; f: number | null }>('SELECT i, s, f FROM t ORDER BY i');
    expect(r.rows).toEqual([...stored.map((s, i) => ({ i, s, f: i / 3 })), { i: 99, s: null, f: null }]);
  });

  it('textArray is read by PostgreSQL as the same values, in order, NULL as NULL', async () => {
    const db = await pg.freshDatabase('text_array');
    const r = await db.pool.query<{ v: string | null; n: string }>('SELECT v, n FROM unnest($1::text[]) WITH ORDINALITY AS u(v, n)', [textArray([...tricky, null])]);
    expect(r.rows.map((x) => x.v)).toEqual([...stored, null]);
    expect(r.rows.map((x) => Number(x.n))).toEqual([...tricky, null].map((_, i) => i + 1));
  });
});
