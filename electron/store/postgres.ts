/**
 * PostgreSQL for a fleet (issue 24): the connection pool and versioned migrations, the
 * PostgreSQL side of store/sqlite.ts. A `--database-url` names the server, the database and the
 * user; the password never travels in it (command lines are visible to every user of a machine):
 * it comes from an environment variable or a file. TLS always checks the server (house rule: never
 * switched off): `sslmode=verify-full` (the default for any host but this machine's) checks the CA
 * and the name, `verify-ca` the CA, against the system's CAs or a CA file; `disable` (the default on
 * loopback) only for 127.0.0.1, ::1 or localhost. libpq's `require` and `prefer`, which encrypt
 * without checking whom to, are refused with what to use instead.
 *
 * Migrations: each store names its own list (like sqlite.ts `migrate`); the steps not yet applied
 * run in one transaction under an advisory lock of that store, so workers starting together apply
 * each step once, and a failed step leaves the schema as it was.
 */
import { readFileSync } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { AppError, ErrorCodes } from '../../shared/model/errors';

export type PgPool = pg.Pool;
export type PoolClient = pg.PoolClient;

export interface PostgresOptions {
  /** postgres://user@host:port/database[?sslmode=…] — without a password. */
  url: string;
  /** The password (from NORTHBOUND_DATABASE_PASSWORD or a file), if the server asks for one. */
  password?: string | undefined;
  /** A PEM file of the CA that signed the server's certificate (sslmode verify-ca / verify-full). */
  caFile?: string | undefined;
  /** Connections the pool may open (default 10). */
  max?: number;
  /** Who is connecting, as the server's pg_stat_activity shows it. */
  applicationName?: string;
  /** An idle connection was closed by the server (it is replaced at the next query). */
  onIdleError?: (e: Error) => void;
}

/** A timestamptz column as the ISO text the stores answer (UTC, milliseconds, `Z`), as SQL. */
export const isoText = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The URL's parts a pool needs, checked: a clear error names what to fix. */
export function parseDatabaseUrl(url: string): { host: string; port: number; database: string; user: string; sslmode: 'disable' | 'verify-ca' | 'verify-full' } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new AppError(ErrorCodes.validation, `The database URL ${url.replace(/:[^:@/]*@/, ':***@')} is not a URL.`, 'Write it as postgres://user@host:5432/database.');
  }
  if (u.protocol !== 'postgres:' && u.protocol !== 'postgresql:') throw new AppError(ErrorCodes.validation, `The database URL must start with postgres://, not ${u.protocol}//.`, 'Write it as postgres://user@host:5432/database.');
  if (u.password) throw new AppError(ErrorCodes.validation, 'The database URL carries a password.', 'Remove it from the URL (command lines are visible to other users) and give it in NORTHBOUND_DATABASE_PASSWORD or with --database-password-file.');
  const database = decodeURIComponent(u.pathname.replace(/^\//, ''));
  if (!u.hostname || !database) throw new AppError(ErrorCodes.validation, 'The database URL names no host or no database.', 'Write it as postgres://user@host:5432/database.');
  if (!u.username) throw new AppError(ErrorCodes.validation, 'The database URL names no user.', 'Write it as postgres://user@host:5432/database.');
  const host = u.hostname.replace(/^\[|\]$/g, '');
  const loopback = host === '127.0.0.1' || host === '::1' || host === 'localhost';
  const sslmode = u.searchParams.get('sslmode') ?? (loopback ? 'disable' : 'verify-full');
  if (sslmode === 'require' || sslmode === 'prefer' || sslmode === 'allow') {
    throw new AppError(ErrorCodes.validation, `sslmode=${sslmode} encrypts without checking the server's certificate.`, 'Use sslmode=verify-full (give --database-ca-file when the server\'s CA is your own), or verify-ca.');
  }
  if (!['disable', 'verify-ca', 'verify-full'].includes(sslmode)) throw new AppError(ErrorCodes.validation, `sslmode=${sslmode} is not one PostgreSQL knows.`, 'Use verify-full, verify-ca, or disable on this machine.');
  if (sslmode === 'disable' && !loopback) throw new AppError(ErrorCodes.validation, `sslmode=disable would send the password and the data to ${host} unencrypted.`, 'Use sslmode=verify-full; disable is for a server on this machine only.');
  return { host, port: u.port ? Number(u.port) : 5432, database, user: decodeURIComponent(u.username), sslmode: sslmode as 'disable' | 'verify-ca' | 'verify-full' };
}

/** TLS as the URL's sslmode asks: verify-full checks the CA and the name, verify-ca the CA; disable is loopback only. */
function tlsOf(sslmode: 'disable' | 'verify-ca' | 'verify-full', caFile: string | undefined): pg.ClientConfig['ssl'] {
  if (sslmode === 'disable') return false;
  const ca = caFile ? readFileSync(caFile, 'utf8') : undefined;
  return { ...(ca ? { ca } : {}), ...(sslmode === 'verify-ca' ? { checkServerIdentity: () => undefined } : {}) };
}

export function openPostgres(o: PostgresOptions): PgPool {
  const p = parseDatabaseUrl(o.url);
  const pool = new pg.Pool({
    host: p.host,
    port: p.port,
    database: p.database,
    user: p.user,
    ...(o.password !== undefined ? { password: o.password } : {}),
    ssl: tlsOf(p.sslmode, o.caFile),
    max: o.max ?? 10,
    application_name: o.applicationName ?? 'northbound',
    connectionTimeoutMillis: 10_000,
  });
  // A connection the server closed (a restart, a failover) is dropped from the pool and the next
  // query opens another; without a listener node-postgres would end the process. An idle one is
  // the pool's to hear; one checked out between two queries (a transaction, a held lock) is its
  // own client's: its next query then fails, and says why.
  pool.on('error', (e) => o.onIdleError?.(e));
  pool.on('connect', (client) => client.on('error', (e) => o.onIdleError?.(e)));
  return pool;
}

/**
 * Applies the steps of `store` not applied yet, in order, in one transaction under the store's
 * advisory lock; answers the version reached. A database at a newer version than these steps
 * know (a newer Northbound migrated it) is refused: this one would misread it.
 */
export async function migratePg(pool: PgPool, store: string, steps: readonly string[]): Promise<number> {
  const client = await pool.connect();
  try {
    // Up to date: nothing to lock or create (a worker's or a console's role may not create tables).
    const known = (await client.query<{ ok: boolean }>("SELECT to_regclass('northbound_migrations') IS NOT NULL AS ok")).rows[0]?.ok;
    if (known) {
      const version = (await client.query<{ version: number }>('SELECT version FROM northbound_migrations WHERE store = $1', [store])).rows[0]?.version ?? 0;
      if (version === steps.length) return version;
    }
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`northbound:migrate:${store}`]);
    await client.query('CREATE TABLE IF NOT EXISTS northbound_migrations (store text PRIMARY KEY, version integer NOT NULL, migrated_at timestamptz NOT NULL DEFAULT now())');
    const at = (await client.query<{ version: number }>('SELECT version FROM northbound_migrations WHERE store = $1', [store])).rows[0]?.version ?? 0;
    if (at > steps.length) {
      throw new AppError(ErrorCodes.internal, `The ${store} schema in this database is at version ${at}, newer than this Northbound knows (${steps.length}).`, 'Run the newer Northbound that migrated it, or update this one.');
    }
    for (let v = at; v < steps.length; v += 1) await client.query(steps[v]!);
    await client.query('INSERT INTO northbound_migrations (store, version) VALUES ($1, $2) ON CONFLICT (store) DO UPDATE SET version = EXCLUDED.version, migrated_at = now()', [store, steps.length]);
    await client.query('COMMIT');
    return steps.length;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => undefined);
    if ((e as { code?: string }).code === '42501') {
      throw new AppError(ErrorCodes.forbidden, `The database user may not create or change the ${store} tables (${(e as Error).message}).`, 'Run northbound team init --database-url … as the database owner: it creates and upgrades the schema for every role.');
    }
    throw e;
  } finally {
    client.release();
  }
}

