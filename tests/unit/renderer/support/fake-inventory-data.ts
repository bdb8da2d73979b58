/**
 * Deterministic devices and organizations for the renderer tests and the UI preview: an
 * organization tree with inherited plans computed like main does (MN-46), and any number of
 * devices spread over it.
 */
import type { DeploymentStatus, DeviceView, OrganizationView } from '../../../../shared/model/inventory';

export interface OrgSpec {
  name: string;
  parent?: string | null;
  plan?: string | null;
}

/** Organization views with depth, plan in force, where it comes from, and child/device counts. */
export function makeOrganizations(specs: readonly OrgSpec[], devices: readonly Pick<DeviceView, 'orgName'>[] = []): OrganizationView[] {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const deviceCount = new Map<string, number>();
  for (const d of devices) if (d.orgName) deviceCount.set(d.orgName, (deviceCount.get(d.orgName) ?? 0) + 1);
  return specs.map((s, i) => {
    let depth = 0;
    let effectivePlan: string | null = s.plan ?? null;
    let inheritedFrom: string | null = null;
    for (let p = s.parent ? byName.get(s.parent) : undefined; p; p = p.parent ? byName.get(p.parent) : undefined) {
      depth += 1;
      if (effectivePlan === null && p.plan) {
        effectivePlan = p.plan;
        inheritedFrom = p.name;
      }
    }
    return {
      uuid: `00000000-0000-4000-8000-${String(i + 1).padStart(12, '0')}`,
      name: s.name,
      parent: s.parent ?? null,
      subscriptionPlan: s.plan ?? null,
      effectivePlan,
      inheritedFrom,
      depth,
      children: specs.filter((c) => c.parent === s.name).length,
      devices: deviceCount.get(s.name) ?? 0,
    };
  });
}

/** A provider root, tenants, sub-tenants and sites; some with their own plan, most inheriting. */
export const ORG_SPECS: readonly OrgSpec[] = [
  { name: 'Northwind Provider', plan: 'Provider-Enterprise' },
  { name: 'Acme', parent: 'Northwind Provider', plan: 'Gold' },
  { name: 'Acme Retail', parent: 'Acme' },
  { name: 'Acme Retail North', parent: 'Acme Retail' },
  { name: 'Acme Retail South', parent: 'Acme Retail', plan: 'Silver' },
  { name: 'Acme Logistics', parent: 'Acme' },
  { name: 'Globex', parent: 'Northwind Provider', plan: 'Silver' },
  { name: 'Globex Labs', parent: 'Globex' },
  { name: 'Initech', parent: 'Northwind Provider' },
  { name: 'Initech Branches', parent: 'Initech', plan: 'Bronze' },
  { name: 'Umbrella', parent: 'Northwind Provider', plan: 'Gold' },
  { name: 'Umbrella Clinics', parent: 'Umbrella' },
  { name: 'Umbrella Clinics East', parent: 'Umbrella Clinics' },
  { name: 'Standalone Co', plan: null },
];

const COUNTRIES = [
  ['DE', 52.52, 13.405],
  ['FR', 48.857, 2.352],
  ['US', 40.713, -74.006],
  ['GB', 51.507, -0.128],
  ['JP', 35.676, 139.65],
  ['BR', -23.55, -46.633],
  ['IN', 19.076, 72.878],
  ['AU', -33.869, 151.209],
  ['ZA', -26.204, 28.047],
  ['CA', 43.653, -79.383],
] as const;
const GROUPS = ['branch-small', 'branch-large', 'datacenter', 'retail-kiosk', 'warehouse', 'clinic'];
const STATUSES: DeploymentStatus[] = ['deployed', 'deployed', 'deployed', 'saved', 'failed', 'deploying'];
const CITIES = ['berlin', 'paris', 'newyork', 'london', 'tokyo', 'saopaulo', 'mumbai', 'sydney', 'joburg', 'toronto'];

export function makeDevice(d: Partial<DeviceView> & { deviceName: string }): DeviceView {
  return {
    siteId: '1',
    orgName: 'Acme',
    serialNumber: `SN-${d.deviceName.toUpperCase()}`,
    deviceGroup: 'branch-small',
    locationInfo: { country: 'DE', latitude: '52.52', longitude: '13.405' },
    deploymentStatus: 'saved',
    workflowStatus: null,
    lastModifiedBy: null,
    lastModifiedAt: null,
    lastTaskId: null,
    appliance: null,
    ...d,
  };
}

/** n devices over the given organizations, the same for the same n (site IDs 1…n). */
export function makeDevices(n: number, orgs: readonly string[] = ORG_SPECS.map((o) => o.name)): DeviceView[] {
  const out: DeviceView[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const c = COUNTRIES[i % COUNTRIES.length]!;
    const status = STATUSES[(i * 7) % STATUSES.length]!;
    out[i] = {
      deviceName: `${CITIES[i % CITIES.length]}-edge-${String(i + 1).padStart(5, '0')}`,
      siteId: String(i + 1),
      orgName: orgs[(i * 3) % orgs.length]!,
      serialNumber: `SN${((i + 1) * 2654435761 >>> 0).toString(16).toUpperCase().padStart(8, '0')}`,
      deviceGroup: GROUPS[(i * 5 + Math.floor(i / 10)) % GROUPS.length]!,
      locationInfo: { country: c[0], latitude: (c[1] + ((i % 17) - 8) * 0.05).toFixed(3), longitude: (c[2] + ((i % 13) - 6) * 0.05).toFixed(3) },
      deploymentStatus: status,
      workflowStatus: null,
      lastModifiedBy: null,
      lastModifiedAt: null,
      lastTaskId: status === 'saved' ? null : `t-${1000 + i}`,
      appliance: null,
    };
  }
  return out;
}
