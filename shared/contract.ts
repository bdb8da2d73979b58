/**
 * The one contract between the renderer and main. Every channel has a zod schema for its
 * request and its response; every pushed event has one for its payload. The Electron IPC
 * handler, the browser-mode host and the renderer client are all driven by this table.
 */
import { UpdateStatus } from './model/updates';
import { z } from 'zod';
import './validation/install';
import { AppErrorShape } from './model/errors';
import { CertificateInfo, ProfileInput, ProfileView } from './model/profile';
import { SessionStatus } from './model/session';
import { OAuthClient, OAuthClientBody } from './model/oauth-client';
import { ConnectorInput, ConnectorView } from './model/connector';
import { PathName } from './model/names';
import { PublicationUpdate, PublicationView, Settings, SettingsPatch } from './model/settings';
import type { BRIDGE_NAME, CHANNEL_NAMES, EVENT_NAMES } from './contract-names';
import { ztaChannels, ztaEvents } from './contract-zta';
import { alarmChannels, alarmEvents } from './contract-alarms';
import { overviewChannels } from './contract-overview';
import { activityChannels, activityEvents } from './contract-activity';
import { teamChannels } from './contract-team';
import { TeamHealth } from './model/fleet-health';
import { FleetClaimView } from './model/team';
import { DeviceFacets, DeviceWindow, DeviceWindowQuery } from './model/device-window';
import { BulkJobState, BulkRowInput, DeviceGroups, DeviceRecord, DeviceView, OrganizationView, Snapshot, SyslogServer, TaskStatus } from './model/inventory';

/**
 * Request body limits (bytes of the JSON body in browser mode). Most requests are a few hundred
 * bytes; 1 MiB is the default. The two bulk channels get the size their own schema allows:
 * - onboarding.start: 20,000 rows; a row whose fields fill DeviceRecord's maxima with 3-byte
 *   UTF-8 characters is about 1.2 KB of JSON, so 20,000 rows stay under 25 MB: 32 MiB.
 * - connectors.importBulk: a document of up to 16 Mi characters (UTF-16 units); in JSON each
 *   takes at most 3 bytes (non-ASCII) or 2 (an escaped quote, backslash or line break), so
 *   3 × 16 MiB plus 1 MiB for the rest: 49 MiB.
 */
export const DEFAULT_MAX_REQUEST_BYTES = 1024 * 1024;
const MiB = 1024 * 1024;

const channel = <Req extends z.ZodType, Res extends z.ZodType>(request: Req, response: Res, description: string, maxBytes = DEFAULT_MAX_REQUEST_BYTES) => ({
  request,
  response,
  description,
  /** The largest request body this channel accepts (browser mode answers 413 above it). */
  maxBytes,
});
/** Channels defined beside this file (feature groups), with the default body limit. */
function mapChannels<T extends Record<string, { request: z.ZodType; response: z.ZodType; description: string }>>(group: T) {
  return Object.fromEntries(Object.entries(group).map(([k, v]) => [k, channel(v.request, v.response, v.description)])) as {
    [K in keyof T]: ReturnType<typeof channel<T[K]['request'], T[K]['response']>>;
  };
}
const Empty = z.object({}).strict();
const ProfileRef = z.object({ profileId: z.string().min(1, 'Choose a connection.') }).strict();

export { Settings, Theme, TimeZonePreference } from './model/settings';

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  mode: z.enum(['desktop', 'browser']),
  /** True when no profile exists yet: the UI offers the demo workspace. */
  firstRun: z.boolean(),
  demoRunning: z.boolean(),
  /** True when secrets can be kept across restarts (safeStorage or a passphrase vault). */
  secretsPersist: z.boolean(),
  secretStorage: z.string(),
  /** Where the app keeps its settings, vault, databases and log (shown, never chosen by the window). */
  dataDir: z.string(),
  /** The desktop app can open the data folder in the file manager (app.openDataDir). */
  canOpenDataDir: z.boolean(),
});
export type AppInfo = z.infer<typeof AppInfo>;

