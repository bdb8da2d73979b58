/**
 * Fault management on the simulated node (issue 12; MN-AL1…MN-AL7):
 *   GET  /mgmt/fault/alarms/page      the paged, filtered, sorted alarm list
 *   GET  /mgmt/fault/alarms/summary/:org  active alarms per severity of one organization
 *   GET  /mgmt/fault/types            the alarm types
 *   POST /mgmt/fault/alarm/handle     acknowledge (or otherwise handle) alarms with a note
 *   POST /mgmt/fault/alarm/clear      clear alarms with a note
 */
import { CustomError } from '../errors';
import { json } from '../http';
import { invalidRequest } from '../device-rules';
import { listReply, pageOf } from '../paging';
import type { Handler, Route, SimContext } from '../routes';
import { ALARM_TYPES } from './catalog';
import { isCleared, latest, SIM_HANDLING_STATES, SIM_SEVERITIES, type SimAlarm, type SimAlarms, type SimHandlingState, type SimSeverity } from './model';
import { ALARM_LIST_KEY, alarmRecord } from './wire';

export const ALARMS_PAGE_PATH = '/mgmt/fault/alarms/page';
export const ALARMS_SUMMARY_PATH = '/mgmt/fault/alarms/summary';
export const ALARM_TYPES_PATH = '/mgmt/fault/types';
export const ALARM_HANDLE_PATH = '/mgmt/fault/alarm/handle';
export const ALARM_CLEAR_PATH = '/mgmt/fault/alarm/clear';

/** Sortable columns (MN-AL1); the default is the last change, newest first. */
const SORT_COLUMNS: Record<string, (a: SimAlarm) => string | number> = {
  lastStatusChangeTimeStamp: (a) => latest(a).eventTime,
  lastPerceivedSeverity: (a) => SIM_SEVERITIES.indexOf(latest(a).perceivedSeverity),
  deviceName: (a) => a.deviceName.toLowerCase(),
  org: (a) => a.org.toLowerCase(),
  type: (a) => a.type,
};

/** MN-AL1: epoch milliseconds, or a date the node writes (ISO with Z, an offset or `+0000`). */
export function parseAfter(raw: string): number {
  if (/^\d+$/.test(raw)) return Number(raw);
  const ms = Date.parse(raw.replace(/([+-]\d\d)(\d\d)$/, '$1:$2'));
  if (Number.isNaN(ms)) throw invalidRequest('last_change_after must be epoch milliseconds or a date such as 2026-05-01T12:00:00.000+0000.');
  return ms;
}

interface PageQuery {
  org?: string;
  deviceName?: string;
  severities?: Set<SimSeverity>;
  cleared?: boolean;
  after?: number;
  sort: (a: SimAlarm) => string | number;
  desc: boolean;
}

function readQuery(q: URLSearchParams): PageQuery {
  const get = (name: string) => {
    const v = q.get(name);
    return v === null || v === '' ? undefined : v;
  };
  const severities = get('last_perceived_severity');
  let sev: Set<SimSeverity> | undefined;
  if (severities) {
    const words = severities.split(',').map((s) => s.trim().toLowerCase());
    const bad = words.find((w) => !(SIM_SEVERITIES as readonly string[]).includes(w));
    if (bad !== undefined) throw invalidRequest(`last_perceived_severity must be one or more of ${SIM_SEVERITIES.join(', ')} (comma-separated).`);
    sev = new Set(words as SimSeverity[]);
  }
  const cleared = get('is_cleared');
  if (cleared !== undefined && cleared !== 'true' && cleared !== 'false') throw invalidRequest('is_cleared must be true or false.');
  const column = get('sort_column') ?? 'lastStatusChangeTimeStamp';
  const sort = SORT_COLUMNS[column];
  if (!sort) throw invalidRequest(`sort_column must be one of ${Object.keys(SORT_COLUMNS).join(', ')}.`);
  const order = (get('sort_order') ?? 'desc').toLowerCase();
  if (order !== 'asc' && order !== 'desc') throw invalidRequest('sort_order must be asc or desc.');
  const after = get('last_change_after');
  const org = get('org');
  const deviceName = get('device_name');
  return {
    ...(org ? { org } : {}),
    ...(deviceName ? { deviceName } : {}),
    ...(sev ? { severities: sev } : {}),
    ...(cleared !== undefined ? { cleared: cleared === 'true' } : {}),
    ...(after !== undefined ? { after: parseAfter(after) } : {}),
    sort,
    desc: order === 'desc',
  };
}

/** The alarms a query selects, in its order (ties by creation, so pages never overlap). */
export function selectAlarms(alarms: readonly SimAlarm[], q: PageQuery): SimAlarm[] {
  const rows = alarms.filter((a) => {
    const last = latest(a);
    if (q.org !== undefined && a.org !== q.org) return false;
    if (q.deviceName !== undefined && a.deviceName !== q.deviceName) return false;
    if (q.severities && !q.severities.has(last.perceivedSeverity)) return false;
    if (q.cleared !== undefined && isCleared(a) !== q.cleared) return false;
    // MN-AL1: "after" is exclusive.
    if (q.after !== undefined && !(last.eventTime > q.after)) return false;
    return true;
  });
  const dir = q.desc ? -1 : 1;
  return rows.sort((a, b) => {
    const va = q.sort(a);
    const vb = q.sort(b);
    if (va !== vb) return (va < vb ? -1 : 1) * dir;
    return (a.seq - b.seq) * dir;
  });
}

