/**
 * The composition root: builds every service from the platform adapters. Desktop (main.ts),
 * browser mode and the tests all start the app through `createApp`.
 */
import { createHandlers } from './handlers';
import { OverviewService } from './overview';
import { createEventHub, type EventHub } from './events';
import { DemoWorkspace, type DemoInventorySeed, type SimulatorsLoader } from './demo';
import type { PlatformAdapters } from './ports';
import { readLegacyCaFiles } from './legacy-ca';
import { ProfileRepository } from './profiles';
import { createRouter, type Router } from './router';
import { SessionManager, type MgmtSessionFactory } from './sessions';
import { createMgmtSession, inspectWithPem } from './mgmt-wiring';
import { EdrService, type EdrServiceOptions } from './edr-service';
import { createRuntime } from '../edr/runtimes';
import { DemoEdr } from './demo-edr';
import { InventoryService, type InventoryTiming } from '../inventory/service';
import { BulkJobs, type BulkPorts, type BulkTiming } from '../inventory/bulk';
import { openInventoryStore } from '../inventory/store/sqlite-inventory-store';
import path from 'node:path';
import type { ExportFormat } from '../../shared/contract-zta';
import { ZtaExports, type ExportDestination } from '../edr/zta-export';
import { Downloads } from './downloads';
import { AlarmService } from '../alarms/service';
import { openAlarmStore } from '../alarms/store/sqlite-alarm-store';
import { AppSettings } from '../store/app-settings';
import { openSqliteActivityStore } from '../store/activity-store';
import { ActivityLog, consoleIdentity } from './activity';
import { amqpUrlWithoutPassword } from '../../shared/model/settings';
import { DEFAULT_ALARM_EXCHANGE } from '../../shared/model/alarms';
import { TeamConsole } from './team-console';
import { TeamWorld } from './team-world';
import { delegate } from './delegate';
import { FleetHealthService } from './fleet-health';
import { TeamReach } from './team-reach';

export type { PlatformAdapters } from './ports';

export interface App {
  router: Router;
  events: EventHub;
  profiles: ProfileRepository;
  sessions: SessionManager;
  demo: DemoWorkspace;
  edr: EdrService;
  inventory: InventoryService;
  /** Bulk onboarding jobs (CSV). */
  bulk: BulkJobs;
  /** Exports of the ZTA dashboard's view (CSV, JSON). */
  ztaExports: ZtaExports;
  /** Browser mode: files offered once for download (the web host serves them). */
  downloads: Downloads;
  /** Alarm sources of the signed-in connections and the alarm store (issue 12). */
  alarms: AlarmService;
  /** Settings → Team: the team this console is joined to, and the switch between its stores and the desk's (C-84). */
  team: TeamConsole;
  /** Revokes sessions (2 s budget) and stops the demo simulators. */
  shutdown(): Promise<void>;
}

export interface CreateAppOptions {
  /** Open the demo workspace at start (browser mode `--demo`). */
  openDemo?: boolean;
  /** Replace the management node client (unit tests). */
  sessionFactory?: MgmtSessionFactory;
  /** The demo workspace includes EDR simulators and connectors (default true). */
  demoEdr?: boolean;
  /** Replace the vendor connectors or the scheduler timing (tests). */
  edr?: Partial<Pick<EdrServiceOptions, 'runtimeFor' | 'firstPullDelayMs' | 'publishDelayMs' | 'env' | 'countCap'>>;
  /** Task polling, event throttling and job retention of the inventory (tests shorten them). */
  inventory?: InventoryTiming & BulkTiming;
  /** Size of the demo node's seeded inventory (`serve --demo --devices N`, benchmarks). */
  demoInventory?: DemoInventorySeed;
  /** Where the demo's simulators come from (tests: the ones with fault switches); default the plain ones. */
  demoSimulators?: SimulatorsLoader;
  /** Alarm polling period and event pacing (tests shorten them). */
  alarms?: { pollIntervalMs?: number; changedEveryMs?: number; statusEveryMs?: number; notifyEveryMs?: number };
}

/** The settings key naming the exchange a node publishes its alarms to (default `mgmt.alarms`, MN-AL8). */
export const ALARM_EXCHANGE_KEY = 'alarms.exchange';

