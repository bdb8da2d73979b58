/**
 * Devices as a renderer unit test needs them (the device index and the inventory cache are pure
 * functions of such lists): one device, or any number spread over a few organizations, the same
 * for the same n. Page tests get their devices from main and the simulator instead.
 */
import type { DeploymentStatus, DeviceView } from '../../../../shared/model/inventory';
import { recordView } from '../../../../electron/inventory/node-api';

const ORGS = ['Acme', 'Acme Retail', 'Globex', 'Initech', 'Umbrella'];
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

/** A device as main stores one the console onboarded (recordView), with `d` over it. */
export function makeDevice(d: Partial<DeviceView> & { deviceName: string }): DeviceView {
  const sent = { deviceName: d.deviceName, siteId: '1', orgName: 'Acme', serialNumber: `SN-${d.deviceName.toUpperCase()}`, deviceGroup: 'branch-small', locationInfo: { country: 'DE', latitude: '52.52', longitude: '13.405' } };
  return { ...recordView(sent), ...d };
}

/** n devices over the given organizations, the same for the same n (site IDs 1…n). */
export function makeDevices(n: number, orgs: readonly string[] = ORGS): DeviceView[] {
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
