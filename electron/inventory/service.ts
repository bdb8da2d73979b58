/**
 * Devices, organizations, deployments and syslog servers of the signed-in nodes (issue 4): reads
 * come from the SQLite store (offline), refreshes page the node's lists into it (refresh.ts, composed
 * here), single calls (fetch, onboard, deploy) write through it. Bulk onboarding jobs (bulk.ts) reach
 * it through the ports the composition root builds (app/services.ts).
 */
import type { DeviceFacets, DeviceWindow, DeviceWindowQuery } from '../../shared/model/device-window';
import type { EmitEvent } from '../../shared/contract';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { DeviceGroups, DeviceRecord, DeviceView, OrganizationView, SyslogServer, TaskStatus } from '../../shared/model/inventory';
import type { Logger } from '../log';
import type { InventoryKind, InventoryStore, StoredList } from './store/inventory-store';
import { withDeviceIssues, withSyslogIssues } from './field-errors';
import type { StoredOrganization } from '../../shared/model/hierarchy';
import {
  AVAILABLE_ID_PATH,
  SYSLOG_PATH,
  deployPath,
  deviceBody,
  deviceGroupNamesPath,
  readDeviceGroupNames,
  DEFAULT_NAMESPACE,
  deviceFromAnswer,
  devicePath,
  readAvailableId,
  readDeployTaskId,
  readSyslogServers,
  taskFromNode,
  taskPath,
} from './node-api';
import type { NodeRequest } from '../mgmt/node-answer';
import { TaskFollower, deviceStatusOf, isFinal, type FollowOutcome, type TaskTiming } from './tasks';
import type { ListRefresh } from './list-paging';
import { InventoryRefresh, type RefreshResult } from './refresh';

export type { ListRefresh } from './list-paging';
import { deviceGroupsOf, findDeploymentTask, PerConnectionSchedule } from './node-lookups';

export interface InventoryTiming extends TaskTiming {
  /** Least time between two inventory.progress events of one list; default 100 ms. */
  progressIntervalMs?: number;
  /**
   * How often the devices' state on the node (the appliance list) is read again while signed in;
   * default 5 min, well inside the 15 min after which the window marks it old. 0 turns it off.
   */
  stateRefreshMs?: number;
}

export const STATE_REFRESH_MS = 5 * 60_000;

export interface InventoryServiceOptions extends InventoryTiming {
  store: InventoryStore;
  /** The signed-in session of a profile (SessionManager.get). */
  session(profileId: string): { request: NodeRequest; status(): { authMode: 'basic' | 'oauth'; state: string } };
  emit: EmitEvent;
  logger: Logger;
  /** The wrapper-key namespace set on a connection, if any (else the one learned from the node). */
  namespaceFor?(profileId: string): string | undefined;
}

export class InventoryService {
  readonly store: InventoryStore;
  private readonly follower: TaskFollower;
  /** The list refreshes (refresh.ts). */
  private readonly refreshes: InventoryRefresh;
  /** The devices' state read again on a schedule, per signed-in connection. */
  private readonly stateSchedule: PerConnectionSchedule;
  private readonly log: Logger;

  constructor(private readonly o: InventoryServiceOptions) {
    this.store = o.store;
    this.log = o.logger;
    this.follower = new TaskFollower({ store: o.store, onProgress: (t) => o.emit('task.progress', t), logger: o.logger.child('tasks'), ...pick(o, ['pollMs', 'maxMs', 'maxErrors']) });
    this.refreshes = new InventoryRefresh({
      store: o.store,
      request: (profileId) => this.request(profileId),
      emit: o.emit,
      log: o.logger,
      progressIntervalMs: o.progressIntervalMs,
      learnNamespace: (profileId, namespace) => this.learnNamespace(profileId, namespace),
      changed: (profileId, what) => this.changed(profileId, what),
    });
    this.stateSchedule = new PerConnectionSchedule(o.stateRefreshMs ?? STATE_REFRESH_MS, (profileId) => void this.refreshState(profileId));
  }

  request(profileId: string): NodeRequest {
    const session = this.o.session(profileId);
    return (method, path, body, opts) => session.request(method, path, body, opts);
  }

