/**
 * The feature services of a console joined to a team (issue 25.1, C-84): the same services the desk
 * runs, over the team's PostgreSQL stores behind the same interfaces — ZTA (ZtaService over the PG
 * EDR store, every stored connector shown, named from the team's connector list), alarms
 * (AlarmService over the PG alarm store, with no source: the fleet's collectors write it), the
 * activity log (the PG store: a console may append to it) — and the fleet's connectors and claims.
 * Nothing here polls, publishes, prunes or collects: the workers and collectors do.
 */
import type { EmitEvent } from '../../shared/contract';
import { AlarmSourceStatus } from '../../shared/model/alarms';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { TeamRole } from '../../shared/model/team';
import { AlarmService, type AlarmServiceOptions } from '../alarms/service';
import { openPgAlarmStore } from '../alarms/store/pg-alarm-store';
import type { AlarmStore, IngestResult } from '../alarms/store/alarm-store';
import { fleetStatus, type ConnectorClaimRow } from '../edr/fleet/claims';
import type { ApplyRiskResult } from '../../shared/contract-zta';
import { collectorsOf, type SourceCollector } from '../edr/fleet/collectors';
import { FleetConnectors } from '../edr/fleet/fleet-connectors';
import { ConnectorRegistry, type StoredConnector } from '../edr/registry';
import { openPgEdrStore, type PgEdrStore } from '../edr/store/edr-pg';
import { ZtaService } from '../edr/zta-service';
import type { Logger } from '../log';
import type { NodeRequest } from '../mgmt/node-answer';
import { openPgActivityStore } from '../store/activity-pg';
import type { ActivityStore } from '../store/activity-store';
import type { PgPool } from '../store/postgres';
import { createMemoryVault } from '../store/vault';
import type { SettingsBackend } from './ports';
import { workersAlive } from './fleet-health';
import { TeamLive } from './team-live';

/** The alarm source a fleet collector stores a node's alarms under (`alarms follow --node`, cli-alarms.ts). */
export function fleetAlarmSource(p: { host: string; basicPort: number }): string {
  return `node:${p.host.includes(':') ? `[${p.host}]` : p.host}:${p.basicPort}`;
}

/** Methods of AlarmStore whose first argument names the source. */
const BY_SOURCE = new Set<string>([
  'ingest', 'sourceState', 'advanceCursor', 'recordBackfill', 'counts', 'countsAt', 'deadLetters', 'list', 'detail', 'keys', 'summary', 'rate',
  'overview', 'collected', 'criticalUnacknowledged', 'newestChangeMs', 'changeCounts', 'newestChange', 'forgetSource',
]);

/**
 * The team's alarm store as the app's alarm service reads it: a connection's id becomes the source
 * the fleet's collectors store that node under; `ingest` stores nothing (below).
 */
export function sourceMappedAlarmStore(store: AlarmStore, sourceOf: (profileId: string) => string): AlarmStore {
  return new Proxy(store, {
    get(target, prop, receiver) {
      // What the node answers an acknowledge or a clear is not stored by a console (its role may
      // not write alarms): the fleet's collectors store it from the node's stream (issue 25.2).
      if (prop === 'ingest') return async (source: string): Promise<IngestResult> => ({ newChanges: 0, newHandlings: 0, duplicates: 0, aids: [], newAlarms: 0, headSeq: await target.headSeq(sourceOf(source)), lagMs: null });
      if (prop === 'headSeq') return (source?: string) => target.headSeq(source === undefined ? undefined : sourceOf(source));
      const v = Reflect.get(target, prop, receiver) as unknown;
      if (typeof v !== 'function') return v;
      const fn = v as (...a: unknown[]) => unknown;
      if (typeof prop === 'string' && BY_SOURCE.has(prop)) return (source: string, ...rest: unknown[]) => fn.call(target, sourceOf(source), ...rest);
      return fn.bind(target);
    },
  });
}

export interface TeamWorldOptions {
  pool: PgPool;
  role: TeamRole;
  logger: Logger;
  emit: EmitEvent;
  /** A connection's host and REST port (the node whose alarms the fleet collects). */
  profile(profileId: string): { host: string; basicPort: number } | undefined;
  /** Every connection's id (a node's committed alarms are told to each connection to it). */
  profileIds(): string[];
  requestFor(profileId: string): NodeRequest;
  requireSignedIn(profileId: string, what: string): void;
  riskHistoryDays(): number;
  alarmHistoryDays(): number;
}

/** A settings backend over one cached value (the registry's list of the team's connectors). */
function cachedSettings(): SettingsBackend & { put(list: StoredConnector[]): void } {
  const data = new Map<string, unknown>([['edrConnectors', []]]);
  return {
    get: <T>(k: string) => data.get(k) as T | undefined,
    set: (k, v) => void data.set(k, v),
    delete: (k) => void data.delete(k),
    put: (list) => void data.set('edrConnectors', list),
  };
}

