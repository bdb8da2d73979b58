/**
 * Device workflow and task endpoints (spec 4.2; MN-40..MN-45): list, fetch and PUT devices, the
 * next free site ID, deployment and task status. The list, the single record and the "no such
 * device" error are in the shapes real nodes answer (issue 8, device-wire.ts).
 */
import { DEVICE_WRAPPER, invalidRequest, parseDevice } from './device-rules';
import { DEVICE_LIST_KEY, deviceListRecord, deviceWorkflowRecord } from './device-wire';
import { CustomError, VnmsError } from './errors';
import { json } from './http';
import type { SimInventory } from './inventory';
import { listReply, pageOf } from './paging';
import type { Handler, Route, SimContext } from './routes';
import { isRunning, TASK_WRAPPER, taskBody } from './tasks';

export const DEVICES_PATH = '/mgmt/sdwan/workflow/devices';
export const AVAILABLE_ID_PATH = '/mgmt/sdwan/global/Branch/availableId';
export const TASK_PATH = '/mgmt/tasks/task';
/** Real nodes' device group names of an organization (C-57); `/nextgen` has no `/vnms` to rename. */
export const DEVICE_GROUP_NAMES_PATH = '/nextgen/deviceGroup/deviceGroupNames';

const noData = (description: string) => new CustomError(404, 4015, 'NO_DATA_FOUND', description);

export function deviceRoutes(ctx: SimContext, inv: SimInventory): Route[] {
  const { devices } = inv;
  const now = () => ctx.clock.now();

  // Recorded: `{"totalCount","mgmt.sdwan-device-list":[{deviceName,lastModifiedBy,lastModifiedTime,siteId,workflowStatus}]}`.
  const list: Handler = (req) => {
    const at = now();
    let page: Array<Record<string, unknown>> = pageOf(req.query, ctx.faults, (offset, size) => devices.page(offset, size)).map((e) => deviceListRecord(e, at));
    if (Number(req.query.get('offset') ?? 0) === 0) page = ctx.faults.firstPage('devices', page);
    return listReply(ctx, page.length === 0, { totalCount: devices.count, [DEVICE_LIST_KEY]: page });
  };

  // Recorded on a live node: the flat VOAEException 404, its message with a space at both ends.
  const getOne: Handler = (req) => {
    const name = req.params.name ?? '';
    const entry = devices.get(name);
    if (!entry) throw new VnmsError(404, 'Not Found', ` device work flow ${name} does not exist `);
    return json(200, { [DEVICE_WRAPPER]: deviceWorkflowRecord(entry) });
  };

  // MN-42: field rules in order, then the organization, then the site ID.
  const put: Handler = (req) => {
    const record = parseDevice(req.body, req.params.name ?? '');
    if (!inv.hasOrganization(record.orgName)) throw new CustomError(404, 4016, 'ORG_NOT_FOUND', `orgName: no organization named ${record.orgName}.`);
    const holder = devices.siteHolder(record.siteId, record.deviceName);
    if (holder !== undefined) throw new CustomError(500, 0, `Global device id ${record.siteId} is already in use`, `siteId: device ${holder} uses global device id ${record.siteId}.`);
    const entry = devices.put(record, req.principal?.username ?? 'Administrator', now());
    return json(200, { [DEVICE_WRAPPER]: deviceWorkflowRecord(entry) });
  };

  const availableId: Handler = () => json(200, { AvailableIDResponseModel: { branchId: devices.availableId() } });

  // MN-44: a deployment runs as a task; a second one while it runs is a duplicate.
  const deploy: Handler = (req) => {
    const name = req.params.name ?? '';
    const entry = devices.get(name);
    if (!entry) throw noData(`No device named ${name}.`);
    if (entry.lastTask && isRunning(entry.lastTask, now())) {
      throw new CustomError(400, 4007, 'DUPLICATE_REQUEST', `A deployment of ${name} is already running (task ${entry.lastTask.id}).`);
    }
    const task = inv.deploy(name, ctx.faults.deploymentFails());
    return json(202, { TaskResponse: { 'task-id': task.id, link: `${TASK_PATH}/${task.id}` } });
  };

  // C-56: `{"totalCount", "mgmt-tasks.task": [task, …]}`, newest first, paged as the other lists.
  const tasks: Handler = (req) => {
    const at = now();
    const page = pageOf(req.query, ctx.faults, (offset, size) => inv.tasks.newestFirst(offset, size)).map((t) => Object.values(taskBody(t, at))[0] as object);
    return listReply(ctx, page.length === 0, { totalCount: inv.tasks.count, [TASK_WRAPPER]: page });
  };

  const task: Handler = (req) => {
    const id = req.params.id ?? '';
    const t = inv.tasks.get(id);
    if (!t) throw noData(`No task with id ${id}.`);
    return json(200, taskBody(t, now()));
  };

  // C-57: `?organization=<name>` → a JSON array of the organization's device group names.
  const groupNames: Handler = (req) => {
    const org = req.query.get('organization')?.trim() ?? '';
    if (!org) throw invalidRequest('organization: name the organization whose device groups to list.');
    if (!inv.hasOrganization(org)) throw new CustomError(404, 4016, 'ORG_NOT_FOUND', `organization: no organization named ${org}.`);
    return json(200, inv.deviceGroupsOf(org));
  };

  return [
    { pattern: DEVICES_PATH, style: 'custom', auth: 'data', methods: { GET: list } },
    { pattern: DEVICE_GROUP_NAMES_PATH, style: 'custom', auth: 'data', methods: { GET: groupNames } },
    { pattern: `${DEVICES_PATH}/device/:name`, style: 'custom', auth: 'data', methods: { GET: getOne, PUT: put } },
    { pattern: `${DEVICES_PATH}/device/deploy/:name`, style: 'custom', auth: 'data', methods: { POST: deploy } },
    { pattern: AVAILABLE_ID_PATH, style: 'custom', auth: 'data', methods: { GET: availableId } },
    { pattern: TASK_PATH, style: 'custom', auth: 'data', methods: { GET: tasks } },
    { pattern: `${TASK_PATH}/:id`, style: 'custom', auth: 'data', methods: { GET: task } },
  ];
}
