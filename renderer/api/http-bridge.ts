/**
 * Browser mode transport: the same Bridge as the Electron preload, over HTTP + WebSocket on
 * 127.0.0.1. Requests are POSTed as JSON to `/api/invoke/<channel>`; events arrive on
 * `/api/events` as `{ event, payload }`. Both are authenticated by the launch token in the
 * HttpOnly cookie the host set when the page opened (the browser sends it with same-origin
 * requests and the WebSocket upgrade); a token given here is also sent as `X-Northbound-Token`
 * (scripts, tests). The token never goes into a URL. The socket reconnects with exponential
 * backoff; listeners survive reconnects.
 */
import type { Bridge } from '../../shared/contract';
import { AppErrorShape, ErrorCodes, type Result } from '../../shared/model/errors';

export interface HttpBridgeOptions {
  /** Optional: the page relies on its HttpOnly cookie. */
  token?: string;
  /** Origin of the browser-mode host; defaults to the page's origin. */
  origin?: string;
  fetch?: typeof fetch;
  WebSocket?: typeof WebSocket;
  /** First reconnect delay and its ceiling, in ms. */
  backoff?: { initialMs: number; maxMs: number };
}

export interface HttpBridge extends Bridge {
  /** Called after the event socket came back (events may have been missed meanwhile). */
  onReconnect(listener: () => void): () => void;
  close(): void;
}

const failure = (code: string, message: string, hint: string): Result<never> => ({ ok: false, error: { code, message, hint } satisfies AppErrorShape });

export function createHttpBridge(opts: HttpBridgeOptions): HttpBridge {
  const origin = (opts.origin ?? window.location.origin).replace(/\/+$/, '');
  const fetchImpl = opts.fetch ?? window.fetch.bind(window);
  const WS = opts.WebSocket ?? window.WebSocket;
  const { initialMs, maxMs } = opts.backoff ?? { initialMs: 500, maxMs: 10_000 };

  const listeners = new Map<string, Set<(payload: unknown) => void>>();
  const reconnectListeners = new Set<() => void>();
  let socket: WebSocket | undefined;
  let attempt = 0;
  let everOpened = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let closed = false;

  const listenerCount = () => [...listeners.values()].reduce((n, s) => n + s.size, 0);

  const dispatch = (data: unknown) => {
    if (typeof data !== 'string') return;
    let msg: unknown;
    try {
      msg = JSON.parse(data);
    } catch {
      return;
    }
    if (!msg || typeof msg !== 'object' || typeof (msg as { event?: unknown }).event !== 'string') return;
    const { event, payload } = msg as { event: string; payload: unknown };
    for (const l of [...(listeners.get(event) ?? [])]) {
      try {
        l(payload);
      } catch (e) {
        console.warn('event listener failed', event, e);
      }
    }
  };

  const scheduleReconnect = () => {
    if (closed || timer || listenerCount() === 0) return;
    const delay = Math.min(maxMs, initialMs * 2 ** attempt);
    attempt += 1;
    timer = setTimeout(() => {
      timer = undefined;
      connect();
    }, delay);
  };

  const connect = () => {
    if (closed || socket) return;
    const url = `${origin.replace(/^http/, 'ws')}/api/events`;
    let ws: WebSocket;
    try {
      ws = new WS(url);
    } catch {
      scheduleReconnect();
      return;
    }
    socket = ws;
    ws.onopen = () => {
      attempt = 0;
      if (everOpened) for (const l of [...reconnectListeners]) l();
      everOpened = true;
    };
    ws.onmessage = (e: MessageEvent) => dispatch(e.data);
    ws.onclose = () => {
      if (socket === ws) socket = undefined;
      scheduleReconnect();
    };
    ws.onerror = () => {
      // onclose follows and schedules the reconnect.
    };
  };

  const disconnect = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    const ws = socket;
    socket = undefined;
    if (ws) {
      ws.onclose = null;
      ws.close();
    }
  };

  return {
    async invoke(channel, request) {
      let res: Response;
      try {
        res = await fetchImpl(`${origin}/api/invoke/${encodeURIComponent(channel)}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...(opts.token ? { 'X-Northbound-Token': opts.token } : {}) },
          body: JSON.stringify(request ?? {}),
          credentials: 'same-origin',
          cache: 'no-store',
        });
      } catch {
        return failure('net.unreachable', 'The Northbound service does not answer.', 'Check that `northbound serve` is still running, then reload this page.');
      }
      if (res.status === 401) {
        return failure('bridge.unauthorized', 'This browser tab is not authorised any more.', 'Open Northbound again with the address printed in the terminal; it carries a fresh token.');
      }
      if (res.status === 403) {
        return failure('bridge.forbidden', 'The service refused this page.', 'Open Northbound from the exact address printed in the terminal (127.0.0.1).');
      }
      let body: unknown;
      try {
        body = await res.json();
      } catch {
        body = undefined;
      }
      // An error the service explained ({ ok: false, error }) is passed on as it is, whatever the status.
      const explained = body && typeof body === 'object' && (body as { ok?: unknown }).ok === false ? AppErrorShape.safeParse((body as { error?: unknown }).error) : undefined;
      if (explained?.success) return { ok: false, error: explained.data } satisfies Result<never>;
      if (res.status === 413) {
        return failure(ErrorCodes.tooLarge, 'The request is larger than the service accepts.', 'Send less at once, e.g. split the file into several smaller ones.');
      }
      if (body === undefined) {
        return failure('bridge.bad_response', `The service answered with HTTP ${res.status} and no readable body.`, 'Reload the page; if it keeps happening, restart `northbound serve`.');
      }
      if (res.ok && typeof body === 'object' && body !== null && 'ok' in body) return body;
      return failure(`http.${res.status}`, `The service answered with HTTP ${res.status}.`, 'Reload the page; if it keeps happening, restart `northbound serve`.');
    },

    on(event, listener) {
      let set = listeners.get(event);
      if (!set) listeners.set(event, (set = new Set()));
      set.add(listener);
      connect();
      return () => {
        set.delete(listener);
        if (listenerCount() === 0) disconnect();
      };
    },

    onReconnect(listener) {
      reconnectListeners.add(listener);
      return () => reconnectListeners.delete(listener);
    },

    close() {
      closed = true;
      disconnect();
      listeners.clear();
      reconnectListeners.clear();
    },
  };
}
