/**
 * Falcon clouds ("Cloud Region" in the connector form) and their public API hosts, as the
 * vendor SDKs name them (gofalcon `falcon/cloud.go`, PSFalcon `Request-FalconToken`).
 */
export const FALCON_CLOUDS = ['us-1', 'us-2', 'eu-1', 'us-gov-1'] as const;
export type FalconCloud = (typeof FALCON_CLOUDS)[number];
/** What the operator picks: a cloud, or autodiscovery from the token answer's X-Cs-Region (EDR-F3). */
export type FalconCloudSetting = FalconCloud | 'autodiscover';

export const FALCON_CLOUD_BASE_URLS: Readonly<Record<FalconCloud, string>> = {
  'us-1': 'https://api.crowdstrike.com',
  'us-2': 'https://api.us-2.crowdstrike.com',
  'eu-1': 'https://api.eu-1.crowdstrike.com',
  'us-gov-1': 'https://api.laggar.gcw.crowdstrike.com',
};

/** The cloud named by an X-Cs-Region header (case and spaces ignored), or undefined. */
export function parseFalconCloud(value: string | undefined | null): FalconCloud | undefined {
  const v = (value ?? '').trim().toLowerCase();
  return (FALCON_CLOUDS as readonly string[]).includes(v) ? (v as FalconCloud) : undefined;
}
