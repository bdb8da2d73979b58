import { useMemo } from 'react';
import { useSettings } from '../api/settings';
import { timeFormat, type TimeFormat } from './format';

/**
 * The one time formatter of the window, in the zone chosen on the Settings page (settings.get;
 * local time until the setting is read). Every time the console shows goes through it.
 */
export function useTimeFormat(): TimeFormat {
  const preference = useSettings().data?.timeZone ?? 'local';
  return useMemo(() => timeFormat(preference), [preference]);
}
