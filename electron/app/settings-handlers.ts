/** The settings.*, publication.* and app.openDataDir channels of the contract. */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { EdrService } from './edr-service';
import { AppSettings } from '../store/app-settings';
import type { PlatformAdapters } from './ports';
import type { Handlers } from './router';

type SettingsHandlers = Pick<Handlers, 'settings.get' | 'settings.update' | 'publication.get' | 'publication.update' | 'app.openDataDir'>;

/** `onPublicationChanged`: the RabbitMQ address was saved (the alarm sources pick it up). */
export function createSettingsHandlers(adapters: PlatformAdapters, edr: EdrService, onPublicationChanged?: () => void): SettingsHandlers {
  const settings = new AppSettings(adapters.settings);
  return {
    'settings.get': async () => settings.current(),
    'settings.update': async (patch) => settings.update(patch),
    'publication.get': async () => edr.publication.view(),
    'publication.update': async (req) => {
      const view = await edr.updatePublication(req);
      onPublicationChanged?.();
      return view;
    },
    // Main opens its own data folder: the request names no path.
    'app.openDataDir': async () => {
      if (!adapters.openDataDir) {
        throw new AppError(ErrorCodes.forbidden, 'Only the desktop app opens the data folder.', 'Copy its location and open it in your file manager.');
      }
      await adapters.openDataDir();
      return { opened: true };
    },
  };
}
