/**
 * The command line's way to a team's PostgreSQL (issue 24.5), shared by the commands that read a
 * data folder or a team's database (`audit export`, `zta export`): the flags, the rule "exactly one
 * of --data-dir and --database-url", the password (a file or NORTHBOUND_DATABASE_PASSWORD, never the
 * command line, C-60) and the pool opened with what went wrong said: a URL that cannot be used is a
 * wrong option (exit 2), a server that cannot be read exit 1.
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

/** Adds --data-dir (`dataDirHelp`) and the database flags to a command. */
export function withDatabaseOptions(command: Command, dataDirHelp: string): Command {
  return command
    .option('--data-dir <dir>', dataDirHelp)
    .option('--database-url <url>', "a team's PostgreSQL: postgres://user@host:5432/database (no password in it)")
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
 * Opens a pool on the team's database and `open`s a store on it (its migrations run there); the
 * pool ends with `close`. A URL refused by its checks is exit 2; a server that cannot be read, exit 1.
 */
export async function openTeamStore<T>(flags: DatabaseFlags & { databaseUrl: string }, applicationName: string, open: (pool: PgPool) => Promise<T>): Promise<{ store: T; close(): Promise<void> }> {
  const { openPostgres } = await import('./store/postgres');
  let pool: PgPool;
  try {
    pool = openPostgres({ url: flags.databaseUrl, password: databasePassword(flags.databasePasswordFile), caFile: flags.databaseCaFile, max: 2, applicationName });
  } catch (e) {
    if (e instanceof CliFailure) throw e;
    throw new CliFailure(e instanceof Error ? `${e.message}${'hint' in e ? ` ${String((e as { hint: unknown }).hint)}` : ''}` : String(e), 2);
  }
  try {
    return { store: await open(pool), close: () => pool.end() };
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw new CliFailure(`The team's database at ${flags.databaseUrl} could not be read: ${e instanceof Error ? e.message : String(e)}.`, 1);
  }
}
