/**
 * The Overview page's data (issue 13): one answer for the whole page, each part with the time its
 * numbers are true for ("as of") and a state that says when they are not known. A part that is not
 * known carries no counts at all, so no 0 can stand for "unknown" (C-40).
 */
import { z } from 'zod';
import '../validation/install';
import { AlarmCounts, AlarmSourceStatus } from './alarms';
import { RiskBand, Vendor } from './edr';
import { DeploymentStatus } from './inventory';
import { ConnectorHealth, HostMove, TrendPoint } from './zta';

const int = z.number().int();
const AlarmTotals = AlarmCounts.extend({ total: int });
export type AlarmTotals = z.infer<typeof AlarmTotals>;

/** The connection the page works on (the window's chosen one). */
export const OverviewConnection = z.object({ profileId: z.string(), name: z.string(), signedIn: z.boolean() });
export type OverviewConnection = z.infer<typeof OverviewConnection>;

/** At most this many organizations per answer (the most critical first); the rest are counted. */
export const OVERVIEW_ORGANIZATIONS = 12;
/** At most this many hosts or devices listed by name in a tile. */
export const OVERVIEW_LISTED = 5;

export const OverviewAlarms = z.discriminatedUnion('state', [
  /** No connection chosen (or none exists): alarms are a connection's. */
  z.object({ state: z.literal('no-connection') }),
  /** The connection's alarms were never collected (it never signed in, or its source has not answered yet). */
  z.object({ state: z.literal('never'), collecting: z.boolean() }),
  z.object({
    state: z.literal('known'),
    /** When the numbers were true: now while the source is live, else the last time the console heard from the node. */
    asOf: z.string(),
    /** The alarm source is connected (broker or polling, or a joined console's team collector) and the numbers follow the node. */
    live: z.boolean(),
    source: AlarmSourceStatus.shape.source,
    /** Active (not cleared) alarms per severity. */
    active: AlarmTotals,
    /** Of those, the ones nobody handled (no handling, or handled back to `none`). */
    unacknowledged: AlarmTotals,
    /** Active alarms per organization and severity, critical ones first (then major, …, then by name). */
    organizations: z.array(AlarmCounts.extend({ org: z.string(), total: int, unacknowledged: int })),
    /** Organizations with active alarms that are not listed. */
    moreOrganizations: int,
  }),
]);
export type OverviewAlarms = z.infer<typeof OverviewAlarms>;

export const OverviewRisk = z.discriminatedUnion('state', [
  z.object({ state: z.literal('no-connectors') }),
  /** Connectors exist, none completed a cycle yet. */
  z.object({ state: z.literal('never'), connectors: int }),
  z.object({
    state: z.literal('known'),
    /** The newest completed cycle of the connectors shown (the ZTA page's "as of"); `oldestAsOf` the oldest. */
    asOf: z.string(),
    oldestAsOf: z.string(),
    /** Connectors with a completed cycle, and all connectors. */
    scored: int,
    connectors: int,
    hosts: int,
    /** Hosts per band, each connector at its newest completed cycle (the cycle aggregates). */
    bands: z.record(RiskBand, int),
    /** Band counts over the last cycles, oldest first. */
    trend: z.array(TrendPoint),
    /** Hosts that entered High Risk in each connector's newest cycle against its previous one. */
    entered: z.discriminatedUnion('state', [
      /** No connector has two completed cycles: nothing to compare. */
      z.object({ state: z.literal('first-cycle') }),
      z.object({
        state: z.literal('known'),
        count: int,
        /** The riskiest of them (at most OVERVIEW_LISTED). */
        hosts: z.array(HostMove),
        /** The oldest previous cycle compared against (when "since" starts). */
        since: z.string(),
        /** Connectors with a single completed cycle, not compared. */
        notCompared: int,
      }),
    ]),
  }),
]);
export type OverviewRisk = z.infer<typeof OverviewRisk>;

export const OverviewDevices = z.discriminatedUnion('state', [
  z.object({ state: z.literal('no-connection') }),
  /** The connection's devices were never fetched. */
  z.object({ state: z.literal('never') }),
  z.object({
    state: z.literal('known'),
    /** When the device list was fetched. */
    asOf: z.string(),
    total: int,
    byStatus: z.record(DeploymentStatus, int),
    /** Devices whose deployment failed, newest change first (at most OVERVIEW_LISTED). */
    failed: z.array(z.object({ deviceName: z.string(), orgName: z.string().nullable(), at: z.string().nullable(), message: z.string().nullable() })),
  }),
]);
export type OverviewDevices = z.infer<typeof OverviewDevices>;

export const OverviewConnector = z.object({
  connectorId: z.string(),
  name: z.string(),
  vendor: Vendor,
  enabled: z.boolean(),
  health: ConnectorHealth,
  running: z.boolean(),
  /** The newest completed cycle: when it finished and how many hosts it scored (null: none yet). */
  asOf: z.string().nullable(),
  hosts: int.nullable(),
  /** The last cycle that did not complete, when newer than the data shown, and why. */
  lastAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  nextCycleAt: z.string().nullable(),
  /** The newest completed cycle's publication: done (when), or waiting (and why, when an attempt failed). */
  publication: z.discriminatedUnion('state', [
    z.object({ state: z.literal('none') }),
    z.object({ state: z.literal('published'), at: z.string() }),
    z.object({ state: z.literal('waiting'), reason: z.string().nullable() }),
  ]),
});
export type OverviewConnector = z.infer<typeof OverviewConnector>;

export const Overview = z.object({
  /** When main read the stores for this answer. */
  generatedAt: z.string(),
  connection: OverviewConnection.nullable(),
  /** What is configured at all (the empty states say what to do next). */
  setup: z.object({ connections: int, connectors: int, demoRunning: z.boolean() }),
  alarms: OverviewAlarms,
  risk: OverviewRisk,
  devices: OverviewDevices,
  connectors: z.array(OverviewConnector),
});
export type Overview = z.infer<typeof Overview>;

/** The sidebar's badges: null when the number is not known (no connection, nothing collected or scored). */
export const OverviewBadges = z.object({
  /** Active critical alarms nobody handled, of the chosen connection. */
  criticalUnacknowledged: int.nullable(),
  /** Hosts in High Risk, every connector at its newest completed cycle. */
  highRisk: int.nullable(),
});
export type OverviewBadges = z.infer<typeof OverviewBadges>;

/** The request of both channels: the window's chosen connection, if any. */
export const OverviewRequest = z.object({ profileId: z.string().min(1).max(200).optional() }).strict();

/** Deployment statuses in the order the tile lists them (the failing first). */
export const DEPLOYMENT_ORDER: readonly DeploymentStatus[] = ['failed', 'deploying', 'saved', 'deployed'];
