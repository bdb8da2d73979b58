/** Query keys, one per channel read. Per-profile keys carry the profile id second (the error reporter reads it). */
export const keys = {
  appInfo: ['app.info'] as const,
  settings: ['settings'] as const,
  publication: ['publication'] as const,
  profiles: ['profiles'] as const,
  sessions: ['sessions'] as const,
  demo: ['demo.status'] as const,
  connectors: ['connectors'] as const,
  oauthClients: (profileId: string) => ['oauthClients', profileId] as const,
  tlsInspect: (profileId: string) => ['tls.inspect', profileId] as const,
  inventoryDevices: (profileId: string) => ['inventory.devices', profileId] as const,
  inventoryOrganizations: (profileId: string) => ['inventory.organizations', profileId] as const,
  /** Not a channel: the latest `inventory.progress` events of a profile, written by event-sync. */
  inventoryProgress: (profileId: string) => ['inventory.progress', profileId] as const,
  device: (profileId: string, deviceName: string) => ['devices.get', profileId, deviceName] as const,
  nextSiteId: (profileId: string) => ['devices.nextSiteId', profileId] as const,
  task: (profileId: string, taskId: string) => ['tasks.get', profileId, taskId] as const,
  /** Not keyed by profile (a job id is no profile id for the error reporter). */
  onboardingJob: (jobId: string) => ['onboarding.get', { jobId }] as const,
  syslog: (profileId: string) => ['syslog', profileId] as const,
  /** Everything the ZTA dashboard reads (invalidated together when a cycle ends); objects second, never taken for a profile id. */
  zta: ['zta'] as const,
  ztaSnapshot: ['zta', { read: 'snapshot' }] as const,
  ztaOverview: (filter: object) => ['zta', { read: 'overview', filter }] as const,
  ztaHost: (connectorId: string, hostId: string) => ['zta', { read: 'host', connectorId, hostId }] as const,
  /** The Overview page and the sidebar's badges (refreshed together by events); objects second, as for zta. */
  overview: ['overview'] as const,
  overviewPage: (profileId: string | undefined) => ['overview', { read: 'page', profileId }] as const,
  overviewBadges: (profileId: string | undefined) => ['overview', { read: 'badges', profileId }] as const,
};
