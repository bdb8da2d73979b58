/**
 * The node's inventory paths and how its answers become console records (spec 2.3, 4.2;
 * MN-35, MN-40..MN-45). Readers are lenient where real nodes vary (vendor prefixes of task keys,
 * numbers sent as strings) and strict where a wrong value would mislead (a device record that
 * fails the record's rules is dropped and counted, not shown half right).
 */
import { boundStrings, boundText, LIMITS } from '../../shared/model/limits';
import { mergeSteps, type NodeStep } from './task-steps';
import { SyslogServer, type DeploymentStatus, type DeviceRecord, type DeviceView, type TaskState, type TaskStatus } from '../../shared/model/inventory';
import type { StoredOrganization } from '../../shared/model/hierarchy';
import { byKeySuffix, count, filled, isObject, listOf, nodeTime, text, unexpectedAnswer, type NodePage } from '../mgmt/node-answer';
import { pathSegment } from '../net/path-segment';

export const DEVICES_PATH = '/mgmt/sdwan/workflow/devices';
export const ORGANIZATIONS_PATH = '/mgmt/organization/orgs';
export const AVAILABLE_ID_PATH = '/mgmt/sdwan/global/Branch/availableId';
export const SYSLOG_PATH = '/api/config/system/syslog-servers';
/**
 * The namespace of the node's wrapper keys: `mgmt.` in the spec's words; real nodes of the
 * product family send `versanms.` (MN-49). Learned from the node's own answers, or set per
 * connection; this is the default until one is known.
 */
export const DEFAULT_NAMESPACE = 'mgmt';
/** The wrapper key of the device workflow record (spec 2.3), in a namespace. */
export const deviceWrapper = (namespace = DEFAULT_NAMESPACE) => `${namespace}.sdwan-device-workflow`;

export const devicePath = (name: string) => `${DEVICES_PATH}/device/${pathSegment(name, 'device name')}`;
export const deployPath = (name: string) => `${DEVICES_PATH}/device/deploy/${pathSegment(name, 'device name')}`;
export const taskPath = (id: string) => `/mgmt/tasks/task/${pathSegment(id, 'task ID')}`;
/** An organization's device group names (C-57): real nodes' `/nextgen` call; the spec shows none. */
export const deviceGroupNamesPath = (orgName: string) => `/nextgen/deviceGroup/deviceGroupNames?organization=${encodeURIComponent(orgName)}`;

/**
 * The names of a device group list, read leniently (C-57): an array of names, or of records with a
 * `name`, bare or under any one key (`{"deviceGroupNames": […]}`, `{"device-group": [{name}]}`).
 * Blank and repeated names are dropped; the rest sorted. Anything else is an unexpected answer.
 */
export function readDeviceGroupNames(body: unknown): string[] {
  let list: unknown = body;
  if (isObject(body)) list = Object.values(body).find(Array.isArray) ?? (isObject(Object.values(body)[0]) ? Object.values(Object.values(body)[0] as object).find(Array.isArray) : undefined);
  if (!Array.isArray(list)) throw unexpectedAnswer('a device group list');
  const names = new Set<string>();
  for (const item of list) {
    const name = filled(isObject(item) ? item.name : item);
    if (name) names.add(name.slice(0, LIMITS.name));
  }
  return [...names].sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
}


/** Device workflow list: `<ns>.sdwan-device-list` on real nodes (MN-49), `devices` on older simulators. */
export const readDevicesPage = (body: unknown): NodePage<unknown> => listOf(body, ['sdwan-device-list', 'devices'], 'a device list');

export function readOrganizationsPage(body: unknown): NodePage<unknown> {
  return listOf(body, ['organizations'], 'an organization list');
}

/**
 * One organization record; undefined when it has no name. The parent is `paraentOrg` on real
 * nodes (the live API misspells it; absent on the root), `parentOrg` or `parent` elsewhere; the
 * plan `plan` or `subscriptionPlan`.
 */
