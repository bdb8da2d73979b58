/**
 * Where the management node simulator lets a test bend its answers. The simulator itself knows
 * no fault: it asks these hooks, and without a test's hooks (the demo, `northbound simulate`)
 * every answer is the plain one. The switches that drive them live in the testing entry
 * (testing/mgmt-faults.ts), which the desktop bundle does not carry.
 */
import type { Reply } from './http';

export interface MgmtFaultHooks {
  /** An answer to every request on both ports, before routing; undefined = route as usual. */
  intercept(): Reply | undefined;
  /** After a data call's authentication: may throw (an error answer) or wait. */
  beforeData(path: string): Promise<void> | undefined;
  /** How many records a page of a /mgmt list holds when `limit` were asked. */
  pageSize(limit: number): number;
  /** An empty page of a list call answers 204 No Content. */
  emptyListAs204(): boolean;
  /** The first page (offset 0) of the devices or organizations list as it is sent. */
  firstPage(list: 'devices' | 'organizations', page: Array<Record<string, unknown>>): Array<Record<string, unknown>>;
  /** True when the deployment starting now is to fail. */
  deploymentFails(): boolean;
  /** The device's appliance shows UNREACHABLE whatever its name decides. */
  unreachable(deviceName: string): boolean;
  /** Tokens issued now never expire. */
  neverExpire(): boolean;
  /** Token answers carry expires_in and refresh_expires_in as numbers. */
  numericExpiry(): boolean;
}

/** The plain node. */
export const NO_MGMT_FAULTS: MgmtFaultHooks = {
  intercept: () => undefined,
  beforeData: () => undefined,
  pageSize: (limit) => limit,
  emptyListAs204: () => false,
  firstPage: (_list, page) => page,
  deploymentFails: () => false,
  unreachable: () => false,
  neverExpire: () => false,
  numericExpiry: () => false,
};
