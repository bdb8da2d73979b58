/**
 * The IPC side of the contract: one `ipcMain.handle` per channel of shared/contract (no catch-all),
 * each answering only the app's own top-level page, delegating to the router (which validates).
 * Events go to the window on one push channel.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { channelNames } from '../../shared/contract';
import { ErrorCodes, type Result } from '../../shared/model/errors';
import type { EventHub } from '../app/events';
import type { Router } from '../app/router';
import type { Logger } from '../log';
import { EVENT_CHANNEL } from './bridge';
import { originOf } from './protocol';

export const FORBIDDEN_CODE = 'request.forbidden';

type SenderEvent = Pick<IpcMainInvokeEvent, 'senderFrame'>;

/** A request counts only from the main frame of a page on the app's origin (not an iframe, not another site). */
export function isTrustedSender(event: SenderEvent, origin: string): boolean {
  let frame: SenderEvent['senderFrame'];
  try {
    frame = event.senderFrame;
  } catch {
    return false;
  }
  if (!frame || frame.parent !== null) return false;
  return originOf(frame.url) === origin;
}

export interface IpcOptions {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  router: Pick<Router, 'invoke'>;
  origin: string;
  logger: Logger;
}

/** Registers every contract channel; answers a function that removes them again. */
export function registerIpc({ ipcMain, router, origin, logger }: IpcOptions): () => void {
  const forbidden: Result<never> = {
    ok: false,
    error: { code: FORBIDDEN_CODE, message: 'This page may not call the app.', hint: 'Only the Northbound window can make requests.' },
  };
  for (const channel of channelNames) {
    ipcMain.handle(channel, async (event: IpcMainInvokeEvent, request: unknown) => {
      if (!isTrustedSender(event, origin)) {
        logger.warn('request from a foreign frame refused', { channel, origin: event.senderFrame ? (originOf(event.senderFrame.url) ?? 'other') : 'gone' });
        return forbidden;
      }
      try {
        return await router.invoke(channel, request);
      } catch (e) {
        logger.error('router failed', { channel, error: e instanceof Error ? e.message : String(e) });
        return { ok: false, error: { code: ErrorCodes.internal, message: 'Something went wrong inside the app.', hint: 'Try again; if it keeps happening, the log has the details.' } };
      }
    });
  }
  return () => channelNames.forEach((c) => ipcMain.removeHandler(c));
}

export type EventTarget = Pick<WebContents, 'send' | 'isDestroyed'>;

/** Forwards every app event to the window (if it is there); answers the unsubscribe function. */
export function forwardEvents(events: Pick<EventHub, 'subscribe'>, target: () => EventTarget | undefined): () => void {
  return events.subscribe((event, payload) => {
    const contents = target();
    if (contents && !contents.isDestroyed()) contents.send(EVENT_CHANNEL, { event, payload });
  });
}
