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
    // -wal/-shm opened (or left by a crash) before this version narrowed them.
    for (const f of sqliteFiles(file)) restrictModeSync(f, PRIVATE_FILE_MODE);
  } catch (e) {
    db.close();
    throw e;
  }
  return db;
}
