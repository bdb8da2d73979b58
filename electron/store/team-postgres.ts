/**
 * A console's connection to its team's PostgreSQL (issue 25.1): the pool with the certificate trust
 * a connection profile has (net/tls-options.ts: system CAs, a custom CA, a pinned certificate;
 * never `rejectUnauthorized: false`), or no TLS for a server on this machine only; and the check
 * a join makes first — the password, the role (northbound_console or northbound_admin) and every
 * store's schema version — each failure an AppError that says what to fix.
 */
import net from 'node:net';
import pg from 'pg';
import { AppError, ErrorCodes, isAppError } from '../../shared/model/errors';
import type { TlsTrust } from '../../shared/model/profile';
import type { TeamCheck, TeamRole } from '../../shared/model/team';
import { createTlsOptions, probeCertificate, transportError, type ProbedCertificate } from '../net';
import { isDatabaseUnreachable, type PgPool } from './postgres';

/** The trust of a team's server: a connection's, or `off` (this machine only). */
export type TeamTrust = TlsTrust | { mode: 'off' };

export interface TeamEndpoint {
  host: string;
  port: number;
  database: string;
  user: string;
  tls: TeamTrust;
}

const PEER = 'the team’s PostgreSQL server';
export const isLoopback = (host: string) => host === '127.0.0.1' || host === '::1' || host === 'localhost';

/** TLS options for node-postgres from the trust (the checks node's TLS makes, as for a node). */
function sslOf(ep: TeamEndpoint): pg.ClientConfig['ssl'] {
  if (ep.tls.mode === 'off') {
    if (!isLoopback(ep.host)) {
      throw new AppError(ErrorCodes.validation, `Without TLS the password and the data would cross the network to ${ep.host} unencrypted.`, 'Choose how the server’s certificate is trusted (system CAs, a custom CA or a pinned certificate); no TLS is for a server on this machine only.', {
        details: { issues: [{ path: 'tls', message: 'No TLS is for a server on this machine only.' }] },
      });
    }
    return false;
  }
  // node-postgres hands these to tls.connect (with the host as servername): the name is checked, or the pin.
  return { ...createTlsOptions(ep.tls, ep.host) } as pg.ClientConfig['ssl'];
}

/** How long a console's idle connection to its team's database stays open. */
export const TEAM_IDLE_MS = 5 * 60_000;

/**
 * Opens up to `n` of the pool's connections at once and hands them back idle, so the views' first
 * reads after a join do not each open one (C-103). Errors are the reads' to tell: none here.
 */
export async function warmPool(pool: PgPool, n: number): Promise<number> {
  const clients = await Promise.allSettled(Array.from({ length: n }, () => pool.connect()));
  let opened = 0;
  for (const c of clients) {
    if (c.status === 'fulfilled') {
      c.value.release();
      opened += 1;
    }
  }
  return opened;
}

/** A pool on the team's database as `ep` names it (the password from the vault, never from a URL). */
export function openTeamPool(ep: TeamEndpoint, password: string | undefined, o: { max?: number; applicationName?: string; onIdleError?: (e: Error) => void } = {}): PgPool {
  const pool = new pg.Pool({
    host: ep.host,
    port: ep.port,
    database: ep.database,
    user: ep.user,
    ...(password !== undefined ? { password } : {}),
    ssl: sslOf(ep),
    max: o.max ?? 4,
    application_name: o.applicationName ?? 'northbound console',
    connectionTimeoutMillis: 10_000,
    // A console reads in bursts (a page opened, a change told): its connections wait for the next
    // one instead of closing after node-postgres' 10 s, each new one a TLS handshake and a password
    // exchange before the page's first read (C-103); TCP keep-alive finds one the network dropped.
    idleTimeoutMillis: TEAM_IDLE_MS,
    keepAlive: true,
  });
  // A connection the server closed is dropped from the pool; the next query opens another.
  pool.on('error', (e) => o.onIdleError?.(e));
  pool.on('connect', (client) => client.on('error', (e) => o.onIdleError?.(e)));
  return pool;
}

