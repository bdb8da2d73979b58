/**
 * The simulator's own views of its users, clients, devices and organizations: a leaf (it imports
 * no other simulator module but the client body's shape), so that the store, the guard and the
 * inventory can use them without importing the public types (types.ts), which reach the alarms.
 */
import type { SimClientBody } from './oauth-client-body';

export type SimRole = 'admin' | 'operator' | 'viewer';

export interface SimUser {
  username: string;
  password: string;
  role: SimRole;
}

export type SimClientView = SimClientBody & { client_id: string };

export type SimDeploymentStatus = 'SAVED' | 'DEPLOYING' | 'DEPLOYED' | 'FAILED';

/**
 * The simulator's own view of a device (record 2.3 with its MN-40 status and latest task), for tests
 * and the CLI. Not the wire shape: the node answers the recorded dialect of issue 8 (device-wire.ts),
 * where the list shows `workflowStatus` only and no task ID.
 */
export interface SimDeviceView {
  deviceName: string;
  siteId: string;
  orgName: string;
  serialNumber: string;
  deviceGroup: string;
  locationInfo: { country: string; longitude: string; latitude: string };
  deploymentStatus: SimDeploymentStatus;
  lastTaskId: string | null;
}

/** The simulator's own view of an organization (its own plan, null = inherited); the wire shape is in device-wire.ts. */
export interface SimOrganizationView {
  uuid: string;
  name: string;
  /** Parent name; null for a root. */
  parent: string | null;
  /** Null = inherited from the parent (MN-46). */
  subscriptionPlan: string | null;
}

export interface SimInventoryView {
  deviceCount(): number;
  organizationCount(): number;
  device(name: string): SimDeviceView | undefined;
  organizations(): SimOrganizationView[];
  /** Deployment tasks still PENDING or IN_PROGRESS at the clock's time. */
  runningTasks(): number;
}
