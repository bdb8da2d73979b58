/**
 * The ZTA table's rows as the virtualized table needs them (issue 25.3): only the pages of
 * ZTA_PAGE hosts that cover the rows in view are read from the store, filtered, searched and
 * sorted there (zta.window), so 1,000,000 stored hosts cost the window what 100 do. While a new
 * filter's or sort's first page is on its way the previous rows stay (marked stale) instead of
 * flashing empty, as the alarm stream's windows do (alarms/useAlarmWindow.ts).
 */
import { useMemo } from 'react';
import type { ZtaWindow } from '../../../shared/contract-zta';
import type { ZtaConnector, ZtaFilter, ZtaRow } from '../../../shared/model/zta';
import type { HostWindowRow, ZtaSort } from '../../../shared/model/zta-window';
import { ZTA_PAGE, useZtaPages } from '../../api/zta';
import { useShownPages } from '../../components/useShownPages';
import type { HostCell } from './host-columns';
import { sensorState } from './zta-index';

export interface HostWindowState {
  /** Hosts matching (of the rows shown); undefined before the first answer. */
  total: number | undefined;
  /** False: `total` is a lower bound (the store stopped counting). */
  exact: boolean;
  cellAt(index: number): HostCell | undefined;
  /** The rows shown are a previous filter's or sort's, while the new one loads. */
  stale: boolean;
  /** What the rows shown answer (the table goes back to the top when it changes). */
  answer: string;
  /** The first page of the answer asked for (read whatever is in view); undefined until it came. */
  first: ZtaWindow | undefined;
  error: unknown;
}

/** A stored host as the table shows it (what `snapshotRow` makes of a snapshot's row). */
export function windowRow(r: HostWindowRow, index: number, connector: ZtaConnector | undefined): ZtaRow {
  const defender = r.vendor === 'defender';
  return {
    index,
    connectorId: r.connectorId,
    connectorName: connector?.name ?? r.connectorId,
    vendor: r.vendor,
    hostId: r.hostId,
    hostname: r.hostname,
    customerId: r.customerId,
    platform: r.platform,
    osAssessment: defender ? r.exposure : r.osAssessment,
    sensorAssessment: defender ? r.health : r.sensorAssessment,
    overallAssessment: defender ? r.riskLevel : r.overallAssessment,
    score: r.score,
    band: r.band,
    lastSeen: r.lastSeen,
    riskLevel: r.riskLevel,
    exposure: r.exposure,
    health: r.health,
    avStatus: r.avStatus,
    asOf: connector?.asOf ?? null,
  };
}

/** The connectors by ID: a window's rows name their connector by ID, the views show its name and as-of. */
export const connectorsById = (connectors: readonly ZtaConnector[]): ReadonlyMap<string, ZtaConnector> => new Map(connectors.map((c) => [c.connectorId, c]));

/** `connectorsById`, kept while the connectors are the same. */
export const useConnectorsById = (connectors: readonly ZtaConnector[]) => useMemo(() => connectorsById(connectors), [connectors]);

/**
 * The riskiest hosts of a window read in the default order (riskiest first, hosts not assessed
 * after every scored one): its first `n` scored rows as the table shows them. A host not assessed
 * is never among the riskiest (EDR-N1).
 */
export function riskiestRows(rows: readonly HostWindowRow[], n: number, byId: ReadonlyMap<string, ZtaConnector>): ZtaRow[] {
  return rows
    .filter((r) => r.score !== null)
    .slice(0, n)
    .map((r, i) => windowRow(r, i, byId.get(r.connectorId)));
}

export function windowCell(page: ZtaWindow, r: HostWindowRow, index: number, connector: ZtaConnector | undefined): HostCell {
  return { of: page, row: windowRow(r, index, connector), criticalCves: r.criticalCves, cveCount: r.cveCount, sensor: sensorState(r.sensorRunning, r.reducedFunctionality) };
}

export function useHostWindow(
  filter: ZtaFilter,
  sort: ZtaSort | undefined,
  customerOrder: string[] | undefined,
  connectors: readonly ZtaConnector[],
  range: { start: number; end: number },
  /** False: nothing is read (a what-if's tenant is shown instead). */
  enabled = true,
): HostWindowState {
  const first = Math.floor(Math.max(0, range.start) / ZTA_PAGE);
  const last = Math.max(first, Math.floor(Math.max(0, range.end) / ZTA_PAGE));
  // The first page is always read (the riskiest hosts are its first rows in the default sort); it
  // comes last when not in view, so the pages in view are asked for first.
  const offsets = useMemo(() => {
    if (!enabled) return [];
    const inView = Array.from({ length: last - first + 1 }, (_, i) => (first + i) * ZTA_PAGE);
    return first === 0 ? inView : [...inView, 0];
  }, [first, last, enabled]);
  // The customer order matters to the customer sort only (it is sent with it alone).
  const q = useMemo(() => ({ filter, ...(sort ? { sort } : {}), ...(sort?.key === 'customer' && customerOrder ? { customerOrder } : {}) }), [filter, sort, customerOrder]);
  const key = JSON.stringify([filter, sort ?? null]);
  const results = useZtaPages(q, offsets);
  const firstPage = results[offsets.indexOf(0)]?.data;
  const byId = useConnectorsById(connectors);

  // What was last shown with data: kept while a new filter or sort loads.
  const current = useShownPages(key, first, (first === 0 ? results : results.slice(0, -1)).map((r) => r.data));
  // Past the store's count of a search's matches (C-79) each page's total is a lower bound: the
  // furthest page read knows the most, and a page that reached the end knows it exactly.
  let total: number | undefined;
  let exact = false;
  for (const p of current.pages) {
    if (!p) continue;
    total = Math.max(total ?? 0, p.total);
    exact ||= p.exact;
  }
  const pageOf = (index: number) => current.pages[Math.floor(index / ZTA_PAGE) - current.first];
  return {
    total,
    exact: total === undefined || exact,
    cellAt: (index) => {
      const p = pageOf(index);
      const r = p?.rows[index % ZTA_PAGE];
      return p && r ? windowCell(p, r, index, byId.get(r.connectorId)) : undefined;
    },
    stale: current.key !== key,
    answer: current.key,
    first: firstPage,
    error: results.find((r) => r.error)?.error,
  };
}
