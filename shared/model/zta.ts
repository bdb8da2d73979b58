/**
 * The ZTA dashboard's data (issue 11): the latest score of every host of every connector as one
 * columnar snapshot (the window filters, sorts and rescores it locally; 100,000 hosts are a few
 * MB), the rows the table and the export show, the filter both apply, and the host details.
 * Decisions: docs/spec-decisions.md EDR-H* and EDR-Z*.
 */
import { z } from 'zod';
import { NotAssessedPublication } from './connector';
import {
  Contribution,
  DefenderAvStatus,
  DefenderExposureLevel,
  DefenderHealthStatus,
  DefenderOnboardingStatus,
  DefenderRiskScore,
  HostRecord,
  Platform,
  NOT_ASSESSED_INDEX,
  RiskBand,
  Vendor,
} from './edr';

export const PLATFORMS = Platform.options;
export const BANDS = RiskBand.options;
/** Not assessed's index in BANDS (RiskBand's options: the band column of a snapshot holds indexes). */
export { NOT_ASSESSED_INDEX };

/** How a connector's data stands (EDR-Z10): `offline` = its vendor could not be reached, the last good data stands. */
export const ConnectorHealth = z.enum(['never', 'online', 'running', 'offline', 'failing']);
export type ConnectorHealth = z.infer<typeof ConnectorHealth>;

