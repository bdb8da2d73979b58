/**
 * What the console looks up on the node beside its lists (issue 22.6, 22.11): an organization's
 * device groups (C-57) and a device's last deployment task in the node's task list (C-56). Both
 * are calls a node (or a stand-in written from the spec) may not serve: `isUnserved` tells.
 */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { DeviceGroups, DeviceView, TaskStatus } from '../../shared/model/inventory';
import type { NodeRequest } from '../mgmt/node-answer';
import { deploymentTaskIn, readTasksPage, TASKS_PATH } from './node-api';

/** How far back a task lookup reads the node's task list, and its page size (MN-34's largest). */
const TASK_LOOKUP_MAX = 1000;
const TASK_PAGE = 500;

/** The node does not serve the call: 404, 405, or an answer that is not what it should be. */
export const isUnserved = (e: unknown): boolean => e instanceof AppError && (e.status === 404 || e.status === 405 || e.code === ErrorCodes.unexpectedResponse);

/**
 * The device groups of `orgName`, each with how many `stored` devices use it: the node's list
 * (`listed`), or, when that fails, the groups the stored devices use, most used first, with why.
 */
export async function deviceGroupsOf(orgName: string, stored: readonly DeviceView[], listed: () => Promise<string[]>, onFailure: (message: string) => void): Promise<DeviceGroups> {
  const counts = new Map<string, number>();
  for (const d of stored) if (d.orgName === orgName && d.deviceGroup) counts.set(d.deviceGroup, (counts.get(d.deviceGroup) ?? 0) + 1);
  const withCounts = (names: Iterable<string>) => [...names].map((name) => ({ name, devices: counts.get(name) ?? 0 }));
  try {
    return { orgName, source: 'node', groups: withCounts(await listed()), note: null };
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    onFailure(message);
    const groups = withCounts([...counts.keys()].sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0) || a.localeCompare(b, 'en')));
    return { orgName, source: 'stored', groups, note: isUnserved(e) ? 'The node does not list device groups.' : `The node’s device groups could not be read: ${message}` };
  }
}

/** The newest deployment task naming `deviceName` among the node's newest 1,000 tasks; null when none, or the node lists no tasks. */
export async function findDeploymentTask(request: NodeRequest, profileId: string, deviceName: string): Promise<TaskStatus | null> {
  for (let offset = 0; offset < TASK_LOOKUP_MAX; offset += TASK_PAGE) {
    let page: { items: unknown[]; total?: number };
    try {
      page = readTasksPage(await request('GET', `${TASKS_PATH}?offset=${offset}&limit=${TASK_PAGE}`));
    } catch (e) {
      if (isUnserved(e)) return null;
      throw e;
    }
    const found = deploymentTaskIn(page.items, profileId, deviceName);
    if (found) return found;
    if (page.items.length < TASK_PAGE || (page.total !== undefined && offset + TASK_PAGE >= page.total)) return null;
  }
  return null;
}

/** A job run every `everyMs` for each signed-in connection (the devices' state, C-56); none for others. */
export class PerConnectionSchedule {
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private closed = false;

  constructor(
    private readonly everyMs: number,
    private readonly run: (profileId: string) => void,
  ) {}

  onSession(profileId: string, state: string): void {
    const timer = this.timers.get(profileId);
    if (state !== 'signed-in' || this.everyMs <= 0 || this.closed) {
      if (timer) clearInterval(timer);
      this.timers.delete(profileId);
      return;
    }
    if (timer) return;
    const t = setInterval(() => this.run(profileId), this.everyMs);
    t.unref();
    this.timers.set(profileId, t);
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers.values()) clearInterval(t);
    this.timers.clear();
  }
}
