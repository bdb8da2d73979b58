/**
 * The contract's channel and event names without their schemas, for the preload: it only has
 * to refuse unknown names, and must stay small (no zod). contract.ts checks at compile time that
 * these lists are exactly the keys of its `channels` and `events` (`preloadNamesMatch`).
 */
export const CHANNEL_NAMES = [
  'app.info',
  'app.openDataDir',
  'settings.get',
  'settings.update',
  'publication.get',
  'publication.update',
  'profiles.list',
  'profiles.save',
  'profiles.delete',
  'profiles.test',
  'tls.inspect',
  'tls.trust',
  'session.list',
  'session.signIn',
  'session.signOut',
  'oauthClients.list',
  'oauthClients.create',
  'oauthClients.update',
  'connectors.list',
  'connectors.save',
  'connectors.delete',
  'connectors.setEnabled',
  'connectors.test',
  'connectors.pollNow',
  'connectors.importBulk',
  'connectors.cancel',
  'inventory.devices',
  'inventory.organizations',
  'inventory.refresh',
  'devices.get',
  'devices.nextSiteId',
  'devices.onboard',
  'devices.deploy',
  'tasks.get',
  'onboarding.start',
  'onboarding.cancel',
  'onboarding.get',
  'syslog.list',
  'syslog.create',
  'demo.status',
  'demo.open',
  'zta.snapshot',
  'zta.host',
  'zta.overview',
  'zta.applyRisk',
  'zta.export.start',
  'zta.export.cancel',
  'zta.report.pdf',
  'alarms.list',
  'alarms.get',
  'alarms.acknowledge',
  'alarms.clear',
  'alarms.summary',
  'alarms.rate',
  'alarms.status',
] as const;

export const EVENT_NAMES = [
  'session.changed',
  'profiles.changed',
  'demo.changed',
  'connectors.changed',
  'edr.progress',
  'inventory.progress',
  'inventory.changed',
  'task.progress',
  'onboarding.progress',
  'notice',
  'zta.export.progress',
  'alarms.changed',
  'alarms.status',
] as const;

const channelSet: ReadonlySet<string> = new Set(CHANNEL_NAMES);
const eventSet: ReadonlySet<string> = new Set(EVENT_NAMES);
export const isKnownChannel = (s: string): boolean => channelSet.has(s);
export const isKnownEvent = (s: string): boolean => eventSet.has(s);
export const BRIDGE_NAME = 'northbound';
