/**
 * What the preload exposes on `window.northbound`: `invoke` for the contract's channels and `on`
 * for its events, nothing else (never ipcRenderer, never the IPC event object). Runs in the
 * sandboxed preload, so it imports only `electron` types and the contract.
 */
import type { IpcRenderer } from 'electron';
// Type-only imports are erased; the runtime names come from the zod-free list, so the preload stays small.
import type { Bridge, EventName } from '../../shared/contract';
import { isKnownChannel, isKnownEvent } from '../../shared/contract-names';
import type { Result } from '../../shared/model/errors';

const isEventName = (s: string): s is EventName => isKnownEvent(s);
const UNKNOWN_CHANNEL = 'channel.unknown';

/** The one channel main pushes events on; the message names the event, the renderer validates it. */
export const EVENT_CHANNEL = 'event';

export type IpcRendererLike = Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>;
type Listener = (payload: unknown) => void;

export function createBridge(ipc: IpcRendererLike): Bridge {
  const listeners = new Map<EventName, Set<Listener>>();
  let attached = false;

  const dispatch = (_event: unknown, message: unknown) => {
    if (typeof message !== 'object' || message === null) return;
    const { event, payload } = message as { event?: unknown; payload?: unknown };
    if (typeof event !== 'string' || !isEventName(event)) return;
    for (const listener of [...(listeners.get(event) ?? [])]) {
      try {
        listener(payload);
      } catch (e) {
        console.error(`A listener for "${event}" failed:`, e);
      }
    }
  };
  const count = () => [...listeners.values()].reduce((n, s) => n + s.size, 0);

  const bridge: Bridge = {
    invoke(channel: string, request: unknown): Promise<Result<unknown>> {
      if (typeof channel !== 'string' || !isKnownChannel(channel)) {
        return Promise.resolve({
          ok: false,
          error: { code: UNKNOWN_CHANNEL, message: `Unknown channel "${String(channel)}".`, hint: 'Only the channels of the contract can be called.' },
        });
      }
      return (ipc.invoke(channel, request) as Promise<Result<unknown>>).catch(() => ({
        ok: false,
        error: { code: 'internal', message: 'The window could not reach the app.', hint: 'Restart Northbound; if it keeps happening, the log has the details.' },
      }));
    },
    on(event: string, listener: Listener): () => void {
      if (typeof event !== 'string' || !isEventName(event)) throw new TypeError(`Unknown event "${String(event)}".`);
      if (typeof listener !== 'function') throw new TypeError('The listener must be a function.');
      const set = listeners.get(event) ?? new Set<Listener>();
      listeners.set(event, set);
      set.add(listener);
      if (!attached) {
        ipc.on(EVENT_CHANNEL, dispatch);
        attached = true;
      }
      let subscribed = true;
      return () => {
        if (!subscribed) return;
        subscribed = false;
        set.delete(listener);
        if (attached && count() === 0) {
          ipc.removeListener(EVENT_CHANNEL, dispatch);
          attached = false;
        }
      };
    },
  };
  return Object.freeze(bridge);
}
