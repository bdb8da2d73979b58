/**
 * The desktop app's updates (issue 23.7) over electron-updater. The feed is the release's own:
 * electron-builder's `publish` (GitHub releases or a generic HTTPS server) written into the app
 * as `resources/app-update.yml`; a build without one has updates off. Nothing happens on its own:
 * the operator checks, downloads and installs from Settings (autoDownload and install-on-quit off).
 *
 * Verification: electron-updater checks every download against the SHA-512 the feed's
 * latest*.yml names, and on Windows the installer's Authenticode signature against the
 * `publisherName` the signed build recorded; macOS's updater checks the code signature. Here,
 * a feed that is not HTTPS, and a Windows build without a publisher to check against (unsigned),
 * have updates off, with why.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { UpdateStatus } from '../../shared/model/updates';
import type { UpdaterPort } from '../app/ports';
import type { Logger } from '../log';

/** The part of electron-updater's AppUpdater used here (tests give a stand-in). */
export interface AppUpdaterLike {
  autoDownload: boolean;
  autoInstallOnAppQuit: boolean;
  checkForUpdates(): Promise<unknown>;
  downloadUpdate(): Promise<unknown>;
  quitAndInstall(isSilent?: boolean, isForceRunAfter?: boolean): void;
  // electron-updater's events carry different payloads; each listener below says which it reads.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, listener: (...args: any[]) => void): unknown;
}

/** app-update.yml as electron-builder writes it (the fields read here). */
export interface FeedConfig {
  provider?: string;
  url?: string;
  owner?: string;
  repo?: string;
  publisherName?: string[] | string;
}

/** The build's feed, or undefined when it has none (no `publish` at build time) or it cannot be read. */
export function readFeedConfig(resourcesDir: string | undefined, parse: (text: string) => unknown): FeedConfig | undefined {
  if (!resourcesDir) return undefined;
  try {
    const value = parse(readFileSync(path.join(resourcesDir, 'app-update.yml'), 'utf8'));
    return value && typeof value === 'object' ? (value as FeedConfig) : undefined;
  } catch {
    return undefined;
  }
}

/** Where updates come from, in words; or why they are off. */
export function describeFeed(feed: FeedConfig | undefined, platform: NodeJS.Platform): { feed: string | null; off: string | null } {
  if (!feed?.provider) return { feed: null, off: 'This build names no update feed: new releases are installed by hand (docs/release.md).' };
  let where: string;
  if (feed.provider === 'github') where = `GitHub releases of ${feed.owner ?? '?'}/${feed.repo ?? '?'}`;
  else if (feed.provider === 'generic') {
    if (!feed.url || !/^https:\/\//i.test(feed.url)) return { feed: feed.url ?? null, off: `The update feed ${feed.url ?? '(none)'} is not an HTTPS address, so updates are off.` };
    where = feed.url;
  } else where = feed.provider;
  const publishers = Array.isArray(feed.publisherName) ? feed.publisherName : feed.publisherName ? [feed.publisherName] : [];
  if (platform === 'win32' && publishers.length === 0) return { feed: where, off: 'This Windows build is not signed, so an update’s signature could not be checked: updates are off.' };
  return { feed: where, off: null };
}

export function createUpdater(d: { updater: () => Promise<AppUpdaterLike>; feed: FeedConfig | undefined; version: string; platform: NodeJS.Platform; logger: Logger; now?: () => Date }): UpdaterPort {
  const listeners = new Set<(s: UpdateStatus) => void>();
  const described = describeFeed(d.feed, d.platform);
  let status: UpdateStatus = { state: described.off ? 'off' : 'idle', version: d.version, feed: described.feed, available: null, percent: null, message: described.off, checkedAt: null };
  const set = (patch: Partial<UpdateStatus>) => {
    status = { ...status, ...patch };
    for (const l of listeners) l(status);
  };
  let ready: Promise<AppUpdaterLike> | undefined;
  /** electron-updater, set up once, only when updates are on and the operator asks. */
  const updater = () =>
    (ready ??= d.updater().then((u) => {
      u.autoDownload = false;
      u.autoInstallOnAppQuit = false;
      u.on('checking-for-update', () => set({ state: 'checking', message: null }));
      u.on('update-available', (info: { version: string }) => set({ state: 'available', available: info.version, message: null }));
      u.on('update-not-available', () => set({ state: 'current', available: null, message: null }));
      u.on('download-progress', (p: { percent: number }) => set({ state: 'downloading', percent: Math.max(0, Math.min(100, p.percent)) }));
      u.on('update-downloaded', (info: { version: string }) => set({ state: 'downloaded', available: info.version, percent: 100 }));
      u.on('error', (e: Error) => {
        d.logger.warn('update failed', { error: e.message });
        set({ state: 'error', message: e.message, percent: null });
      });
      return u;
    }));
  const fail = (e: unknown) => {
    const message = e instanceof Error ? e.message : String(e);
    d.logger.warn('update failed', { error: message });
    set({ state: 'error', message, percent: null });
    return status;
  };

  return {
    status: () => status,
    async check() {
      if (described.off) return status;
      if (status.state === 'checking' || status.state === 'downloading') return status;
      set({ state: 'checking', message: null });
      try {
        await (await updater()).checkForUpdates();
        set({ checkedAt: (d.now?.() ?? new Date()).toISOString() });
        // A check that found nothing and raised no event (a feed that answered no file) is current.
        if ((status.state as UpdateStatus['state']) === 'checking') set({ state: 'current' });
        return status;
      } catch (e) {
        return fail(e);
      }
    },
    async download() {
      if (status.state !== 'available') throw new AppError(ErrorCodes.validation, 'There is no update to download.', 'Check for updates first.');
      set({ state: 'downloading', percent: 0 });
      try {
        await (await updater()).downloadUpdate();
        return status;
      } catch (e) {
        return fail(e);
      }
    },
    async install() {
      if (status.state !== 'downloaded') throw new AppError(ErrorCodes.validation, 'No update has been downloaded.', 'Download the update first; the app restarts to install it.');
      d.logger.info('installing update', { from: d.version, to: status.available });
      (await updater()).quitAndInstall(false, true);
      return { installing: true };
    },
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
