/**
 * `GET /mgmt/appliance/appliance?offset&limit` (issue 8): the appliance status list real nodes
 * answer under `mgmt.ApplianceStatusResult` ({totalCount, appliances}), one branch appliance per
 * DEPLOYED simulator device, in the device list's order. Every record has the recorded key set and
 * key order of a branch appliance (tests/fixtures/mgmt-node/appliance-list.json), its quirks
 * included: `controll-status`, `hardWareSerialNo`, `branchId` as a string, `nodes.nodeStatusList`
 * an object, `last-updated-time` alternating between the two recorded formats.
 *
 * Reachability and sync are derived from the device name (stable across starts): about one in
 * four unreachable (sync UNKNOWN then), one in three of the rest OUT_OF_SYNC. The fault
 * `unreachableDevices` makes the named devices' appliances unreachable on demand.
 */
import { createHash } from 'node:crypto';
import { deploymentStatus, type DeviceEntry } from './devices';
import { json } from './http';
import type { SimInventory } from './inventory';
import { stableUuid } from './inventory-seed';
import { pageOf } from './paging';
import type { Handler, Route, SimContext } from './routes';

export const APPLIANCES_PATH = '/mgmt/appliance/appliance';
export const APPLIANCE_WRAPPER = 'mgmt.ApplianceStatusResult';

const MODELS = ['CSG355', 'CSG705', 'CSG1300', 'CSG2500'] as const;
const VERSIONS = ['22.1.4-GA 4c1e9a2 20250310 NORMAL', '21.2.3-GA 7d03b5e 20231120 NORMAL'] as const;
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

const p2 = (n: number) => String(n).padStart(2, '0');
const parts = (ms: number) => {
  const d = new Date(ms);
  return { y: d.getUTCFullYear(), mo: d.getUTCMonth(), d: d.getUTCDate(), h: p2(d.getUTCHours()), mi: p2(d.getUTCMinutes()), s: p2(d.getUTCSeconds()), ms: d.getUTCMilliseconds(), wd: d.getUTCDay() };
};
/** `2022-06-04 17:43:48.0` (tenths) when `dashed`, else `2022/06/20 14:03:37` — both recorded in one list. */
export function lastUpdatedTime(ms: number, dashed: boolean): string {
  const t = parts(ms);
  return dashed ? `${t.y}-${p2(t.mo + 1)}-${p2(t.d)} ${t.h}:${t.mi}:${t.s}.${Math.floor(t.ms / 100)}` : `${t.y}/${p2(t.mo + 1)}/${p2(t.d)} ${t.h}:${t.mi}:${t.s}`;
}
/** `2022-05-30 16:58:30.951` */
const createdAt = (ms: number) => {
  const t = parts(ms);
  return `${t.y}-${p2(t.mo + 1)}-${p2(t.d)} ${t.h}:${t.mi}:${t.s}.${String(t.ms).padStart(3, '0')}`;
};
/** C asctime, day padded with a space: `Thu Jun  2 01:03:12 2022`. */
const asctime = (ms: number) => {
  const t = parts(ms);
  return `${DAYS[t.wd]} ${MONTHS[t.mo]} ${String(t.d).padStart(2, ' ')} ${t.h}:${t.mi}:${t.s} ${t.y}`;
};

const alarmTable = (counts: readonly number[]) => ({
  tableId: 'Alarms',
  tableName: 'Alarms',
  monitorType: 'Alarms',
  columnNames: ['columnName 0'],
  rows: ['Critical', 'Major', 'Minor', 'Warning', 'Indeterminate'].map((firstColumnValue, i) => ({ firstColumnValue, columnValues: [counts[i] ?? 0] })),
});

const healthTable = (up: boolean, inSync: boolean) => ({
  columnNames: ['Category', 'Up', 'Down', 'Disabled'],
  rows: [
    { firstColumnValue: 'Physical Ports', columnValues: up ? [4, 1, 1] : [0, 5, 1] },
    { firstColumnValue: 'Config Sync Status', columnValues: up && inSync ? [1, 0, 0] : [0, 1, 0] },
    { firstColumnValue: 'Reachability Status', columnValues: up ? [1, 0, 0] : [0, 1, 0] },
    { firstColumnValue: 'Service Status', columnValues: up ? [1, 0, 0] : [0, 1, 0] },
  ],
});

export interface ApplianceInput {
  entry: DeviceEntry;
  /** Position in the full list (decides the `last-updated-time` format). */
  index: number;
  now: number;
  unreachable: boolean;
  /** The provider (root) organization of the owner, for the controller name. */
  provider: string;
}

