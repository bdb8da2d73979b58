/** The settings.*, publication.* and app.openDataDir channels of the contract. */
import type { PublicationUpdate, PublicationView } from '../../shared/model/settings';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { AppSettings } from '../store/app-settings';
import type { Handlers } from './router';

type SettingsHandlers = Pick<Handlers, 'settings.get' | 'settings.update' | 'publication.get' | 'publication.update' | 'app.openDataDir'>;

/** What these channels need: the app settings, the publication address, and main's own way to open its data folder. */
export interface SettingsHandlerDeps {
  settings: Pick<AppSettings, 'current' | 'update'>;
  /** The RabbitMQ address risk scores (and alarm sources) use; `update` applies it everywhere. */
  publication: { view(): Promise<PublicationView>; update(req: PublicationUpdate): Promise<PublicationView> };
  /** Desktop only; it takes no path, so a request cannot name one. */
  openDataDir?: () => Promise<void>;
}

export function createSettingsHandlers(d: SettingsHandlerDeps): SettingsHandlers {
  return {
    'settings.get': async () => d.settings.current(),
    'settings.update': async (patch) => d.settings.update(patch),
    'publication.get': async () => d.publication.view(),
    'publication.update': async (req) => d.publication.update(req),
    // Main opens its own data folder: the request names no path.
    'app.openDataDir': async () => {
      if (!d.openDataDir) {
        throw new AppError(ErrorCodes.forbidden, 'Only the desktop app opens the data folder.', 'Copy its location and open it in your file manager.');
      }
      await d.openDataDir();
      return { opened: true };
    },
  };
}
