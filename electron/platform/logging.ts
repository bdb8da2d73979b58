/** The desktop log: JSON lines to stderr and to `<userData>/logs/main.log` (0600, rotated at start past 5 MB). */
import { createWriteStream, mkdirSync, renameSync, statSync } from 'node:fs';
import path from 'node:path';
import { createLogger, type LogLevel, type Logger } from '../log';

const MAX_BYTES = 5 * 1024 * 1024;

export function createDesktopLogger(dataDir: string, level: LogLevel = 'info'): Logger {
  let file: ReturnType<typeof createWriteStream> | undefined;
  try {
    const dir = path.join(dataDir, 'logs');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const target = path.join(dir, 'main.log');
    try {
      if (statSync(target).size > MAX_BYTES) renameSync(target, `${target}.1`);
    } catch {
      // no log yet
    }
    file = createWriteStream(target, { flags: 'a', mode: 0o600 });
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
