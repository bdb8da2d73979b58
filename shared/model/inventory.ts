/**
 * Devices, organizations, deployment tasks and syslog servers of a management node (spec 1,
 * 2.3, 2.4, 4.1, 4.2). The device record is validated here once, with messages an operator can
 * act on; main, the wizard and the CSV import all use these schemas. The choices the spec leaves
 * open are in docs/spec-decisions.md (MN-40 …).
 */
import { z } from 'zod';
import '../validation/install';
import { isCountryCode } from './countries';

/** Device names: a host-name-like label, as the node's device workflow accepts them. */
export const DEVICE_NAME_RE = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;

const decimal = (label: string, min: number, max: number) =>
  z
    .string({ error: `Enter the ${label}.` })
    .trim()
    .min(1, `Enter the ${label}.`)
    .refine((v) => /^[-+]?(\d+(\.\d*)?|\.\d+)$/.test(v), { message: `The ${label} is a decimal number, e.g. ${label === 'latitude' ? '52.52' : '13.405'}.` })
    .refine((v) => Number(v) >= min && Number(v) <= max, { message: `The ${label} must be between ${min} and ${max}.` });

export const LocationInfo = z.object({
  country: z
    .string({ error: 'Choose the country.' })
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'The country is a two-letter ISO 3166-1 code, e.g. DE.')
    .refine(isCountryCode, { message: 'This is not an ISO 3166-1 country code.' })
    .transform((c) => c.toUpperCase()),
  latitude: decimal('latitude', -90, 90),
  longitude: decimal('longitude', -180, 180),
});
export type LocationInfo = z.infer<typeof LocationInfo>;

/** The device workflow record of spec 2.3 (without its wrapper key). */
export const DeviceRecord = z.object({
  deviceName: z
    .string({ error: 'Enter the device name.' })
    .trim()
    .min(1, 'Enter the device name.')
    .max(63, 'Keep the device name under 64 characters.')
    .regex(DEVICE_NAME_RE, 'Use letters, digits, dot, dash and underscore, starting with a letter or digit.'),
  siteId: z
    .string({ error: 'Enter the site ID.' })
    .trim()
    .regex(/^\d{1,9}$/, 'The site ID (global device ID) is a whole number, e.g. 117.')
    .refine((v) => Number(v) >= 1, { message: 'The site ID starts at 1.' }),
  orgName: z.string({ error: 'Choose the organization.' }).trim().min(1, 'Choose the organization.').max(128, 'Keep the organization name within 128 characters.'),
  serialNumber: z.string({ error: 'Enter the serial number.' }).trim().min(1, 'Enter the serial number.').max(64, 'Keep the serial number under 65 characters.'),
  deviceGroup: z.string({ error: 'Choose or enter the device group.' }).trim().min(1, 'Choose or enter the device group.').max(128, 'Keep the device group within 128 characters.'),
  locationInfo: LocationInfo,
});
export type DeviceRecord = z.infer<typeof DeviceRecord>;
export type DeviceRecordInput = z.input<typeof DeviceRecord>;

/** Where a device stands after onboarding (MN-40): saved on the node, deploying, deployed, or the deployment failed. */
export const DeploymentStatus = z.enum(['saved', 'deploying', 'deployed', 'failed']);
export type DeploymentStatus = z.infer<typeof DeploymentStatus>;

/**
 * A device's state as the node's appliance list tells it (issue 8): reachability, configuration
 * sync, software, hardware and alarm counts. `fetchedAt` says how old it is.
 */
export const ApplianceState = z.object({
  reachability: z.enum(['reachable', 'unreachable', 'unknown']),
  configSync: z.enum(['in-sync', 'out-of-sync', 'unknown']),
  /** The node's own words (`ping-status`, `sync-status`), as sent. */
  pingStatus: z.string().nullable(),
  syncStatus: z.string().nullable(),
  softwareVersion: z.string().nullable(),
  /** The organization that owns the appliance (`ownerOrg`). */
  ownerOrg: z.string().nullable(),
  model: z.string().nullable(),
  serialNo: z.string().nullable(),
  /** The appliance's `last-updated-time`, as an ISO time (node time zone unknown: read as UTC). */
  lastUpdatedAt: z.string().nullable(),
  alarms: z.object({ critical: z.number().int(), major: z.number().int(), minor: z.number().int(), warning: z.number().int() }).nullable(),
  /** When the appliance list holding this state was fetched. */
  fetchedAt: z.string(),
});
export type ApplianceState = z.infer<typeof ApplianceState>;

