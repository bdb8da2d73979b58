/** Query keys, one per channel read. */
export const keys = {
  appInfo: ['app.info'] as const,
  settings: ['settings'] as const,
  profiles: ['profiles'] as const,
  sessions: ['sessions'] as const,
  demo: ['demo.status'] as const,
  connectors: ['connectors'] as const,
  oauthClients: (profileId: string) => ['oauthClients', profileId] as const,
  tlsInspect: (profileId: string) => ['tls.inspect', profileId] as const,
};
