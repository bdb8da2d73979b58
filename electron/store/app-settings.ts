/**
 * The operator's app settings (theme, time zone, history lengths, alarm notifications): one value
 * under the key `ui` of the settings backend, read field by field with validation. Every reader
 * (the settings.* channels, EDR and alarm retention, alarm notifications) goes through here.
 */
import { AlarmHistoryDays, AlarmNotify, DEFAULT_SETTINGS, RiskHistoryDays, Theme, TimeZonePreference, type Settings } from '../../shared/model/settings';
import type { SettingsBackend } from './ports';

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

/** Reads and writes the app settings; read at each use, so a change applies without a restart. */
export class AppSettings {
  constructor(private readonly backend: SettingsBackend) {}

  current(): Settings {
    return readSettings(this.backend.get(SETTINGS_KEY));
  }

  /** The patch (already validated by the channel's schema) over the current values; answers the result. */
  update(patch: Partial<Settings>): Settings {
    const next: Settings = { ...this.current(), ...patch };
    this.backend.set(SETTINGS_KEY, next);
    return next;
  }
}