interface ActionBody {
  alarms: SimAlarm[];
  description: string;
}

/** The alarms a handle or clear names (MN-AL5): every one must exist, or nothing changes (404 4015). */
function readAction(body: unknown, alarms: SimAlarms, withState: boolean): ActionBody & { state?: SimHandlingState } {
  const b = body as Record<string, unknown> | undefined;
  if (!b || typeof b !== 'object' || !Array.isArray(b.alarms) || b.alarms.length === 0) throw invalidRequest('alarms: name at least one alarm as {deviceName, object, type, specific-problem}.');
  if (b.alarms.length > 1000) throw invalidRequest('alarms: at most 1000 alarms per request.');
  const description = b.description === undefined ? '' : b.description;
  if (typeof description !== 'string' || description.length > 4000) throw invalidRequest('description: text of at most 4000 characters.');
  let state: SimHandlingState | undefined;
  if (withState) {
    if (typeof b.state !== 'string' || !(SIM_HANDLING_STATES as readonly string[]).includes(b.state)) throw invalidRequest(`state: one of ${SIM_HANDLING_STATES.join(', ')}.`);
    state = b.state as SimHandlingState;
  }
  const found = b.alarms.map((raw: unknown, i: number) => {
    const k = raw as Record<string, unknown>;
    const fields = [k?.deviceName, k?.object, k?.type, k?.['specific-problem']];
    if (!fields.every((f) => typeof f === 'string')) throw invalidRequest(`alarms[${i}]: deviceName, object, type and specific-problem are text.`);
    const alarm = alarms.get({ deviceName: k.deviceName as string, object: k.object as string, type: k.type as string, specificProblem: k['specific-problem'] as string });
    if (!alarm) throw new CustomError(404, 4015, 'NO_DATA_FOUND', `alarms[${i}]: no alarm ${String(k.type)} on ${String(k.object)} of ${String(k.deviceName)}.`);
    return alarm;
  });
  return { alarms: found, description, ...(state ? { state } : {}) };
}

const listBody = (alarms: SimAlarm[], total = alarms.length) => ({ totalCount: total, [ALARM_LIST_KEY]: alarms.map(alarmRecord) });

export function alarmRoutes(ctx: SimContext, alarms: SimAlarms, hasOrganization: (name: string) => boolean): Route[] {
  const page: Handler = (req) => {
    const selected = selectAlarms(alarms.all(), readQuery(req.query));
    const rows = pageOf(req.query, ctx.faults, (offset, size) => selected.slice(offset, offset + size));
    return listReply(ctx, rows.length === 0, listBody(rows, selected.length));
  };

  // The answer the issue names: {"List":{"value":[{"severity":"critical","count":3},…]}}, active alarms only.
  const summary: Handler = (req) => {
    const org = req.params.org ?? '';
    if (!hasOrganization(org)) throw new CustomError(404, 4016, 'ORG_NOT_FOUND', `No organization named ${org}.`);
    const counts = new Map<SimSeverity, number>(SIM_SEVERITIES.filter((s) => s !== 'cleared').map((s) => [s, 0]));
    for (const a of alarms.all()) {
      const s = latest(a).perceivedSeverity;
      if (a.org === org && s !== 'cleared') counts.set(s, (counts.get(s) ?? 0) + 1);
    }
    return json(200, { List: { value: [...counts].map(([severity, count]) => ({ severity, count })) } });
  };

  const types: Handler = () => json(200, { List: { value: ALARM_TYPES.map((t) => t.type) } });

  const handle: Handler = (req) => {
    const { alarms: targets, state, description } = readAction(req.body, alarms, true);
    const user = req.principal?.username ?? 'Administrator';
    for (const a of targets) alarms.handle(a, state!, description, user);
    return json(200, listBody(targets));
  };

  // A clear is a `cleared` status change that keeps the alarm's own text, and a handling (closed,
  // the user, the note) that says who cleared it and why. An alarm cleared already is left (MN-AL5).
  const clear: Handler = (req) => {
    const { alarms: targets, description } = readAction(req.body, alarms, false);
    const user = req.principal?.username ?? 'Administrator';
    for (const a of targets) {
      if (isCleared(a)) continue;
      alarms.change(a, 'cleared', a.changes.at(-1)?.alarmText ?? '', user);
      alarms.handle(a, 'closed', description, user);
    }
    return json(200, listBody(targets));
  };

  return [
    { pattern: ALARMS_PAGE_PATH, style: 'custom', auth: 'data', methods: { GET: page } },
    { pattern: `${ALARMS_SUMMARY_PATH}/:org`, style: 'custom', auth: 'data', methods: { GET: summary } },
    { pattern: ALARM_TYPES_PATH, style: 'custom', auth: 'data', methods: { GET: types } },
    { pattern: ALARM_HANDLE_PATH, style: 'custom', auth: 'data', methods: { POST: handle } },
    { pattern: ALARM_CLEAR_PATH, style: 'custom', auth: 'data', methods: { POST: clear } },
  ];
}