/**
 * Runs `work` in one transaction on one connection of the pool: committed when it resolves, rolled
 * back when it throws (the error is passed on). READ COMMITTED, PostgreSQL's default.
 */
/**
 * A value in COPY's text format: NULL as \N; a backslash, tab, newline or carriage return escaped;
 * a NUL character, which PostgreSQL's text cannot hold, as U+FFFD (a vendor's stray NUL must not
 * make the server refuse a whole cycle).
 */
const COPY_SPECIAL = /[\\\t\n\r\0]/;
const COPY_ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r', '\0': '\uFFFD' };
function copyValue(v: unknown): string {
  if (v === null || v === undefined) return '\\N';
  const s = typeof v === 'string' ? v : String(v);
  return COPY_SPECIAL.test(s) ? s.replace(/[\\\t\n\r\0]/g, (c) => COPY_ESCAPES[c]!) : s;
}

/**
 * Loads rows into `table` (`columns` in their order; numbers, strings, null) with one COPY … FROM
 * STDIN in text format, on `client` (inside the caller's transaction): the bulk path, where an
 * INSERT's parameters cost the client more than the server (node-postgres escapes every array
 * element with two regular expressions).
 */
export async function copyRows(client: pg.PoolClient, table: string, columns: readonly string[], rows: ReadonlyArray<readonly unknown[]>): Promise<void> {
  if (rows.length === 0) return;
  const lines = new Array<string>(rows.length);
  for (let r = 0; r < rows.length; r++) {
    const row = rows[r]!;
    let line = copyValue(row[0]);
    for (let c = 1; c < columns.length; c++) line += '\t' + copyValue(row[c]);
    lines[r] = line;
  }
  await pipeline(Readable.from([lines.join('\n') + '\n']), client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`)));
}

const ARRAY_SPECIAL = /[\\"\0]/;
/**
 * A text[] parameter as PostgreSQL's array literal (cast it: `$1::text[]`), built in one pass (a
 * NUL character as U+FFFD, as copyRows does):
 * node-postgres escapes every element with two regular expressions, which for a hundred thousand
 * short values costs more than the statement.
 */
export function textArray(values: ReadonlyArray<string | null>): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    parts[i] = v === null || v === undefined ? 'NULL' : ARRAY_SPECIAL.test(v) ? `"${v.replace(/[\\"]/g, '\\$&').replace(/\0/g, '\uFFFD')}"` : `"${v}"`;
  }
  return `{${parts.join(',')}}`;
}

export async function withTransaction<T>(pool: PgPool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  // A connection whose rollback failed is broken: it is closed, not handed back to the pool.
  let broken = false;
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (e) {
    await client.query('ROLLBACK').catch(() => (broken = true));
    throw e;
  } finally {
    client.release(broken);
  }
}

/** PostgreSQL's connection classes: the server is not there, not yet, or going away (class 08; 57P01-57P03). */
const UNREACHABLE_SQLSTATE = /^(08|57P0[123])/;
const UNREACHABLE_ERRNO = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE']);

/** Whether `e` says the server could not be reached (worth waiting for), not that it refused what was asked. */
export function isDatabaseUnreachable(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && (UNREACHABLE_SQLSTATE.test(code) || UNREACHABLE_ERRNO.has(code))) return true;
  const message = e instanceof Error ? e.message : '';
  return /Connection terminated|timeout exceeded when trying to connect|the database system is (starting up|shutting down)/i.test(message);
}
