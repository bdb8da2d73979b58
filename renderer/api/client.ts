/**
 * The renderer's only way to main: one typed invoker per contract channel and one typed
 * subscription per contract event, both generated from `shared/contract.ts`. Responses and
 * event payloads are validated with the contract's schemas; `{ ok: false }` becomes a thrown
 * AppError with the same code, message, hint and details.
 */
import {
  ResultShape,
  channelNames,
  channels,
  eventNames,
  events,
  isChannelName,
  isEventName,
  type Bridge,
  type ChannelName,
  type EventName,
  type EventPayload,
  type RequestOf,
  type ResponseOf,
} from '../../shared/contract';
import { AppError } from '../../shared/model/errors';

export interface Client {
  invoke<C extends ChannelName>(channel: C, request: RequestOf<C>): Promise<ResponseOf<C>>;
  on<E extends EventName>(event: E, listener: (payload: EventPayload<E>) => void): () => void;
}

type Invoker = (request: unknown) => Promise<unknown>;
type Subscriber = (listener: (payload: unknown) => void) => () => void;

const lostContact = (cause: unknown) =>
  new AppError('bridge.failed', 'The window lost contact with the app.', 'Reload the window (Ctrl+R); if it keeps happening, restart Northbound.', { cause });

function makeInvoker(bridge: Bridge, name: ChannelName): Invoker {
  const schema = channels[name].response;
  return async (request) => {
    let raw: unknown;
    try {
      raw = await bridge.invoke(name, request ?? {});
    } catch (e) {
      throw lostContact(e);
    }
    const envelope = ResultShape.safeParse(raw);
    if (!envelope.success) {
      throw new AppError('response.invalid', `The app answered "${name}" with something that is not a result.`, 'Restart Northbound; the window and the app may be different versions.');
    }
    if (!envelope.data.ok) throw AppError.fromShape(envelope.data.error);
    const parsed = schema.safeParse(envelope.data.value);
    if (!parsed.success) {
      throw new AppError('response.invalid', `The app answered "${name}" in a shape this window does not understand.`, 'Restart Northbound; the window and the app may be different versions.', {
        details: { channel: name, issues: parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message })) },
      });
    }
    return parsed.data;
  };
}

function makeSubscriber(bridge: Bridge, name: EventName): Subscriber {
  const schema = events[name];
  return (listener) =>
    bridge.on(name, (payload) => {
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        console.warn(`Ignored a "${name}" event outside its schema.`);
        return;
      }
      listener(parsed.data);
    });
}

export function createClient(bridge: Bridge): Client {
  const invokers = Object.fromEntries(channelNames.map((n) => [n, makeInvoker(bridge, n)])) as Record<ChannelName, Invoker>;
  const subscribers = Object.fromEntries(eventNames.map((n) => [n, makeSubscriber(bridge, n)])) as Record<EventName, Subscriber>;
  return {
    invoke(channel, request) {
      if (!isChannelName(channel)) return Promise.reject(new AppError('channel.unknown', `Unknown channel "${String(channel)}".`, 'This is a bug in the window.'));
      return invokers[channel](request) as Promise<ResponseOf<typeof channel>>;
    },
    on(event, listener) {
      if (!isEventName(event)) throw new AppError('event.unknown', `Unknown event "${String(event)}".`, 'This is a bug in the window.');
      return subscribers[event](listener as (payload: unknown) => void);
    },
  };
}
