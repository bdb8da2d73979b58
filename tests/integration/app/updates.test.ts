/**
 * The desktop's updates through the contract (issue 23.7): the app built with the desktop's
 * updater port (platform/updater.ts over a stand-in for electron-updater's AppUpdater), called
 * through the router as the window calls it; every new status reaches the window as
 * updates.changed.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../../../electron/log';
import { createUpdater, type AppUpdaterLike } from '../../../electron/platform/updater';
import type { UpdateStatus } from '../../../shared/model/updates';
import { startAppHarness, type AppHarness } from '../../support/app-harness';

class StandInUpdater extends EventEmitter implements AppUpdaterLike {
  autoDownload = true;
  autoInstallOnAppQuit = true;
  checkForUpdates = vi.fn(async () => void this.emit('update-available', { version: '0.3.0' }));
  downloadUpdate = vi.fn(async () => {
    this.emit('download-progress', { percent: 40 });
    this.emit('update-downloaded', { version: '0.3.0' });
  });
  quitAndInstall = vi.fn();
}

let h: AppHarness | undefined;
afterEach(async () => h?.close());

describe('updates through the contract', () => {
  it('status, check, download and install answer and announce each step; install before a download is refused', async () => {
    const u = new StandInUpdater();
    h = await startAppHarness({ updater: createUpdater({ updater: async () => u, feed: { provider: 'generic', url: 'https://updates.example/northbound' }, version: '0.1.0', platform: 'linux', logger: createMemoryLogger() }) });
    expect(await h.call<UpdateStatus>('updates.status')).toMatchObject({ state: 'idle', version: '0.1.0', feed: 'https://updates.example/northbound' });
    expect((await h.callRaw('updates.install')).error).toMatchObject({ code: 'request.invalid', message: 'No update has been downloaded.' });
    expect(await h.call<UpdateStatus>('updates.check')).toMatchObject({ state: 'available', available: '0.3.0' });
    expect(await h.call<UpdateStatus>('updates.download')).toMatchObject({ state: 'downloaded', percent: 100 });
    expect(await h.call('updates.install')).toEqual({ installing: true });
    expect(u.quitAndInstall).toHaveBeenCalledTimes(1);
    const announced = h.pushed.map((p) => JSON.parse(p) as { event: string; payload: UpdateStatus }).filter((p) => p.event === 'updates.changed').map((p) => p.payload.state);
    expect(announced).toEqual(['checking', 'available', 'available', 'downloading', 'downloading', 'downloaded']);
    // A request with a body it does not take is refused by the contract.
    expect((await h.callRaw('updates.check', { url: 'https://evil.example/' })).error?.code).toBe('request.invalid');
  });
});
