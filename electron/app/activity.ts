/**
 * The activity log's recorder (issue 22.2, C-53): the router tells it of every request that ended,
 * and it keeps one entry for each operator *write* — what changes the node, the connectors, the
 * published scores, the trust or the settings — with who made it (the desk's account and, for a
 * node write, the node account the connection signs in as), what, on which object, the outcome.
 * Reads, tests and dry runs are not writes and are not kept. Recording never fails a request: a
 * store that cannot write is logged.
 */
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import type { ChannelName } from '../../shared/contract';
import type { ActivityEntry } from '../../shared/model/activity';
import { countOf as plural, formatCount } from '../../shared/text';
import type { Logger } from '../log';
import type { ActivityStore, NewActivity } from '../store/activity-store';

export interface ActivityContext {
  /** A connection's name and the node account it signs in as. */
  profile(profileId: string): { name: string; username: string } | undefined;
  /** A connector's name. */
  connector(connectorId: string): string | undefined;
}

interface Described {
  what: string;
  objectKind: string;
  objectId: string;
  objectName: string;
  profileId?: string | undefined;
  detail?: string;
}

type Req = Record<string, unknown>;
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const ids = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === 'number') : []);

/** The writes kept, each described from its request (and its answer when it succeeded). Anything not listed is not a write. */
const WRITES: Partial<Record<ChannelName, (req: Req, res: Req | undefined, ctx: ActivityContext) => Described | undefined>> = {
  'settings.update': (req) => ({ what: 'Changed settings', objectKind: 'settings', objectId: 'settings', objectName: Object.keys(req).join(', ') || 'settings' }),
  'publication.update': (req) => ({ what: req.amqpUrl ? 'Set the RabbitMQ address for publication' : 'Removed the RabbitMQ address', objectKind: 'settings', objectId: 'publication', objectName: 'Publication' }),
  'profiles.save': (req, res) => ({ what: req.id ? 'Changed a connection' : 'Added a connection', objectKind: 'connection', objectId: str(res?.id ?? req.id), objectName: str(res?.name ?? req.name), profileId: str(res?.id ?? req.id) }),
  'profiles.delete': (req, _res, ctx) => ({ what: 'Deleted a connection', objectKind: 'connection', objectId: str(req.profileId), objectName: ctx.profile(str(req.profileId))?.name ?? str(req.profileId) }),
  'tls.trust': (req, _res, ctx) => ({
    what: 'Trusted a node certificate',
    objectKind: 'connection',
    objectId: str(req.profileId),
    objectName: ctx.profile(str(req.profileId))?.name ?? str(req.profileId),
    profileId: str(req.profileId),
    detail: `SHA-256 ${str(req.fingerprint256)}`,
  }),
  'session.signIn': (req, _res, ctx) => ({ what: 'Signed in', objectKind: 'connection', objectId: str(req.profileId), objectName: ctx.profile(str(req.profileId))?.name ?? '', profileId: str(req.profileId) }),
  'session.signOut': (req, _res, ctx) => ({ what: 'Signed out', objectKind: 'connection', objectId: str(req.profileId), objectName: ctx.profile(str(req.profileId))?.name ?? '', profileId: str(req.profileId) }),
  'oauthClients.create': (req, res) => ({ what: 'Created an OAuth client', objectKind: 'oauth-client', objectId: str(res?.clientId), objectName: str((req.body as Req | undefined)?.client_name ?? res?.clientId), profileId: str(req.profileId) }),
  'oauthClients.update': (req) => ({ what: 'Changed an OAuth client', objectKind: 'oauth-client', objectId: str(req.clientId), objectName: str((req.body as Req | undefined)?.client_name ?? req.clientId), profileId: str(req.profileId) }),
  'connectors.save': (req, res, ctx) => {
    const id = str(res?.id ?? req.id);
    return { what: req.id ? 'Changed a connector' : 'Saved a connector', objectKind: 'connector', objectId: id, objectName: str(res?.name ?? req.name) || ctx.connector(id) || str(req.tenantId), detail: `${str(req.vendor)} tenant ${str(req.tenantId)}` };
  },
  'connectors.delete': (req, _res, ctx) => ({ what: 'Deleted a connector', objectKind: 'connector', objectId: str(req.connectorId), objectName: ctx.connector(str(req.connectorId)) ?? str(req.connectorId) }),
  'connectors.setEnabled': (req, _res, ctx) => ({ what: req.enabled ? 'Enabled a connector' : 'Disabled a connector', objectKind: 'connector', objectId: str(req.connectorId), objectName: ctx.connector(str(req.connectorId)) ?? str(req.connectorId) }),
  'connectors.pollNow': (req, res, ctx) => ({ what: 'Started a poll', objectKind: 'connector', objectId: str(req.connectorId), objectName: ctx.connector(str(req.connectorId)) ?? str(req.connectorId), detail: res ? `cycle ${String(res.cycleId)}` : '' }),
  'connectors.cancel': (req, _res, ctx) => ({ what: 'Cancelled a poll', objectKind: 'connector', objectId: str(req.connectorId), objectName: ctx.connector(str(req.connectorId)) ?? str(req.connectorId) }),
  'connectors.importBulk': (req, res) => {
    const list = Array.isArray(res) ? (res as Req[]) : undefined;
    const ok = list?.filter((r) => r.ok).length ?? 0;
    return {
      what: 'Imported connectors',
      objectKind: 'connectors',
      objectId: req.source === 'node' ? str(req.profileId) : 'document',
      objectName: req.source === 'node' ? 'the node’s connector document' : str(req.name) || 'a connector document',
      profileId: req.source === 'node' ? str(req.profileId) : undefined,
      detail: list ? `${plural(ok, 'connector')} registered, ${formatCount(list.length - ok)} refused` : '',
    };
  },
  'team.join': (req) => ({ what: 'Joined a team', objectKind: 'team', objectId: `${str(req.host)}:${String(req.port)}/${str(req.database)}`, objectName: str(req.database), detail: `as ${str(req.user)}` }),
  'team.trust': (req) => ({ what: 'Trusted a team database certificate', objectKind: 'team', objectId: `${str(req.host)}:${String(req.port)}/${str(req.database)}`, objectName: str(req.database), detail: `SHA-256 ${str(req.fingerprint256)}` }),
  'team.leave': () => ({ what: 'Left the team', objectKind: 'team', objectId: 'team', objectName: 'team' }),
  'zta.applyRisk': (req, res, ctx) => ({
    what: 'Saved risk settings and rescored',
    objectKind: 'connector',
    objectId: str(req.connectorId),
    objectName: ctx.connector(str(req.connectorId)) ?? str(req.connectorId),
    detail: `${JSON.stringify(req.risk ?? {})}${res?.cycleId ? ` · rescore cycle ${String(res.cycleId)}` : res?.rescore ? ' · rescore asked of the team’s workers' : ''}`,
  }),
  'devices.onboard': (req, res) => {
    const device = (req.device ?? {}) as Req;
    const name = str(res?.deviceName ?? device.deviceName);
    return { what: 'Onboarded a device', objectKind: 'device', objectId: name, objectName: name, profileId: str(req.profileId) };
  },
  'devices.deploy': (req, res) => ({ what: 'Deployed a device', objectKind: 'device', objectId: str(req.deviceName), objectName: str(req.deviceName), profileId: str(req.profileId), detail: res ? `task ${str(res.taskId)}` : '' }),
  'onboarding.start': (req, res) => {
    if (req.dryRun) return undefined; // a check, not a write
    const rows = Array.isArray(req.rows) ? req.rows.length : 0;
    return {
      what: `${req.deploy ? 'Started bulk onboarding with deployment' : 'Started bulk onboarding'}${req.replace ? ', replacing devices that exist' : ''}`,
      objectKind: 'devices',
      objectId: str(res?.jobId),
      objectName: plural(rows, 'row'),
      profileId: str(req.profileId),
    };
  },
  'onboarding.cancel': (req) => ({ what: 'Stopped a bulk onboarding', objectKind: 'devices', objectId: str(req.jobId), objectName: `job ${str(req.jobId)}` }),
  'syslog.create': (req) => {
    const server = (req.server ?? {}) as Req;
    return { what: 'Added a syslog server', objectKind: 'syslog-server', objectId: str(server.name), objectName: str(server.name), profileId: str(req.profileId) };
  },
  'alarms.acknowledge': (req) => {
    const n = ids(req.ids).length;
    const state = str(req.state) || 'ack';
    return { what: `${state === 'ack' ? 'Acknowledged' : `Set handling ${state} on`} ${plural(n, 'alarm')}`, objectKind: 'alarms', objectId: ids(req.ids).slice(0, 20).join(','), objectName: plural(n, 'alarm'), profileId: str(req.profileId), detail: str(req.note) };
  },
  'alarms.clear': (req) => {
    const n = ids(req.ids).length;
    return { what: `Cleared ${plural(n, 'alarm')}`, objectKind: 'alarms', objectId: ids(req.ids).slice(0, 20).join(','), objectName: plural(n, 'alarm'), profileId: str(req.profileId), detail: str(req.note) };
  },
  'demo.open': () => ({ what: 'Opened the demo workspace', objectKind: 'demo', objectId: 'demo', objectName: 'Demo workspace' }),
};