export function organizationFromNode(raw: unknown): StoredOrganization | undefined {
  if (!isObject(raw)) return undefined;
  const name = filled(raw.name);
  if (!name) return undefined;
  const parent = filled(raw.paraentOrg) ?? filled(raw.parentOrg) ?? filled(raw.parent);
  const plan = filled(raw.plan) ?? filled(raw.subscriptionPlan);
  return boundStrings({ uuid: text(raw.uuid) ?? '', name, parent: parent ?? null, subscriptionPlan: plan ?? null }, LIMITS.name);
}

const STATUS: Record<string, DeploymentStatus> = {
  SAVED: 'saved',
  CREATED: 'saved',
  DEPLOYING: 'deploying',
  PENDING: 'deploying',
  IN_PROGRESS: 'deploying',
  INPROGRESS: 'deploying',
  DEPLOYED: 'deployed',
  COMPLETED: 'deployed',
  SUCCESS: 'deployed',
  FAILED: 'failed',
  FAILURE: 'failed',
};
const statusOf = (raw: string | undefined): DeploymentStatus => STATUS[(raw ?? 'SAVED').toUpperCase().replace(/[\s-]+/g, '_')] ?? 'saved';


/**
 * A node device record (list entry or single answer) as the console shows it; undefined only
 * when it names no device. Everything else is read as sent: strings and numbers alike, "" as
 * unknown, either the real nodes' `workflowStatus` or the older `deploymentStatus`.
 */
export function deviceFromNode(raw: unknown): DeviceView | undefined {
  if (!isObject(raw)) return undefined;
  const deviceName = filled(raw.deviceName);
  if (!deviceName) return undefined;
  const loc = isObject(raw.locationInfo) ? raw.locationInfo : undefined;
  const country = filled(loc?.country);
  const latitude = filled(loc?.latitude);
  const longitude = filled(loc?.longitude);
  const status = filled(raw.workflowStatus) ?? filled(raw.deploymentStatus);
  return boundStrings<DeviceView>({
    deviceName,
    siteId: filled(raw.siteId) ?? null,
    orgName: filled(raw.orgName) ?? null,
    serialNumber: filled(raw.serialNumber) ?? null,
    deviceGroup: filled(raw.deviceGroup) ?? null,
    locationInfo: country || latitude || longitude ? { country: country ?? '', latitude: latitude ?? '', longitude: longitude ?? '' } : null,
    deploymentStatus: statusOf(status),
    workflowStatus: status ?? null,
    lastModifiedBy: filled(raw.lastModifiedBy) ?? null,
    lastModifiedAt: nodeTime(raw.lastModifiedTime) ?? null,
    lastTaskId: filled(raw.lastTaskId) ?? null,
    appliance: null,
  }, LIMITS.name);
}

/** The record of a PUT or single GET answer: `{ "<ns>.sdwan-device-workflow": {...} }` (MN-35, MN-41). */
export function deviceFromAnswer(body: unknown, fallback?: DeviceRecord): { device: DeviceView; namespace?: string } {
  const found = isObject(body) ? byKeySuffix(body, 'sdwan-device-workflow') : undefined;
  const device = deviceFromNode(found?.value);
  if (device) return { device, ...(found?.namespace ? { namespace: found.namespace } : {}) };
  // A node that answers a PUT with an empty body: the record we sent, saved.
  if (fallback && (body === undefined || (isObject(body) && Object.keys(body).length === 0))) return { device: recordView(fallback) };
  throw unexpectedAnswer('a device record');
}

/** A record the console sent, as the view of a device saved on the node. */
export const recordView = (d: DeviceRecord): DeviceView => ({
  ...d,
  locationInfo: { ...d.locationInfo },
  deploymentStatus: 'saved',
  workflowStatus: null,
  lastModifiedBy: null,
  lastModifiedAt: null,
  lastTaskId: null,
  appliance: null,
});

/** The body of a PUT (spec 2.3), wrapped in the node's namespace. */
export const deviceBody = (d: DeviceRecord, namespace = DEFAULT_NAMESPACE) => ({
  [deviceWrapper(namespace)]: {
    deviceName: d.deviceName,
    siteId: d.siteId,
    orgName: d.orgName,
    serialNumber: d.serialNumber,
    deviceGroup: d.deviceGroup,
    locationInfo: { country: d.locationInfo.country, longitude: d.locationInfo.longitude, latitude: d.locationInfo.latitude },
  },
});

