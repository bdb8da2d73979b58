/**
 * When saving a connector must carry its client secret (C-12): a connector without a stored
 * secret needs one, and a stored secret is only ever sent to the endpoint and trust it was
 * entered for. Main's registry and the connector form call these same functions, so the window
 * asks for the secret before the round trip exactly when main would refuse the save without it.
 */

/**
 * A tenant as one comparable value: without case, and a Falcon CID without the "-XX" checksum the
 * console shows after it (the same tenant typed with and without it is one connector).
 */
export const tenantOf = (vendor: string, tenantId: string): string => {
  const t = tenantId.trim().toLowerCase();
  return vendor === 'falcon' ? t.replace(/^([0-9a-f]{32})-[0-9a-f]{2}$/, '$1') : t;
};

/** Everything that decides where a connector's secret is sent. */
export interface ConnectorEndpoint {
  vendor: string;
  tenantId: string;
  cloudRegion?: string | undefined;
  apiUrl?: string | undefined;
  idpUrl?: string | undefined;
}

/** The endpoint as one comparable value: tenants as `tenantOf` compares them, Falcon's region defaults to autodiscover. */
export const connectorEndpointKey = (c: ConnectorEndpoint): string =>
  JSON.stringify([c.vendor, tenantOf(c.vendor, c.tenantId), c.vendor === 'falcon' ? (c.cloudRegion ?? 'autodiscover') : '', c.apiUrl ?? '', c.vendor === 'defender' ? (c.idpUrl ?? '') : '']);

/**
 * The registered connector a save updates: the one with its ID, or (a save without ID) the one of
 * the same vendor and tenant; one connector per vendor and tenant.
 */
export function findRegisteredConnector<T extends { id: string; vendor: string; tenantId: string }>(
  registered: readonly T[],
  input: { id?: string | undefined; vendor: string; tenantId: string },
): T | undefined {
  if (input.id) return registered.find((x) => x.id === input.id);
  const tenant = tenantOf(input.vendor, input.tenantId);
  return registered.find((x) => x.vendor === input.vendor && tenantOf(x.vendor, x.tenantId) === tenant);
}

export type ClientSecretNeed = 'missing' | 'endpoint-changed' | 'trust-changed';

export const CLIENT_SECRET_MESSAGES: Readonly<Record<ClientSecretNeed, string>> = {
  missing: 'Enter the client secret.',
  'endpoint-changed': 'The tenant, region or address changed: enter the client secret again.',
  'trust-changed': 'The certificate trust changed: enter the client secret again.',
};

/**
 * Why this save needs the client secret, or undefined when it may keep the stored one (or brings
 * its own). `registered` is the connector the save updates (see findRegisteredConnector) with
 * whether a secret is stored for it; `trustChanged` is main's finding that the request moves the
 * trust (the form never sends trust, so it never changes it).
 */
export function clientSecretNeed(o: {
  registered?: (ConnectorEndpoint & { hasClientSecret: boolean }) | undefined;
  next: ConnectorEndpoint;
  trustChanged?: boolean;
  secretGiven: boolean;
}): ClientSecretNeed | undefined {
  if (o.secretGiven) return undefined;
  if (!o.registered?.hasClientSecret) return 'missing';
  if (connectorEndpointKey(o.registered) !== connectorEndpointKey(o.next)) return 'endpoint-changed';
  if (o.trustChanged) return 'trust-changed';
  return undefined;
}
