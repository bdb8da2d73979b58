/**
 * The implementation of every channel of the contract, in one table. Each group of channels
 * declares the narrow dependencies it needs; services.ts builds the services once and hands
 * each group its part. Nothing is built here.
 */
import type { AppInfo } from '../../shared/contract';
import type { TeamHealth } from '../../shared/model/fleet-health';
import type { DemoWorkspace } from './demo';
import type { Handlers } from './router';
import { createProfileHandlers, type ProfileHandlerDeps } from './profile-handlers';
import { createConnectorHandlers, type ConnectorHandlerDeps } from './connector-handlers';
import { createInventoryHandlers, type InventoryHandlerDeps } from './inventory-handlers';
import { createZtaHandlers, type ZtaHandlerDeps } from './zta-handlers';
import { createSettingsHandlers, type SettingsHandlerDeps } from './settings-handlers';
import { createAlarmHandlers, type AlarmHandlerDeps } from './alarm-handlers';
import { createOverviewHandlers, type OverviewHandlerDeps } from './overview-handlers';
import type { ActivityStore } from '../store/activity-store';
import type { TeamConsole } from './team-console';
import { createTeamHandlers, teamAwareConnectors } from './team-handlers';

/** app.info and demo.*: what the platform says of itself, whether any connection exists, and the demo workspace. */
export interface AppHandlerDeps {
  /** What the platform says of itself (version, mode, data folder, where secrets are kept). */
  info(): Omit<AppInfo, 'name' | 'firstRun' | 'demoRunning'>;
  hasProfiles(): boolean;
  demo: Pick<DemoWorkspace, 'status' | 'open'>;
}

/** Each group of channels and what it needs. */
export interface HandlerDeps {
  app: AppHandlerDeps;
  profiles: ProfileHandlerDeps;
  settings: SettingsHandlerDeps;
  connectors: ConnectorHandlerDeps;
  inventory: InventoryHandlerDeps;
  zta: ZtaHandlerDeps;
  alarms: AlarmHandlerDeps;
  overview: OverviewHandlerDeps;
  /** The activity log and how long it is kept (days). */
  activity: { db: Pick<ActivityStore, 'list'>; keptDays(): number };
  /** Settings → Team; once joined, the connectors.* channels answer from the team's fleet tables. */
  team: { console: TeamConsole; connectorsChanged(ids: string[]): void; health(): TeamHealth };
}

export function createHandlers(d: HandlerDeps): Handlers {
  const { info, demo } = d.app;
  return {
    'app.info': async () => ({ name: 'Northbound', ...info(), firstRun: !d.app.hasProfiles(), demoRunning: demo.status().running }),
    'demo.status': async () => demo.status(),
    'demo.open': async () => demo.open(),
    ...createProfileHandlers(d.profiles),
    ...createSettingsHandlers(d.settings),
    ...teamAwareConnectors(createConnectorHandlers(d.connectors), d.team.console, d.team.connectorsChanged),
    ...createTeamHandlers(d.team.console),
    'team.health': async () => d.team.health(),
    ...createInventoryHandlers(d.inventory),
    ...createZtaHandlers(d.zta),
    ...createAlarmHandlers(d.alarms),
    ...createOverviewHandlers(d.overview),
    'activity.list': async (q) => ({ ...(await d.activity.db.list(q)), kept: { days: d.activity.keptDays() } }),
  };
}
