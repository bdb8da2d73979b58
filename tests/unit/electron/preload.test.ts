import type { EventEmitter } from 'node:events';
import { BRIDGE_KEY, channelNames, type Bridge } from '../../../shared/contract';

const h = vi.hoisted(() => {
  const exposed: Record<string, unknown> = {};
  return { exposed, ipc: undefined as unknown as { emitter: unknown; invoke: ReturnType<typeof vi.fn>; on: ReturnType<typeof vi.fn>; removeListener: ReturnType<typeof vi.fn> } };
});

vi.mock('electron', async () => {
  const { EventEmitter: EE } = await import('node:events');
  const emitter = new EE();
  h.ipc = {
    emitter,
    invoke: vi.fn(async (channel: string) => ({ ok: true, value: channel })),
    on: vi.fn((c: string, l: (...a: unknown[]) => void) => emitter.on(c, l)),
    removeListener: vi.fn((c: string, l: (...a: unknown[]) => void) => emitter.removeListener(c, l)),
  };
  return { contextBridge: { exposeInMainWorld: (key: string, api: unknown) => void (h.exposed[key] = api) }, ipcRenderer: h.ipc };
});

await import('../../../electron/preload');
const bridge = h.exposed[BRIDGE_KEY] as Bridge;
const emitter = () => h.ipc.emitter as EventEmitter;

describe('preload', () => {
  // One mocked ipcRenderer serves every test: each counts its own calls.
  beforeEach(() => h.ipc.invoke.mockClear());

  it('exposes only invoke and on, under the contract key, frozen', () => {
    expect(Object.keys(h.exposed)).toEqual([BRIDGE_KEY]);
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'on']);
    expect(Object.isFrozen(bridge)).toBe(true);
    expect(JSON.stringify(Object.values(bridge).map((v) => typeof v))).toBe('["function","function"]');
  });

  it('invokes contract channels through ipcRenderer.invoke', async () => {
    for (const c of channelNames) expect(await bridge.invoke(c, {})).toEqual({ ok: true, value: c });
    expect(h.ipc.invoke).toHaveBeenCalledTimes(channelNames.length);
  });

  it('refuses unknown channels without touching IPC', async () => {
    for (const c of ['electron-store-get-data', 'event', '__proto__', 'toString', '']) {
      await expect(bridge.invoke(c, {})).resolves.toMatchObject({ ok: false, error: { code: 'channel.unknown' } });
    }
    expect(h.ipc.invoke).not.toHaveBeenCalled();
  });

  it('turns an IPC failure into an error result', async () => {
    h.ipc.invoke.mockRejectedValueOnce(new Error('No handler registered'));
    await expect(bridge.invoke('app.info', {})).resolves.toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('delivers only contract events, payload only, and unsubscribes', () => {
    expect(() => bridge.on('not.an.event', () => undefined)).toThrow(/Unknown event/);
    const got: unknown[] = [];
    const off = bridge.on('profiles.changed', (p) => got.push(p));
    const other = vi.fn();
    const offOther = bridge.on('notice', other);
    emitter().emit('event', { sender: 'ipc-event' }, { event: 'profiles.changed', payload: { ids: ['a'] } });
    emitter().emit('event', {}, { event: 'bogus', payload: 1 });
    emitter().emit('event', {}, 'garbage');
    expect(got).toEqual([{ ids: ['a'] }]);
    expect(other).not.toHaveBeenCalled();
    off();
    off();
    emitter().emit('event', {}, { event: 'profiles.changed', payload: { ids: ['b'] } });
    expect(got).toHaveLength(1);
    offOther();
    expect(emitter().listenerCount('event')).toBe(0);
  });
});