export class TeamWorld {
  readonly zta: ZtaService;
  readonly alarms: TeamAlarmService;
  readonly fleet: FleetConnectors;
  /** The team's connectors, as last read (names the ZTA views' connectors). */
  readonly registry: ConnectorRegistry;
  /** The team's commits as they happen (LISTEN/NOTIFY, C-88), turned into the window's events. */
  readonly live: TeamLive;
  private readonly settings = cachedSettings();

  private constructor(
    readonly o: TeamWorldOptions,
    readonly edrStore: PgEdrStore,
    readonly alarmStore: AlarmStore,
    readonly activity: ActivityStore,
  ) {
    this.fleet = new FleetConnectors(o.pool);
    this.live = new TeamLive({
      pool: o.pool,
      logger: o.logger.child('live'),
      emit: o.emit,
      activity,
      profileIds: o.profileIds,
      sourceOf: (id) => {
        const p = o.profile(id);
        return p ? fleetAlarmSource(p) : undefined;
      },
      refreshConnectors: () => this.refreshConnectors(),
    });
    this.registry = new ConnectorRegistry(this.settings, createMemoryVault(undefined, o.logger));
    this.zta = new TeamZtaService(
      {
        store: edrStore,
        registry: this.registry,
        // Workers poll and rescore; this console runs no cycle (a risk save asks the workers: C-93).
        scheduler: { status: () => ({ running: false }), rescore: () => Promise.reject(teamReadOnly('rescore a tenant')) },
        logger: o.logger.child('zta'),
        retentionDays: o.riskHistoryDays,
        everyStored: true,
      },
      { role: o.role, fleet: this.fleet, store: edrStore, changed: () => this.refreshConnectors(), workersAlive: () => workersAlive(o.pool) },
    );
    this.alarms = new TeamAlarmService(
      {
        store: alarmStore,
        requestFor: o.requestFor,
        requireSignedIn: o.requireSignedIn,
        // No source: the fleet's collectors store the node's alarms.
        broker: async () => undefined,
        emit: o.emit,
        logger: o.logger.child('alarms'),
        retentionDays: o.alarmHistoryDays,
      },
      (profileId) => {
        const p = o.profile(profileId);
        return p ? collectorsOf(o.pool, fleetAlarmSource(p)) : Promise.resolve([]);
      },
    );
  }

  /** Opens the team's stores on `pool` (their schema checked: a console may not migrate). */
  static async open(o: TeamWorldOptions): Promise<TeamWorld> {
    const [edr, alarms, activity] = await Promise.all([openPgEdrStore(o.pool), openPgAlarmStore(o.pool), openPgActivityStore(o.pool)]);
    const mapped = sourceMappedAlarmStore(alarms, (profileId) => {
      const p = o.profile(profileId);
      return p ? fleetAlarmSource(p) : `profile:${profileId}`;
    });
    const world = new TeamWorld(o, edr, mapped, activity);
    await world.refreshConnectors();
    await world.live.start();
    return world;
  }

  /** Reads the team's connector list again (the ZTA views name connectors from it). */
  async refreshConnectors(): Promise<StoredConnector[]> {
    const list = await this.fleet.list();
    this.settings.put(list);
    return list;
  }

  /** Each connector's claim and last cycle as the workers wrote them, by connector id. */
  async claims(): Promise<Map<string, ConnectorClaimRow>> {
    return new Map((await fleetStatus(this.o.pool)).connectors.map((c) => [c.connectorId, c]));
  }

  private claimsRead: Promise<Map<string, ConnectorClaimRow>> | undefined;

  /** A connector's schedule from its claim, as the desk's scheduler answers it (the Overview asks each connector's at once: they share one read of the claims). */
  async schedule(connectorId: string): Promise<{ running: boolean; nextCycleAt?: string }> {
    this.claimsRead ??= this.claims().finally(() => (this.claimsRead = undefined));
    const claims = await this.claimsRead;
    const c = this.registry.list().find((r) => r.id === connectorId);
    return teamSchedule({ enabled: c?.enabled ?? false }, claims.get(connectorId));
  }

  async close(): Promise<void> {
    await this.live.close();
    await this.alarms.close();
    await this.o.pool.end().catch(() => undefined);
  }
}

/** What a joined console may not do itself (the fleet's workers do it, or a later issue lets an admin). */
export function teamReadOnly(what: string): AppError {
  return new AppError(ErrorCodes.forbidden, `A console joined to a team does not ${what}: the team’s workers poll and score its tenants.`, 'Leave the team (Settings → Team) to work on this desk’s own connectors.');
}