export const ConnectionTest = z.object({
  latencyMs: z.number(),
  certificate: CertificateInfo,
  authenticated: z.boolean(),
  detail: z.string(),
});
export type ConnectionTest = z.infer<typeof ConnectionTest>;

export const CreatedOAuthClient = z.object({
  client: OAuthClient,
  /** Shown once to the operator; main keeps no copy unless asked to store it in a profile. */
  clientSecret: z.string(),
});
export type CreatedOAuthClient = z.infer<typeof CreatedOAuthClient>;

export const DemoStatus = z.object({
  running: z.boolean(),
  profileId: z.string().optional(),
  oauthProfileId: z.string().optional(),
  mgmtBasicUrl: z.string().optional(),
  mgmtOauthUrl: z.string().optional(),
  fingerprint256: z.string().optional(),
});
export type DemoStatus = z.infer<typeof DemoStatus>;

export const CyclePhase = z.enum(['starting', 'devices', 'vulnerabilities', 'scoring', 'storing', 'completed', 'failed', 'cancelled']);
export const CycleProgress = z.object({
  connectorId: z.string(),
  cycleId: z.number(),
  phase: CyclePhase,
  done: z.number(),
  total: z.number().nullable(),
  message: z.string().optional(),
});
export type CycleProgress = z.infer<typeof CycleProgress>;

/** `interrupted`: the app stopped (killed, crashed) while the cycle ran; found so at the next start. */
export const CycleState = z.enum(['running', 'completed', 'failed', 'cancelled', 'interrupted']);
export type CycleState = z.infer<typeof CycleState>;

export const CycleSummary = z.object({
  id: z.number(),
  status: CycleState,
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  hosts: z.number(),
  error: z.string().nullable(),
  publishedAt: z.string().nullable(),
  /** Why the scores of a completed cycle are not published yet (no target, a target failing). */
  publishError: z.string().optional(),
});

export const ConnectorStatus = ConnectorView.extend({
  running: z.boolean(),
  progress: CycleProgress.optional(),
  nextCycleAt: z.string().optional(),
  lastCycle: CycleSummary.optional(),
  /** A joined console (issue 25.1): the worker, lease, last cycle and last error the fleet's workers wrote. */
  fleet: FleetClaimView.optional(),
});
export type ConnectorStatus = z.infer<typeof ConnectorStatus>;

export const ConnectorTestResult = z.object({
  ok: z.boolean(),
  /**
   * One line per check, named for what it calls (the token, each permission, each API the poll
   * reads), in order. `ok` only when its call succeeded; `ran: false` when it could not run (an
   * earlier check it needs failed, or nothing to ask about): not passed, not failed.
   */
  checks: z.array(z.object({ name: z.string(), ok: z.boolean(), ran: z.boolean().optional(), message: z.string(), hint: z.string().optional() })),
});
export type ConnectorTestResult = z.infer<typeof ConnectorTestResult>;

const ConnectorRef = z.object({ connectorId: z.string().min(1, 'Choose a connector.') }).strict();

