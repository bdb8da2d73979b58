/**
 * Opens a SQLite store (better-sqlite3, WAL) so that it is the owner's alone: the folder 0700,
 * the database file created 0600 before SQLite sees it, and an existing database, `-wal` or
 * `-shm` left wider narrowed to 0600. SQLite gives the `-wal` and `-shm` it creates the
 * permissions of the database file, so they are 0600 too; no process umask is touched.
 */
import Database from 'better-sqlite3';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_FILE_MODE, ensurePrivateDirSync, restrictModeSync } from './files';

/** The files SQLite keeps for a database in WAL mode (a rollback journal only before WAL is on). */
export const sqliteFiles = (file: string) => [file, `${file}-wal`, `${file}-shm`, `${file}-journal`];

export function openPrivateDatabase(file: string): Database.Database {
  ensurePrivateDirSync(path.dirname(file));
  // 'a' creates the file if missing (0600) and never truncates an existing one.
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  for (const f of sqliteFiles(file)) restrictModeSync(f, PRIVATE_FILE_MODE);
  const db = new Database(file);
  try {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // A big transaction (a 100,000-host cycle) grows the WAL to its size; without a limit the file
    // keeps that size for ever. With one, it is cut back after the next checkpoint.
    db.pragma(`journal_size_limit = ${64 * 1024 * 1024}`);
    // -wal/-shm opened (or left by a crash) before this version narrowed them.
    for (const f of sqliteFiles(file)) restrictModeSync(f, PRIVATE_FILE_MODE);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}

/**
 * A store's schema history as a versioned list: `PRAGMA user_version` counts the steps a database
 * has had; the missing ones run in order, each in its own transaction with its version mark.
 * `adopt` places a store written before its schema was versioned (user_version 0 but tables
 * present): it answers how many steps that store's shape already has.
 */
export function migrate(db: Database.Database, steps: readonly string[], adopt?: (db: Database.Database) => number): number {
  let from = db.pragma('user_version', { simple: true }) as number;
  if (from === 0 && adopt) {
    from = adopt(db);
    if (from > 0) db.pragma(`user_version = ${from}`);
  }
  for (let v = from; v < steps.length; v++) {
    db.transaction(() => {
      db.exec(steps[v]!);
      db.pragma(`user_version = ${v + 1}`);
    })();
  }
  return steps.length;
}

/** Whether `table` exists, and has `column` when one is named (for `adopt`). */
export function hasTable(db: Database.Database, table: string, column?: string): boolean {
  const cols = db.prepare(`SELECT name FROM pragma_table_info(?)`).all(table) as Array<{ name: string }>;
  return cols.length > 0 && (column === undefined || cols.some((c) => c.name === column));
}
