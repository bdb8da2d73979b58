/**
 * The simulated Defender API: GET /api/machines ($top ≤ 10 000, $skip, absolute @odata.nextLink),
 * GET /api/machines/{id}/vulnerabilities and GET /api/machines/SoftwareVulnerabilitiesByMachine
 * (pageSize, $skiptoken nextLink). Bearer JWTs checked for audience, expiry, revocation and roles;
 * per-app rate limits; errors as {"error":{"code","message","target"}}.
 */
import { randomUUID } from 'node:crypto';
import type { Reply } from '../http';
import { bulkRowsOf, machineAt, machineCves, machineIndex, vulnerabilityEntity } from './data';
import type { SimRateLimiter } from './rate';
import { DEFENDER_AUDIENCE, type TokenClaims, type TokenIssuer } from './tokens';
import type { DefenderFaultHooks } from './fault-hooks';
import type { DefenderTenantConfig, EndpointClass } from './types';

export const MAX_TOP = 10_000;
const BULK_DEFAULT_PAGE = 50_000;
const BULK_MAX_PAGE = 200_000;
const DEFENDER_AUDIENCES = new Set([DEFENDER_AUDIENCE, 'https://api.security.microsoft.com', 'https://securitycenter.onmicrosoft.com/windowsatpservice', 'fc780465-2017-40d4-a0c5-307022471b92']);

const JSON_TYPE = 'application/json; odata.metadata=minimal; odata.streaming=true; charset=utf-8';

export function apiError(status: number, code: string, message: string, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: { error: { code, message, target: randomUUID() } } };
}

export interface ApiRoute {
  cls: EndpointClass;
  /** Normalized path for the stats, e.g. GET /api/machines/{id}/vulnerabilities. */
  key: string;
  machineId?: string;
}

/** Which endpoint a path is (case-insensitive like the real service), or undefined for 404. */
export function routeOf(path: string): ApiRoute | undefined {
  const p = path.replace(/\/+$/, '');
  if (/^\/api\/machines$/i.test(p)) return { cls: 'machines', key: '/api/machines' };
  if (/^\/api\/machines\/SoftwareVulnerabilitiesByMachine$/i.test(p)) return { cls: 'bulk', key: '/api/machines/SoftwareVulnerabilitiesByMachine' };
  const m = /^\/api\/machines\/([^/]+)\/vulnerabilities$/i.exec(p);
  if (m) return { cls: 'vulnerabilities', key: '/api/machines/{id}/vulnerabilities', machineId: decodeURIComponent(m[1]!).toLowerCase() };
  return undefined;
}

const REQUIRED_ROLES: Record<EndpointClass, string[]> = {
  machines: ['Machine.Read.All', 'Machine.ReadWrite.All'],
  vulnerabilities: ['Vulnerability.Read.All'],
  bulk: ['Vulnerability.Read.All'],
};

export interface ApiDeps {
  apiUrl: () => string;
  tenants: () => DefenderTenantConfig[];
  issuer: TokenIssuer;
  limiter: SimRateLimiter;
  /** Where a test bends the answers (NO_DEFENDER_FAULTS: never). */
  faults: DefenderFaultHooks;
  anchorMs: number;
  /** The machines' risk drifts per period (DefenderSimulatorOptions.driftEveryMs): the period of now. */
  driftPeriod(): number | undefined;
  onRateLimited(): void;
}

/** Authentication and authorization: the tenant/app of a valid token that holds a needed role. */
export function authorize(deps: ApiDeps, authorization: string | undefined, cls: EndpointClass): { ok: true; app: DefenderTenantConfig; claims: TokenClaims } | { ok: false; reply: Reply } {
  const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
  if (!m) return { ok: false, reply: apiError(401, 'Unauthorized', 'Authorization header is missing or is not a Bearer token.') };
  const v = deps.issuer.verify(m[1]!);
  if (!v.ok) return { ok: false, reply: apiError(401, 'Unauthorized', v.why) };
  if (!DEFENDER_AUDIENCES.has(v.claims.aud)) return { ok: false, reply: apiError(401, 'Unauthorized', `The access token audience '${v.claims.aud}' is not valid for this API.`) };
  const app = deps.tenants().find((t) => t.tenantId === v.claims.tid && t.clientId === v.claims.appid);
  if (!app) return { ok: false, reply: apiError(401, 'Unauthorized', 'The application of the access token is not known.') };
  const needed = REQUIRED_ROLES[cls];
  if (!v.claims.roles.some((r) => needed.includes(r))) {
    return { ok: false, reply: apiError(403, 'Forbidden', `The application does not have any of the required application permissions (${needed.join(', ')}) to access the resource.`) };
  }
  return { ok: true, app, claims: v.claims };
}

function intParam(q: URLSearchParams, name: string, dflt: number): number | Reply {
  const raw = q.get(name);
  if (raw === null) return dflt;
  if (!/^\d+$/.test(raw)) return apiError(400, 'ODataError', `Invalid value '${raw}' for the query option '${name}'.`);
  return Number(raw);
}

