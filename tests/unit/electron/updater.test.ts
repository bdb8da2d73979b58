/**
 * The desktop's updates (issue 23.7) over a stand-in for electron-updater's AppUpdater: off
 * without a feed, with a feed that is not HTTPS and on an unsigned Windows build; never
 * downloading or installing on its own; check → available → download with progress →
 * downloaded → install, each step only from the one before; errors said.
 */
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import yaml from 'js-yaml';
import { createMemoryLogger } from '../../../electron/log';
import { createUpdater, describeFeed, readFeedConfig, type AppUpdaterLike, type FeedConfig } from '../../../electron/platform/updater';
import type { UpdateStatus } from '../../../shared/model/updates';

class StandInUpdater extends EventEmitter implements AppUpdaterLike {
  autoDownload = true;
  autoInstallOnAppQuit = true;
  /** What the next check finds: a version, nothing, or an error. */
  next: { version: string } | null | Error = null;
  checkForUpdates = vi.fn(async () => {
    this.emit('checking-for-update');
    if (this.next instanceof Error) throw this.next;
    if (this.next) this.emit('update-available', this.next);
    else this.emit('update-not-available', {});
    return {};
  });
  downloadUpdate = vi.fn(async () => {
    for (const percent of [10, 55, 100]) this.emit('download-progress', { percent });
    this.emit('update-downloaded', this.next);
    return [];
  });
  quitAndInstall = vi.fn();
}

const github: FeedConfig = { provider: 'github', owner: 'northbound', repo: 'console', publisherName: ['Northbound Ltd'] };
const setup = (feed: FeedConfig | undefined, platform: NodeJS.Platform = 'linux') => {
  const u = new StandInUpdater();
  const loads = vi.fn(async () => u);
  const port = createUpdater({ updater: loads, feed, version: '0.1.0', platform, logger: createMemoryLogger(), now: () => new Date('2026-11-29T12:00:00.000Z') });
  const seen: UpdateStatus[] = [];
  port.onChange((s) => seen.push(s));
  return { u, loads, port, seen };
};

describe('the desktop updater', () => {
  it('is off, with why, for a build without a feed, a feed that is not HTTPS, and an unsigned Windows build; electron-updater is never loaded then', async () => {
    for (const [feed, platform, why] of [
      [undefined, 'linux', /names no update feed/],
      [{ provider: 'generic', url: 'http://updates.example/northbound' }, 'linux', /not an HTTPS address/],
      [{ provider: 'github', owner: 'northbound', repo: 'console' }, 'win32', /not signed/],
    ] as const) {
      const { port, loads } = setup(feed, platform);
      expect(port.status()).toMatchObject({ state: 'off', version: '0.1.0', message: expect.stringMatching(why) });
      expect(await port.check()).toMatchObject({ state: 'off' });
      expect(loads).not.toHaveBeenCalled();
    }
    // A signed Windows build, and an HTTPS generic feed, are on.
    expect(setup(github, 'win32').port.status()).toMatchObject({ state: 'idle', feed: 'GitHub releases of northbound/console', message: null });
    expect(setup({ provider: 'generic', url: 'https://updates.example/northbound' }).port.status()).toMatchObject({ state: 'idle', feed: 'https://updates.example/northbound' });
  });

  it('checks, downloads with progress and installs only when asked, each step after the one before', async () => {
    const { u, port, seen } = setup(github);
    await expect(port.download()).rejects.toThrow('There is no update to download.');
    await expect(port.install()).rejects.toThrow('No update has been downloaded.');
    u.next = null;
    expect(await port.check()).toMatchObject({ state: 'current', available: null, checkedAt: '2026-11-29T12:00:00.000Z' });
    // Nothing downloads or installs on its own.
    expect(u.autoDownload).toBe(false);
    expect(u.autoInstallOnAppQuit).toBe(false);
    u.next = { version: '0.2.0' };
    expect(await port.check()).toMatchObject({ state: 'available', available: '0.2.0' });
    expect(u.downloadUpdate).not.toHaveBeenCalled();
    expect(await port.download()).toMatchObject({ state: 'downloaded', available: '0.2.0', percent: 100 });
    expect(seen.filter((s) => s.state === 'downloading').map((s) => s.percent)).toEqual([0, 10, 55, 100]);
    expect(u.quitAndInstall).not.toHaveBeenCalled();
    expect(await port.install()).toEqual({ installing: true });
    expect(u.quitAndInstall).toHaveBeenCalledWith(false, true);
  });

  it('says what went wrong when the feed cannot be read, and checks again later', async () => {
    const { u, port } = setup(github);
    u.next = new Error('net::ERR_NAME_NOT_RESOLVED');
    expect(await port.check()).toMatchObject({ state: 'error', message: 'net::ERR_NAME_NOT_RESOLVED' });
    u.next = { version: '0.2.0' };
    expect(await port.check()).toMatchObject({ state: 'available', message: null });
  });

  it('reads the build’s feed from resources/app-update.yml as electron-builder writes it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-upd-'));
    try {
      expect(readFeedConfig(dir, (t) => yaml.load(t))).toBeUndefined();
      writeFileSync(path.join(dir, 'app-update.yml'), 'owner: northbound\nrepo: console\nprovider: github\npublisherName:\n  - Northbound Ltd\nupdaterCacheDirName: northbound-updater\n');
      const feed = readFeedConfig(dir, (t) => yaml.load(t));
      expect(feed).toMatchObject(github);
      expect(describeFeed(feed, 'win32')).toEqual({ feed: 'GitHub releases of northbound/console', off: null });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