  /** Refuses at once, before any work is set up, when the profile's session cannot make calls. */
  requireSignedIn(profileId: string, what: string): void {
    const { state } = this.o.session(profileId).status();
    if (state === 'signed-in') return;
    throw state === 'sign-in-required'
      ? new AppError(ErrorCodes.signInRequired, `Sign in to the node again to ${what}.`, 'The session ended on the node’s side; sign in again, then retry.')
      : new AppError(ErrorCodes.notSignedIn, `Sign in to the node to ${what}.`, 'The stored lists stay readable offline; refreshing, onboarding and deploying need a signed-in session.');
  }

  async devices(profileId: string): Promise<StoredList<DeviceView> & { profileId: string }> {
    return { profileId, ...(await this.store.devices(profileId)) };
  }

  /** inventory.window: a page of the devices table, filtered, searched and sorted in the store (C-99). */
  async deviceWindow(q: DeviceWindowQuery): Promise<DeviceWindow> {
    return { profileId: q.profileId, ...(await this.store.deviceWindow(q.profileId, q.filter, q.sort, q.offset, q.limit)) };
  }

  /** inventory.facets: the devices page's count, filter choices and ages. */
  async deviceFacets(profileId: string): Promise<DeviceFacets> {
    return { profileId, ...(await this.store.deviceFacets(profileId)) };
  }

  async organizations(profileId: string): Promise<StoredList<OrganizationView> & { profileId: string }> {
    return { profileId, ...(await this.store.organizations(profileId)) };
  }

  /** Pages one list in and stores it whole, or joins the refresh running for it (refresh.ts); closing the service aborts it. */
  refreshList(profileId: string, what: 'devices'): Promise<ListRefresh<DeviceView>>;
  refreshList(profileId: string, what: 'organizations'): Promise<ListRefresh<StoredOrganization>>;
  refreshList(profileId: string, what: InventoryKind): Promise<ListRefresh<unknown>> {
    return what === 'devices' ? this.refreshes.refreshList(profileId, 'devices') : this.refreshes.refreshList(profileId, 'organizations');
  }

  /** The namespace of the node's wrapper keys: set on the connection, learned from its answers, or the spec's. */
  async namespace(profileId: string): Promise<string> {
    return this.o.namespaceFor?.(profileId) ?? (await this.store.nodeMeta(profileId, 'namespace')) ?? DEFAULT_NAMESPACE;
  }

  /** Keeps the namespace a node's answer revealed, so the next PUT carries the wrapper it expects. */
  private async learnNamespace(profileId: string, namespace: string | undefined): Promise<void> {
    if (!namespace || (await this.store.nodeMeta(profileId, 'namespace')) === namespace) return;
    await this.store.setNodeMeta(profileId, 'namespace', namespace);
    this.log.info('node namespace learned', { profileId, namespace });
  }

  /** After something changed on the node (a deployment ended): the device list and its state read again, then the window told (refresh.ts). */
  refreshAfter(profileId: string): Promise<void> {
    return this.refreshes.refreshAfter(profileId);
  }

  /** Session changes (app/services.ts): the devices' state is read on a schedule only while signed in. */
  onSession(profileId: string, state: string): void {
    this.stateSchedule.onSession(profileId, state);
  }

  /** One scheduled read of the devices' state on the node (refresh.ts); resolves true when it read the state. */
  refreshState(profileId: string): Promise<boolean> {
    return this.refreshes.refreshState(profileId);
  }

  /** inventory.refresh: pages the lists in, stores them, then says what changed (refresh.ts). */
  refresh(profileId: string, what: InventoryKind | 'all'): Promise<RefreshResult> {
    return this.refreshes.refresh(profileId, what);
  }

  /** Tells the window which stored lists of a node changed, with the stored counts (COUNT(*), not the lists). */
  async changed(profileId: string, what: InventoryKind[]): Promise<void> {
    const counts = { devices: await this.store.deviceCount(profileId), organizations: await this.store.organizationCount(profileId) };
    this.o.emit('inventory.changed', { profileId, what, counts });
  }

  /** devices.get: one device fresh from the node, stored; a device the node no longer has is removed from the store. */
  async getDevice(profileId: string, deviceName: string): Promise<DeviceView> {
    try {
      const { before, after } = await this.fetchDevice(profileId, deviceName);
      // Only a device that changed makes the window reload the stored list.
      if (JSON.stringify(before) !== JSON.stringify(after)) await this.changed(profileId, ['devices']);
      return after;
    } catch (e) {
      if (isNotFound(e) && (await this.store.deleteDevice(profileId, deviceName))) await this.changed(profileId, ['devices']);
      throw e;
    }
  }

