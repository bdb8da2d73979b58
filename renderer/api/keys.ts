/** Query keys, one per channel read. Per-profile keys carry the profile id second (the error reporter reads it). */
export const keys = {
  appInfo: ['app.info'] as const,
  settings: ['settings'] as const,
  publication: ['publication'] as const,
  team: ['team'] as const,
  /** A joined console's reach of its team's database (C-90); written by the `team.health` event too. */
  teamHealth: ['team.health'] as const,
  profiles: ['profiles'] as const,
  sessions: ['sessions'] as const,
  demo: ['demo.status'] as const,
  updates: ['updates.status'] as const,
  connectors: ['connectors'] as const,
  oauthClients: (profileId: string) => ['oauthClients', profileId] as const,
  tlsInspect: (profileId: string) => ['tls.inspect', profileId] as const,
  /** Every read of a node's stored devices (its windows and facets): what `inventory.changed` reloads. */
  inventoryDevices: (profileId: string) => ['inventory.devices', profileId] as const,
  deviceWindows: (profileId: string) => ['inventory.devices', profileId, 'window'] as const,
  deviceWindow: (profileId: string, q: object) => ['inventory.devices', profileId, 'window', q] as const,
  deviceFacets: (profileId: string) => ['inventory.devices', profileId, 'facets'] as const,
  inventoryOrganizations: (profileId: string) => ['inventory.organizations', profileId] as const,
  /** Not a channel: the latest `inventory.progress` events of a profile, written by event-sync. */
  inventoryProgress: (profileId: string) => ['inventory.progress', profileId] as const,
  device: (profileId: string, deviceName: string) => ['devices.get', profileId, deviceName] as const,
  nextSiteId: (profileId: string) => ['devices.nextSiteId', profileId] as const,
  deviceGroups: (profileId: string, orgName: string) => ['devices.groups', profileId, orgName] as const,
  task: (profileId: string, taskId: string) => ['tasks.get', profileId, taskId] as const,
  lastTask: (profileId: string, deviceName: string) => ['tasks.lastOf', profileId, deviceName] as const,
  /** Not keyed by profile (a job id is no profile id for the error reporter). */
  onboardingJob: (jobId: string) => ['onboarding.get', { jobId }] as const,
  syslog: (profileId: string) => ['syslog', profileId] as const,
  /** Everything the ZTA dashboard reads (invalidated together when a cycle ends); objects second, never taken for a profile id. */
  zta: ['zta'] as const,
  ztaSnapshot: ['zta', { read: 'snapshot' }] as const,
  /** One connector's hosts (the what-if). */
  ztaTenant: (connectorId: string) => ['zta', { read: 'snapshot', connectorId }] as const,
  ztaFacets: ['zta', { read: 'facets' }] as const,
  ztaWindow: (q: object) => ['zta', { read: 'window', q }] as const,
  ztaCounts: (filter: object) => ['zta', { read: 'counts', filter }] as const,
  ztaOverview: (filter: object) => ['zta', { read: 'overview', filter }] as const,
  ztaHost: (connectorId: string, hostId: string) => ['zta', { read: 'host', connectorId, hostId }] as const,
  /** The Overview page and the sidebar's badges (refreshed together by events); objects second, as for zta. */
  overview: ['overview'] as const,
  /** The activity log's pages (refreshed by `activity.changed`); the filter object second. */
  activity: ['activity'] as const,
  activityPage: (filter: object) => ['activity', filter] as const,
  overviewPage: (profileId: string | undefined) => ['overview', { read: 'page', profileId }] as const,
  overviewBadges: (profileId: string | undefined) => ['overview', { read: 'badges', profileId }] as const,
  overviewFleet: ['overview', { read: 'fleet' }] as const,
  /** Every stored read of a connection's alarms (renderer/api/alarms.ts); each follows `alarms.changed` by itself. */
  alarms: (profileId: string) => ['alarms', profileId] as const,
  alarmPage: (profileId: string, filter: object, offset: number) => ['alarms', profileId, { read: 'list', filter, offset }] as const,
  alarmCount: (profileId: string, filter: object) => ['alarms', profileId, { read: 'count', filter }] as const,
  alarm: (profileId: string, id: number) => ['alarms', profileId, { read: 'get', id }] as const,
  alarmSummary: (profileId: string) => ['alarms', profileId, { read: 'summary' }] as const,
  alarmRate: (profileId: string, minutes: number) => ['alarms', profileId, { read: 'rate', minutes }] as const,
  alarmStatus: (profileId: string) => ['alarms.status', profileId] as const,
  alarmSearch: (profileId: string, text: string) => ['alarms', profileId, { read: 'search', text }] as const,
  /** Not a channel: what the `alarms.changed` events of a connection said (alarm-live.ts), written by event-sync. */
  alarmLive: (profileId: string) => ['alarms.live', profileId] as const,
};
