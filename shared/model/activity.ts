/**
 * The activity log (issue 22.2): every write an operator makes through the console — who, when,
 * what, on which object, and how it ended — kept in the data folder (`activity.db`), shown on the
 * Activity page and printed by `northbound audit export`. Decisions: docs/spec-decisions.md C-53.
 */
import { z } from 'zod';

export const ActivityOutcome = z.enum(['ok', 'failed']);
export type ActivityOutcome = z.infer<typeof ActivityOutcome>;

export const ActivityEntry = z.object({
  id: z.number().int(),
  /** When the write ended (ISO). */
  at: z.string(),
  /** The desk's account that made it (the operating system's user of the console). */
  user: z.string(),
  /** The management node's account it acted as, for a write sent to a node. */
  nodeUser: z.string().nullable(),
  /** The channel of the write (`alarms.clear`, `zta.applyRisk`, …): stable, for filters and scripts. */
  action: z.string(),
  /** The write in words: "Cleared 2 alarms", "Saved risk settings and rescored". */
  what: z.string(),
  /** What it was done to: a connector, a device, a connection, alarms …, by kind, id and name. */
  objectKind: z.string(),
  objectId: z.string(),
  objectName: z.string(),
  /** The connection a node write went to (its name), when there was one. */
  connection: z.string().nullable(),
  outcome: ActivityOutcome,
  /** The note the operator gave, the task started, or why it failed. */
  detail: z.string(),
  /**
   * The console it was made from: its host name and install ID ("noc-desk-3 · 1f2e3d4c"), so a
   * team's shared log says which console (C-88). Null for entries made before it was kept.
   */
  console: z.string().nullable().optional(),
});
export type ActivityEntry = z.infer<typeof ActivityEntry>;

export const ActivityQuery = z
  .object({
    limit: z.number().int().min(1).max(1000).default(200),
    /** Entries older than this id (the next page). */
    beforeId: z.number().int().min(1).optional(),
    /** Case-insensitive text in the user, what, object or detail. */
    q: z.string().max(200).optional(),
    outcome: ActivityOutcome.optional(),
  })
  .strict();
export type ActivityQuery = z.input<typeof ActivityQuery>;

export const ActivityPage = z.object({ rows: z.array(ActivityEntry), total: z.number().int(), kept: z.object({ days: z.number().int() }) });
export type ActivityPage = z.infer<typeof ActivityPage>;

/** The export's columns, in order (CSV header and JSON keys). */
export const ACTIVITY_COLUMNS = ['at', 'user', 'nodeUser', 'action', 'what', 'objectKind', 'objectId', 'objectName', 'connection', 'outcome', 'detail', 'console'] as const;
