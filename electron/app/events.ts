/** The push side of the contract: services emit events, IPC and the browser host forward them. */
import { events, type EventName, type EventPayload } from '../../shared/contract';
import type { Logger } from '../log';

export type EventListener = (event: EventName, payload: unknown) => void;

export interface EventHub {
  emit<E extends EventName>(event: E, payload: EventPayload<E>): void;
  subscribe(listener: EventListener): () => void;
}

export function createEventHub(logger: Logger): EventHub {
  const listeners = new Set<EventListener>();
  return {
    emit(event, payload) {
      // Validate (and strip unknown keys) so nothing outside the schema ever leaves main.
      const parsed = events[event].safeParse(payload);
      if (!parsed.success) {
        logger.error('event payload outside its schema', { event });
        return;
      }
      for (const l of [...listeners]) {
        try {
          l(event, parsed.data);
        } catch (e) {
          logger.warn('event listener failed', { event, error: String(e) });
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