export async function createApp(adapters: PlatformAdapters, options: CreateAppOptions = {}): Promise<App> {
  const logger = adapters.logger;
  const events = createEventHub(logger.child('events'));
  await readLegacyCaFiles(adapters.settings, logger.child('settings'));
  const appSettings = new AppSettings(adapters.settings);
  const profiles = new ProfileRepository(adapters.settings, adapters.vault);
  const sessions = new SessionManager(profiles, options.sessionFactory ?? createMgmtSession(logger.child('mgmt')), events, logger.child('sessions'));
  const edr = new EdrService({
    adapters,
    events,
    sessions,
    logger: logger.child('edr'),
    runtimeFor: (c, secret) => createRuntime(c, secret, logger.child('edr')),
    ...options.edr,
  });
  await edr.init();
  const inventory = new InventoryService({
    // Its writes on a worker thread: a 100,000-device list replaced must not hold the thread that answers the window (C-100).
    store: openInventoryStore(path.join(adapters.dataDir, 'inventory.db'), { offMain: true }),
    session: (profileId) => sessions.get(profileId),
    emit: events.emit.bind(events),
    logger: logger.child('inventory'),
    namespaceFor: (profileId) => profiles.list().find((p) => p.id === profileId)?.apiNamespace,
    ...options.inventory,
  });
  /** The settings' RabbitMQ address (or NORTHBOUND_AMQP_URL), its password from the vault; no request names it. */
  const alarmBroker = async () => {
    if (!edr.publication.configured()) return undefined;
    const url = await edr.publication.connectUrl();
    const exchange = adapters.settings.get<unknown>(ALARM_EXCHANGE_KEY);
    return { url: () => edr.publication.connectUrl(), broker: amqpUrlWithoutPassword(url), exchange: typeof exchange === 'string' && exchange.trim() ? exchange.trim() : DEFAULT_ALARM_EXCHANGE };
  };
  const alarms = new AlarmService({
    // Its batches written on a worker thread: this thread answers the window (issue 21 item 5).
    store: openAlarmStore(path.join(adapters.dataDir, 'alarms.db'), { offMain: true }),
    requestFor: (profileId) => (method, p, body, opts) => sessions.get(profileId).request(method, p, body, opts),
    requireSignedIn: (profileId, what) => inventory.requireSignedIn(profileId, what),
    broker: alarmBroker,
    emit: events.emit.bind(events),
    logger: logger.child('alarms'),
    retentionDays: () => appSettings.current().alarmHistoryDays,
    // New alarms of the severities the operator chose (C-31): the desktop's own notifications, else the window's.
    notify: (n) => (adapters.notify ? adapters.notify(n.title, n.body) : events.emit('alarms.notification', n)),
    notifySeverities: () => appSettings.current().alarmNotify,
    nameOf: (profileId) => profiles.list().find((p) => p.id === profileId)?.name,
    ...options.alarms,
  });
  alarms.start();
  // A joined console that loses its database answers what it last read, and says so once (C-90).
  const reach = new TeamReach({
    joined: () => team.joined,
    probe: async () => void (await team.current().o.pool.query('SELECT 1')),
    emit: (h) => events.emit('team.health', h),
    logger: logger.child('team'),
  });
  // Settings → Team (issue 25.1, C-84): a joined console's views read the team's stores; this desk
  // then polls, publishes and collects nothing, and its own stores wait untouched until it leaves.
  const team = new TeamConsole({
    settings: adapters.settings,
    vault: adapters.vault,
    logger: logger.child('team'),
    openWorld: (pool, role) =>
      TeamWorld.open({
        pool,
        role,
        logger: logger.child('team'),
        emit: events.emit.bind(events),
        profile: (id) => profiles.list().find((p) => p.id === id),
        profileIds: () => profiles.list().map((p) => p.id),
        requestFor: (profileId) => (method, p, body, opts) => sessions.get(profileId).request(method, p, body, opts),
        requireSignedIn: (profileId, what) => inventory.requireSignedIn(profileId, what),
        riskHistoryDays: () => appSettings.current().riskHistoryDays,
        alarmHistoryDays: () => appSettings.current().alarmHistoryDays,
      }),
    pauseLocal: async () => {
      await edr.pause();
      await Promise.all(profiles.list().map((p) => alarms.stopSource(p.id)));
    },
    resumeLocal: () => {
      edr.resume();
      for (const s of sessions.list()) if (s.state === 'signed-in') void alarms.startSource(s.profileId);
    },
    switched: (joined) => {
      reach.reset();
      events.emit('team.changed', { joined });
    },
  });

  await team.start();
  edr.start();
  const inTeam = () => team.joined;
  /** What the views read: the desk's services, or the joined team's (C-84). */
  const ztaNow = () => (inTeam() ? team.current().zta : edr.zta);
  const alarmsNow = () => (inTeam() ? team.current().alarms : alarms);
  const zta = delegate(ztaNow);
  const alarmViews = delegate(alarmsNow);
  const edrViews = {
    get zta() {
      return ztaNow();
    },
    get store() {
      return inTeam() ? team.current().edrStore : edr.store;
    },
    get registry() {
      return inTeam() ? team.current().registry : edr.registry;
    },
    get scheduler() {
      return inTeam() ? { status: (id: string) => team.current().schedule(id) } : edr.scheduler;
    },
  };
  events.subscribe((event, payload) => {
    if (event === 'session.changed') {
      const s = payload as { profileId: string; state: string };
      // A joined console collects no alarms itself: the fleet's collectors do.
      if (!inTeam()) alarms.onSession(s.profileId, s.state);
      inventory.onSession(s.profileId, s.state);
    }
  });
  const bulk = new BulkJobs({ ports: bulkPorts(inventory), emit: events.emit.bind(events), logger: logger.child('bulk'), ...options.inventory });
  const demo = new DemoWorkspace({
    profiles,
    sessions,
    events,
    logger: logger.child('demo'),
    ports: adapters.demoPorts ?? { basic: 9182, oauth: 9183 },
    ...(options.demoInventory ? { inventory: options.demoInventory } : {}),
    ...(options.demoSimulators ? { simulators: options.demoSimulators } : {}),
    // The demo node raises alarms; with a broker configured it publishes them there too.
    alarmBroker: async () => {
      const b = await alarmBroker().catch(() => undefined);
      return b ? { url: await b.url(), exchange: b.exchange } : undefined;
    },
    ...(options.demoEdr === false ? {} : { edr: new DemoEdr(edr.registry, logger.child('demo'), undefined, options.demoSimulators) }),
  });
  const downloads = new Downloads(adapters.dataDir);
  const ztaExports = new ZtaExports({
    // The desk's store or the joined team's, chosen at each call (C-84).
    source: delegate(() => ztaNow().exportSource()),
    destination: (_jobId, defaultName, format) => exportDestination(adapters, downloads, defaultName, format),
    onProgress: (job) => events.emit('zta.export.progress', job),
  });
  const overview = new OverviewService({ profiles, sessions, alarms: alarmViews, edr: edrViews, inventory, demo });
  const fleet = new FleetHealthService({
    joined: () => team.joined,
    pool: () => team.current().o.pool,
    address: async () => {
      const v = await team.view();
      return v.configured ? `${v.host}:${v.port}/${v.database}` : '';
    },
    brokerAddress: () => edr.publication.address(),
    reach,
  });
  // The activity log (issue 22.2): every operator write, kept like the other histories.
  const activityDb = openSqliteActivityStore(path.join(adapters.dataDir, 'activity.db'));
  const activityDays = () => Math.max(appSettings.current().alarmHistoryDays, appSettings.current().riskHistoryDays);
  const pruneActivity = () =>
    activityDb.prune(activityDays(), new Date()).catch((e: unknown) => {
      logger.error('activity retention failed', { error: e instanceof Error ? e.message : String(e) });
      return 0;
    });
  await pruneActivity();
  const activityRetention = setInterval(() => void pruneActivity(), 3_600_000);
  activityRetention.unref();
  const activityNow = () => (inTeam() ? team.current().activity : activityDb);
  const activityLog = new ActivityLog({
    db: delegate(activityNow),
    logger: logger.child('activity'),
    context: {
      profile: (id) => {
        const p = profiles.list().find((x) => x.id === id);
        return p ? { name: p.name, username: p.username } : undefined;
      },
      // The team's connectors while joined (its list as last read; none while its database is away).
      connector: (id) => {
        try {
          return edrViews.registry.list().find((c) => c.id === id)?.name;
        } catch {
          return undefined;
        }
      },
    },
    console: consoleIdentity(adapters.settings),
    onRecorded: (entry) => events.emit('activity.changed', { entry }),
  });
  const handlers = createHandlers({
    app: {
      info: () => ({
        version: adapters.version,
        mode: adapters.mode,
        secretsPersist: adapters.vault.persistent,
        secretStorage: adapters.vault.kind,
        dataDir: adapters.dataDir,
        canOpenDataDir: Boolean(adapters.openDataDir),
      }),
      hasProfiles: () => profiles.list().length > 0,
      demo,
    },
    profiles: {
      profiles,
      sessions,
      forgetProfile: async (profileId) => {
        bulk.cancelProfile(profileId);
        await inventory.forgetProfile(profileId);
        await alarms.forgetProfile(profileId);
      },
      profilesChanged: (ids) => events.emit('profiles.changed', { ids }),
      inspect: inspectWithPem,
      logger,
    },
    settings: {
      settings: appSettings,
      publication: {
        view: () => edr.publication.view(),
        // A saved RabbitMQ address changes where the alarm sources consume from.
        update: async (req) => {
          const view = await edr.updatePublication(req);
          void alarms.reconfigure();
          return view;
        },
      },
      openDataDir: adapters.openDataDir?.bind(adapters),
      ...(adapters.updater ? { updater: adapters.updater } : {}),
      version: adapters.version,
    },
    connectors: {
      registry: edr.registry,
      scheduler: edr.scheduler,
      status: (c) => edr.status(c),
      runtimeOf: (connectorId) => edr.runtimeOf(connectorId),
      nodeGet: (profileId, p) => sessions.get(profileId).request('GET', p),
    },
    inventory: { inventory, bulk, profiles },
    zta: { zta, exports: ztaExports, printToPdf: adapters.printToPdf?.bind(adapters), saveFile: adapters.saveFile?.bind(adapters) },
    alarms: { alarms: alarmViews, profiles },
    overview: { overview, fleet },
    activity: { db: delegate(activityNow), keptDays: activityDays },
    team: { console: team, connectorsChanged: (ids) => events.emit('connectors.changed', { ids }), health: () => reach.health() },
  });
  const router = createRouter(reach.wrap(handlers), logger.child('router'), activityLog);
  adapters.updater?.onChange((s) => events.emit('updates.changed', s));

  // A demo workspace that was open last time opens again (its simulators live in this process).
  if (options.openDemo || demo.hasDemoProfiles()) {
    await demo.open().catch((e) => logger.error('demo workspace failed to start', { error: String(e) }));
  }

  let closed = false;
  return {
    router,
    events,
    profiles,
    sessions,
    demo,
    edr,
    inventory,
    bulk,
    ztaExports,
    downloads,
    alarms,
    team,
    async shutdown() {
      if (closed) return;
      closed = true;
      clearInterval(activityRetention);
      reach.close();
      await team.close();
      await edr.stop();
      await Promise.all([bulk.close(), inventory.close(), alarms.close()]);
      await sessions.closeAll(2000);
      await demo.close();
      await activityDb.close();
    },
  };
}

