/**
 * The management node simulator's fault switches (test-only): a mutable object a test sets at
 * any time, and the hooks (fault-hooks.ts) that read it. Only the testing entry carries them.
 */
import { CustomError } from '../errors';
import type { MgmtFaultHooks } from '../fault-hooks';
import { loginPageReply } from '../http';

/** Fault switches; mutable at any time. */
export interface SimFaults {
  /** Every API path on both ports answers 200 text/html with the login page (MN-26). */
  loginPage: boolean;
  /** Token responses carry expires_in / refresh_expires_in as numbers instead of strings (MN-3). */
  expiresInAsNumber: boolean;
  /** Tokens issued while on never expire; expires_in is "-1" (MN-3). */
  neverExpire: boolean;
  /** An empty page of a list call answers 204 No Content (MN-27). */
  emptyListAs204: boolean;
  /** Pages of /mgmt list calls hold at most this many records whatever `limit` asks; 0 = off (MN-47). */
  pageCap: number;
  /** The next N deployments fail at 50 %; each deployment started takes one off (MN-45). */
  deployFailures: number;
  /** Real milliseconds every data endpoint waits before it answers (after authentication); 0 = off. */
  dataDelayMs: number;
  /** The first N records of the devices list come without `deviceName` (records a console cannot read). */
  namelessDevices: number;
  /** The first record of the devices list and of the organizations list carry names this many characters long (issue 20.5); 0 = off. */
  longNames: number;
  /** Data endpoints whose path starts with one of these answer 503 (after authentication). */
  failingPaths: string[];
  /** Data endpoints whose path starts with one of these answer 404 as an unknown path does (a node or stand-in without them). */
  unservedPaths: string[];
  /** Devices whose appliance the appliance list shows UNREACHABLE (sync UNKNOWN), whatever their name decides. */
  unreachableDevices: string[];
}

export const defaultMgmtFaults = (): SimFaults => ({
  loginPage: false,
  expiresInAsNumber: false,
  neverExpire: false,
  emptyListAs204: false,
  pageCap: 0,
  deployFailures: 0,
  dataDelayMs: 0,
  failingPaths: [],
  unservedPaths: [],
  namelessDevices: 0,
  longNames: 0,
  unreachableDevices: [],
});

/** `name` made `length` characters long (the longNames fault: a node sending names it should not). */
export const longName = (name: string, length: number): string => name + 'x'.repeat(Math.max(0, length - name.length));

/** The hooks reading `f` at every request. */
export function mgmtFaultHooks(f: SimFaults): MgmtFaultHooks {
  return {
    intercept: () => (f.loginPage ? loginPageReply() : undefined),
    beforeData(path) {
      if (f.failingPaths.some((prefix) => path.startsWith(prefix))) throw new CustomError(503, 5030, 'SERVICE_UNAVAILABLE', `${path} is not available right now.`);
      if (Array.isArray(f.unservedPaths) && f.unservedPaths.some((prefix) => path.startsWith(prefix))) throw new CustomError(404, 0, 'Not Found', `No resource at ${path} on this port.`);
      const delay = f.dataDelayMs;
      return Number.isFinite(delay) && delay > 0 ? new Promise((resolve) => setTimeout(resolve, delay)) : undefined;
    },
    pageSize: (limit) => Math.min(limit, Number.isFinite(f.pageCap) && f.pageCap >= 1 ? Math.floor(f.pageCap) : limit),
    emptyListAs204: () => f.emptyListAs204,
    firstPage(list, page) {
      if (list === 'organizations') {
        // The first organization's name that long (the page holds the node's shared records: copy).
        if (f.longNames > 0 && page[0]) page[0] = { ...page[0], name: longName(String(page[0].name), f.longNames) };
        return page;
      }
      // The first records of the list without their name; the first record's name (and what it says of itself) that long.
      for (const r of page.slice(0, f.namelessDevices)) delete r.deviceName;
      if (f.longNames > 0 && page[0]) Object.assign(page[0], { deviceName: longName(String(page[0].deviceName), f.longNames), lastModifiedBy: longName('by', f.longNames) });
      return page;
    },
    deploymentFails() {
      const fails = f.deployFailures >= 1;
      if (fails) f.deployFailures -= 1;
      return fails;
    },
    unreachable: (deviceName) => Array.isArray(f.unreachableDevices) && f.unreachableDevices.includes(deviceName),
    neverExpire: () => f.neverExpire,
    numericExpiry: () => f.expiresInAsNumber,
  };
}
