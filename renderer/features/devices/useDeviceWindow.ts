/**
 * The devices table's rows as the virtualized table needs them (issue 25.3, C-99): only the pages
 * of DEVICE_PAGE devices that cover the rows in view are read from the store, filtered, searched
 * and sorted there (inventory.window), so 100,000 stored devices cost the window what 100 do.
 * While a new search's, filter's or sort's first page is on its way the previous rows stay (marked
 * stale) instead of flashing empty, as the ZTA table's windows do (zta/useHostWindow.ts).
 */
import { useMemo } from 'react';
import type { DeviceView } from '../../../shared/model/inventory';
import { DEVICE_PAGE, useDevicePages, type DeviceWindowAsk } from '../../api/inventory';
import { useShownPages } from '../../components/useShownPages';

export interface DeviceWindowState {
  /** Devices matching; undefined before the first answer. */
  total: number | undefined;
  rowAt(index: number): DeviceView | undefined;
  /** The rows shown are a previous search's, filter's or sort's, while the new one loads. */
  stale: boolean;
  /** What the rows shown answer (the table goes back to the top when it changes). */
  answer: string;
  error: unknown;
}

/** `profileId` undefined: nothing is read (no connection, or its devices not read yet). */
export function useDeviceWindow(profileId: string | undefined, q: DeviceWindowAsk, range: { start: number; end: number }): DeviceWindowState {
  const first = Math.floor(Math.max(0, range.start) / DEVICE_PAGE);
  const last = Math.max(first, Math.floor(Math.max(0, range.end) / DEVICE_PAGE));
  const offsets = useMemo(() => (profileId ? Array.from({ length: last - first + 1 }, (_, i) => (first + i) * DEVICE_PAGE) : []), [first, last, profileId]);
  const key = JSON.stringify([profileId, q]);
  const results = useDevicePages(profileId ?? '', q, offsets);
  // What was last shown with data: kept while a new answer loads.
  const current = useShownPages(key, first, results.map((r) => r.data));
  // Every page carries the count of the same answer; the first one read says it.
  const total = current.pages.find((p) => p !== undefined)?.total;
  const pageOf = (index: number) => current.pages[Math.floor(index / DEVICE_PAGE) - current.first];
  return {
    total,
    rowAt: (index) => pageOf(index)?.rows[index % DEVICE_PAGE],
    stale: current.key !== key,
    answer: current.key,
    error: results.find((r) => r.error)?.error,
  };
}
