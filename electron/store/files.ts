/**
 * File helpers for everything the app keeps in its data folder: atomic writes (temp file,
 * fsync, rename) with owner-only permissions, and moving a broken file aside instead of
 * deleting it. Plain Node.
 */
import { randomBytes } from 'node:crypto';
import { promises as fsp, renameSync } from 'node:fs';
import path from 'node:path';

/** Owner read/write only: secrets and settings are nobody else's business. */
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/** A file-name-safe timestamp, e.g. 2025-01-31T12-00-00-000Z. */
export const fileStamp = (date = new Date()) => date.toISOString().replace(/[:.]/g, '-');

export async function ensurePrivateDir(dir: string): Promise<void> {
  await fsp.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
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