/** What went wrong reaching the team's database, in words that say what to fix. */
export function teamConnectError(e: unknown, ep: TeamEndpoint): AppError {
  if (isAppError(e)) return e;
  const code = (e as { code?: unknown })?.code;
  const message = e instanceof Error ? e.message : String(e);
  const where = `${ep.host}:${ep.port}`;
  if (code === '28P01') {
    return new AppError(ErrorCodes.teamAuth, `The database refused the password of user ${ep.user}.`, 'Enter the password again (Caps Lock?), or ask the database owner to set it: ALTER ROLE … PASSWORD.', { details: { reason: 'password' } });
  }
  if (code === '28000') {
    return new AppError(ErrorCodes.teamAuth, `The server at ${where} does not let user ${ep.user} in (${message}).`, /no pg_hba\.conf entry/i.test(message) ? 'Ask the database owner to allow this host and user in pg_hba.conf (a hostssl line with scram-sha-256).' : 'Check the user name, or ask the database owner to create it (docs/team.md, step 4).', {
      details: { reason: 'user' },
    });
  }
  if (code === '3D000') {
    return new AppError(ErrorCodes.teamSchema, `The server at ${where} has no database ${ep.database}.`, 'Check the database name (the one team init was run on).', { details: { reason: 'database' } });
  }
  if (/does not support SSL/i.test(message)) {
    return new AppError(ErrorCodes.tlsFailed, `The server at ${where} does not offer TLS.`, 'Ask the database owner to turn TLS on (ssl = on), or choose no TLS if the server runs on this machine.', { details: { reason: 'no-tls' } });
  }
  if (/no encryption/i.test(message) && code === '28000') {
    return new AppError(ErrorCodes.teamAuth, `The server at ${where} accepts only encrypted connections.`, 'Choose how its certificate is trusted (system CAs, a custom CA or a pinned certificate).');
  }
  if (typeof code === 'string' && (/^(ERR_TLS|ERR_SSL|CERT_|DEPTH_ZERO|SELF_SIGNED|UNABLE_TO)/.test(code) || code === 'EPROTO' || code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'EHOSTUNREACH' || code === 'ETIMEDOUT' || code === 'ECONNRESET')) {
    const t = transportError(e, { host: ep.host, port: ep.port, peer: PEER });
    if (t.code === ErrorCodes.tlsUntrusted || t.code === ErrorCodes.tlsPinMismatch) {
      const hint = ep.tls.mode === 'custom-ca' ? 'Choose the CA file that signed the database server’s certificate.' : ep.tls.mode === 'pinned' ? 'Compare the server’s fingerprint with the database owner’s and pin it again.' : 'Choose the CA file that signed the database server’s certificate, or pin its certificate.';
      return new AppError(t.code, t.message, hint, { ...(t.details ? { details: t.details } : {}), cause: e });
    }
    if (t.code === ErrorCodes.network) return new AppError(ErrorCodes.teamUnreachable, t.message, `Check the host and port, that PostgreSQL listens there (listen_addresses), and that a firewall lets this host in.`, { ...(t.details ? { details: t.details } : {}), cause: e });
    return t;
  }
  if (isDatabaseUnreachable(e)) {
    return new AppError(ErrorCodes.teamUnreachable, `The team’s database at ${where} could not be reached (${message}).`, 'Check the host and port, and that PostgreSQL is running there; then try again.', { cause: e });
  }
  return new AppError(ErrorCodes.internal, `The team’s database at ${where} answered: ${message}.`, 'Check the server’s log, or ask the database owner.', { cause: e });
}

const ROLES: readonly TeamRole[] = ['northbound_admin', 'northbound_console'];

/**
 * Connects and checks that this console can work with the team: who the user is there (an admin
 * if a member of northbound_admin, else a console if of northbound_console), and that every
 * store's schema is at the version this Northbound knows (`expected`, by store).
 */