function machinesPage(deps: ApiDeps, app: DefenderTenantConfig, q: URLSearchParams): Reply {
  const top = intParam(q, '$top', MAX_TOP);
  const skip = intParam(q, '$skip', 0);
  if (typeof top !== 'number') return top;
  if (typeof skip !== 'number') return skip;
  if (top > MAX_TOP) return apiError(400, 'ODataError', `The limit of '${MAX_TOP}' for Top query has been exceeded. The value from the incoming request is '${top}'.`);
  const end = Math.min(app.hosts, skip + top);
  const value: unknown[] = [];
  const period = deps.driftPeriod();
  for (let i = skip; i < end; i++) value.push(machineAt(app.seed, i, deps.anchorMs, app.hostnames, period).record);
  const body: Record<string, unknown> = { '@odata.context': `${deps.apiUrl()}/api/$metadata#Machines`, value };
  if (end < app.hosts && top > 0) body['@odata.nextLink'] = `${deps.apiUrl()}/api/machines?$top=${top}&$skip=${end}`;
  return { status: 200, headers: { 'content-type': JSON_TYPE }, body };
}

function bulkPage(deps: ApiDeps, app: DefenderTenantConfig, q: URLSearchParams): Reply {
  const topRaw = q.get('$top');
  const size = intParam(q, topRaw !== null ? '$top' : 'pageSize', BULK_DEFAULT_PAGE) as number | Reply;
  if (typeof size !== 'number') return size;
  if (size > BULK_MAX_PAGE || size < 1) return apiError(400, 'InvalidInput', `Invalid input pageSize ${size}: allowed 1 to ${BULK_MAX_PAGE}.`);
  let m = 0;
  let r = 0;
  const token = q.get('$skiptoken');
  if (token) {
    try {
      const parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as { m: number; r: number };
      if (!Number.isInteger(parsed.m) || !Number.isInteger(parsed.r)) throw new Error('bad');
      ({ m, r } = parsed);
    } catch {
      return apiError(400, 'InvalidInput', 'Invalid input $skiptoken.');
    }
  }
  const value: unknown[] = [];
  let next: { m: number; r: number } | undefined;
  for (; m < app.hosts; m++, r = 0) {
    const rows = bulkRowsOf(app.seed, m, deps.anchorMs, app.hostnames);
    const room = size - value.length;
    if (rows.length - r > room) {
      value.push(...rows.slice(r, r + room));
      next = { m, r: r + room };
      break;
    }
    value.push(...rows.slice(r));
    if (value.length === size && m + 1 < app.hosts) {
      next = { m: m + 1, r: 0 };
      break;
    }
  }
  const body: Record<string, unknown> = { '@odata.context': `${deps.apiUrl()}/api/$metadata#Collection(microsoft.windowsDefenderATP.api.AssetVulnerability)`, value };
  if (next && topRaw === null) {
    const tok = Buffer.from(JSON.stringify(next)).toString('base64url');
    body['@odata.nextLink'] = `${deps.apiUrl()}/api/machines/SoftwareVulnerabilitiesByMachine?pageSize=${size}&$skiptoken=${tok}`;
  }
  return { status: 200, headers: { 'content-type': JSON_TYPE }, body };
}

function machineVulnerabilities(deps: ApiDeps, app: DefenderTenantConfig, id: string): Reply {
  const i = machineIndex(app.seed, app.hosts, id);
  if (i === undefined) return apiError(404, 'ResourceNotFound', `Machine ${id} was not found`);
  const { onboarded } = machineAt(app.seed, i, deps.anchorMs);
  const value = machineCves(app.seed, i, onboarded).map(vulnerabilityEntity);
  return { status: 200, headers: { 'content-type': JSON_TYPE }, body: { '@odata.context': `${deps.apiUrl()}/api/$metadata#Collection(Analytics.Contracts.PublicAPI.PublicVulnerabilityDto)`, value } };
}

/** One authorized API call after the rate limit and a test's faults. */
export function answer(deps: ApiDeps, route: ApiRoute, app: DefenderTenantConfig, q: URLSearchParams): Reply {
  const { faults } = deps;
  const admitted = deps.limiter.admit(`${app.tenantId}/${app.clientId}`, route.cls);
  if (!admitted.ok) {
    deps.onRateLimited();
    return apiError(429, 'TooManyRequests', `Rate limit is exceeded. Try again in ${admitted.retryAfterSec} seconds.`, { 'retry-after': String(admitted.retryAfterSec) });
  }
  const intercepted = faults.intercept(route.cls);
  if (intercepted) return intercepted;
  const reply = route.cls === 'machines' ? machinesPage(deps, app, q) : route.cls === 'bulk' ? bulkPage(deps, app, q) : machineVulnerabilities(deps, app, route.machineId!);
  return faults.shape(route.cls, q, reply);
}
