/**
 * Seed data of the simulated node (MN-46, MN-47): an organization tree several levels deep with
 * inherited plans, and branch devices spread over the non-root organizations. Everything is
 * derived from the counts alone, so two simulators with the same counts hold the same data.
 */
import { createHash } from 'node:crypto';

export interface SimOrganization {
  uuid: string;
  name: string;
  /** Name of the parent organization; null for a root. */
  parent: string | null;
  /** The organization's own plan; null = inherited from its parent (MN-46). */
  subscriptionPlan: string | null;
  /** Position in the seeded tree, 1-based as real nodes send it (a provider root is 1). */
  globalOrgId: string;
  /** Depth in the tree as real nodes send it: a root is 1, its tenants 2, … */
  depth: number;
}

export interface SimDevice {
  deviceName: string;
  siteId: string;
  orgName: string;
  serialNumber: string;
  deviceGroup: string;
  locationInfo: { country: string; longitude: string; latitude: string };
}

/** A seeded device and how its (seeded, finished) deployment went; null = saved, never deployed. */
export interface SeededDevice {
  device: SimDevice;
  deployment: 'DEPLOYED' | 'FAILED' | null;
}

export const SEED_LIMITS = { organizations: { min: 1, max: 500 }, devices: { min: 0, max: 20_000 } } as const;

/** Children per organization in the seeded tree. */
const BRANCHING = 3;
const ROOTS = ['Northwind', 'Globex', 'Initech', 'Umbrella', 'Stark'];
const TENANTS = [
  'Contoso', 'Fabrikam', 'Tailspin', 'Wingtip', 'Litware', 'Adatum', 'Proseware', 'Woodgrove',
  'Lucerne', 'Alpine', 'Bellows', 'Coho', 'Humongous', 'Relecloud', 'Trey',
];
/** Name suffixes of the n-th child by depth: sub-tenants by region, then areas, then business units. */
const SUFFIXES_BY_DEPTH: Record<number, readonly string[]> = { 2: ['EMEA', 'AMER', 'APAC'], 3: ['North', 'South', 'Central'], 4: ['Retail', 'Logistics', 'Labs'] };
const PLANS = ['Default-All-Services-Plan', 'SDWAN-Essentials', 'SDWAN-Premium', 'Secure-SDWAN'];
const GROUPS = ['Retail', 'Office', 'Warehouse'];
const SITES: ReadonlyArray<{ city: string; country: string; latitude: string; longitude: string }> = [
  { city: 'berlin', country: 'DE', latitude: '52.5200', longitude: '13.4050' },
  { city: 'paris', country: 'FR', latitude: '48.8566', longitude: '2.3522' },
  { city: 'sanfrancisco', country: 'US', latitude: '37.7749', longitude: '-122.4194' },
  { city: 'tokyo', country: 'JP', latitude: '35.6895', longitude: '139.6917' },
  { city: 'saopaulo', country: 'BR', latitude: '-23.5505', longitude: '-46.6333' },
  { city: 'bengaluru', country: 'IN', latitude: '12.9716', longitude: '77.5946' },
  { city: 'london', country: 'GB', latitude: '51.5072', longitude: '-0.1276' },
  { city: 'amsterdam', country: 'NL', latitude: '52.3676', longitude: '4.9041' },
  { city: 'sydney', country: 'AU', latitude: '-33.8688', longitude: '151.2093' },
  { city: 'toronto', country: 'CA', latitude: '43.6532', longitude: '-79.3832' },
  { city: 'singapore', country: 'SG', latitude: '1.3521', longitude: '103.8198' },
  { city: 'madrid', country: 'ES', latitude: '40.4168', longitude: '-3.7038' },
  { city: 'capetown', country: 'ZA', latitude: '-33.9249', longitude: '18.4241' },
  { city: 'mexicocity', country: 'MX', latitude: '19.4326', longitude: '-99.1332' },
  { city: 'stockholm', country: 'SE', latitude: '59.3293', longitude: '18.0686' },
  { city: 'dubai', country: 'AE', latitude: '25.2048', longitude: '55.2708' },
];

export function checkSeedCount(what: keyof typeof SEED_LIMITS, n: number): number {
  const { min, max } = SEED_LIMITS[what];
  if (!Number.isInteger(n) || n < min || n > max) throw new RangeError(`The simulator seeds ${min} to ${max} ${what}; got ${n}.`);
  return n;
}