  /** One device's whole record read from the node and stored, without an event (bulk jobs announce once at the end). */
  async readDevice(profileId: string, deviceName: string): Promise<DeviceView> {
    return (await this.fetchDevice(profileId, deviceName)).after;
  }

  private async fetchDevice(profileId: string, deviceName: string): Promise<{ before: DeviceView | undefined; after: DeviceView }> {
    const answer = deviceFromAnswer(await this.request(profileId)('GET', devicePath(deviceName)));
    await this.learnNamespace(profileId, answer.namespace);
    const before = await this.store.device(profileId, deviceName);
    // The record carries no status (real nodes): the listed status and task stay.
    const device = { ...answer.device, ...(before && !answer.device.workflowStatus ? { deploymentStatus: before.deploymentStatus, workflowStatus: before.workflowStatus, lastModifiedBy: before.lastModifiedBy, lastModifiedAt: before.lastModifiedAt } : {}), lastTaskId: answer.device.lastTaskId ?? before?.lastTaskId ?? null };
    await this.store.upsertDevice(profileId, device);
    // The stored device with its appliance state.
    return { before, after: (await this.store.device(profileId, device.deviceName)) ?? device };
  }

  /**
   * devices.groups (C-57): the node's device groups of an organization, each with how many stored
   * devices use it. A node that does not serve the list (404, 405, an answer that is not one), or a
   * call that fails, gives the groups the organization's stored devices use instead, with why.
   */
  async deviceGroups(profileId: string, orgName: string): Promise<DeviceGroups> {
    const listed = async () => {
      this.requireSignedIn(profileId, 'list its device groups');
      return readDeviceGroupNames(await this.request(profileId)('GET', deviceGroupNamesPath(orgName)));
    };
    return deviceGroupsOf(orgName, (await this.store.devices(profileId)).items, listed, (error) => this.log.info('device groups not listed by the node', { profileId, orgName, error }));
  }

  async nextSiteId(profileId: string): Promise<{ siteId: string }> {
    return { siteId: readAvailableId(await this.request(profileId)('GET', AVAILABLE_ID_PATH)) };
  }

  /** The PUT of one record (spec 4.2), stored; refusals carry the field they name. No event (callers batch them). */
  async putDevice(profileId: string, record: DeviceRecord): Promise<DeviceView> {
    let answer: unknown;
    try {
      answer = await this.request(profileId)('PUT', devicePath(record.deviceName), deviceBody(record, await this.namespace(profileId)));
    } catch (e) {
      throw withDeviceIssues(e, record);
    }
    const read = deviceFromAnswer(answer, record);
    await this.learnNamespace(profileId, read.namespace);
    await this.store.upsertDevice(profileId, read.device);
    return (await this.store.device(profileId, read.device.deviceName)) ?? read.device;
  }

  /** devices.onboard */
  async onboard(profileId: string, record: DeviceRecord): Promise<DeviceView> {
    const device = await this.putDevice(profileId, record);
    this.log.info('device onboarded', { profileId, deviceName: device.deviceName });
    await this.changed(profileId, ['devices']);
    return device;
  }

  /** Whether main is still following this task on the node (it stops at the task's end, a deadline or quit). */
  following(profileId: string, taskId: string): boolean {
    return this.follower.current(profileId, taskId) !== undefined;
  }

  /** Starts a deployment (MN-44) and follows its task; resolves when the task ends or following stops. */
  async startDeploy(profileId: string, deviceName: string): Promise<{ task: TaskStatus; outcome: Promise<FollowOutcome> }> {
    const request = this.request(profileId);
    // The request's step carries when it was sent: the node queues the task after that.
    const now = new Date().toISOString();
    const taskId = readDeployTaskId(await request('POST', deployPath(deviceName)));
    const message = `Deployment of ${deviceName} requested (task ${taskId}).`;
    const task: TaskStatus = { profileId, taskId, deviceName, state: 'pending', percent: 0, message, startedAt: now, endedAt: null, steps: [{ at: now, message, level: 'info', timeFrom: 'console' }] };
    this.log.info('deployment started', { profileId, deviceName, taskId });
    const outcome = this.follower.follow(request, task);
    // The device is stored as deploying before the caller tells the window (a read then sees it).
    await this.follower.recorded(profileId, taskId);
    return { task, outcome };
  }