/** Whether `role` may write the team's connectors and their risk settings (C-84, C-93), and if not, why and who may. */
export function mayAdminister(role: TeamRole | undefined, what: 'connectors' | 'risk'): void {
  if (role === 'northbound_admin') return;
  const r = role ?? 'northbound_console';
  throw new AppError(
    ErrorCodes.forbidden,
    what === 'risk' ? `Your database role ${r} may not change risk settings.` : `Your database role ${r} may not change connectors.`,
    what === 'risk'
      ? 'A member of northbound_admin saves a tenant’s risk settings for the team; the what-if still shows what they would move. Ask one, or ask the database owner to grant you that role.'
      : 'A member of northbound_admin registers the team’s connectors; ask one, or ask the database owner to grant you that role.',
    { details: { reason: 'role', role: role ?? null } },
  );
}

/** What the team's what-if Save needs besides the ZTA service's own: the role, the connectors, and how many workers are alive. */
interface TeamRiskDeps {
  role: TeamRole;
  fleet: FleetConnectors;
  store: PgEdrStore;
  /** The connector list changed (this console's views read it again). */
  changed(): Promise<unknown>;
  workersAlive(): Promise<number>;
}

/**
 * The ZTA views over the team's store. The what-if's Save (C-93) is an admin's: the tenant's risk
 * settings are stored in the team's connector (validated as a desk's), and when the store holds a
 * completed cycle of it, a rescore is asked of the workers in the same transaction: the worker
 * that takes it scores those stored hosts again, commits and publishes them like a desk's rescore,
 * and every console's dashboard follows its commit (C-88). A console role is refused, with why.
 */
class TeamZtaService extends ZtaService {
  constructor(
    o: ConstructorParameters<typeof ZtaService>[0],
    private readonly team: TeamRiskDeps,
  ) {
    super(o);
  }

  override async applyRisk(connectorId: string, risk: unknown): Promise<ApplyRiskResult> {
    mayAdminister(this.team.role, 'risk');
    const stored = (await this.team.store.latestCycles()).some((c) => c.connectorId === connectorId);
    const saved = await this.team.fleet.setRisk(connectorId, risk, { rescore: stored });
    await this.team.changed();
    if (saved.rescoreRequestedAt === null) return { cycleId: null };
    return { cycleId: null, rescore: { requestedAt: saved.rescoreRequestedAt, workersAlive: await this.team.workersAlive() } };
  }

  override prune(): Promise<void> {
    return Promise.resolve();
  }
}

const SOURCE_STATES = new Set<string>(AlarmSourceStatus.shape.state.options);

/**
 * The alarms of a joined console (C-91): read from the team's store like the desk's, but whether
 * they follow the node is the team's collectors' to say, not a source of this console (it runs
 * none): `status` and the Overview's `live` are those of the liveliest collector of the
 * connection's node as it last wrote its health (`fleet_collectors`, C-89).
 */
export class TeamAlarmService extends AlarmService {
  constructor(
    o: AlarmServiceOptions,
    private readonly collectors: (profileId: string) => Promise<SourceCollector[]>,
  ) {
    super(o);
  }

  override async status(profileId: string): Promise<AlarmSourceStatus> {
    const [base, [c]] = await Promise.all([super.status(profileId), this.collectors(profileId)]);
    if (!c) return { ...base, source: 'fleet', error: 'No collector of the team stores this node’s alarms: ask whoever runs the fleet to start `northbound alarms follow --database-url` for it.' };
    if (!c.alive) return { ...base, source: 'fleet', lastMessageAt: c.lastMessageAt, error: 'The team’s collector of this node stopped beating: the alarms shown are as of its last stored change.' };
    const state = c.state !== null && SOURCE_STATES.has(c.state) ? (c.state as AlarmSourceStatus['state']) : c.connected ? 'live' : 'failing';
    return { ...base, source: 'fleet', state, connected: c.connected, lagMs: c.lagMs, backlog: c.backlog, lastMessageAt: c.lastMessageAt, error: c.error };
  }

  override async overview(profileId: string): Promise<Awaited<ReturnType<AlarmService['overview']>>> {
    const [o, [c]] = await Promise.all([super.overview(profileId), this.collectors(profileId)]);
    if (!o) return o;
    const stored = c?.lastStoredAt ? Date.parse(c.lastStoredAt) : 0;
    return { ...o, source: 'fleet', live: !!c && c.alive && c.connected && (c.state === 'live' || c.state === 'backfilling'), heardMs: Math.max(o.heardMs, stored) };
  }
}

/**
 * A team connector's schedule as the desk's scheduler answers it: running while a worker holds its
 * lease, else its next poll when the claim's due time says (disabled: none).
 */
export function teamSchedule(c: Pick<StoredConnector, 'enabled'>, claim: Pick<ConnectorClaimRow, 'worker' | 'leaseLapsed' | 'dueAt'> | undefined): { running: boolean; nextCycleAt?: string } {
  const running = Boolean(claim?.worker && !claim.leaseLapsed);
  return { running, ...(claim && !running && c.enabled ? { nextCycleAt: claim.dueAt } : {}) };
}
