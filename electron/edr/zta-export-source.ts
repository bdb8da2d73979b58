/**
 * Where the ZTA export's rows come from (issue 25.3, C-86): the store, a batch at a time, never the
 * whole snapshot. The connectors the views show (ZtaService.connectors: names, as-of, the file's
 * name) are read first; then the store's `exportHosts` answers their latest hosts matching the
 * filter in the table's default order (`rowsInOrder` over the snapshot: ties in the connectors'
 * order, then host ID), and each host becomes the row `snapshotRow` would have made of it. The
 * progress's total is the store's count (`hostCounts`: from the band counts unless there is a search).
 */
import { BANDS, ENUMS, PLATFORMS, type ZtaConnector, type ZtaFilter, type ZtaRow } from '../../shared/model/zta';
import type { HostWindowRow } from '../../shared/model/zta-window';
import type { EdrStore } from './store/edr-store';

/** Hosts read from the store and written at a time (a chunk of the file, one progress event). */
export const EXPORT_CHUNK = 2_000;

export interface ExportSource {
  /** The connectors the views show, in their order. */
  connectors(): Promise<ZtaConnector[]>;
  /** How many hosts of these connectors the filter and search choose (the progress's total). */
  count(filter: ZtaFilter, connectors: readonly ZtaConnector[]): Promise<number>;
  /** Those hosts in the table's default order, a chunk at a time. */
  rows(filter: ZtaFilter, connectors: readonly ZtaConnector[]): AsyncIterable<ZtaRow[]>;
}

const known = <T extends string>(options: readonly T[], v: string | null): T | null => (v !== null && (options as readonly string[]).includes(v) ? (v as T) : null);

/**
 * A stored host as `snapshotRow` shows the same host of a snapshot: its connector's name, vendor and
 * as-of; an enum word the options do not know as none, an unknown platform or band as the first of
 * its options (as the snapshot's indexes read them).
 */
export function exportRowOf(r: HostWindowRow, c: ZtaConnector, index: number): ZtaRow {
  const defender = c.vendor === 'defender';
  const riskLevel = known(ENUMS.riskLevel, r.riskLevel);
  const exposure = known(ENUMS.exposure, r.exposure);
  const health = known(ENUMS.health, r.health);
  return {
    index,
    connectorId: c.connectorId,
    connectorName: c.name,
    vendor: c.vendor,
    hostId: r.hostId,
    hostname: r.hostname,
    customerId: r.customerId,
    platform: known(PLATFORMS, r.platform) ?? PLATFORMS[0]!,
    osAssessment: defender ? exposure : r.osAssessment,
    sensorAssessment: defender ? health : r.sensorAssessment,
    overallAssessment: defender ? riskLevel : r.overallAssessment,
    score: r.score,
    band: known(BANDS, r.band) ?? BANDS[0]!,
    lastSeen: r.lastSeen,
    riskLevel,
    exposure,
    health,
    avStatus: known(ENUMS.avStatus, r.avStatus),
    asOf: c.asOf,
  };
}

const passes = (c: ZtaConnector, f: ZtaFilter) => c.cycleId !== null && (f.vendor === undefined || c.vendor === f.vendor) && (f.connector === undefined || c.connectorId === f.connector);

/** The export read from the store (`exportHosts`, `hostCounts`), `batch` hosts at a time. */
export function storeExportSource(o: {
  store: Pick<EdrStore, 'exportHosts' | 'hostCounts' | 'latestCycles'>;
  connectors(): Promise<ZtaConnector[]>;
  batch?: number;
}): ExportSource {
  const batch = o.batch ?? EXPORT_CHUNK;
  return {
    connectors: () => o.connectors(),
    async count(filter, connectors) {
      const shown = new Set(connectors.filter((c) => c.cycleId !== null).map((c) => c.connectorId));
      // Usually the store holds only the connectors shown: one count. A deleted connector's hosts
      // stay stored but are not shown (zta-connectors.ts): then each shown connector is counted.
      if ((await o.store.latestCycles()).every((l) => shown.has(l.connectorId))) return (await o.store.hostCounts({ filter })).total;
      let n = 0;
      for (const c of connectors) if (passes(c, filter)) n += (await o.store.hostCounts({ filter: { ...filter, connector: c.connectorId } })).total;
      return n;
    },
    async *rows(filter, connectors) {
      const byId = new Map(connectors.filter((c) => c.cycleId !== null).map((c) => [c.connectorId, c]));
      let index = 0;
      for await (const hosts of o.store.exportHosts({ filter, connectors: [...byId.keys()], batch })) {
        yield hosts.map((r) => exportRowOf(r, byId.get(r.connectorId)!, index++));
      }
    },
  };
}
