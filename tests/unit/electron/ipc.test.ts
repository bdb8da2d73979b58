import { channelNames } from '../../../shared/contract';
import { createEventHub } from '../../../electron/app/events';
import { createMemoryLogger } from '../../../electron/log';
import { EVENT_CHANNEL } from '../../../electron/platform/bridge';
import { FORBIDDEN_CODE, forwardEvents, isTrustedSender, registerIpc } from '../../../electron/platform/ipc';
import { APP_ORIGIN } from '../../../electron/platform/protocol';
import { FakeWebContents } from './fake-electron';

const mainFrame = (url: string) => ({ senderFrame: { url, parent: null } });
const setup = () => {
  const handlers = new Map<string, (e: unknown, r: unknown) => Promise<unknown>>();
  const ipcMain = { handle: vi.fn((c: string, h: (e: unknown, r: unknown) => Promise<unknown>) => void handlers.set(c, h)), removeHandler: vi.fn((c: string) => void handlers.delete(c)) };
  const router = { invoke: vi.fn(async (channel: string, request: unknown) => ({ ok: true as const, value: { channel, request } })) };
  const dispose = registerIpc({ ipcMain: ipcMain as never, router, origin: APP_ORIGIN, logger: createMemoryLogger() });
  return { handlers, ipcMain, router, dispose };
};

describe('ipc', () => {
  it('registers exactly the contract channels, and removes them again', () => {
    const { handlers, ipcMain, dispose } = setup();
    expect(ipcMain.handle.mock.calls.map((c) => c[0]).sort()).toEqual([...channelNames].sort());
    expect(handlers.size).toBe(channelNames.length);
    dispose();
    expect(handlers.size).toBe(0);
  });

  it('passes requests from the app main frame to the router', async () => {
    const { handlers, router } = setup();
    const answer = await handlers.get('profiles.list')!(mainFrame('northbound://app/index.html'), {});
    expect(answer).toEqual({ ok: true, value: { channel: 'profiles.list', request: {} } });
    expect(router.invoke).toHaveBeenCalledWith('profiles.list', {});
  });

  it('refuses a foreign frame, an iframe, or a frame that is gone', async () => {
    const { handlers, router } = setup();
    const call = handlers.get('app.info')!;
    for (const event of [
      mainFrame('https://evil.example/'),
      mainFrame('file:///tmp/x.html'),
      mainFrame('northbound://app.evil/index.html'),
      { senderFrame: { url: 'northbound://app/index.html', parent: { url: 'northbound://app/' } } },
      { senderFrame: null },
    ]) {
      expect(await call(event, {})).toMatchObject({ ok: false, error: { code: FORBIDDEN_CODE } });
    }
    expect(router.invoke).not.toHaveBeenCalled();
    expect(isTrustedSender(mainFrame('http://127.0.0.1:5173/') as never, 'http://127.0.0.1:5173')).toBe(true);
  });

  it('answers a Result even if the router throws', async () => {
    const { handlers, router } = setup();
    router.invoke.mockRejectedValueOnce(new Error('boom'));
    expect(await handlers.get('app.info')!(mainFrame('northbound://app/index.html'), {})).toMatchObject({ ok: false, error: { code: 'internal' } });
  });

  it('forwards events to the window on one channel, not to a destroyed one', () => {
    const hub = createEventHub(createMemoryLogger());
    const contents = new FakeWebContents();
    const stop = forwardEvents(hub, () => contents);
    hub.emit('profiles.changed', { ids: ['a'] });
    expect(contents.sent).toEqual([[EVENT_CHANNEL, { event: 'profiles.changed', payload: { ids: ['a'] } }]]);
    contents.destroyed = true;
    hub.emit('profiles.changed', { ids: ['b'] });
    stop();
    contents.destroyed = false;
    hub.emit('profiles.changed', { ids: ['c'] });
    expect(contents.sent).toHaveLength(1);
  });
});
