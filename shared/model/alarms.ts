/**
 * Alarms as the window sees them (issue 12): the latest state of each alarm of a connection's
 * node, its status changes and handlings, the counters, and how the alarm source is doing. The
 * node's wire shapes are main's business (electron/alarms/wire.ts, docs/spec-decisions.md MN-AL*).
 */
import { z } from 'zod';
import '../validation/install';

/** The topic exchange a node publishes its alarm events to unless another is configured (MN-AL8). */
export const DEFAULT_ALARM_EXCHANGE = 'mgmt.alarms';

/** The node's perceived severities (spec-decisions MN-AL2); `cleared` only as a change or the state of a cleared alarm. */
export const ALARM_SEVERITIES = ['critical', 'major', 'minor', 'warning', 'indeterminate', 'cleared'] as const;
export const AlarmSeverity = z.enum(ALARM_SEVERITIES);
export type AlarmSeverity = z.infer<typeof AlarmSeverity>;
/** The severities an active alarm can have (counters, notifications). */
export const ACTIVE_SEVERITIES = ['critical', 'major', 'minor', 'warning', 'indeterminate'] as const;
export type ActiveSeverity = (typeof ACTIVE_SEVERITIES)[number];

/** How an operator handles an alarm (MN-AL5): acknowledged (`ack`), under investigation, observed, closed, or none again. */
export const HANDLING_STATES = ['none', 'ack', 'investigation', 'observation', 'closed'] as const;
export const HandlingState = z.enum(HANDLING_STATES);
export type HandlingState = z.infer<typeof HandlingState>;

/** One alarm's latest state. `id` is the console's own key of the alarm (stable while the alarm is stored). */
export const AlarmView = z.object({
  id: z.number().int(),
  device: z.string(),
  deviceName: z.string(),
  org: z.string(),
  /** The managed object, e.g. `vni-0/0`. */
  object: z.string(),
  type: z.string(),
  specificProblem: z.string(),
  severity: AlarmSeverity,
  cleared: z.boolean(),
  text: z.string(),
  /** When the node says the alarm last changed (ISO). */
  lastChangeAt: z.string(),
  /** Status changes stored for it. */
  changes: z.number().int(),
  /** The latest handling, if any. */
  handling: z.object({ state: HandlingState, user: z.string(), at: z.string(), description: z.string() }).nullable(),
});
export type AlarmView = z.infer<typeof AlarmView>;

export const AlarmStatusChange = z.object({
  at: z.string(),
  severity: AlarmSeverity,
  text: z.string(),
  /** The broker message that carried it (null when only the REST backfill or polling brought it). */
  messageId: z.number().int().nullable(),
  /** When the console stored it (ISO). */
  storedAt: z.string(),
});
export type AlarmStatusChange = z.infer<typeof AlarmStatusChange>;

export const AlarmHandling = z.object({ at: z.string(), state: HandlingState, user: z.string(), description: z.string() });
export type AlarmHandling = z.infer<typeof AlarmHandling>;

export const AlarmDetail = AlarmView.extend({
  /** Oldest first. */
  statusChanges: z.array(AlarmStatusChange),
  /** Oldest first. */
  handlings: z.array(AlarmHandling),
});
export type AlarmDetail = z.infer<typeof AlarmDetail>;

const text = (what: string, max = 255) => z.string().trim().max(max, `The ${what} filter is longer than ${max} characters.`);

/** What the list shows; every field narrows it, all fields together (AND). */
export const AlarmFilter = z
  .object({
    severity: z.array(AlarmSeverity).max(ALARM_SEVERITIES.length).optional(),
    org: text('organization').optional(),
    device: text('device').optional(),
    type: text('type').optional(),
    /** Words anywhere in the text, object, device, type or specific problem (case-insensitive). */
    text: text('text').optional(),
    /** `active` (default): not cleared; `cleared`; `all`. */
    cleared: z.enum(['active', 'cleared', 'all']).optional(),
    /** Only alarms nobody has handled: no handling, or the latest one is `none` (C-30). */
    unacked: z.boolean().optional(),
    /**
     * Only alarms that changed (a status change or a handling stored) after this store sequence,
     * the `headSeq` of an earlier page: what a paused list has not shown yet (C-29).
     */
    afterSeq: z.number().int().min(0).optional(),
  })
  .strict();
export type AlarmFilter = z.infer<typeof AlarmFilter>;