  /** devices.deploy: answers at once; the task is followed in the background (task.progress). */
  async deploy(profileId: string, deviceName: string): Promise<TaskStatus> {
    const { task, outcome } = await this.startDeploy(profileId, deviceName);
    await this.changed(profileId, ['devices']);
    void outcome.then(async (end) => {
      await this.changed(profileId, ['devices']);
      if (!end.finished) this.notUntilTheEnd(end);
      // The node's status and the device's state after the task (a new appliance once deployed).
      else await this.refreshAfter(profileId);
    });
    return task;
  }

  notUntilTheEnd(end: FollowOutcome): void {
    const t = end.task;
    this.o.emit('notice', {
      level: 'warning',
      message: `Stopped following the deployment of ${t.deviceName} (task ${t.taskId}) at ${t.percent} %: ${end.reason ?? 'no answer'}.`,
      hint: 'The deployment may still be running on the node; open the device later to see how it ended.',
    });
  }

  /** tasks.get: the followed or stored task; an unfinished or unknown one is asked of the node. */
  async task(profileId: string, taskId: string): Promise<TaskStatus> {
    const followed = this.follower.current(profileId, taskId);
    if (followed) return followed;
    const stored = await this.store.task(profileId, taskId);
    if (stored && isFinal(stored.state)) return stored;
    try {
      const fresh = taskFromNode(await this.request(profileId)('GET', taskPath(taskId)), profileId, taskId, stored?.deviceName, stored);
      await this.store.putTask(fresh);
      if (fresh.deviceName && (await this.store.device(profileId, fresh.deviceName))?.lastTaskId === taskId) {
        await this.store.setDeploymentStatus(profileId, fresh.deviceName, deviceStatusOf(fresh.state), taskId);
      }
      return fresh;
    } catch (e) {
      if (stored) return stored;
      throw e;
    }
  }

  /**
   * tasks.lastOf (C-56): the device's last deployment task. The one the console knows, else the
   * newest naming the device among the node's newest 1,000 tasks (its task list), stored and made
   * the device's last task. Null when there is none, or the node does not list its tasks.
   */
  async lastTaskOf(profileId: string, deviceName: string): Promise<TaskStatus | null> {
    const known = (await this.store.device(profileId, deviceName))?.lastTaskId;
    if (known) return this.task(profileId, known);
    this.requireSignedIn(profileId, `look up the last task of ${deviceName}`);
    const found = await findDeploymentTask(this.request(profileId), profileId, deviceName);
    if (!found) return null;
    await this.store.putTask(found);
    const device = await this.store.device(profileId, deviceName);
    if (device && (await this.store.setDeploymentStatus(profileId, deviceName, device.deploymentStatus, found.taskId))) await this.changed(profileId, ['devices']);
    return found;
  }

  async syslogList(profileId: string): Promise<SyslogServer[]> {
    return readSyslogServers(await this.request(profileId)('GET', SYSLOG_PATH));
  }

  /** syslog.create: POST (spec 2.4), then the node's list; refusals carry the field (`port`, `host`). */
  async syslogCreate(profileId: string, server: SyslogServer): Promise<SyslogServer[]> {
    try {
      await this.request(profileId)('POST', SYSLOG_PATH, { server: { host: server.host, port: server.port, enabled: server.enabled } });
    } catch (e) {
      throw withSyslogIssues(e);
    }
    this.log.info('syslog server added', { profileId, host: server.host });
    return this.syslogList(profileId);
  }

  forgetProfile(profileId: string): Promise<void> {
    return this.store.forgetProfile(profileId);
  }

  /** Stops refreshes and following tasks (they go on on the node) and closes the store. */
  async close(): Promise<void> {
    this.refreshes.close();
    this.stateSchedule.close();
    await this.follower.close();
    await this.store.close();
  }
}

function pick<T extends object, K extends keyof T>(o: T, keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

/** The node does not know the device: code 4015 of spec 7.1, or a plain 404 (real nodes' VNMS-style body). */
const isNotFound = (e: unknown) => e instanceof AppError && (e.code === 'api.4015' || e.code === ErrorCodes.httpNotFound);
