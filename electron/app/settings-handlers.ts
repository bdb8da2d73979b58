/** The settings.*, publication.* and app.openDataDir channels of the contract. */
import { AlarmHistoryDays, AlarmNotify, DEFAULT_SETTINGS, RiskHistoryDays, Theme, TimeZonePreference, type Settings } from '../../shared/model/settings';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { EdrService } from './edr-service';
import type { PlatformAdapters } from './ports';
import type { Handlers } from './router';

type SettingsHandlers = Pick<Handlers, 'settings.get' | 'settings.update' | 'publication.get' | 'publication.update' | 'app.openDataDir'>;

export const SETTINGS_KEY = 'ui';

/**
 * The stored UI settings, field by field: a value missing (a store written before the field
 * existed) or not understood falls back to its default without touching the others.
 */
export function readSettings(raw: unknown): Settings {
  const stored = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  return {
    theme: Theme.catch(DEFAULT_SETTINGS.theme).parse(stored.theme),
    timeZone: TimeZonePreference.catch(DEFAULT_SETTINGS.timeZone).parse(stored.timeZone),
    riskHistoryDays: RiskHistoryDays.catch(DEFAULT_SETTINGS.riskHistoryDays).parse(stored.riskHistoryDays),
    alarmHistoryDays: AlarmHistoryDays.catch(DEFAULT_SETTINGS.alarmHistoryDays).parse(stored.alarmHistoryDays),
    alarmNotify: AlarmNotify.catch(DEFAULT_SETTINGS.alarmNotify).parse(stored.alarmNotify),
  };
}

/** `onPublicationChanged`: the RabbitMQ address was saved (the alarm sources pick it up). */
export function createSettingsHandlers(adapters: PlatformAdapters, edr: EdrService, onPublicationChanged?: () => void): SettingsHandlers {
  const current = () => readSettings(adapters.settings.get(SETTINGS_KEY));
  return {
    'settings.get': async () => current(),
    'settings.update': async (patch) => {
      const next: Settings = { ...current(), ...patch };
      adapters.settings.set(SETTINGS_KEY, next);
      return next;
    },
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