/** True when the stored device holds its whole record (not only what the node's list says). */
export const recordKnown = (d: DeviceView): boolean => d.siteId !== null && d.orgName !== null && d.serialNumber !== null && d.deviceGroup !== null && d.locationInfo !== null;

/** One field in which a file's record differs from the device on the node: the label, the node's value, the file's. */
export interface FieldChange {
  field: string;
  node: string;
  file: string;
}

/**
 * The fields in which record `a` differs from the stored device `b`, in the form's order (a field
 * the node's list did not give counts as differing, shown as "—"). Numbers compare as numbers,
 * the country code in any case.
 */
export function recordDiff(a: DeviceRecord, b: DeviceView): FieldChange[] {
  const out: FieldChange[] = [];
  const text = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? '—' : v);
  const check = (field: string, node: string | null | undefined, file: string, same: (x: string) => boolean) => {
    if (node === null || node === undefined || !same(node)) out.push({ field, node: text(node), file: text(file) });
  };
  check('site ID', b.siteId, a.siteId, (x) => Number(x) === Number(a.siteId));
  check('organization', b.orgName, a.orgName, (x) => x === a.orgName);
  check('serial number', b.serialNumber, a.serialNumber, (x) => x === a.serialNumber);
  check('device group', b.deviceGroup, a.deviceGroup, (x) => x === a.deviceGroup);
  const loc = b.locationInfo;
  check('country', loc?.country, a.locationInfo.country, (x) => x.toUpperCase() === a.locationInfo.country.toUpperCase());
  check('latitude', loc?.latitude, a.locationInfo.latitude, (x) => Number(x) === Number(a.locationInfo.latitude));
  check('longitude', loc?.longitude, a.locationInfo.longitude, (x) => Number(x) === Number(a.locationInfo.longitude));
  return out;
}

/** "serial number SN-1 → SN-2; device group — → Branch" (what a replace would change). */
export const changeText = (changes: readonly FieldChange[]): string => changes.map((c) => `${c.field} ${c.node} → ${c.file}`).join('; ');

/**
 * A record and a stored device the node would treat as the same (MN-48: running a file again
 * does no work). A stored device whose record is not known whole (only listed) is never the same.
 */
export function sameRecord(a: DeviceRecord, b: DeviceView): boolean {
  return a.deviceName === b.deviceName && recordDiff(a, b).length === 0;
}

/** MN-43: `{"AvailableIDResponseModel": {"branchId": n}}`. */
export function readAvailableId(body: unknown): string {
  const model = isObject(body) ? (body.AvailableIDResponseModel ?? body) : undefined;
  const id = isObject(model) ? count(model.branchId) : undefined;
  if (id === undefined || id < 1) throw unexpectedAnswer('a next site ID');
  return String(id);
}

/** MN-44: `{"TaskResponse": {"task-id": "<n>", "link": …}}`. */
export function readDeployTaskId(body: unknown): string {
  const res = isObject(body) ? (body.TaskResponse ?? body) : undefined;
  const id = isObject(res) ? text(res['task-id'] ?? res.taskId ?? res.id) : undefined;
  if (!id) throw unexpectedAnswer('a deployment answer without a task id');
  return id;
}

/** Keys without their vendor prefix: `mgmt-tasks.task-status` → `task-status`. */
function unprefixed(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[k.slice(k.lastIndexOf('.') + 1)] = v;
  return out;
}

const TASK_STATE: Record<string, TaskState> = {
  PENDING: 'pending',
  QUEUED: 'pending',
  IN_PROGRESS: 'in-progress',
  RUNNING: 'in-progress',
  COMPLETED: 'completed',
  SUCCESS: 'completed',
  FAILED: 'failed',
  ERROR: 'failed',
};

/** The messages of a task list (`progressmessages`, `errormessages`), each with the node's time when it gave one. */
function messagesOf(v: unknown, level: NodeStep['level']): NodeStep[] {
  const holder = isObject(v) ? Object.values(v)[0] : v;
  const list = Array.isArray(holder) ? holder : holder === undefined ? [] : [holder];
  return list.flatMap((m) => {
    const fields = isObject(m) ? unprefixed(m) : undefined;
    const message = boundText(fields ? text(fields.message) : text(m), LIMITS.text);
    return message ? [{ message, level, at: nodeTime(fields?.time) ?? null }] : [];
  });
}

