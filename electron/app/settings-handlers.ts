/** The settings.*, publication.* and app.openDataDir channels of the contract. */
import type { PublicationUpdate, PublicationView } from '../../shared/model/settings';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { AppSettings } from '../store/app-settings';
import type { UpdateStatus } from '../../shared/model/updates';
import type { UpdaterPort } from './ports';
import type { Handlers } from './router';

type SettingsHandlers = Pick<Handlers, 'settings.get' | 'settings.update' | 'publication.get' | 'publication.update' | 'app.openDataDir' | 'updates.status' | 'updates.check' | 'updates.download' | 'updates.install'>;

/** What these channels need: the app settings, the publication address, and main's own way to open its data folder. */
export interface SettingsHandlerDeps {
  settings: Pick<AppSettings, 'current' | 'update'>;
  /** The RabbitMQ address risk scores (and alarm sources) use; `update` applies it everywhere. */
  publication: { view(): Promise<PublicationView>; update(req: PublicationUpdate): Promise<PublicationView> };
  /** Desktop only; it takes no path, so a request cannot name one. */
  openDataDir?: () => Promise<void>;
  /** Desktop only: the app's updates. */
  updater?: UpdaterPort;
  /** The running version (browser mode's status). */
  version: string;
}

/** Browser mode: the browser page updates with the clone it is served from. */
const browserStatus = (version: string): UpdateStatus => ({
  state: 'unavailable',
  version,
  feed: null,
  available: null,
  percent: null,
  message: 'Browser mode runs the version of the folder it is served from; the desktop app updates itself.',
  checkedAt: null,
});

export function createSettingsHandlers(d: SettingsHandlerDeps): SettingsHandlers {
  return {
    'settings.get': async () => d.settings.current(),
    'settings.update': async (patch) => d.settings.update(patch),
    'publication.get': async () => d.publication.view(),
    'publication.update': async (req) => d.publication.update(req),
    // Main opens its own data folder: the request names no path.
    'updates.status': async () => d.updater?.status() ?? browserStatus(d.version),
    'updates.check': async () => (d.updater ? d.updater.check() : browserStatus(d.version)),
    'updates.download': async () => (d.updater ? d.updater.download() : browserStatus(d.version)),
    'updates.install': async () => {
      if (!d.updater) throw new AppError(ErrorCodes.forbidden, 'Only the desktop app installs updates.', 'Update the folder browser mode is served from (git pull, npm install).');
      return d.updater.install();
    },
    'app.openDataDir': async () => {
      if (!d.openDataDir) {
        throw new AppError(ErrorCodes.forbidden, 'Only the desktop app opens the data folder.', 'Copy its location and open it in your file manager.');
      }
      await d.openDataDir();
      return { opened: true };
    },
  };
}
