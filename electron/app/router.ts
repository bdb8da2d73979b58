/**
 * The request side of the contract: one router answers every channel of `shared/contract.ts`.
 * It validates each request against the channel's schema, runs the handler, validates (and so
 * strips) the response, and always answers with a Result envelope. Electron IPC and the
 * browser-mode host both call `invoke`; neither has a channel list of its own.
 */
import { channels, isChannelName, type ChannelName, type ParsedRequestOf, type ResponseOf } from '../../shared/contract';
import { AppError, ErrorCodes, type AppErrorShape, type Result } from '../../shared/model/errors';
import type { Logger } from '../log';
import { issuesToError } from '../../shared/validation/issues-to-error';

export type Handler<C extends ChannelName> = (request: ParsedRequestOf<C>) => Promise<ResponseOf<C>>;
export type Handlers = { [C in ChannelName]: Handler<C> };

export interface Router {
  invoke(channel: string, request: unknown): Promise<Result<unknown>>;
}

/**
 * Told of every request that passed its schema (the activity log): `started` before its handler
 * runs (what it answers is handed back to `ended`), `ended` with the answer or the error.
 */
export interface RequestObserver {
  started(channel: ChannelName, request: unknown): unknown;
  ended(channel: ChannelName, request: unknown, before: unknown, value: unknown, error?: AppErrorShape): void;
}

export function createRouter(handlers: Handlers, logger: Logger, observer?: RequestObserver): Router {
  return {
    async invoke(channel, request) {
      if (!isChannelName(channel)) {
        return { ok: false, error: { code: ErrorCodes.unknownChannel, message: `Unknown channel "${channel}".`, hint: 'Update the app: the window and the main process disagree.' } };
      }
      const spec = channels[channel];
      const parsed = spec.request.safeParse(request ?? {});
      if (!parsed.success) return { ok: false, error: issuesToError(parsed.error.issues) };
      const before = observer?.started(channel, parsed.data);
      try {
        const handler = handlers[channel] as (r: unknown) => Promise<unknown>;
        const value = await handler(parsed.data);
        const out = spec.response.safeParse(value);
        if (!out.success) {
          logger.error('handler answered outside its schema', { channel, issues: out.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`) });
          return { ok: false, error: { code: ErrorCodes.internal, message: 'The app produced an answer it could not use.', hint: 'This is a bug; the log has the details.' } };
        }
        observer?.ended(channel, parsed.data, before, out.data);
        return { ok: true, value: out.data };
      } catch (e) {
        const error = toErrorShape(e, logger, channel);
        observer?.ended(channel, parsed.data, before, undefined, error);
        return { ok: false, error };
      }
    },
  };
}

export function toErrorShape(e: unknown, logger: Logger, context: string): AppErrorShape {
  if (e instanceof AppError) {
    logger.info('request failed', { context, code: e.code, message: e.message });
    return e.toShape();
  }
  logger.error('unexpected failure', { context, error: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
  return { code: ErrorCodes.internal, message: 'Something went wrong inside the app.', hint: 'Try again; if it keeps happening, the log has the details.' };
}