export const channels = {
  'app.info': channel(Empty, AppInfo, 'Version, mode and first-run state.'),
  'app.openDataDir': channel(Empty, z.object({ opened: z.boolean() }), "Open the app's own data folder in the file manager (desktop only; the request names no path)."),
  'settings.get': channel(Empty, Settings, 'UI settings (theme, time zone).'),
  'settings.update': channel(SettingsPatch, Settings, 'Change UI settings; fields left out keep their value.'),
  'updates.status': channel(Empty, UpdateStatus, 'The desktop app’s updates: off, current, available, downloading, downloaded.'),
  'updates.check': channel(Empty, UpdateStatus, 'Ask the release feed for a newer version (nothing is downloaded).'),
  'updates.download': channel(Empty, UpdateStatus, 'Download the version a check found (progress: updates.changed).'),
  'updates.install': channel(Empty, z.object({ installing: z.boolean() }), 'Quit and install the downloaded update.'),
  'publication.get': channel(Empty, PublicationView, 'Where risk scores are published: the RabbitMQ address (without its password) and whether the environment overrides it.'),
  'publication.update': channel(PublicationUpdate, PublicationView, 'Set or remove the RabbitMQ address; its password goes to the vault and is bound to scheme, host, port and virtual host.'),

  'profiles.list': channel(Empty, z.array(ProfileView), 'All connection profiles, without secrets.'),
  'profiles.save': channel(ProfileInput, ProfileView, 'Create or update a profile; secrets go to the vault.'),
  'profiles.delete': channel(ProfileRef, z.object({ deleted: z.boolean() }), 'Delete a profile, its secrets and its session.'),
  'profiles.test': channel(ProfileRef, ConnectionTest, 'Reach the node, check its certificate and the credentials.'),

  'tls.inspect': channel(ProfileRef, CertificateInfo, 'Fetch the certificate the node presents, without trusting it.'),
  'tls.trust': channel(
    ProfileRef.extend({ fingerprint256: z.string().min(1) }).strict(),
    ProfileView,
    'Pin the certificate the operator compared; refused if the node now presents another one.',
  ),

  'session.list': channel(Empty, z.array(SessionStatus), 'Session state of every profile.'),
  'session.signIn': channel(ProfileRef, SessionStatus, 'Sign in with the stored credentials.'),
  'session.signOut': channel(ProfileRef, SessionStatus, 'Sign out; OAuth tokens are revoked.'),

  'oauthClients.list': channel(ProfileRef, z.array(OAuthClient), 'OAuth clients created or updated from this console.'),
  'oauthClients.create': channel(ProfileRef.extend({ body: OAuthClientBody }).strict(), CreatedOAuthClient, 'Create an OAuth client (spec 4.3).'),
  'oauthClients.update': channel(
    ProfileRef.extend({ clientId: PathName('client ID'), body: OAuthClientBody }).strict(),
    OAuthClient,
    'Update an OAuth client (spec 4.3).',
  ),

  'connectors.list': channel(Empty, z.array(ConnectorStatus), 'EDR connectors with their status, last and next cycle.'),
  'connectors.save': channel(ConnectorInput, ConnectorView, 'Register or update one connector (spec 2.1); the secret goes to the vault.'),
  'connectors.delete': channel(ConnectorRef, z.object({ deleted: z.boolean() }), 'Remove a connector and its secret.'),
  'connectors.setEnabled': channel(ConnectorRef.extend({ enabled: z.boolean() }).strict(), ConnectorView, 'Enable or disable a connector.'),
  'connectors.test': channel(ConnectorRef, ConnectorTestResult, 'Check credentials, permissions and region without polling.'),
  'connectors.pollNow': channel(ConnectorRef, z.object({ cycleId: z.number() }), 'Start a poll cycle now (or join the running one).'),
  'connectors.importBulk': channel(
    z.discriminatedUnion('source', [
      /** The document's text, as read by the window from a file the operator picked (main never opens a path a request names). */
      z
        .object({
          source: z.literal('document'),
          name: z.string().max(255).optional(),
          text: z.string().min(1, 'The chosen file is empty.').max(16 * 1024 * 1024, 'The connector document is larger than 16 MiB; split it into several documents.'),
        })
        .strict(),
      z.object({ source: z.literal('node'), profileId: z.string().min(1, 'Choose the management node.') }).strict(),
    ]),
    z.array(
      z.object({
        index: z.number(),
        ok: z.boolean(),
        id: z.string().optional(),
        name: z.string().optional(),
        vendor: z.string().optional(),
        tenantId: z.string().optional(),
        action: z.enum(['created', 'updated']).optional(),
        error: z.object({ message: z.string(), issues: z.array(z.object({ path: z.string(), message: z.string() })) }).optional(),
      }),
    ),
    'The bulk push (spec 4): register every connector of a document from the management node or a file.',
    3 * 16 * MiB + MiB,
  ),
  'connectors.cancel': channel(ConnectorRef, z.object({ cancelled: z.boolean() }), 'Cancel the running poll cycle.'),

  'inventory.devices': channel(ProfileRef, Snapshot(DeviceView), 'The devices of a node as last fetched (SQLite; works offline).'),
  'inventory.window': channel(DeviceWindowQuery, DeviceWindow, 'A page of the devices table: a node’s stored devices filtered, searched and sorted in the store, with how many match.'),
  'inventory.facets': channel(ProfileRef, DeviceFacets, 'The devices page before any row: how many devices, the organizations and groups to filter by, the list’s and the state’s age.'),
  'inventory.organizations': channel(ProfileRef, Snapshot(OrganizationView), 'The organizations of a node as last fetched, with the hierarchy and inherited plans.'),
  'inventory.refresh': channel(
    ProfileRef.extend({ what: z.enum(['devices', 'organizations', 'all']).default('all') }).strict(),
    z.object({ devices: z.number().int(), organizations: z.number().int(), fetchedAt: z.string() }),
    'Page every device and/or organization in from the node and store them (progress: inventory.progress).',
  ),
  'devices.get': channel(ProfileRef.extend({ deviceName: PathName('device name') }).strict(), DeviceView, 'One device, fresh from the node (and stored).'),
  'devices.nextSiteId': channel(ProfileRef, z.object({ siteId: z.string() }), 'The next free site ID (global device ID) on the node.'),
  'devices.groups': channel(
    ProfileRef.extend({ orgName: z.string().trim().min(1, 'Choose the organization.').max(128, 'Keep the organization name within 128 characters.') }).strict(),
    DeviceGroups,
    'The device groups of an organization: the node’s list, else those its stored devices use.',
  ),
  'devices.onboard': channel(ProfileRef.extend({ device: DeviceRecord }).strict(), DeviceView, 'Create or replace a device workflow record (spec 4.2 PUT); server errors name the field.'),
  'devices.deploy': channel(
    ProfileRef.extend({ deviceName: PathName('device name') }).strict(),
    TaskStatus,
    'Deploy an onboarded device: a node task, followed by main (progress: task.progress).',
  ),
  'tasks.get': channel(ProfileRef.extend({ taskId: PathName('task ID') }).strict(), TaskStatus, 'A node task as last seen.'),
  'tasks.lastOf': channel(
    ProfileRef.extend({ deviceName: PathName('device name') }).strict(),
    TaskStatus.nullable(),
    'The last deployment task of a device: the one the console followed, else found in the node’s task list (null: none).',
  ),
  'onboarding.start': channel(
    ProfileRef.extend({
      rows: z.array(BulkRowInput).min(1, 'The file has no device rows.').max(20_000, 'At most 20,000 rows per run.'),
      dryRun: z.boolean().default(false),
      deploy: z.boolean().default(false),
      /** A row whose device is on the node with another record replaces it only when this is true (issue 22.3); else it is skipped. */
      replace: z.boolean().default(false),
      concurrency: z.number().int().min(1).max(10).default(4),
    }).strict(),
    BulkJobState,
    'Bulk onboarding (CSV): every row is validated again in main (a bad row fails alone, with its line and field), then sent with bounded concurrency (progress: onboarding.progress).',
    32 * MiB,
  ),
  'onboarding.cancel': channel(z.object({ jobId: z.string().min(1) }).strict(), BulkJobState, 'Stop a bulk onboarding: rows not started are cancelled.'),
  'onboarding.get': channel(z.object({ jobId: z.string().min(1) }).strict(), BulkJobState, 'A bulk onboarding job with every row result.'),
  'syslog.list': channel(ProfileRef, z.array(SyslogServer), 'Syslog servers of the node (spec 2.4).'),
  'syslog.create': channel(ProfileRef.extend({ server: SyslogServer }).strict(), z.array(SyslogServer), 'Add a syslog server; answers the new list.'),

  'demo.status': channel(Empty, DemoStatus, 'Whether the demo workspace runs.'),
  'demo.open': channel(Empty, DemoStatus, 'Start the built-in simulators and connect to them.'),

  ...mapChannels(ztaChannels),
  ...mapChannels(alarmChannels),
  ...mapChannels(overviewChannels),
  ...mapChannels(activityChannels),
  ...mapChannels(teamChannels),
} as const;

