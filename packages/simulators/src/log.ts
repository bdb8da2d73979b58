/**
 * The simulators' logger: the shape they write to (the console's logger fits it), and a silent
 * one for callers that pass none. The simulators do not import the product's logger.
 */
export interface SimLogger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  child(scope: string): SimLogger;
}

const nothing = (): void => undefined;
export const silentLogger: SimLogger = { debug: nothing, info: nothing, warn: nothing, error: nothing, child: () => silentLogger };
