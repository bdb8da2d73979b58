/** The desktop log: JSON lines to stderr and to `<userData>/logs/main.log` (0600, rotated at start past 5 MB). */
import { createWriteStream, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { createLogger, type LogLevel, type Logger } from '../log';
import { PRIVATE_FILE_MODE, ensurePrivateDirSync, restrictModeSync } from '../store/files';

const MAX_BYTES = 5 * 1024 * 1024;

export function createDesktopLogger(dataDir: string, level: LogLevel = 'info'): Logger {
  let file: ReturnType<typeof createWriteStream> | undefined;
  try {
    const dir = path.join(dataDir, 'logs');
    ensurePrivateDirSync(dir);
    const target = path.join(dir, 'main.log');
    // A log written wider by an older version is narrowed: only new files get the mode below.
    for (const f of [target, `${target}.1`]) restrictModeSync(f, PRIVATE_FILE_MODE);
    try {
      if (statSync(target).size > MAX_BYTES) renameSync(target, `${target}.1`);
    } catch {
      // no log yet
    }
    file = createWriteStream(target, { flags: 'a', mode: PRIVATE_FILE_MODE });
    file.on('error', () => {
      file = undefined;
    });
  } catch {
    file = undefined;
  }
  return createLogger(
    (line) => {
      const text = `${JSON.stringify(line)}\n`;
      process.stderr.write(text);
      file?.write(text);
    },
    { scope: 'main', level },
  );
}