export const events = {
  'session.changed': SessionStatus,
  'profiles.changed': z.object({ ids: z.array(z.string()) }),
  'demo.changed': DemoStatus,
  'updates.changed': UpdateStatus,
  'connectors.changed': z.object({ ids: z.array(z.string()) }),
  'edr.progress': CycleProgress,
  /** Paging in devices or organizations: done of total (total null until the first page). */
  'inventory.progress': z.object({ profileId: z.string(), what: z.enum(['devices', 'organizations']), done: z.number().int(), total: z.number().int().nullable() }),
  /** The stored devices or organizations of a node changed (refresh, onboarding). */
  /**
   * The stored lists of a node changed: which (a change of devices also changes the organizations'
   * device counts) and how many of each are stored now. The window reloads each changed list once.
   */
  'inventory.changed': z.object({
    profileId: z.string(),
    what: z.array(z.enum(['devices', 'organizations'])),
    counts: z.object({ devices: z.number().int(), organizations: z.number().int() }),
  }),
  'task.progress': TaskStatus,
  /** A bulk onboarding moved on; `rows` holds only the rows that changed since the last event. */
  'onboarding.progress': BulkJobState,
  /** Something happened in the background that the operator should see (e.g. a refresh failed). */
  notice: z.object({ level: z.enum(['info', 'warning', 'error']), message: z.string(), hint: z.string().optional(), code: z.string().optional() }),
  ...ztaEvents,
  ...alarmEvents,
  ...activityEvents,
  /**
   * The console joined or left a team (C-84): every view reads other stores now; the window reloads what it shows.
   * Also sent (joined: true) when a joined console listens to the team's store again after losing it (C-88): what was committed meanwhile was not told.
   */
  'team.changed': z.object({ joined: z.boolean() }),
  /** A joined console lost or found its team's database again (C-90): the banner, and a refetch when it is back. */
  'team.health': TeamHealth,
} as const;