export async function checkTeamDatabase(pool: PgPool, ep: TeamEndpoint, expected: ReadonlyArray<readonly [string, number]>): Promise<TeamCheck> {
  const started = performance.now();
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (e) {
    throw teamConnectError(e, ep);
  }
  try {
    const serverVersion = (await client.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v;
    const latencyMs = Math.round(performance.now() - started);
    const roles = (await client.query<{ rolname: TeamRole; member: boolean }>("SELECT rolname, pg_has_role(current_user, oid, 'MEMBER') AS member FROM pg_roles WHERE rolname = ANY($1::text[])", [ROLES])).rows;
    const init = `Ask the database owner to run northbound team init --database-url postgres://OWNER@${ep.host}:${ep.port}/${ep.database} (docs/team.md, step 3).`;
    if (roles.length === 0) throw new AppError(ErrorCodes.teamSchema, `The database ${ep.database} has no Northbound roles or schema: team init has not been run on it.`, init, { details: { reason: 'no-schema' } });
    const role = ROLES.find((r) => roles.some((x) => x.rolname === r && x.member));
    if (!role) {
      throw new AppError(ErrorCodes.teamRole, `The database user ${ep.user} is in neither northbound_console nor northbound_admin.`, `Ask the database owner: GRANT northbound_console TO ${ep.user}; (or northbound_admin for one who registers connectors).`, { details: { reason: 'role' } });
    }
    const known = (await client.query<{ ok: boolean }>("SELECT to_regclass('northbound_migrations') IS NOT NULL AS ok")).rows[0]!.ok;
    if (!known) throw new AppError(ErrorCodes.teamSchema, `The database ${ep.database} has no Northbound schema.`, init, { details: { reason: 'no-schema' } });
    const versions = new Map((await client.query<{ store: string; version: number }>('SELECT store, version FROM northbound_migrations')).rows.map((r) => [r.store, r.version]));
    const stores = expected.map(([store, want]) => ({ store, version: versions.get(store) ?? 0, expected: want }));
    const newer = stores.filter((s) => s.version > s.expected);
    if (newer.length) {
      throw new AppError(ErrorCodes.teamSchema, `The team’s schema is newer than this Northbound knows (${newer.map((s) => `${s.store} ${s.version}, this app ${s.expected}`).join('; ')}).`, 'Update this Northbound to the version the team’s workers run.', { details: { reason: 'schema-newer' } });
    }
    const older = stores.filter((s) => s.version < s.expected);
    if (older.length) {
      const missing = older.every((s) => s.version === 0);
      throw new AppError(
        ErrorCodes.teamSchema,
        missing ? `The database ${ep.database} lacks the Northbound stores ${older.map((s) => s.store).join(', ')}.` : `The team’s schema is older than this Northbound (${older.map((s) => `${s.store} ${s.version}, this app ${s.expected}`).join('; ')}).`,
        init,
        { details: { reason: missing ? 'no-schema' : 'schema-older' } },
      );
    }
    return { role, mayWriteConnectors: role === 'northbound_admin', serverVersion, stores, latencyMs };
  } catch (e) {
    throw teamConnectError(e, ep);
  } finally {
    client.release();
  }
}

/**
 * Reads the certificate a PostgreSQL server presents, to compare its fingerprint before pinning
 * it: PostgreSQL starts TLS inside its own protocol (an SSLRequest, answered S or N), so the probe
 * sends that and then reads the handshake as net/probe.ts does for a node. Nothing else is sent:
 * no user, no password.
 */
export function probePostgresCertificate(host: string, port: number, timeoutMs = 10_000): Promise<ProbedCertificate> {
  return new Promise<ProbedCertificate>((resolve, reject) => {
    const socket = net.connect({ host, port });
    let done = false;
    const fail = (e: unknown) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      reject(isAppError(e) ? e : transportError(e, { host, port, peer: PEER }));
    };
    const timer = setTimeout(() => fail(new AppError(ErrorCodes.timeout, `${host}:${port} did not answer within ${Math.round(timeoutMs / 1000)} s.`, 'Is the host and port right? Is PostgreSQL up, and is a firewall dropping the connection?')), timeoutMs);
    socket.once('error', fail);
    socket.once('connect', () => {
      const request = Buffer.alloc(8);
      request.writeInt32BE(8, 0);
      request.writeInt32BE(80_877_103, 4);
      socket.write(request);
    });
    socket.once('data', (answer) => {
      if (done) return;
      if (answer[0] !== 0x53) {
        fail(new AppError(ErrorCodes.tlsFailed, `The server at ${host}:${port} does not offer TLS.`, 'Ask the database owner to turn TLS on (ssl = on).', { details: { reason: 'no-tls' } }));
        return;
      }
      done = true;
      clearTimeout(timer);
      socket.removeAllListeners('error');
      probeCertificate(host, port, { socket, timeoutMs }).then(resolve, reject);
    });
  });
}
