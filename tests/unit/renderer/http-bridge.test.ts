// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHttpBridge } from '../../../renderer/api/http-bridge';

class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;
  closed = false;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.();
  }
  drop() {
    this.onclose?.();
  }
  send(data: unknown) {
    this.onmessage?.({ data: JSON.stringify(data) });
  }
}

describe('browser-mode bridge', () => {
  beforeEach(() => {
    FakeSocket.all = [];
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('POSTs JSON to /api/invoke/<channel> with the token header', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: { theme: 'light' } }), { status: 200 }));
    const bridge = createHttpBridge({ token: 'tok', origin: 'http://127.0.0.1:4000', fetch: fetch as unknown as typeof globalThis.fetch, WebSocket: FakeSocket as unknown as typeof WebSocket });
    await expect(bridge.invoke('settings.get', {})).resolves.toEqual({ ok: true, value: { theme: 'light' } });
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('http://127.0.0.1:4000/api/invoke/settings.get');
    expect(init.method).toBe('POST');
    expect((init.headers as Record<string, string>)['X-Northbound-Token']).toBe('tok');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
    expect(init.body).toBe('{}');
  });

  it('sends no token header when it has none: the HttpOnly cookie goes with same-origin requests', async () => {
    const fetch = vi.fn(async () => new Response(JSON.stringify({ ok: true, value: {} }), { status: 200 }));
    const bridge = createHttpBridge({ origin: 'http://127.0.0.1:4000', fetch: fetch as unknown as typeof globalThis.fetch });
    await bridge.invoke('app.info', {});
    const [, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.headers as Record<string, string>).not.toHaveProperty('X-Northbound-Token');
    expect(init.credentials).toBe('same-origin');
  });

  it('turns a 413 into a typed too-large error with the service\'s message, or its own when the body is unreadable', async () => {
    const shape = { ok: false, error: { code: 'request.too_large', message: 'The request is larger than the 1 MiB this action accepts.', hint: 'Send less at once.', details: { maxBytes: 1048576 } } };
    const explained = createHttpBridge({ origin: 'http://127.0.0.1:1', fetch: (async () => new Response(JSON.stringify(shape), { status: 413 })) as typeof fetch });
    await expect(explained.invoke('app.info', {})).resolves.toEqual(shape);
    const bare = createHttpBridge({ origin: 'http://127.0.0.1:1', fetch: (async () => new Response('<html>Request Entity Too Large</html>', { status: 413 })) as typeof fetch });
    await expect(bare.invoke('app.info', {})).resolves.toMatchObject({ ok: false, error: { code: 'request.too_large', message: expect.stringMatching(/larger than the service accepts/) } });
    const malformed = createHttpBridge({ origin: 'http://127.0.0.1:1', fetch: (async () => new Response(JSON.stringify({ ok: false, error: { code: 1 } }), { status: 413 })) as typeof fetch });
    await expect(malformed.invoke('app.info', {})).resolves.toMatchObject({ ok: false, error: { code: 'request.too_large' } });
  });

  it('answers transport failures with error results, not exceptions', async () => {
    const down = createHttpBridge({ token: 't', origin: 'http://127.0.0.1:1', fetch: (() => Promise.reject(new TypeError('Failed to fetch'))) as typeof fetch });
    await expect(down.invoke('app.info', {})).resolves.toMatchObject({ ok: false, error: { code: 'net.unreachable' } });
    const unauthorized = createHttpBridge({ token: 't', origin: 'http://127.0.0.1:1', fetch: (async () => new Response('<p>no</p>', { status: 401 })) as typeof fetch });
    await expect(unauthorized.invoke('app.info', {})).resolves.toMatchObject({ ok: false, error: { code: 'bridge.unauthorized' } });
  });

  it('subscribes over /api/events (the cookie authenticates; no token in the URL) and dispatches by event name', () => {
    const bridge = createHttpBridge({ token: 'a b', origin: 'http://127.0.0.1:4000', fetch: vi.fn() as unknown as typeof fetch, WebSocket: FakeSocket as unknown as typeof WebSocket });
    const sessions = vi.fn();
    const notices = vi.fn();
    bridge.on('session.changed', sessions);
    bridge.on('notice', notices);
    expect(FakeSocket.all).toHaveLength(1);
    const ws = FakeSocket.all[0]!;
    expect(ws.url).toBe('ws://127.0.0.1:4000/api/events');
    ws.open();
    ws.send({ event: 'session.changed', payload: { profileId: 'p1' } });
    ws.onmessage?.({ data: 'not json' });
    expect(sessions).toHaveBeenCalledWith({ profileId: 'p1' });
    expect(notices).not.toHaveBeenCalled();
  });

  it('reconnects with growing backoff and reports the reconnect', () => {
    vi.useFakeTimers();
    const bridge = createHttpBridge({ token: 't', origin: 'http://127.0.0.1:4000', WebSocket: FakeSocket as unknown as typeof WebSocket, backoff: { initialMs: 100, maxMs: 1000 } });
    const reconnected = vi.fn();
    bridge.onReconnect(reconnected);
    const listener = vi.fn();
    const off = bridge.on('profiles.changed', listener);
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop();
    vi.advanceTimersByTime(99);
    expect(FakeSocket.all).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.drop(); // fails before opening: next wait doubles
    vi.advanceTimersByTime(199);
    expect(FakeSocket.all).toHaveLength(2);
    vi.advanceTimersByTime(1);
    expect(FakeSocket.all).toHaveLength(3);
    FakeSocket.all[2]!.open();
    expect(reconnected).toHaveBeenCalledTimes(1);
    FakeSocket.all[2]!.send({ event: 'profiles.changed', payload: { ids: ['x'] } });
    expect(listener).toHaveBeenCalledWith({ ids: ['x'] });
    off();
    expect(FakeSocket.all[2]!.closed).toBe(true);
    vi.advanceTimersByTime(5000);
    expect(FakeSocket.all).toHaveLength(3);
  });
});
