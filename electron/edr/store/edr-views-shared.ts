/**
 * What the EDR stores make of the rows they read, the same on both backends (edr-db.ts and
 * edr-views.ts on SQLite, edr-pg.ts and edr-pg-views.ts on PostgreSQL): a cycle's row, its summary
 * from its band counts, a host's stored score, a host row into the columns, a host's score at each
 * cycle from its change rows, the trend's points (EDR-Z14), a cycle's changes (EDR-Z12).
 */
import { NOT_ASSESSED, type Contribution, type HostRecord, type Platform, type RiskBand, type Vendor } from '../../../shared/model/edr';
import { BANDS, ENUMS, PLATFORMS, emptyBandCounts, type HostMove, type ZtaChanges, type ZtaColumns } from '../../../shared/model/zta';
import type { CycleRow, CycleStatus, CycleSummary, ScorePoint, StoredHostScore } from './edr-store';
import { withLastSeen } from './host-json';

/** A `cycles` row (its columns as named in the table; ids as numbers or as PostgreSQL's bigint text). */
export function toCycle(r: unknown): CycleRow | undefined {
  if (!r) return undefined;
  const x = r as Record<string, unknown>;
  return {
    id: Number(x.id),
    connectorId: String(x.connector_id),
    vendor: x.vendor as Vendor,
    tenantId: String(x.tenant_id),
    startedAt: String(x.started_at),
    finishedAt: (x.finished_at as string | null) ?? null,
    status: x.status as CycleStatus,
    hosts: Number(x.hosts),
    error: (x.error as string | null) ?? null,
    publishedAt: (x.published_at as string | null) ?? null,
    publishAttempts: Number(x.publish_attempts),
    publishError: (x.publish_error as string | null) ?? null,
    kind: x.kind === 'rescore' ? 'rescore' : 'poll',
    errorCode: (x.error_code as string | null) ?? null,
  };
}

/** Band counts and mean score of one cycle (what is published), from its band counts' rows (band, hosts, score sum). */
export function summaryOf(rows: Iterable<{ band: RiskBand; hosts: number | string; sum: number }>): CycleSummary {
  const bands = emptyBandCounts();
  let sum = 0;
  let n = 0;
  let assessed = 0;
  for (const row of rows) {
    const hosts = Number(row.hosts);
    bands[row.band] += hosts;
    n += hosts;
    // The mean is of the scores the hosts have: one not assessed has none (EDR-N1).
    if (row.band === NOT_ASSESSED) continue;
    sum += row.sum;
    assessed += hosts;
  }
  return { hosts: n, meanScore: assessed ? Math.round((sum / assessed) * 100) / 100 : 0, bands };
}

/** A host's stored score from its row: the record (with the latest cycle's last-seen time), contributions and profiles as JSON text. */
export function hostScoreOf(row: { score: number; band: RiskBand; scoredAt: string; cycleId: number | string; lastSeen: string | null; record: string; contributions: string; profiles: string | null }): StoredHostScore {
  return {
    score: row.score,
    band: row.band,
    scoredAt: row.scoredAt,
    cycleId: Number(row.cycleId),
    host: withLastSeen(JSON.parse(row.record) as HostRecord, row.lastSeen),
    contributions: JSON.parse(row.contributions) as Contribution[],
    profiles: row.profiles ? (JSON.parse(row.profiles) as Record<string, boolean>) : null,
  };
}

/** A host row as `appendRow` reads it: connector, host id, hostname, customer, platform, score, band, last seen, then the attributes in ZtaColumns' order. */
export type HostRow = [string, string, string, string, string, number, string, string | null, ...Array<number | string | null>];

/** Cycles ending within this of the previous trend point are the same moment of the fleet (EDR-Z14). */
export const TREND_MOMENT_MS = 60_000;

const indexOf = <T extends string>(options: readonly T[], v: unknown): number | null => {
  if (v === null || v === undefined) return null;
  const i = options.indexOf(v as T);
  return i < 0 ? null : i;
};

/** Appends one host row to the columns (indexes for the enums; `connector` and the customer dictionary are the caller's). */
export function appendRow(cols: ZtaColumns, r: HostRow, connector: number, customerIndex: (id: string) => number): void {
  cols.connector.push(connector);
  cols.hostId.push(r[1]);
  cols.hostname.push(r[2]);
  cols.customer.push(customerIndex(r[3]));
  cols.platform.push(Math.max(0, PLATFORMS.indexOf(r[4] as (typeof PLATFORMS)[number])));
  cols.score.push(r[5]);
  cols.band.push(Math.max(0, BANDS.indexOf(r[6] as RiskBand)));
  cols.lastSeen.push(r[7]);
  cols.osAssessment.push(r[8] as number | null);
  cols.sensorAssessment.push(r[9] as number | null);
  cols.overallAssessment.push(r[10] as number | null);
  cols.sensorRunning.push(r[11] as number | null);
  cols.reducedFunctionality.push(r[12] as number | null);
  cols.riskLevel.push(indexOf(ENUMS.riskLevel, r[13]));
  cols.exposure.push(indexOf(ENUMS.exposure, r[14]));
  cols.health.push(indexOf(ENUMS.health, r[15]));
  cols.avStatus.push(indexOf(ENUMS.avStatus, r[16]));
  cols.onboarding.push(indexOf(ENUMS.onboarding, r[17]));
  cols.criticalCves.push(r[18] as number | null);
  cols.cveCount.push(r[19] as number | null);
  cols.maxCvss.push(r[20] as number | null);
  cols.cvss.push(r[21] as string | null);
}

