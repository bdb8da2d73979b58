/**
 * The Falcon clouds the simulator serves, as CrowdStrike names them: the API hosts of the
 * vendor's SDKs (gofalcon `falcon/cloud.go`: US-1 api.crowdstrike.com, US-2
 * api.us-2.crowdstrike.com, EU-1 api.eu-1.crowdstrike.com, US-GOV-1 api.laggar.gcw.crowdstrike.com;
 * the same in FalconPy and PSFalcon). The simulator's own copy, written from those documents:
 * the console's region table is tested against it, not shared with it.
 */
export const FALCON_CLOUDS = ['us-1', 'us-2', 'eu-1', 'us-gov-1'] as const;
export type FalconCloud = (typeof FALCON_CLOUDS)[number];

/** Where each cloud's API lives on the internet (the simulator serves each on a loopback port instead). */
export const FALCON_CLOUD_HOSTS: Readonly<Record<FalconCloud, string>> = {
  'us-1': 'api.crowdstrike.com',
  'us-2': 'api.us-2.crowdstrike.com',
  'eu-1': 'api.eu-1.crowdstrike.com',
  'us-gov-1': 'api.laggar.gcw.crowdstrike.com',
};