/** Whether a channel is an operator write the log keeps. */
export const isAuditedWrite = (channel: string): boolean => channel in WRITES;

export interface ActivityLogOptions {
  db: ActivityStore;
  context: ActivityContext;
  logger: Logger;
  now?: () => Date;
  /** The desk's account; the operating system's user by default. */
  user?: string;
  /** This console: its host name and install ID (C-88), so a team's shared log says which console. */
  console?: string;
  onRecorded?: (e: ActivityEntry) => void;
}

/** The names a write's objects had when it started (a deleted connection or connector keeps its name in the log). */
class Remembered implements ActivityContext {
  private readonly profiles = new Map<string, { name: string; username: string } | undefined>();
  private readonly connectors = new Map<string, string | undefined>();

  constructor(
    private readonly live: ActivityContext,
    request: Req,
  ) {
    if (typeof request.profileId === 'string') this.profile(request.profileId);
    if (typeof request.connectorId === 'string') this.connector(request.connectorId);
    if (typeof request.id === 'string') {
      this.profile(request.id);
      this.connector(request.id);
    }
  }

  profile(id: string) {
    if (!this.profiles.has(id)) this.profiles.set(id, this.live.profile(id));
    return this.profiles.get(id);
  }

  connector(id: string) {
    if (!this.connectors.has(id)) this.connectors.set(id, this.live.connector(id));
    return this.connectors.get(id);
  }
}