export const AlarmPage = z.object({
  profileId: z.string(),
  /** Alarms matching the filter. */
  total: z.number().int(),
  offset: z.number().int(),
  /** Newest change first. */
  rows: z.array(AlarmView),
  /** The store's newest change sequence when this page was read (compare with `alarms.changed`). */
  headSeq: z.number().int(),
  /**
   * The answer reached its byte budget before `limit` rows (issue 20.5): there is more of this
   * window, read it from `offset + rows.length`.
   */
  more: z.boolean(),
});
export type AlarmPage = z.infer<typeof AlarmPage>;

export const AlarmCounts = z.object({ critical: z.number().int(), major: z.number().int(), minor: z.number().int(), warning: z.number().int(), indeterminate: z.number().int() });
export type AlarmCounts = z.infer<typeof AlarmCounts>;

export const AlarmSummary = z.object({
  profileId: z.string(),
  /** Active (not cleared) alarms per organization and severity, organizations by name. */
  organizations: z.array(AlarmCounts.extend({ org: z.string(), total: z.number().int() })),
  totals: AlarmCounts.extend({ total: z.number().int() }),
});
export type AlarmSummary = z.infer<typeof AlarmSummary>;

export const AlarmRate = z.object({
  profileId: z.string(),
  /** One bucket per minute (the node's change time), oldest first, empty minutes included. */
  buckets: z.array(z.object({ at: z.string(), count: z.number().int(), critical: z.number().int(), major: z.number().int(), cleared: z.number().int() })),
});
export type AlarmRate = z.infer<typeof AlarmRate>;

/** Where a connection's alarms come from and how far behind that is (MN-AL12). */
export const AlarmSourceStatus = z.object({
  profileId: z.string(),
  /**
   * `amqp`: the broker stream with a REST backfill; `poll`: incremental REST polling; `none`: not
   * running (not signed in); `fleet`: a console joined to a team collects nothing itself, the team's
   * collectors (`alarms follow --database-url`) store the node's alarms, and this is the liveliest
   * of them as it last wrote its health to the team's database (C-91).
   */
  source: z.enum(['amqp', 'poll', 'none', 'fleet']),
  state: z.enum(['stopped', 'starting', 'live', 'backfilling', 'reconnecting', 'failing']),
  connected: z.boolean(),
  /** How old the newest stored change was when it was stored (ms); null before the first. */
  lagMs: z.number().nullable(),
  /** Messages waiting in the console's queue on the broker (amqp only; null when unknown). */
  backlog: z.number().int().nullable(),
  lastMessageAt: z.string().nullable(),
  lastBackfillAt: z.string().nullable(),
  /** Changes the last backfill (or poll) stored that the store did not have. */
  lastBackfillNew: z.number().int().nullable(),
  /** Malformed messages set aside since the source started. */
  setAside: z.number().int(),
  /** Records, status changes and handlings from the node's list it could not read (or with a time outside the plausible window) since the source started. */
  unreadable: z.number().int(),
  /** The broker address without its password, the exchange and the queue (amqp only). */
  broker: z.string().nullable(),
  exchange: z.string().nullable(),
  queue: z.string().nullable(),
  /** The last failure, in words. */
  error: z.string().nullable(),
  stored: z.object({ alarms: z.number().int(), changes: z.number().int() }),
});
export type AlarmSourceStatus = z.infer<typeof AlarmSourceStatus>;

/** A notification of new alarm changes (C-31): what main shows itself on the desktop, or sends the window in browser mode. */
export const AlarmNotification = z.object({
  profileId: z.string(),
  /** The most severe of the changes it announces. */
  severity: AlarmSeverity,
  /** How many changes it announces (the newest is named). */
  count: z.number().int(),
  /** The newest change's alarm (opens its details). */
  alarmId: z.number().int(),
  title: z.string(),
  body: z.string(),
});
export type AlarmNotification = z.infer<typeof AlarmNotification>;

// What main keeps of an alarm as the node sent it (read by electron/alarms/wire.ts, stored by
// electron/alarms/store/alarms-db.ts); plain types, here so the store does not import the feature.
/** What identifies an alarm on its node (MN-AL6), and what else the console keeps of it. */
export interface AlarmHead {
  device: string;
  deviceName: string;
  org: string;
  object: string;
  type: string;
  specificProblem: string;
  severity: AlarmSeverity;
  cleared: boolean;
  text: string;
  lastChangeMs: number;
}

export interface ChangeIn {
  eventMs: number;
  severity: AlarmSeverity;
  text: string;
}

export interface HandlingIn {
  atMs: number;
  state: HandlingState;
  user: string;
  description: string;
}

/** One alarm with the changes and handlings a record or a message brought. */
export interface AlarmItem {
  head: AlarmHead;
  changes: ChangeIn[];
  handlings: HandlingIn[];
  /** The broker message that carried it; null from REST. */
  messageId: number | null;
}