/** One appliance record, keys in the recorded order of a branch appliance. */
export function applianceRecord({ entry, index, now, unreachable, provider }: ApplianceInput): Record<string, unknown> {
  const r = entry.record;
  const h = createHash('sha1').update(`northbound-sim-appliance:${r.deviceName}`).digest();
  const byte = (i: number) => h[i] ?? 0;
  const up = !unreachable && byte(0) % 4 !== 0;
  const sync = !up ? 'UNKNOWN' : byte(1) % 3 === 0 ? 'OUT_OF_SYNC' : 'IN_SYNC';
  const uuid = stableUuid(r.deviceName, 'appliance');
  const site = Number(r.siteId);
  const cpuLoad = up ? 3 + (byte(2) % 40) : 0;
  const bootedAt = entry.modifiedAt + 3_600_000 + (byte(3) % 240) * 60_000;
  return {
    name: r.deviceName,
    uuid,
    applianceLocation: { applianceName: r.deviceName, applianceUuid: uuid, locationId: `${r.locationInfo.country} ${r.siteId}`, latitude: r.locationInfo.latitude, longitude: r.locationInfo.longitude, type: 'branch' },
    'last-updated-time': lastUpdatedTime(now - (byte(4) % 120) * 1000, index % 2 === 0),
    'ping-status': up ? 'REACHABLE' : 'UNREACHABLE',
    'sync-status': sync,
    createdAt: createdAt(entry.modifiedAt),
    'yang-compatibility-status': 'Unavailable',
    'services-status': up ? 'GOOD' : 'UNKNOWN',
    'overall-status': 'NOT-APPLICABLE',
    'controll-status': 'Unavailable',
    'path-status': 'Unavailable',
    'inter-chassis-ha-status': { 'ha-configured': false },
    templateStatus: sync === 'OUT_OF_SYNC' ? 'OUT_OF_SYNC' : 'IN_SYNC',
    ownerOrg: r.orgName,
    type: 'branch',
    sngCount: 0,
    softwareVersion: VERSIONS[byte(5) % VERSIONS.length],
    connector: 'local',
    connectorType: 'local',
    branchId: r.siteId,
    services: ['sdwan', 'nextgen-firewall'],
    ipAddress: `10.${100 + (Math.floor(site / 65_536) % 100)}.${Math.floor(site / 256) % 256}.${site % 256}`,
    location: `Site ${r.siteId}, ${r.locationInfo.country}`,
    startTime: asctime(bootedAt),
    Hardware: {
      name: r.deviceName,
      model: MODELS[byte(6) % MODELS.length],
      cpuCores: 4,
      memory: '7.63GiB',
      freeMemory: up ? `${(2 + (byte(7) % 40) / 10).toFixed(2)}GiB` : '0.00GiB',
      diskSize: '118G',
      freeDisk: `${60 + (byte(8) % 50)}G`,
      lpm: false,
      fanless: byte(6) % 2 === 0,
      intelQuickAssistAcceleration: false,
      firmwareVersion: '22.1.4',
      manufacturer: 'Northbound Labs',
      serialNo: r.serialNumber,
      hardWareSerialNo: `HW${h.readUInt32BE(9) % 10_000_000}`,
      cpuModel: 'Intel(R) Atom(TM) CPU C3558 @ 2.20GHz',
      cpuCount: 4,
      cpuLoad,
      interfaceCount: 6,
      packageName: 'flexvnf-20250310',
      sku: 'Not Specified',
      ssd: true,
    },
    SPack: { name: 'spack-2025-03', spackVersion: '2231', apiVersion: '11', flavor: 'sample', releaseDate: '2025-03-04', updateType: 'full' },
    OssPack: { name: 'osspack', osspackVersion: 'unknown', updateType: 'unknown' },
    appIdDetails: { appIdInstalledEngineVersion: '5.4.1-12 ', appIdInstalledBundleVersion: '1.520.0-30 ', appIdAvailableBundleVersion: '1.520.0-30' },
    alarmSummary: alarmTable(up ? [0, byte(13) % 2, byte(14) % 3, byte(15) % 4, 0] : [1, 1, 0, byte(15) % 2, 0]),
    cpeHealth: healthTable(up, sync === 'IN_SYNC'),
    controllers: [`${provider}-Controller-01`],
    refreshCycleCount: 0,
    'branch-maintenance-mode': false,
    applianceCapabilities: { capabilities: ['path-state-monitor', 'bw-in-interface-state', 'config-encryption:v3'] },
    lockDetails: { user: entry.modifiedBy, lockType: 'NONE' },
    unreachable: !up,
    branchInMaintenanceMode: false,
    nodes: {
      nodeStatusList: { 'vm-name': 'NOT-APPLICABLE', 'vm-status': 'NOT-APPLICABLE', 'node-type': 'VCSN', 'host-ip': 'NOT-APPLICABLE', 'cpu-load': cpuLoad, 'memory-load': up ? 30 + (byte(16) % 40) : 0, 'load-factor': up ? 1 + (byte(17) % 9) : 0, 'slot-id': 0 },
    },
    'ucpe-nodes': { ucpeNodeStatusList: [] },
  };
}

export function applianceRoutes(ctx: SimContext, inv: SimInventory): Route[] {
  const list: Handler = (req) => {
    const now = ctx.clock.now();
    const deployed = inv.devices.all().filter((e) => deploymentStatus(e, now) === 'DEPLOYED');
    const appliances = pageOf(req.query, ctx.faults, (offset, size) =>
      deployed.slice(offset, offset + size).map((entry, i) =>
        applianceRecord({ entry, index: offset + i, now, unreachable: ctx.faults.unreachable(entry.record.deviceName), provider: inv.providerOf(entry.record.orgName) }),
      ),
    );
    // Real nodes answer the wrapper with an empty `appliances` array; 204 only when a test asks (MN-27).
    if (appliances.length === 0 && ctx.faults.emptyListAs204()) return { status: 204 };
    return json(200, { [APPLIANCE_WRAPPER]: { totalCount: deployed.length, appliances } });
  };
  return [{ pattern: APPLIANCES_PATH, style: 'custom', auth: 'data', methods: { GET: list } }];
}
