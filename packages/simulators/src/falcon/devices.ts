/**
 * Hosts and Zero Trust Assessment endpoints of one tenant: the offset query (10,000 cap), the
 * scroll query (opaque offset token), device details by GET (100 ids) and POST (5,000 ids),
 * and assessments (100 ids). Ids are listed in enrollment order; filter and sort are accepted
 * and not applied (EDR-F12).
 */
import { createHmac } from 'node:crypto';
import type { Reply } from '../http';
import { assessmentJson, deviceRecord } from './records';
import { envelope, errorReply, meta, MSG, POWERED_BY, type ApiError } from './state';
import type { SimTenant } from './tenant';

export const LIMITS = { queryMax: 5000, queryWindow: 10_000, scrollMax: 10_000, getIds: 100, postIds: 5000, ztaIds: 100, scrollTtlMs: 120_000 } as const;

export interface DataRequest {
  url: URL;
  body: unknown;
  tenant: SimTenant;
  started: number;
  now: number;
  /** Signs scroll offsets so a client cannot forge one. */
  secret: string;
}

const devicesError = (status: number, message: string, started: number) => errorReply(status, message, started, POWERED_BY.devices);

function intParam(url: URL, name: string, fallback: number): number | undefined {
  const raw = url.searchParams.get(name);
  if (raw === null || raw === '') return fallback;
  return /^\d+$/.test(raw) ? Number(raw) : undefined;
}

const idsOf = (tenant: SimTenant, from: number, to: number): string[] => {
  const out: string[] = [];
  for (let i = from; i < Math.min(to, tenant.hosts); i++) out.push(tenant.deviceId(i));
  return out;
};

/** GET /devices/queries/devices/v1 */
export function queryDevices(r: DataRequest): Reply {
  const offset = intParam(r.url, 'offset', 0);
  const limit = intParam(r.url, 'limit', 100);
  if (offset === undefined) return devicesError(400, 'offset must be a non-negative integer', r.started);
  if (limit === undefined || limit < 1 || limit > LIMITS.queryMax) return devicesError(400, `limit ${r.url.searchParams.get('limit')} is invalid; limit must be between 1 and ${LIMITS.queryMax}`, r.started);
  if (offset + limit > LIMITS.queryWindow) return devicesError(400, MSG.offsetLimit(offset, limit), r.started);
  return envelope(200, POWERED_BY.devices, r.started, idsOf(r.tenant, offset, offset + limit), [], { offset, limit, total: r.tenant.hosts });
}

function sign(secret: string, cid: string, position: number, expiresAt: number): string {
  return createHmac('sha256', secret).update(`${cid}|${position}|${expiresAt}`).digest('base64url').slice(0, 22);
}

export function scrollToken(secret: string, cid: string, position: number, expiresAt: number): string {
  return Buffer.from(`${position}.${expiresAt}.${sign(secret, cid, position, expiresAt)}`).toString('base64url');
}

function readScrollToken(secret: string, cid: string, token: string): { position: number; expiresAt: number } | undefined {
  const [p, x, mac] = Buffer.from(token, 'base64url').toString('utf8').split('.');
  const position = Number(p);
  const expiresAt = Number(x);
  if (!Number.isInteger(position) || !Number.isInteger(expiresAt) || position < 0 || mac !== sign(secret, cid, position, expiresAt)) return undefined;
  return { position, expiresAt };
}

/** GET /devices/queries/devices-scroll/v1 */
export function scrollDevices(r: DataRequest): Reply {
  const limit = intParam(r.url, 'limit', 100);
  if (limit === undefined || limit < 1 || limit > LIMITS.scrollMax) return devicesError(400, `limit ${r.url.searchParams.get('limit')} is invalid; limit must be between 1 and ${LIMITS.scrollMax}`, r.started);
  const given = r.url.searchParams.get('offset');
  let position = 0;
  if (given) {
    const read = readScrollToken(r.secret, r.tenant.cid, given);
    if (!read) return devicesError(400, 'invalid offset', r.started);
    if (read.expiresAt <= r.now) return devicesError(400, 'offset expired; start the scroll again without an offset', r.started);
    position = read.position;
  }
  const ids = idsOf(r.tenant, position, position + limit);
  const next = position + ids.length;
  const expiresAt = r.now + LIMITS.scrollTtlMs;
  // expires_at in epoch nanoseconds, as the scroll endpoints report it.
  const pagination = { total: r.tenant.hosts, offset: scrollToken(r.secret, r.tenant.cid, next, expiresAt), expires_at: expiresAt * 1_000_000, limit };
  return envelope(200, POWERED_BY.devices, r.started, ids, [], pagination);
}

function idsFromQuery(url: URL): string[] {
  return url.searchParams
    .getAll('ids')
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** Entities by id; `make` gives a record's JSON text, so large answers are joined, not re-serialised. */
function entities(r: DataRequest, ids: string[], max: number, poweredBy: string, make: (index: number) => string | undefined, missing: string): Reply {
  if (ids.length === 0) return errorReply(400, 'ids is required', r.started, poweredBy);
  if (ids.length > max) return errorReply(400, `too many ids: ${ids.length} requested, at most ${max} are allowed per request`, r.started, poweredBy);
  const resources: string[] = [];
  const errors: ApiError[] = [];
  for (const id of new Set(ids)) {
    const index = r.tenant.indexOf(id.toLowerCase());
    const rec = index === undefined ? undefined : make(index);
    if (rec !== undefined) resources.push(rec);
    else errors.push({ code: 404, message: `${missing}: ${id}`, id });
  }
  const body = `{"meta":${JSON.stringify(meta(poweredBy, r.started))},"resources":[${resources.join(',')}],"errors":${JSON.stringify(errors)}}`;
  return { status: resources.length > 0 ? 200 : 404, body };
}

const device = (r: DataRequest) => (i: number) => JSON.stringify(deviceRecord(r.tenant, r.tenant.traits(i)));

/** GET /devices/entities/devices/v2?ids=… */
export function getDevices(r: DataRequest): Reply {
  return entities(r, idsFromQuery(r.url), LIMITS.getIds, POWERED_BY.devices, device(r), 'device not found');
}

/** POST /devices/entities/devices/v2 with {"ids": [...]} */
export function postDevices(r: DataRequest): Reply {
  const ids = (r.body as { ids?: unknown } | undefined)?.ids;
  if (!Array.isArray(ids) || !ids.every((x) => typeof x === 'string')) return devicesError(400, 'body must be {"ids": ["<device_id>", ...]}', r.started);
  return entities(r, ids as string[], LIMITS.postIds, POWERED_BY.devices, device(r), 'device not found');
}

/** GET /zero-trust-assessment/entities/assessments/v1?ids=… (404 errors for hosts not assessed yet, EDR-F13). */
export function getAssessments(r: DataRequest): Reply {
  return entities(r, idsFromQuery(r.url), LIMITS.ztaIds, POWERED_BY.zta, (i) => assessmentJson(r.tenant, r.tenant.traits(i, r.now)), 'no Zero Trust Assessment data found for aid');
}