/**
 * A device as the console shows it. Real nodes' workflow list carries only the name, the site
 * ID, the workflow status and the last change (spec-decisions MN-49); the organization, serial
 * number, group and location come with one device's record (devices.get, a PUT) and are null
 * until then. Values are kept as the node sent them (read leniently): the rules of DeviceRecord
 * apply to what the console sends, not to what it reads.
 */
export const DeviceView = z.object({
  deviceName: z.string(),
  siteId: z.string().nullable(),
  orgName: z.string().nullable(),
  serialNumber: z.string().nullable(),
  deviceGroup: z.string().nullable(),
  locationInfo: z.object({ country: z.string(), latitude: z.string(), longitude: z.string() }).nullable(),
  deploymentStatus: DeploymentStatus,
  /** The node's own word for the status (`workflowStatus`, e.g. "Deployed"), as sent. */
  workflowStatus: z.string().nullable(),
  lastModifiedBy: z.string().nullable(),
  /** The record's `lastModifiedTime` as an ISO time. */
  lastModifiedAt: z.string().nullable(),
  lastTaskId: z.string().nullable(),
  /** From the appliance list; null when the node lists no appliance of this name (or it was never fetched). */
  appliance: ApplianceState.nullable(),
});
export type DeviceView = z.infer<typeof DeviceView>;

/** An organization (tenant) with its place in the hierarchy; `subscriptionPlan` null = inherited. */
export const OrganizationView = z.object({
  uuid: z.string(),
  name: z.string(),
  parent: z.string().nullable(),
  subscriptionPlan: z.string().nullable(),
  /** The plan in force: its own, or the nearest ancestor's (spec 1: plans are inherited). */
  effectivePlan: z.string().nullable(),
  /** Name of the ancestor the plan comes from; null when the organization has its own (or none). */
  inheritedFrom: z.string().nullable(),
  /** Depth in the tree: 0 for a root (also for an organization whose parent is unknown, or where a loop of parent links was cut). */
  depth: z.number().int(),
  /** Organizations whose parent is this one. */
  children: z.number().int(),
  /** The organization's own devices (not its subtree's), counted in the stored device list. */
  devices: z.number().int(),
});
export type OrganizationView = z.infer<typeof OrganizationView>;

/** A copy kept in SQLite, labelled with the time it was fetched (offline views). */
export const Snapshot = <T extends z.ZodType>(item: T) =>
  z.object({
    profileId: z.string(),
    /** When the whole list was last fetched from the node; null = never (single devices onboarded or fetched since may be stored). */
    fetchedAt: z.string().nullable(),
    items: z.array(item),
    /** Records of the last fetch the console could not read: left out of `items`, and said so. */
    unreadable: z.number().int(),
  });

export const TaskState = z.enum(['pending', 'in-progress', 'completed', 'failed']);
export type TaskState = z.infer<typeof TaskState>;

/**
 * One line of a task's log: a progress or error message with its time. `timeFrom` says whose
 * time it is: the node's own for the message, or when the console first saw the message (the
 * node gave none).
 */
export const TaskStep = z.object({
  at: z.string(),
  message: z.string(),
  level: z.enum(['info', 'error']),
  timeFrom: z.enum(['node', 'console']),
});
export type TaskStep = z.infer<typeof TaskStep>;

/** A node task (deployment) as the console follows it. */
/**
 * The device groups the onboarding wizard offers for an organization (C-57): the node's own list
 * when it serves one, else the groups of the organization's stored devices; with how many stored
 * devices use each (null when the stored records do not say).
 */
export const DeviceGroups = z.object({
  orgName: z.string(),
  source: z.enum(['node', 'stored']),
  groups: z.array(z.object({ name: z.string(), devices: z.number().int().nonnegative() })),
  /** Why the node's list is not shown (source 'stored'); null otherwise. */
  note: z.string().nullable(),
});
export type DeviceGroups = z.infer<typeof DeviceGroups>;

export const TaskStatus = z.object({
  profileId: z.string(),
  taskId: z.string(),
  deviceName: z.string(),
  state: TaskState,
  percent: z.number().min(0).max(100),
  /** The latest progress or error message of the task. */
  message: z.string(),
  startedAt: z.string().nullable(),
  endedAt: z.string().nullable(),
  /** Every message the task showed so far, oldest first, each with its time. */
  steps: z.array(TaskStep),
});
export type TaskStatus = z.infer<typeof TaskStatus>;