export const ZtaConnector = z.object({
  connectorId: z.string(),
  name: z.string(),
  vendor: Vendor,
  tenantId: z.string(),
  /** The newest completed cycle: what the views show, and when it finished (the "as of"). */
  cycleId: z.number().nullable(),
  asOf: z.string().nullable(),
  kind: z.enum(['poll', 'rescore']).nullable(),
  hosts: z.number().int(),
  health: ConnectorHealth,
  /** The last cycle that did not complete, when it is newer than the data shown. */
  lastAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type ZtaConnector = z.infer<typeof ZtaConnector>;

const int = z.number().int();
const nint = int.nullable();
const nnum = z.number().nullable();

/** One column per attribute; enum-valued columns hold indexes into the enum's options. */
export const ZtaColumns = z.object({
  connector: z.array(int),
  hostId: z.array(z.string()),
  hostname: z.array(z.string()),
  customer: z.array(int),
  platform: z.array(int),
  score: z.array(z.number()),
  band: z.array(int),
  lastSeen: z.array(z.string().nullable()),
  osAssessment: z.array(nnum),
  sensorAssessment: z.array(nnum),
  overallAssessment: z.array(nnum),
  sensorRunning: z.array(nint),
  reducedFunctionality: z.array(nint),
  riskLevel: z.array(nint),
  exposure: z.array(nint),
  health: z.array(nint),
  avStatus: z.array(nint),
  onboarding: z.array(nint),
  criticalCves: z.array(nint),
  cveCount: z.array(nint),
  maxCvss: z.array(nnum),
  cvss: z.array(z.string().nullable()),
});
export type ZtaColumns = z.infer<typeof ZtaColumns>;
export const COLUMN_KEYS = Object.keys(ZtaColumns.shape) as Array<keyof ZtaColumns>;

export const ZtaSnapshot = z
  .object({
    /** The newest "as of" of the connectors shown (null when nothing was ever scored). */
    asOf: z.string().nullable(),
    connectors: z.array(ZtaConnector),
    customers: z.array(z.string()),
    rows: ZtaColumns,
  })
  .superRefine((s, ctx) => {
    const n = s.rows.hostId.length;
    for (const k of COLUMN_KEYS) if (s.rows[k].length !== n) ctx.addIssue({ code: 'custom', path: ['rows', k], message: `Column ${k} has ${s.rows[k].length} values for ${n} hosts.` });
  });
export type ZtaSnapshot = z.infer<typeof ZtaSnapshot>;

export const ENUMS = {
  riskLevel: DefenderRiskScore.options,
  exposure: DefenderExposureLevel.options,
  health: DefenderHealthStatus.options,
  avStatus: DefenderAvStatus.options,
  onboarding: DefenderOnboardingStatus.options,
} as const;

/** What the table, the export and the report show of one host. */
export interface ZtaRow {
  index: number;
  connectorId: string;
  connectorName: string;
  vendor: Vendor;
  hostId: string;
  hostname: string;
  customerId: string;
  platform: Platform;
  /** EDR-Z1: Falcon's OS, sensor and overall ZTA (1–100); for Defender its exposure level, health status and risk level. */
  osAssessment: number | string | null;
  sensorAssessment: number | string | null;
  overallAssessment: number | string | null;
  /** Null for a host not assessed: it has no score (EDR-N1). */
  score: number | null;
  band: RiskBand;
  lastSeen: string | null;
  riskLevel: string | null;
  exposure: string | null;
  health: string | null;
  avStatus: string | null;
  asOf: string | null;
}

const pick = <T extends string>(options: readonly T[], i: number | null | undefined): T | null => (i === null || i === undefined ? null : (options[i] ?? null));

/** Row `i` of a snapshot, as the table, the export and the report show it. */
export function snapshotRow(s: ZtaSnapshot, i: number): ZtaRow {
  const r = s.rows;
  const c = s.connectors[r.connector[i]!]!;
  const defender = c.vendor === 'defender';
  const riskLevel = pick(ENUMS.riskLevel, r.riskLevel[i]);
  const exposure = pick(ENUMS.exposure, r.exposure[i]);
  const health = pick(ENUMS.health, r.health[i]);
  return {
    index: i,
    connectorId: c.connectorId,
    connectorName: c.name,
    vendor: c.vendor,
    hostId: r.hostId[i]!,
    hostname: r.hostname[i]!,
    customerId: s.customers[r.customer[i]!] ?? '',
    platform: PLATFORMS[r.platform[i]!] ?? 'Other',
    osAssessment: defender ? exposure : (r.osAssessment[i] ?? null),
    sensorAssessment: defender ? health : (r.sensorAssessment[i] ?? null),
    overallAssessment: defender ? riskLevel : (r.overallAssessment[i] ?? null),
    score: r.band[i] === NOT_ASSESSED_INDEX ? null : r.score[i]!,
    band: BANDS[r.band[i]!] ?? 'Trustworthy',
    lastSeen: r.lastSeen[i] ?? null,
    riskLevel,
    exposure,
    health,
    avStatus: pick(ENUMS.avStatus, r.avStatus[i]),
    asOf: c.asOf,
  };
}

/** The newest "as of" of the connectors shown (null when none was ever scored): the snapshot's, the facets', an export's, the report's. */
export const newestAsOf = (connectors: ReadonlyArray<Pick<ZtaConnector, 'asOf'>>): string | null =>
  connectors.reduce<string | null>((max, c) => (c.asOf && (!max || c.asOf > max) ? c.asOf : max), null);

/** The dashboard's filters (kept in the address; the export applies the same ones). */
export const ZtaFilter = z
  .object({
    customer: z.string().max(200).optional(),
    platform: Platform.optional(),
    band: RiskBand.optional(),
    vendor: Vendor.optional(),
    connector: z.string().max(200).optional(),
    /** Case-insensitive text in the host ID or hostname. */
    q: z.string().max(200).optional(),
  })
  .strict();
export type ZtaFilter = z.infer<typeof ZtaFilter>;

/** Whether row `i` of the snapshot passes the filter (the window and the export use this one rule). */
export function makeRowFilter(s: ZtaSnapshot, f: ZtaFilter): (i: number) => boolean {
  const r = s.rows;
  const customer = f.customer !== undefined ? s.customers.indexOf(f.customer) : undefined;
  const platform = f.platform !== undefined ? PLATFORMS.indexOf(f.platform) : undefined;
  const band = f.band !== undefined ? BANDS.indexOf(f.band) : undefined;
  const connectors = s.connectors.map((c) => (f.vendor === undefined || c.vendor === f.vendor) && (f.connector === undefined || c.connectorId === f.connector));
  const q = f.q?.trim().toLowerCase() || undefined;
  return (i) =>
    connectors[r.connector[i]!] === true &&
    (customer === undefined || r.customer[i] === customer) &&
    (platform === undefined || r.platform[i] === platform) &&
    (band === undefined || r.band[i] === band) &&
    (q === undefined || r.hostname[i]!.toLowerCase().includes(q) || r.hostId[i]!.toLowerCase().includes(q));
}

/**
 * The indexes of the snapshot's rows the filter passes, in the table's default order: riskiest
 * first, then by hostname, hosts not assessed (no score, EDR-N1) after all others (the export and
 * the report's riskiest hosts use this one order).
 */
export function rowsInOrder(s: ZtaSnapshot, filter: ZtaFilter): number[] {
  const keep = makeRowFilter(s, filter);
  const out: number[] = [];
  for (let i = 0; i < s.rows.hostId.length; i++) if (keep(i)) out.push(i);
  const { score, band, hostname } = s.rows;
  const rank = (i: number) => (band[i] === NOT_ASSESSED_INDEX ? -1 : score[i]!);
  return out.sort((a, b) => rank(b) - rank(a) || (hostname[a]! < hostname[b]! ? -1 : hostname[a]! > hostname[b]! ? 1 : 0));
}

/**
 * The export's columns (CSV header and JSON keys), in order (issue 11.7; issue 22.8: one meaning per
 * column). Each host's connector by name; Falcon's assessments (1–100, higher is better) and
 * Defender's words in columns named for their vendor, empty for the other vendor's hosts; `score`
 * empty for a host not assessed.
 */
export const EXPORT_COLUMNS = [
  'host_id',
  'hostname',
  'vendor',
  'connector',
  'customer_id',
  'platform',
  'score',
  'band',
  'last_seen',
  'as_of',
  'falcon_os_assessment',
  'falcon_sensor_assessment',
  'falcon_overall_assessment',
  'defender_exposure_level',
  'defender_health_status',
  'defender_risk_level',
  'defender_av_status',
] as const;
export type ExportColumn = (typeof EXPORT_COLUMNS)[number];

export function exportRecord(row: ZtaRow): Record<ExportColumn, string | number | null> {
  const falcon = row.vendor === 'falcon';
  const defender = row.vendor === 'defender';
  const num = (v: number | string | null) => (falcon && typeof v === 'number' ? v : null);
  return {
    host_id: row.hostId,
    hostname: row.hostname,
    vendor: row.vendor,
    connector: row.connectorName,
    customer_id: row.customerId,
    platform: row.platform,
    score: row.score,
    band: row.band,
    last_seen: row.lastSeen,
    as_of: row.asOf,
    falcon_os_assessment: num(row.osAssessment),
    falcon_sensor_assessment: num(row.sensorAssessment),
    falcon_overall_assessment: num(row.overallAssessment),
    defender_exposure_level: defender ? row.exposure : null,
    defender_health_status: defender ? row.health : null,
    defender_risk_level: defender ? row.riskLevel : null,
    defender_av_status: defender ? row.avStatus : null,
  };
}

/** A piece of a file name from a value the operator or a node chose: lower case ASCII letters, digits and dashes. */
const slug = (v: string) =>
  v
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40) || 'x';

/**
 * The export's file name (issue 22.8): what it holds, which filters made it and as of when, e.g.
 * `northbound-zta-band-high-risk-platform-windows-asof-20261129-0848z.csv`.
 */
export function exportFileName(s: Pick<ZtaSnapshot, 'asOf' | 'connectors'>, filter: ZtaFilter, format: 'csv' | 'json'): string {
  const parts: string[] = [];
  for (const key of ['vendor', 'connector', 'customer', 'platform', 'band', 'q'] as const) {
    const raw = filter[key];
    // A connector by its name (its id means nothing to whoever finds the file).
    const v = key === 'connector' && raw !== undefined ? (s.connectors.find((c) => c.connectorId === raw)?.name ?? raw) : raw;
    if (v !== undefined && v !== '') parts.push(`${key === 'q' ? 'search' : key}-${slug(v)}`);
  }
  const asOf = s.asOf;
  const at = asOf ? `asof-${asOf.slice(0, 16).replace(/[-:]/g, '').replace('T', '-')}z` : 'no-data';
  return `northbound-zta-${[...parts, at].join('-')}.${format}`;
}

/** A host's score at each completed cycle of its connector (a step: it holds until it moves); null while it was not assessed. */
export const HistoryPoint = z.object({ cycleId: z.number(), at: z.string(), score: z.number().nullable(), band: RiskBand, kind: z.enum(['poll', 'rescore']) });

export const ZtaHostDetail = z.object({
  connectorId: z.string(),
  connectorName: z.string(),
  host: HostRecord,
  /** Null for a host not assessed (EDR-N1). */
  score: z.number().nullable(),
  band: RiskBand,
  /** What its connector publishes for it while it is not assessed (EDR-N2). */
  notAssessed: NotAssessedPublication,
  scoredAt: z.string(),
  cycleId: z.number(),
  asOf: z.string().nullable(),
  contributions: z.array(Contribution),
  profiles: z.record(z.string(), z.boolean()).nullable(),
  /** Oldest first, at most the last 200 cycles. */
  history: z.array(HistoryPoint),
  /** The tenant's band edges (for the chart's band lines). */
  bandEdges: z.tuple([z.number(), z.number(), z.number(), z.number()]),
});
export type ZtaHostDetail = z.infer<typeof ZtaHostDetail>;

/** Hosts per band, Not assessed counted apart from the five score bands (EDR-N1). */
export const BandCounts = z.object({ Trustworthy: int, 'Low Risk': int, 'Moderate Risk': int, Suspicious: int, 'High Risk': int, 'Not assessed': int });
export type BandCounts = z.infer<typeof BandCounts>;
export const emptyBandCounts = (): BandCounts => ({ Trustworthy: 0, 'Low Risk': 0, 'Moderate Risk': 0, Suspicious: 0, 'High Risk': 0, 'Not assessed': 0 });

export const TrendPoint = z.object({ at: z.string(), bands: BandCounts });
export const HostMove = z.object({
  connectorId: z.string(),
  hostId: z.string(),
  hostname: z.string(),
  customerId: z.string(),
  /** The host's platform (the report keeps the moves of the hosts its platform filter shows, C-95). */
  platform: Platform,
  from: z.object({ score: z.number(), band: RiskBand }).nullable(),
  to: z.object({ score: z.number(), band: RiskBand }),
});
export type HostMove = z.infer<typeof HostMove>;

/** What changed in each connector's newest cycle against its previous one (EDR-Z12). */
export const ZtaChanges = z.object({
  enteredHighRisk: z.array(HostMove),
  leftHighRisk: z.array(HostMove),
  biggestMovers: z.array(HostMove),
  /** Hosts whose score moved at all. */
  moved: int,
});
export type ZtaChanges = z.infer<typeof ZtaChanges>;

export const ZtaOverview = z.object({
  /** Band counts per cycle, summed over the connectors shown (each at its latest cycle up to then). */
  trend: z.array(TrendPoint),
  changes: ZtaChanges,
});
export type ZtaOverview = z.infer<typeof ZtaOverview>;
