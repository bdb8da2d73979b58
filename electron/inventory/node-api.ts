/**
 * The node's inventory paths and how its answers become console records (spec 2.3, 4.2;
 * MN-35, MN-40..MN-45). Readers are lenient where real nodes vary (vendor prefixes of task keys,
 * numbers sent as strings) and strict where a wrong value would mislead (a device record that
 * fails the record's rules is dropped and counted, not shown half right).
 */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { DeviceView, SyslogServer, type DeploymentStatus, type DeviceRecord, type TaskState, type TaskStatus } from '../../shared/model/inventory';
import type { StoredOrganization } from './hierarchy';
import type { Page } from './paging';
import { pathSegment } from '../net/path-segment';

export const DEVICES_PATH = '/mgmt/sdwan/workflow/devices';
export const ORGANIZATIONS_PATH = '/mgmt/organization/orgs';
export const AVAILABLE_ID_PATH = '/mgmt/sdwan/global/Branch/availableId';
export const SYSLOG_PATH = '/api/config/system/syslog-servers';
/** The wrapper key of the device workflow record (spec 2.3, the vendor namespace replaced). */
export const DEVICE_WRAPPER = 'mgmt.sdwan-device-workflow';

export const devicePath = (name: string) => `${DEVICES_PATH}/device/${pathSegment(name, 'device name')}`;
export const deployPath = (name: string) => `${DEVICES_PATH}/device/deploy/${pathSegment(name, 'device name')}`;
export const taskPath = (id: string) => `/mgmt/tasks/task/${pathSegment(id, 'task ID')}`;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);
const count = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 ? n : undefined;
};

export function unexpectedAnswer(what: string): AppError {
  return new AppError(ErrorCodes.unexpectedResponse, `The node sent ${what} the console cannot read.`, 'The node may run an incompatible release; show this to its administrator if it stays.');
}

function listOf(body: unknown, key: string, what: string): Page<unknown> {
  if (!isObject(body)) throw unexpectedAnswer(what);
  const list = body[key];
  if (list !== undefined && !Array.isArray(list)) throw unexpectedAnswer(what);
  return { items: (list as unknown[] | undefined) ?? [], total: count(body.totalCount) };
}

export const readDevicesPage = (body: unknown): Page<unknown> => listOf(body, 'devices', 'a device list');

export function readOrganizationsPage(body: unknown): Page<StoredOrganization> {
  const page = listOf(body, 'organizations', 'an organization list');
  const items: StoredOrganization[] = [];
  for (const raw of page.items) {
    if (!isObject(raw)) continue;
    const name = text(raw.name)?.trim();
    if (!name) continue;
    const parent = text(raw.parent)?.trim();
    const plan = text(raw.subscriptionPlan)?.trim();
    items.push({ uuid: text(raw.uuid) ?? '', name, parent: parent ? parent : null, subscriptionPlan: plan ? plan : null });
  }
  return { items, total: page.total };
}

const STATUS: Record<string, DeploymentStatus> = {
  SAVED: 'saved',
  DEPLOYING: 'deploying',
  PENDING: 'deploying',
  IN_PROGRESS: 'deploying',
  DEPLOYED: 'deployed',
  COMPLETED: 'deployed',
  FAILED: 'failed',
};

/** A node device record (list entry or single answer) as the console shows it; undefined when it breaks the record's rules. */
export function deviceFromNode(raw: unknown): DeviceView | undefined {
  if (!isObject(raw)) return undefined;
  const loc = isObject(raw.locationInfo) ? raw.locationInfo : {};
  const parsed = DeviceView.safeParse({
    deviceName: text(raw.deviceName),
    siteId: text(raw.siteId),
    orgName: text(raw.orgName),
    serialNumber: text(raw.serialNumber),
    deviceGroup: text(raw.deviceGroup),
    locationInfo: { country: text(loc.country), latitude: text(loc.latitude), longitude: text(loc.longitude) },
    deploymentStatus: STATUS[(text(raw.deploymentStatus) ?? 'SAVED').toUpperCase()] ?? 'saved',
    lastTaskId: text(raw.lastTaskId) ?? null,
  });
  return parsed.success ? parsed.data : undefined;
}

/** The record of a PUT or single GET answer: `{ "mgmt.sdwan-device-workflow": {...} }` (MN-35, MN-41). */
export function deviceFromAnswer(body: unknown, fallback?: DeviceRecord): DeviceView {
  const inner = isObject(body) ? (body[DEVICE_WRAPPER] ?? Object.values(body).find(isObject)) : undefined;
  const device = deviceFromNode(inner);
  if (device) return device;
  // A node that answers a PUT with an empty body: the record we sent, saved.
  if (fallback && (body === undefined || (isObject(body) && Object.keys(body).length === 0))) return { ...fallback, deploymentStatus: 'saved', lastTaskId: null };
  throw unexpectedAnswer('a device record');
}

/** The body of a PUT (spec 2.3). */
export const deviceBody = (d: DeviceRecord) => ({
  [DEVICE_WRAPPER]: {
    deviceName: d.deviceName,
    siteId: d.siteId,
    orgName: d.orgName,
    serialNumber: d.serialNumber,
    deviceGroup: d.deviceGroup,
    locationInfo: { country: d.locationInfo.country, longitude: d.locationInfo.longitude, latitude: d.locationInfo.latitude },
  },
});

/** Two records the node would treat as the same device (MN-48: running a file again does no work). */
export function sameRecord(a: DeviceRecord, b: DeviceRecord): boolean {
  return (
    a.deviceName === b.deviceName &&
    Number(a.siteId) === Number(b.siteId) &&
    a.orgName === b.orgName &&
    a.serialNumber === b.serialNumber &&
    a.deviceGroup === b.deviceGroup &&
    a.locationInfo.country.toUpperCase() === b.locationInfo.country.toUpperCase() &&
    a.locationInfo.latitude === b.locationInfo.latitude &&
    a.locationInfo.longitude === b.locationInfo.longitude
  );
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

function messagesOf(v: unknown): string[] {
  const holder = isObject(v) ? Object.values(v)[0] : v;
  const list = Array.isArray(holder) ? holder : holder === undefined ? [] : [holder];
  return list.map((m) => (isObject(m) ? text(unprefixed(m).message) : text(m))).filter((m): m is string => !!m);
}

/** MN-45: the task object, keys with or without the vendor prefix. */
export function taskFromNode(body: unknown, profileId: string, taskId: string, deviceName?: string): TaskStatus {
  const outer = isObject(body) ? Object.values(body).find(isObject) : undefined;
  if (!outer) throw unexpectedAnswer('a task');
  const t = unprefixed(outer);
  const raw = (text(t['task-status']) ?? '').toUpperCase().replace(/[\s-]/g, '_');
  const state = TASK_STATE[raw] ?? 'in-progress';
  const percent = Math.min(100, Math.max(0, Number(text(t['percentage-completion']) ?? 0) || 0));
  const errors = messagesOf(t.errormessages);
  const progress = messagesOf(t.progressmessages);
  const name = deviceName ?? /^Deploy (.+)$/.exec(text(t['task-name']) ?? '')?.[1] ?? '';
  return {
    profileId,
    taskId: text(t.id) ?? taskId,
    deviceName: name,
    state,
    percent: state === 'completed' ? 100 : percent,
    message: (state === 'failed' ? errors.at(-1) : undefined) ?? progress.at(-1) ?? errors.at(-1) ?? '',
    startedAt: text(t['start-time']) ?? null,
    endedAt: text(t['end-time']) ?? null,
  };
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
