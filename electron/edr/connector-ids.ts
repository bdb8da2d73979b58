/**
 * Connector names and ids outside the registry's own UUIDs. The id under which `northbound edr poll --data-dir` stores a tenant that the folder's
 * settings do not register (EDR-Z8): derived from vendor and tenant, so every CLI poll of that
 * tenant lands on the same connector and its history grows like the app's. The ZTA views show
 * such a connector from the store alone, until the tenant is registered in the app.
 */
import { tenantOf } from '../../shared/model/connector-secret';
import type { Vendor } from '../../shared/model/edr';

const PREFIX = 'cli-';

export function cliConnectorId(vendor: Vendor, tenantId: string): string {
  // Tenants are matched as tenantOf compares them (findRegisteredConnector): one id per tenant however it was typed.
  return `${PREFIX}${vendor}-${tenantOf(vendor, tenantId)}`;
}

/** Whether a stored connector id is one `cliConnectorId` made (the app's connectors have UUIDs). */
export const isCliConnectorId = (id: string) => id.startsWith(PREFIX);

/** The name a connector gets when none is given (also the name of a tenant only the CLI polled). */
export const defaultConnectorName = (c: { vendor: Vendor; tenantId: string }) => `${c.vendor === 'falcon' ? 'CrowdStrike Falcon' : 'Microsoft Defender'} · ${c.tenantId}`;
