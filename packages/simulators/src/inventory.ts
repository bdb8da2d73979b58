/**
 * The simulated node's inventory (spec 4.1, 4.2; MN-34..MN-36, MN-40..MN-47): organizations,
 * devices and their deployment tasks, appliances, syslog servers. This is the state; its HTTP
 * routes are in inventory-routes.ts (devices and tasks in device-routes.ts, appliances in
 * appliances.ts, syslog in syslog.ts). /mgmt answers use the shapes recorded from real nodes
 * (issue 8, device-wire.ts).
 */
import type { SimClock } from './clock';
import { deviceView, SimDevices } from './devices';
import { seedInventory, type SimOrganization } from './inventory-seed';
import type { SimSyslogServer } from './syslog';
import { DEFAULT_DEPLOY_SECONDS, SimTasks, TASK_PENDING_MS, type SimTask } from './tasks';
import type { SimInventoryView } from './views';

export type { SimDevice, SimOrganization } from './inventory-seed';
export type { SimSyslogServer } from './syslog';
export { DEVICE_WRAPPER } from './device-rules';
export { DEFAULT_PAGE_LIMIT, MAX_PAGE_LIMIT } from './paging';

/** `lastModifiedBy` of seeded devices, as real nodes show records made in their web UI. */
export const SEED_MODIFIED_BY = 'Administrator';
export const DEFAULT_SEED_ORGANIZATIONS = 14;
export const DEFAULT_SEED_DEVICES = 60;

export interface InventoryOptions {
  organizations?: number;
  devices?: number;
  deploySeconds?: number;
}

export class SimInventory {
  readonly organizations: SimOrganization[];
  private readonly orgNames: Set<string>;
  readonly devices = new SimDevices();
  readonly tasks = new SimTasks();
  readonly syslogServers: SimSyslogServer[] = [];
  /** Milliseconds a deployment stays IN_PROGRESS. */
  readonly deployMs: number;

  constructor(
    private readonly clock: SimClock,
    opts: InventoryOptions = {},
  ) {
    const seconds = opts.deploySeconds ?? DEFAULT_DEPLOY_SECONDS;
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError(`deploySeconds must be a number of seconds ≥ 0; got ${seconds}.`);
    this.deployMs = seconds * 1000;
    const seed = seedInventory(opts.organizations ?? DEFAULT_SEED_ORGANIZATIONS, opts.devices ?? DEFAULT_SEED_DEVICES);
    this.organizations = seed.organizations;
    this.orgNames = new Set(seed.organizations.map((o) => o.name));
    // Seeded deployments finished before the simulator started, a second apart, oldest first.
    const now = clock.now();
    const lastStart = now - TASK_PENDING_MS - this.deployMs - 60_000;
    seed.devices.forEach(({ device, deployment }, i) => {
      const startMs = lastStart - (seed.devices.length - i) * 1000;
      const entry = this.devices.put(device, SEED_MODIFIED_BY, startMs - 60_000);
      if (deployment === null) return;
      const task = this.tasks.add(device.deviceName, startMs, this.deployMs, deployment === 'FAILED');
      entry.statusTask = task;
      entry.lastTask = task;
    });
  }

  hasOrganization(name: string): boolean {
    return this.orgNames.has(name);
  }

  /** The root (provider) organization above `name` (itself for a root; the name when unknown). */
  providerOf(name: string): string {
    let org = this.organizations.find((o) => o.name === name);
    const seen = new Set<string>();
    while (org && org.parent !== null && !seen.has(org.name)) {
      seen.add(org.name);
      const parent = org.parent;
      org = this.organizations.find((o) => o.name === parent);
    }
    return org?.name ?? name;
  }

  /**
   * The device groups of an organization (C-57): the groups its devices are in, seeded or onboarded
   * (a PUT with a new group makes it), sorted by name.
   */
  deviceGroupsOf(orgName: string): string[] {
    const groups = new Set<string>();
    for (const e of this.devices.all()) if (e.record.orgName === orgName) groups.add(e.record.deviceGroup);
    return [...groups].sort((a, b) => a.localeCompare(b, 'en'));
  }

  /** Starts a deployment task of the device now (the caller checked that none is running). */
  deploy(deviceName: string, fails: boolean): SimTask {
    const entry = this.devices.get(deviceName);
    if (!entry) throw new Error(`No simulator device ${deviceName}`);
    const task = this.tasks.add(deviceName, this.clock.now(), this.deployMs, fails);
    entry.statusTask = task;
    entry.lastTask = task;
    return task;
  }

  view(): SimInventoryView {
    return {
      deviceCount: () => this.devices.count,
      organizationCount: () => this.organizations.length,
      device: (name) => {
        const entry = this.devices.get(name);
        return entry ? deviceView(entry, this.clock.now()) : undefined;
      },
      organizations: () => this.organizations.map(({ uuid, name, parent, subscriptionPlan }) => ({ uuid, name, parent, subscriptionPlan })),
      runningTasks: () => this.tasks.runningCount(this.clock.now()),
    };
  }
}