/** A UUID-shaped id derived from the name (stable across starts); `kind` keeps organizations and appliances apart. */
export function stableUuid(name: string, kind = 'org'): string {
  const h = createHash('sha1').update(`northbound-sim-${kind}:${name}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

/** How many roots a tree of `count` organizations has: one per hundred, at least one. */
export const rootCount = (count: number): number => Math.max(1, Math.round(count / 100));

interface SeedOrg extends Omit<SimOrganization, 'globalOrgId' | 'depth'> {
  /** 0 for a root. */
  depth: number;
  /** The depth-1 ancestor (or the root itself), for device names. */
  tenant: string;
}

/**
 * A forest in breadth-first order: roots first, then organization i hangs under
 * (i - roots) / 3, which gives roots → tenants → regional sub-tenants → areas → business units.
 * Roots and most tenants have their own plan; deeper organizations mostly inherit.
 */
function seedTree(count: number): SeedOrg[] {
  const roots = rootCount(count);
  const orgs: SeedOrg[] = [];
  for (let i = 0; i < count; i += 1) {
    let org: SeedOrg;
    if (i < roots) {
      const name = ROOTS[i] ?? `Provider-${i + 1}`;
      org = { uuid: '', name, parent: null, subscriptionPlan: PLANS[i % PLANS.length] ?? null, depth: 0, tenant: name };
    } else {
      const parent = orgs[Math.floor((i - roots) / BRANCHING)] as SeedOrg;
      const child = (i - roots) % BRANCHING;
      const depth = parent.depth + 1;
      const tenantIndex = i - roots;
      const name = depth === 1 ? (TENANTS[tenantIndex] ?? `Tenant-${tenantIndex + 1}`) : `${parent.name}-${SUFFIXES_BY_DEPTH[depth]?.[child] ?? String(child + 1)}`;
      const ownPlan = depth === 1 ? i % 3 !== 0 : i % 5 === 0;
      org = { uuid: '', name, parent: parent.name, subscriptionPlan: ownPlan ? (PLANS[i % PLANS.length] ?? null) : null, depth, tenant: depth === 1 ? name : parent.tenant };
    }
    org.uuid = stableUuid(org.name);
    orgs.push(org);
  }
  return orgs;
}

/** The seeded organizations (MN-46) and devices (MN-47); the counts are checked against SEED_LIMITS. */
export function seedInventory(orgCount: number, deviceCount: number): { organizations: SimOrganization[]; devices: SeededDevice[] } {
  const tree = seedTree(checkSeedCount('organizations', orgCount));
  return {
    organizations: tree.map(({ uuid, name, parent, subscriptionPlan, depth }, i) => ({ uuid, name, parent, subscriptionPlan, globalOrgId: String(i + 1), depth: depth + 1 })),
    devices: seedDevices(checkSeedCount('devices', deviceCount), tree),
  };
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '');

/**
 * `count` devices, round-robin over the non-root organizations (the roots when there are no
 * others): site IDs 1..count, names `<tenant>-<city>-<00001>`. Every tenth is only saved, every
 * 25th (from the 13th) failed its deployment, the rest are deployed.
 */
function seedDevices(count: number, tree: readonly SeedOrg[]): SeededDevice[] {
  const nonRoots = tree.filter((o) => o.parent !== null);
  const owners = nonRoots.length > 0 ? nonRoots : tree;
  if (owners.length === 0) return [];
  const devices: SeededDevice[] = [];
  for (let i = 0; i < count; i += 1) {
    const org = owners[i % owners.length] as SeedOrg;
    const site = SITES[i % SITES.length] as (typeof SITES)[number];
    devices.push({
      device: {
        deviceName: `${slug(org.tenant)}-${site.city}-${String(i + 1).padStart(5, '0')}`,
        siteId: String(i + 1),
        orgName: org.name,
        serialNumber: `NB${String(4_200_000 + i * 7919).padStart(9, '0')}`,
        deviceGroup: `${org.tenant}-${GROUPS[i % GROUPS.length] ?? 'Office'}`,
        locationInfo: { country: site.country, longitude: site.longitude, latitude: site.latitude },
      },
      deployment: i % 10 === 9 ? null : i % 25 === 12 ? 'FAILED' : 'DEPLOYED',
    });
  }
  return devices;
}
