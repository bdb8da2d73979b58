/**
 * Data endpoints of the simulated node (spec 4.1, 4.2): organizations, devices, syslog servers.
 * Minimal on purpose; a later issue extends them.
 */
import { CustomError, YangError } from './errors';
import { json, type Reply } from './http';
import { seedDevices, seedOrganizations, type SimDevice, type SimOrganization } from './inventory-seed';
import type { Handler, Route, SimContext } from './routes';

export type { SimDevice, SimOrganization } from './inventory-seed';

export interface SimSyslogServer {
  host: string;
  port: number;
  enabled: boolean;
}

export const DEVICE_WRAPPER = 'mgmt.sdwan-device-workflow';
export const DEFAULT_PAGE_LIMIT = 25;
export const MAX_PAGE_LIMIT = 500;
const SYSLOG_PATH = '/api/config/system/syslog-servers';

export class SimInventory {
  readonly organizations: SimOrganization[];
  readonly devices: SimDevice[];
  readonly syslogServers: SimSyslogServer[] = [];

  constructor(orgCount: number, deviceCount: number) {
    this.organizations = seedOrganizations(orgCount);
    this.devices = seedDevices(deviceCount, this.organizations);
  }
}

const invalid = (description: string) => new CustomError(400, 4017, 'Invalid request', description);

/** offset default 0, limit default 25 (1..500); anything else is 4017. */
function paging(query: URLSearchParams): { offset: number; limit: number } {
  const read = (name: string, fallback: number, min: number, max: number) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw invalid(`${name} must be a whole number from ${min} to ${max}.`);
    return Number(raw);
  };
  return { offset: read('offset', 0, 0, Number.MAX_SAFE_INTEGER), limit: read('limit', DEFAULT_PAGE_LIMIT, 1, MAX_PAGE_LIMIT) };
}

/** MN-27: an empty page answers 204 when the fault is on. */
function listReply(ctx: SimContext, empty: boolean, body: object): Reply {
  return empty && ctx.faults.emptyListAs204 ? { status: 204 } : json(200, body);
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

function parseDevice(body: unknown, pathName: string): SimDevice {
  const record = isObject(body) ? body[DEVICE_WRAPPER] : undefined;
  if (!isObject(record)) throw invalid(`The body must be an object with the key ${DEVICE_WRAPPER}.`);
  if (record.deviceName !== pathName) throw invalid(`deviceName ${JSON.stringify(record.deviceName ?? null)} does not match the device name ${pathName} in the path.`);
  for (const f of ['siteId', 'orgName', 'serialNumber', 'deviceGroup'] as const) {
    if (typeof record[f] !== 'string' || (f !== 'deviceGroup' && record[f] === '')) throw invalid(`${f} must be a non-empty string.`);
  }
  const loc = record.locationInfo;
  if (!isObject(loc)) throw invalid('locationInfo must be an object with country, longitude and latitude.');
  if (typeof loc.country !== 'string' || !/^[A-Za-z]{2}$/.test(loc.country)) throw invalid('locationInfo.country must be a two-letter country code.');
  for (const f of ['longitude', 'latitude'] as const) {
    if (typeof loc[f] !== 'string' || Number.isNaN(Number(loc[f])) || loc[f].trim() === '') throw invalid(`locationInfo.${f} must be a number written as a string.`);
  }
  return {
    deviceName: pathName,
    siteId: record.siteId as string,
    orgName: record.orgName as string,
    serialNumber: record.serialNumber as string,
    deviceGroup: record.deviceGroup as string,
    locationInfo: { country: loc.country.toUpperCase(), longitude: loc.longitude as string, latitude: loc.latitude as string },
  };
}

/** A port as a whole number 1-65535 or a string of digits in that range; undefined otherwise. */
function parsePort(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,5}$/.test(v.trim()) ? Number(v.trim()) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 65535 ? n : undefined;
}

const malformed = (message: string) => new YangError(400, 'malformed-message', message);

function parseSyslog(body: unknown): SimSyslogServer {
  const server = isObject(body) ? body.server : undefined;
  if (!isObject(server)) throw malformed('The body must be an object with the key server.');
  if (typeof server.host !== 'string' || server.host.trim() === '') throw malformed('server/host: a host name or address is required.');
  const port = parsePort(server.port);
  if (port === undefined) throw malformed(`server/port: "${String(server.port)}" is not a valid port value (1-65535).`);
  if (typeof server.enabled !== 'boolean') throw malformed('server/enabled: must be true or false.');
  return { host: server.host.trim(), port, enabled: server.enabled };
}

export function inventoryRoutes(ctx: SimContext, inv: SimInventory): { mgmt: Route[]; api: Route[] } {
  const listOrgs: Handler = (req) => {
    const { offset, limit } = paging(req.query);
    const page = inv.organizations.slice(offset, offset + limit);
    return listReply(ctx, page.length === 0, { totalCount: inv.organizations.length, organizations: page });
  };

  const listDevices: Handler = (req) => {
    const { offset, limit } = paging(req.query);
    const page = inv.devices.slice(offset, offset + limit);
    return listReply(ctx, page.length === 0, { totalCount: inv.devices.length, devices: page });
  };

  const putDevice: Handler = (req) => {
    const device = parseDevice(req.body, req.params.name ?? '');
    if (!inv.organizations.some((o) => o.name === device.orgName)) {
      throw new CustomError(404, 4016, 'Organization not found', `No organization named ${device.orgName}.`);
    }
    const holder = inv.devices.find((d) => d.siteId === device.siteId && d.deviceName !== device.deviceName);
    if (holder) throw new CustomError(500, 0, `Global device id ${device.siteId} is already in use`, `Device ${holder.deviceName} uses it.`);
    const index = inv.devices.findIndex((d) => d.deviceName === device.deviceName);
    if (index >= 0) inv.devices[index] = device;
    else inv.devices.push(device);
    return json(200, { [DEVICE_WRAPPER]: device });
  };

  const yangOrgs: Handler = () => {
    const organization = inv.organizations.map((o) => ({ name: o.name, uuid: o.uuid, ...(o.parent ? { 'parent-org': o.parent } : {}), 'subscription-plan': o.subscriptionPlan }));
    return listReply(ctx, organization.length === 0, { organization });
  };

  const getSyslog: Handler = () => json(200, { 'syslog-servers': { server: inv.syslogServers } });

  const postSyslog: Handler = (req) => {
    const server = parseSyslog(req.body);
    if (inv.syslogServers.some((s) => s.host === server.host)) {
      throw new YangError(400, 'data-exists', `server/host: a syslog server ${server.host} already exists.`);
    }
    inv.syslogServers.push(server);
    return { status: 201, headers: { location: `${SYSLOG_PATH}/server/${encodeURIComponent(server.host)}` } };
  };

  return {
    mgmt: [
      { pattern: '/mgmt/organization/orgs', style: 'custom', auth: 'data', methods: { GET: listOrgs } },
      { pattern: '/mgmt/sdwan/workflow/devices', style: 'custom', auth: 'data', methods: { GET: listDevices } },
      { pattern: '/mgmt/sdwan/workflow/devices/device/:name', style: 'custom', auth: 'data', methods: { PUT: putDevice } },
    ],
    api: [
      { pattern: '/api/config/nms/provider/organizations/organization', style: 'yang', auth: 'data', methods: { GET: yangOrgs } },
      { pattern: SYSLOG_PATH, style: 'yang', auth: 'data', methods: { GET: getSyslog, POST: postSyslog } },
    ],
  };
}
