/**
 * File helpers for everything the app keeps in its data folder: an owner-only folder (0700) and
 * files (0600), narrowing what an older version or another tool left wider, atomic writes (temp
 * file, fsync, rename), and moving a broken file aside instead of deleting it. Plain Node; never
 * the process umask (process-wide).
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, promises as fsp, renameSync, statSync } from 'node:fs';
import path from 'node:path';

/** Owner read/write only: secrets and settings are nobody else's business. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** A file-name-safe timestamp, e.g. 2025-01-31T12-00-00-000Z. */
export const fileStamp = (date = new Date()) => date.toISOString().replace(/[:.]/g, '-');

/**
 * Sets `mode` on `file` when it grants any permission `mode` does not (e.g. a 0644 file for 0600);
 * a narrower mode is left alone, a missing file is fine. Answers whether it changed the mode.
 */
export function restrictModeSync(file: string, mode: number): boolean {
  let current: number;
  try {
    current = statSync(file).mode & 0o777;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw e;
  }
  if ((current & ~mode) === 0) return false;
  chmodSync(file, mode);
  return true;
}

/** Creates `dir` (and missing parents) owner-only (0700), and narrows it when it exists wider. */
export function ensurePrivateDirSync(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  restrictModeSync(dir, PRIVATE_DIR_MODE);
}

export async function ensurePrivateDir(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  restrictModeSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Writes `data` to `file` so that a reader sees either the old or the new content, never half
 * of it: a temp file in the same folder (mode 0600), fsync, then rename over the target.
 */
export async function writeFileAtomic(file: string, data: string): Promise<void> {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await fsp.open(tmp, 'wx', PRIVATE_FILE_MODE);
  try {
    await handle.writeFile(data, 'utf8');
    await handle.sync();
  } catch (e) {
    await handle.close().catch(() => undefined);
    await fsp.rm(tmp, { force: true });
    throw e;
  }
  await handle.close();
  try {
    await fsp.rename(tmp, file);
  } catch (e) {
    await fsp.rm(tmp, { force: true });
    throw e;
  }
}

/**
 * Moves a file that cannot be used to `<file>.<tag>-<timestamp>` and answers the new path.
 * Nothing is deleted: an operator (or support) can still recover what was in it.
 */
export function moveAsideSync(file: string, tag: 'corrupt' | 'unreadable'): string {
  const target = `${file}.${tag}-${fileStamp()}`;
  renameSync(file, target);
  return target;
}