/** Desktop: the file the operator picks in main's dialog. Browser mode: a file of main's, offered once for download. */
async function exportDestination(adapters: PlatformAdapters, downloads: Downloads, defaultName: string, format: ExportFormat): Promise<ExportDestination | undefined> {
  const type = format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json; charset=utf-8';
  if (adapters.saveFile) {
    const file = await adapters.saveFile({ title: 'Export hosts', defaultName, filters: [{ name: format.toUpperCase(), extensions: [format] }] });
    return file ? { file, name: path.basename(file) } : undefined;
  }
  const file = await downloads.pathFor(format);
  return { file, name: defaultName, offer: () => downloads.offer({ file, name: defaultName, type }) };
}

/** What bulk onboarding may do with the inventory: the node's lists, one record, a PUT, a deployment. */
export function bulkPorts(inventory: InventoryService): BulkPorts {
  return {
    requireSignedIn: (profileId, what) => inventory.requireSignedIn(profileId, what),
    devices: (profileId) => inventory.refreshList(profileId, 'devices'),
    organizationNames: async (profileId) => (await inventory.refreshList(profileId, 'organizations')).items.map((o) => o.name),
    readDevice: (profileId, name) => inventory.readDevice(profileId, name),
    putDevice: (profileId, record) => inventory.putDevice(profileId, record),
    startDeploy: (profileId, name) => inventory.startDeploy(profileId, name),
    devicesChanged: (profileId) => void inventory.changed(profileId, ['devices']),
    deploymentsEnded: (profileId) => void inventory.refreshAfter(profileId),
  };
}