export type Channels = typeof channels;
export type ChannelName = keyof Channels;
export type EventName = keyof typeof events;
export type RequestOf<C extends ChannelName> = z.input<Channels[C]['request']>;
export type ParsedRequestOf<C extends ChannelName> = z.output<Channels[C]['request']>;
export type ResponseOf<C extends ChannelName> = z.output<Channels[C]['response']>;
export type EventPayload<E extends EventName> = z.output<(typeof events)[E]>;
/** How a service sends an event: main's event hub (electron/app/events.ts) is passed in as this function, so features never import app/. */
export type EmitEvent = <E extends EventName>(event: E, payload: EventPayload<E>) => void;

export const channelNames = Object.keys(channels) as ChannelName[];

/**
 * The preload's zod-free name lists (contract-names.ts) must be exactly this contract's names:
 * checked by the compiler, so a channel added here and not there fails `npm run typecheck`.
 */
type SameSet<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
export const preloadNamesMatch: [SameSet<(typeof CHANNEL_NAMES)[number], ChannelName>, SameSet<(typeof EVENT_NAMES)[number], EventName>, SameSet<typeof BRIDGE_NAME, typeof BRIDGE_KEY>] = [true, true, true];
export const eventNames = Object.keys(events) as EventName[];
export const isChannelName = (s: string): s is ChannelName => Object.prototype.hasOwnProperty.call(channels, s);
export const isEventName = (s: string): s is EventName => Object.prototype.hasOwnProperty.call(events, s);
/** The body limit of a channel; an unknown name gets the default (its answer is an error anyway). */
export const maxRequestBytes = (name: string): number => (isChannelName(name) ? channels[name].maxBytes : DEFAULT_MAX_REQUEST_BYTES);

export const ResultShape = z.discriminatedUnion('ok', [
  z.object({ ok: z.literal(true), value: z.unknown() }),
  z.object({ ok: z.literal(false), error: AppErrorShape }),
]);

/** The name the preload exposes on window, and the browser-mode client mimics. */
export const BRIDGE_KEY = 'northbound';
export interface Bridge {
  invoke(channel: string, request: unknown): Promise<unknown>;
  on(event: string, listener: (payload: unknown) => void): () => void;
}