export class ActivityLog {
  private readonly user: string;

  constructor(private readonly o: ActivityLogOptions) {
    this.user = o.user ?? deskUser();
  }

  /** Before a request runs: for a write, the names its objects have now. */
  started(channel: string, request: unknown): unknown {
    if (!(channel in WRITES)) return undefined;
    try {
      return new Remembered(this.o.context, (request ?? {}) as Req);
    } catch (e) {
      this.o.logger.error('activity context not read', { channel, error: e instanceof Error ? e.message : String(e) });
      return undefined;
    }
  }

  /** A request ended: kept when it is a write (`error` set when it failed). */
  ended(channel: string, request: unknown, before: unknown, response: unknown, error?: { message: string }): void {
    const describe = WRITES[channel as ChannelName];
    if (!describe) return;
    try {
      const ctx = before instanceof Remembered ? before : this.o.context;
      const d = describe((request ?? {}) as Req, error ? undefined : ((response ?? {}) as Req), ctx);
      if (!d) return;
      const profile = d.profileId ? ctx.profile(d.profileId) : undefined;
      const entry: NewActivity = {
        at: (this.o.now?.() ?? new Date()).toISOString(),
        user: this.user,
        nodeUser: profile?.username ?? null,
        action: channel,
        what: d.what,
        objectKind: d.objectKind,
        objectId: d.objectId.slice(0, 500),
        objectName: d.objectName.slice(0, 500),
        connection: profile?.name ?? null,
        outcome: error ? 'failed' : 'ok',
        detail: (error ? error.message : (d.detail ?? '')).slice(0, 4000),
        console: this.o.console ?? null,
      };
      // Told once stored; a store that fails is logged (the write itself already happened).
      void this.o.db.record(entry).then(
        (stored) => this.o.onRecorded?.(stored),
        (e: unknown) => this.o.logger.error('activity not recorded', { channel, error: e instanceof Error ? e.message : String(e) }),
      );
    } catch (e) {
      this.o.logger.error('activity not recorded', { channel, error: e instanceof Error ? e.message : String(e) });
    }
  }
}

/**
 * This console's name in the activity log (C-88): the machine's host name and the first 8
 * characters of an install ID made once and kept in the settings (`consoleId`).
 */
export function consoleIdentity(settings: { get<T>(k: string): T | undefined; set(k: string, v: unknown): void }, host = os.hostname()): string {
  let id = settings.get<unknown>('consoleId');
  if (typeof id !== 'string' || !/^[0-9a-f-]{36}$/.test(id)) {
    id = randomUUID();
    settings.set('consoleId', id);
  }
  return `${(host || 'console').slice(0, 200)} · ${(id as string).slice(0, 8)}`;
}

/** The account running the console, as the operating system names it. */
export function deskUser(): string {
  try {
    return os.userInfo().username || 'operator';
  } catch {
    return process.env.USER ?? process.env.USERNAME ?? 'operator';
  }
}
