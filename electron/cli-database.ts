/**
 * A team's PostgreSQL on the command line (issue 24.5): the flags every command that reads or
 * writes the fleet's store takes — `--database-url` (no password in it), `--database-password-file`
 * (else NORTHBOUND_DATABASE_PASSWORD; never the command line), `--database-ca-file` — and the one
 * way to open a store on it: a URL or option that cannot work is exit 2 with what to fix, a server
 * that cannot be reached (or a store that cannot be opened there) exit 1 naming the URL.
 */
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { CliFailure } from './cli-errors';
import type { PgPool } from './store/postgres';

export interface DatabaseFlags {
  dataDir?: string;
  databaseUrl?: string;
  databasePasswordFile?: string;
  databaseCaFile?: string;
}

/** Adds the three database options to `cmd` (`required`: the command works on a team's database only). */
export function withDatabaseOptions(cmd: Command, o: { required?: boolean } = {}): Command {
  const url = ['--database-url <url>', "a team's PostgreSQL: postgres://user@host:5432/database (no password in it)"] as const;
  return (o.required ? cmd.requiredOption(...url) : cmd.option(...url))
    .option('--database-password-file <file>', 'a file holding the database password (else NORTHBOUND_DATABASE_PASSWORD)')
    .option('--database-ca-file <file>', "the CA of the database server's certificate (PEM), for sslmode verify-full or verify-ca");
}

/** Exactly one of --data-dir and --database-url (exit 2 otherwise); `what`: what each holds, as in "a desk's log" / "a team's". */
export function oneSource(flags: DatabaseFlags, what: { desk: string; team: string }): { dataDir: string } | { databaseUrl: string } {
  if (!flags.dataDir === !flags.databaseUrl) throw new CliFailure(`Give either --data-dir (${what.desk}) or --database-url (${what.team}), not both.`, 2);
  return flags.dataDir ? { dataDir: flags.dataDir } : { databaseUrl: flags.databaseUrl! };
}

/** Where the database password comes from: a file (--database-password-file) or NORTHBOUND_DATABASE_PASSWORD; never the command line. */
export function databasePassword(file: string | undefined): string | undefined {
  if (file) {
    try {
      return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
    } catch (e) {
      throw new CliFailure(`The password file ${file} could not be read: ${e instanceof Error ? e.message : String(e)}.`, 2);
    }
  }
  return process.env.NORTHBOUND_DATABASE_PASSWORD || undefined;
}

/**
 * A pool on the team's database and what `open` makes of it (a store, its migrations applied);
 * the pool is ended when `open` fails. `close` ends it.
 */
export async function openTeamDatabase<T>(flags: DatabaseFlags & { databaseUrl: string }, o: { applicationName: string; max: number }, open: (pool: PgPool) => Promise<T>): Promise<{ value: T; pool: PgPool; close(): Promise<void> }> {
  const { openPostgres } = await import('./store/postgres');
  const password = databasePassword(flags.databasePasswordFile);
  let pool: PgPool;
  try {
    pool = openPostgres({ url: flags.databaseUrl, password, caFile: flags.databaseCaFile, max: o.max, applicationName: o.applicationName });
  } catch (e) {
    throw new CliFailure(e instanceof Error ? `${e.message}${'hint' in e ? ` ${String((e as { hint: unknown }).hint)}` : ''}` : String(e), 2);
  }
  // An idle connection the server closed (a restart) must not end the process: the pool drops it.
  pool.on('error', () => undefined);
  try {
    return { value: await open(pool), pool, close: () => pool.end() };
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw new CliFailure(`The team's database at ${flags.databaseUrl} could not be read: ${e instanceof Error ? e.message : String(e)}.`, 1);
  }
}

/** What `untilReachable` says: once when it starts waiting, once when the database answers. */
export interface ReachNotices {
  waiting(error: string): void;
  back(): void;
}

/**
 * Runs `open` until it succeeds, waiting (1 s, doubling to `maxDelayMs`) while the database cannot
 * be reached and saying so once; another error is thrown. Undefined when `stopping` turned true.
 */
export async function untilReachable<T>(open: () => Promise<T>, say: ReachNotices, stopping: () => boolean, maxDelayMs = 30_000): Promise<T | undefined> {
  const { isDatabaseUnreachable } = await import('./store/postgres');
  for (let wait = 1_000, said = false; ; wait = Math.min(wait * 2, maxDelayMs)) {
    try {
      const v = await open();
      if (said) say.back();
      return v;
    } catch (e) {
      if (!isDatabaseUnreachable(e)) throw e;
      if (!said) say.waiting(e instanceof Error ? e.message : String(e));
      said = true;
    }
    for (const end = Date.now() + wait; Date.now() < end; ) {
      if (stopping()) return undefined;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}
