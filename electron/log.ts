/**
 * The app's logger. Every line goes through `redact`, which removes known secret values
 * (registered with `registerSecret`) and anything that looks like a credential field.
 * Services take a `Logger` through their constructor; tests pass `createMemoryLogger()`.
 */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(scope: string): Logger;
}

const secretValues = new Set<string>();
/** Remember a secret value so that no log line ever prints it. Short values are ignored (too many false hits). */
export function registerSecret(value: string | undefined | null): void {
  if (value && value.length >= 6) secretValues.add(value);
}
export function forgetSecret(value: string | undefined | null): void {
  if (value) secretValues.delete(value);
}

const SECRET_KEY_RE = /pass(word)?|secret|token|authorization|cookie|passphrase|credential/i;

function redactValue(key: string, value: unknown, depth: number): unknown {
  if (SECRET_KEY_RE.test(key) && value !== undefined && value !== null && typeof value !== 'boolean') return '[redacted]';
  if (typeof value === 'string') return redactText(value);
  if (depth > 4 || value === null || typeof value !== 'object') return value;
  if (value instanceof Error) return redactText(`${value.name}: ${value.message}`);
  if (Array.isArray(value)) return value.map((v) => redactValue('', v, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(k, v, depth + 1)]));
}

export function redactText(text: string): string {
  let out = text;
  for (const s of secretValues) if (out.includes(s)) out = out.split(s).join('[redacted]');
  return out
    .replace(/(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, '$1 [redacted]')
    .replace(/("?(?:password|client_secret|access_token|refresh_token|registration_access_token)"?\s*[:=]\s*"?)[^",&\s}]+/gi, '$1[redacted]');
}

export function redact(fields: Record<string, unknown>): Record<string, unknown> {
  return redactValue('', fields, 0) as Record<string, unknown>;
}

export type LogSink = (line: { time: string; level: LogLevel; scope: string; msg: string; fields?: Record<string, unknown> }) => void;

const order: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export function createLogger(sink: LogSink, opts: { scope?: string; level?: LogLevel } = {}): Logger {
  const min = order[opts.level ?? 'info'];
  const scope = opts.scope ?? 'app';
  const write = (level: LogLevel) => (msg: string, fields?: Record<string, unknown>) => {
    if (order[level] < min) return;
    sink({ time: new Date().toISOString(), level, scope, msg: redactText(msg), ...(fields ? { fields: redact(fields) } : {}) });
  };
  return {
    debug: write('debug'),
    info: write('info'),
    warn: write('warn'),
    error: write('error'),
    child: (s: string) => createLogger(sink, { scope: `${scope}.${s}`, level: opts.level ?? 'info' }),
  };
}

/** JSON lines to a stream (stderr by default, so stdout stays clean for the CLI). */
export function createStreamLogger(stream: { write(s: string): unknown } = process.stderr, level: LogLevel = 'info'): Logger {
  return createLogger((line) => stream.write(`${JSON.stringify(line)}\n`), { level });
}

export function createMemoryLogger(level: LogLevel = 'debug'): Logger & { lines: string[] } {
  const lines: string[] = [];
  const logger = createLogger((line) => lines.push(JSON.stringify(line)), { level });
  return Object.assign(logger, { lines });
}

export const silentLogger: Logger = createLogger(() => undefined, { level: 'error' });