/**
 * MN-45: the task object, keys with or without the vendor prefix. `previous` (the task as last
 * seen) keeps its step log: the node's messages are added to it, stamped `seenAt` where the
 * node gives no time (electron/inventory/task-steps.ts).
 */
export function taskFromNode(body: unknown, profileId: string, taskId: string, deviceName?: string, previous?: TaskStatus, seenAt: Date = new Date()): TaskStatus {
  const outer = isObject(body) ? Object.values(body).find(isObject) : undefined;
  if (!outer) throw unexpectedAnswer('a task');
  const t = unprefixed(outer);
  const raw = (text(t['task-status']) ?? '').toUpperCase().replace(/[\s-]/g, '_');
  const state = TASK_STATE[raw] ?? 'in-progress';
  const percent = Math.min(100, Math.max(0, Number(text(t['percentage-completion']) ?? 0) || 0));
  const errorSteps = messagesOf(t.errormessages, 'error');
  const progressSteps = messagesOf(t.progressmessages, 'info');
  const errors = errorSteps.map((m) => m.message);
  const progress = progressSteps.map((m) => m.message);
  const name = deviceName ?? boundText(/^Deploy (.+)$/.exec(text(t['task-name']) ?? '')?.[1] ?? '', LIMITS.name);
  return {
    profileId,
    taskId: boundText(text(t.id), LIMITS.name) ?? taskId,
    deviceName: name,
    state,
    percent: state === 'completed' ? 100 : percent,
    message: (state === 'failed' ? errors.at(-1) : undefined) ?? progress.at(-1) ?? errors.at(-1) ?? '',
    startedAt: boundText(text(t['start-time']), LIMITS.name) ?? null,
    endedAt: boundText(text(t['end-time']), LIMITS.name) ?? null,
    steps: mergeSteps(previous?.steps ?? [], [...progressSteps, ...errorSteps], seenAt),
  };
}

/** The node's task list (C-56), newest first: `{"totalCount", "<ns>-tasks.task": [task, …]}`. */
export const TASKS_PATH = '/mgmt/tasks/task';
export const readTasksPage = (body: unknown): NodePage<unknown> => listOf(body, ['task', 'tasks'], 'a task list');

/**
 * The newest deployment task of `deviceName` in a page of the task list (C-56): named
 * `Deploy <name>`, or naming the device as a whole word in its name or description. Undefined
 * when none is.
 */
export function deploymentTaskIn(items: readonly unknown[], profileId: string, deviceName: string, seenAt: Date = new Date()): TaskStatus | undefined {
  const word = new RegExp(`(^|[\\s"'(])${deviceName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}($|[\\s"'),.:;])`);
  for (const item of items) {
    if (!isObject(item)) continue;
    const t = unprefixed(item);
    const id = text(t.id);
    const named = text(t['task-name']) ?? '';
    if (!id || !(named === `Deploy ${deviceName}` || word.test(named) || word.test(text(t['task-description']) ?? ''))) continue;
    return taskFromNode({ task: item }, profileId, id, deviceName, undefined, seenAt);
  }
  return undefined;
}

/** MN-36: `{"syslog-servers": {"server": [...]}}`; entries that are not servers are left out. */
export function readSyslogServers(body: unknown): SyslogServer[] {
  if (body === undefined) return [];
  const root = isObject(body) ? body['syslog-servers'] : undefined;
  if (root === undefined) return [];
  const list = isObject(root) ? root.server : undefined;
  const items = Array.isArray(list) ? list : list === undefined ? [] : [list];
  const out: SyslogServer[] = [];
  for (const s of items) {
    if (!isObject(s)) continue;
    const port = count(s.port);
    const parsed = SyslogServer.safeParse({ host: text(s.host), port, enabled: s.enabled === true || s.enabled === 'true' });
    if (parsed.success) out.push(parsed.data);
  }
  return out;
}