/** Syslog server of spec 2.4; a port that is not a port is refused. */
export const SyslogServer = z.object({
  host: z
    .string({ error: 'Enter the host name or address.' })
    .trim()
    .min(1, 'Enter the host name or address.')
    // A schema's own `error` also words its checks: each check here says what it checks.
    .max(253, 'Keep the host name within 253 characters.')
    .regex(/^[A-Za-z0-9.:_-]+$/, 'Use a host name, an IPv4 or an IPv6 address.'),
  port: z
    .number({ error: 'Enter the port (1 to 65535).' })
    .int('The port is a whole number.')
    .min(1, 'The port is at least 1.')
    .max(65535, 'The port is at most 65535.'),
  enabled: z.boolean(),
});
export type SyslogServer = z.infer<typeof SyslogServer>;

/** The node keeps one syslog server per host (MN-36): a second one for the same host is refused. */
export const syslogHostTaken = (servers: readonly { host: string }[], host: string): boolean => servers.some((s) => s.host === host.trim());
export const syslogHostTakenMessage = (host: string) => `A syslog server for ${host.trim()} is configured already.`;

/**
 * One row of a bulk onboarding as the window sends it: its line in the file and the device's
 * fields as text (the shape of DeviceRecord without its rules). Main validates every row with
 * DeviceRecord, so a bad row fails on its own (with its line and field) instead of refusing the
 * whole file.
 */
export const BulkRowInput = z.object({
  line: z.number().int().min(2),
  device: z.object({
    deviceName: z.string(),
    siteId: z.string(),
    orgName: z.string(),
    serialNumber: z.string(),
    deviceGroup: z.string(),
    locationInfo: z.object({ country: z.string(), latitude: z.string(), longitude: z.string() }),
  }),
});
export type BulkRowInput = z.input<typeof BulkRowInput>;

/** One row of a bulk onboarding (CSV), after the job ran it. */
export const BulkRowOutcome = z.enum(['pending', 'onboarded', 'deployed', 'skipped', 'failed', 'cancelled', 'valid']);
export type BulkRowOutcome = z.infer<typeof BulkRowOutcome>;

export const BulkRowResult = z.object({
  /** 1-based line of the row in the file (header is line 1). */
  line: z.number().int(),
  deviceName: z.string(),
  outcome: BulkRowOutcome,
  /** Why it failed or was skipped; for a failure also the field when known. */
  message: z.string().optional(),
  /**
   * What the row does to the node's device of its name (issue 22.3): `created` (there was none),
   * `replaced` (there was one with another record, and the operator chose replace), `exists` (there
   * is one with another record and it was left alone: skipped), `same` (there is one with this record).
   */
  change: z.enum(['created', 'replaced', 'exists', 'same']).optional(),
  /** For `replaced` and `exists`: the fields that differ, the node's value and the file's. */
  differs: z.array(z.object({ field: z.string(), node: z.string(), file: z.string() })).optional(),
  field: z.string().optional(),
  /**
   * The console's own checks refused the row's data (its record's rules, a name or site ID used
   * twice in the file, or a dry run's comparison with the node's lists): running it again
   * unchanged gives the same answer, so "Retry failed rows" leaves it out.
   */
  dataError: z.boolean().optional(),
});
export type BulkRowResult = z.infer<typeof BulkRowResult>;

export const BulkJobState = z.object({
  jobId: z.string(),
  profileId: z.string(),
  dryRun: z.boolean(),
  deploy: z.boolean(),
  /** Rows whose device is on the node with another record replace it (the operator's choice; default: skipped). */
  replace: z.boolean(),
  concurrency: z.number().int(),
  state: z.enum(['running', 'completed', 'cancelled', 'failed']),
  total: z.number().int(),
  done: z.number().int(),
  counts: z.object({ onboarded: z.number().int(), deployed: z.number().int(), skipped: z.number().int(), failed: z.number().int(), cancelled: z.number().int(), valid: z.number().int() }),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  /** Set when the whole job stopped (e.g. the session ended); rows keep their own messages. */
  error: z.string().optional(),
  rows: z.array(BulkRowResult),
});
export type BulkJobState = z.infer<typeof BulkJobState>;

/** Columns of the CSV template, in order (MN-47). */
export const CSV_COLUMNS = ['deviceName', 'siteId', 'orgName', 'serialNumber', 'deviceGroup', 'country', 'latitude', 'longitude'] as const;