/** A host's score at each of the cycles (oldest first): the change row at or before it, none before the host's first score. */
export function historyPoints(cycles: ReadonlyArray<{ id: number; at: string; kind: string }>, changes: ReadonlyArray<{ cycleId: number; score: number; band: RiskBand }>): ScorePoint[] {
  const out: ScorePoint[] = [];
  let k = -1;
  for (const c of cycles) {
    while (k + 1 < changes.length && changes[k + 1]!.cycleId <= c.id) k += 1;
    if (k < 0) continue; // before the host's first score
    const cur = changes[k]!;
    out.push({ cycleId: c.id, at: c.at, score: cur.score, band: cur.band, kind: c.kind === 'rescore' ? 'rescore' : 'poll' });
  }
  return out;
}

/** The completed cycles a trend of `limit` points over `connectors` connectors reads (the newest ones, oldest first). */
export const trendWindow = <T>(cycles: readonly T[], connectors: number, limit: number): T[] => cycles.slice(-limit * Math.max(1, connectors));

/**
 * Band counts over time (EDR-Z14): at each completed cycle (oldest first), the sum over the chosen
 * connectors of each one's latest cycle up to then. Cycles of *other* connectors that end within
 * TREND_MOMENT_MS of a moment's first cycle are that moment of the fleet (the later state stands);
 * a connector's own next cycle (a rescore seconds later) is a point of its own.
 */
export function trendPoints(cycles: ReadonlyArray<{ id: number; connectorId: string; at: string }>, bandsOf: (cycleId: number) => Record<RiskBand, number>, limit: number) {
  const current = new Map<string, Record<RiskBand, number>>();
  const points: Array<{ at: string; bands: Record<RiskBand, number> }> = [];
  let momentStart = 0;
  const inMoment = new Set<string>();
  for (const c of cycles) {
    current.set(c.connectorId, bandsOf(c.id));
    const sum = emptyBandCounts();
    for (const b of current.values()) for (const band of BANDS) sum[band] += b[band];
    // Measured from the moment's first cycle; a connector's second cycle (a rescore) starts a moment of its own.
    const t = Date.parse(c.at);
    if (points.length > 0 && t - momentStart < TREND_MOMENT_MS && !inMoment.has(c.connectorId)) {
      points[points.length - 1] = { at: c.at, bands: sum };
    } else {
      points.push({ at: c.at, bands: sum });
      momentStart = t;
      inMoment.clear();
    }
    inMoment.add(c.connectorId);
  }
  return points.slice(-limit);
}

export interface MoveRow {
  hostId: string;
  hostname: string;
  customerId: string;
  platform: Platform;
  score: number;
  band: RiskBand;
  prevScore: number | null;
  prevBand: RiskBand | null;
}

/** What changed in a cycle (its history rows, each with the row before it), against a previous completed cycle (EDR-Z12). */
export function changesFrom(connectorId: string, rows: Iterable<MoveRow>, top: number): ZtaChanges {
  const out: ZtaChanges = { enteredHighRisk: [], leftHighRisk: [], biggestMovers: [], moved: 0 };
  const moves: HostMove[] = [];
  for (const r of rows) {
    const from = r.prevScore === null || r.prevBand === null ? null : { score: r.prevScore, band: r.prevBand };
    const m: HostMove = { connectorId, hostId: r.hostId, hostname: r.hostname, customerId: r.customerId, platform: r.platform, from, to: { score: r.score, band: r.band } };
    if (from === null) {
      if (r.band === 'High Risk') out.enteredHighRisk.push(m);
      continue; // a host new in this cycle is not a mover
    }
    moves.push(m);
    if (r.band === 'High Risk' && from.band !== 'High Risk') out.enteredHighRisk.push(m);
    if (r.band !== 'High Risk' && from.band === 'High Risk') out.leftHighRisk.push(m);
  }
  out.moved = moves.length;
  // A host not assessed on either side has no score to have moved by (EDR-N1).
  out.biggestMovers = moves
    .filter((m) => m.to.band !== NOT_ASSESSED && m.from!.band !== NOT_ASSESSED)
    .sort((a, b) => Math.abs(b.to.score - b.from!.score) - Math.abs(a.to.score - a.from!.score) || a.hostname.localeCompare(b.hostname))
    .slice(0, top);
  return out;
}

export const noChanges = (): ZtaChanges => ({ enteredHighRisk: [], leftHighRisk: [], biggestMovers: [], moved: 0 });
