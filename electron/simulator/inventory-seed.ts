/** Seed data of the simulated node: a small tenant tree and branch devices (a later issue grows it). */
import { randomUUID } from 'node:crypto';

export interface SimOrganization {
  uuid: string;
  name: string;
  /** Name of the parent organization; null for a root. */
  parent: string | null;
  subscriptionPlan: string;
}

export interface SimDevice {
  deviceName: string;
  siteId: string;
  orgName: string;
  serialNumber: string;
  deviceGroup: string;
  locationInfo: { country: string; longitude: string; latitude: string };
}

const ORG_NAMES = ['Northwind', 'Contoso', 'Fabrikam', 'Tailspin', 'Wingtip', 'Litware', 'Adatum', 'Proseware', 'Woodgrove', 'Lucerne'];
const PLANS = ['Default-All-Services-Plan', 'SDWAN-Essentials', 'SDWAN-Premium', 'Secure-SDWAN'];
const SITES: Array<{ country: string; longitude: string; latitude: string }> = [
  { country: 'DE', longitude: '13.4050', latitude: '52.5200' },
  { country: 'FR', longitude: '2.3522', latitude: '48.8566' },
  { country: 'US', longitude: '-122.4194', latitude: '37.7749' },
  { country: 'JP', longitude: '139.6917', latitude: '35.6895' },
  { country: 'BR', longitude: '-46.6333', latitude: '-23.5505' },
  { country: 'IN', longitude: '77.5946', latitude: '12.9716' },
  { country: 'GB', longitude: '-0.1276', latitude: '51.5072' },
];

/** The first organization is the provider root; the next three are its tenants; later ones nest under those. */
export function seedOrganizations(count: number): SimOrganization[] {
  const orgs: SimOrganization[] = [];
  for (let i = 0; i < count; i += 1) {
    const name = ORG_NAMES[i] ?? `Tenant-${String(i + 1).padStart(3, '0')}`;
    let parent: string | null = null;
    if (i >= 1 && i <= 3) parent = orgs[0]?.name ?? null;
    else if (i > 3) parent = orgs[1 + ((i - 4) % 3)]?.name ?? null;
    orgs.push({ uuid: randomUUID(), name, parent, subscriptionPlan: PLANS[i % PLANS.length] ?? 'Default-All-Services-Plan' });
  }
  return orgs;
}

/** Branch devices spread over the tenants (the root when there are none); none without organizations. */
export function seedDevices(count: number, orgs: readonly SimOrganization[]): SimDevice[] {
  const tenants = orgs.length > 1 ? orgs.slice(1) : orgs;
  if (tenants.length === 0) return [];
  const devices: SimDevice[] = [];
  for (let i = 0; i < count; i += 1) {
    const org = tenants[i % tenants.length] as SimOrganization;
    const n = String(i + 1).padStart(2, '0');
    devices.push({
      deviceName: `${org.name.toLowerCase()}-branch-${n}`,
      siteId: String(101 + i),
      orgName: org.name,
      serialNumber: `NB${String(4_200_000 + i * 7919).padStart(8, '0')}`,
      deviceGroup: `${org.name}-Branches`,
      locationInfo: { ...(SITES[i % SITES.length] as SimDevice['locationInfo']) },
    });
  }
  return devices;
}
