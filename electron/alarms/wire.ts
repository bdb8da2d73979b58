/**
 * Reading the node's alarms (MN-AL1…MN-AL8): the alarm records of the paged list and the bodies
 * of broker messages, into one normalized shape the store takes. Real nodes differ between
 * releases, so this reads generously (a list under any namespace, `List.value` or a bare array;
 * times as the node's `+0000` form, ISO or epoch milliseconds; booleans as strings; severities and
 * handling states in any case) and refuses only what cannot be an alarm change: that is set aside
 * with its reason, never guessed.
 */
import { ALARM_SEVERITIES, HANDLING_STATES, type AlarmHead, type AlarmItem, type AlarmSeverity, type ChangeIn, type HandlingIn, type HandlingState } from '../../shared/model/alarms';
import { filled, isObject, listOf, nodeTime, unexpectedAnswer } from '../mgmt/node-answer';
import { boundAlarm, busMessageTooLarge } from './bounds';

export interface AlarmMessageIn extends AlarmItem {
  messageId: number;
  director: string;
  eventType: string;
}

export type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

/** The last text timeMs read and what it made of it: a message names one time three times over (alarm, event, change). */
let lastTime: { text: string; ms: number | undefined } = { text: '', ms: undefined };

/** A node time in epoch ms: the node's forms (nodeTime), any ISO date, or epoch ms as a number or digits. */
export function timeMs(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) && v >= 0 ? Math.floor(v) : undefined;
  if (typeof v !== 'string') return undefined;
  if (v === lastTime.text) return lastTime.ms;
  const ms = textTimeMs(v);
  lastTime = { text: v, ms };
  return ms;
}

function textTimeMs(v: string): number | undefined {
  const t = filled(v);
  if (!t) return undefined;
  if (/^\d{10,16}$/.test(t)) return Number(t);
  const iso = nodeTime(t);
  const ms = Date.parse(iso ?? t);
  return Number.isNaN(ms) ? undefined : ms;
}

export function severityOf(v: unknown): AlarmSeverity | undefined {
  const s = filled(v)?.toLowerCase();
  return s && (ALARM_SEVERITIES as readonly string[]).includes(s) ? (s as AlarmSeverity) : undefined;
}

const STATE_ALIASES: Record<string, HandlingState> = { acknowledged: 'ack', acknowledge: 'ack', investigating: 'investigation', observe: 'observation', close: 'closed' };
export function handlingStateOf(v: unknown): HandlingState | undefined {
  const s = filled(v)?.toLowerCase();
  if (!s) return undefined;
  return (HANDLING_STATES as readonly string[]).includes(s) ? (s as HandlingState) : STATE_ALIASES[s];
}

const bool = (v: unknown): boolean | undefined => (typeof v === 'boolean' ? v : v === 'true' ? true : v === 'false' ? false : undefined);
const textOf = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');

/** The head of an alarm record or of a message's `alarm`. */
function readHead(raw: unknown, where: string): Parsed<AlarmHead> {
  if (!isObject(raw)) return { ok: false, reason: `${where} is missing or not an object` };
  const deviceName = filled(raw.deviceName) ?? filled(raw.device);
  const device = filled(raw.device) ?? deviceName;
  const object = filled(raw.object) ?? filled(raw['managed-object']);
  const type = filled(raw.type);
  const specificProblem = filled(raw['specific-problem']) ?? filled(raw.specificProblem) ?? '';
  for (const [name, v] of [['device', device], ['object', object], ['type', type]] as const) if (!v) return { ok: false, reason: `${where}.${name} is missing` };
  const rawSeverity = raw.lastPerceivedSeverity;
  const severity = severityOf(rawSeverity);
  if (!severity) return { ok: false, reason: rawSeverity === undefined ? `${where}.lastPerceivedSeverity is missing` : `${where}.lastPerceivedSeverity “${textOf(rawSeverity).slice(0, 40)}” is not a known severity` };
  const lastChangeMs = timeMs(raw.lastStatusChangeTimeStamp);
  if (lastChangeMs === undefined) return { ok: false, reason: `${where}.lastStatusChangeTimeStamp is missing or not a time` };
  return {
    ok: true,
    value: {
      device: device!,
      deviceName: deviceName!,
      org: filled(raw.org) ?? '',
      object: object!,
      type: type!,
      specificProblem,
      severity,
      cleared: bool(raw.isCleared) ?? severity === 'cleared',
      text: textOf(raw.lastAlarmText),
      lastChangeMs,
    },
  };
}

/** `fallback`: a bus message's own `event_time` and `severity`, for a change that lacks them. */
function readChange(raw: unknown, where: string, fallback: { eventMs?: number | undefined; severity?: AlarmSeverity | undefined } = {}): Parsed<ChangeIn> {
  if (!isObject(raw)) return { ok: false, reason: `${where} is not an object` };
  const rawTime = raw.eventTime ?? raw['event-time'] ?? raw.timeStamp;
  // Only a missing field falls back; a present one that cannot be read is refused.
  const eventMs = rawTime === undefined || rawTime === null ? fallback.eventMs : timeMs(rawTime);
  if (eventMs === undefined) return { ok: false, reason: `${where}.eventTime is missing or not a time` };
  const rawSeverity = raw.perceivedSeverity ?? raw['perceived-severity'];
  const severity = rawSeverity === undefined || rawSeverity === null ? fallback.severity : severityOf(rawSeverity);
  if (!severity) return { ok: false, reason: `${where}.perceivedSeverity is missing or not a known severity` };
  return { ok: true, value: { eventMs, severity, text: textOf(raw.alarmText ?? raw['alarm-text']) } };
}

function readHandling(raw: unknown, where: string): Parsed<HandlingIn> {
  if (!isObject(raw)) return { ok: false, reason: `${where} is not an object` };
  const atMs = timeMs(raw.time ?? raw.timeStamp);
  if (atMs === undefined) return { ok: false, reason: `${where}.time is missing or not a time` };
  const state = handlingStateOf(raw.state);
  if (!state) return { ok: false, reason: `${where}.state is missing or not a handling state` };
  return { ok: true, value: { atMs, state, user: textOf(raw.user), description: textOf(raw.description) } };
}

/**
 * One record of the paged list. A status change or handling that cannot be read is left out
 * (the rest of the record still counts); a record without its key or state is refused.
 */
export function parseAlarmRecord(raw: unknown): Parsed<AlarmItem> & { skipped?: number; skippedReasons?: string[] } {
  const head = readHead(raw, 'record');
  if (!head.ok) return head;
  head.value = boundAlarm.head(head.value);
  const r = raw as Record<string, unknown>;
  let skipped = 0;
  const skippedReasons: string[] = [];
  const changes: ChangeIn[] = [];
  for (const [i, c] of (Array.isArray(r.statusChanges) ? r.statusChanges : []).entries()) {
    const p = readChange(c, `statusChanges[${i}]`);
    if (p.ok) changes.push(boundAlarm.change(p.value));
    else {
      skipped += 1;
      skippedReasons.push(p.reason);
    }
  }
  const handlings: HandlingIn[] = [];
  for (const [i, h] of (Array.isArray(r.alarmHandlings) ? r.alarmHandlings : []).entries()) {
    const p = readHandling(h, `alarmHandlings[${i}]`);
    if (p.ok) handlings.push(boundAlarm.handling(p.value));
    else {
      skipped += 1;
      skippedReasons.push(p.reason);
    }
  }
  return { ok: true, value: { head: head.value, changes, handlings, messageId: null }, skipped, skippedReasons };
}

/** A page of `GET /mgmt/fault/alarms/page` (MN-AL1): `<ns>.fault-alarm-list`, `alarms`, `List.value` or a bare array. */
export function parseAlarmPage(body: unknown): { items: AlarmItem[]; total: number | undefined; unreadable: number; reasons: string[]; unreadableParts: number; partReasons: string[] } {
  let records: unknown[];
  let total: number | undefined;
  if (Array.isArray(body)) records = body;
  else if (body === undefined) records = []; // 204 (MN-27)
  else {
    const page = isObject(body) && isObject(body.List) ? listOf(body, ['value'], 'an alarm list', ['List']) : listOf(body, ['fault-alarm-list', 'alarm-list', 'alarms'], 'an alarm list');
    records = page.items;
    total = page.total;
  }
  const items: AlarmItem[] = [];
  const reasons: string[] = [];
  // Status changes and handlings of a readable record that cannot be read: counted, never dropped in silence.
  let unreadableParts = 0;
  const partReasons: string[] = [];
  for (const r of records) {
    const p = parseAlarmRecord(r);
    if (p.ok) {
      items.push(p.value);
      unreadableParts += p.skipped ?? 0;
      partReasons.push(...(p.skippedReasons ?? []).slice(0, Math.max(0, 10 - partReasons.length)));
    } else reasons.push(p.reason);
  }
  return { items, total, unreadable: reasons.length, reasons, unreadableParts, partReasons };
}

/**
 * A broker message body (MN-AL8). Refused (set aside, MN-AL10) when it is not JSON, lacks a
 * field, or names a severity or state the console does not know.
 */
export function parseAlarmMessage(content: Buffer | string): Parsed<AlarmMessageIn> {
  const tooLarge = busMessageTooLarge(content);
  if (tooLarge) return { ok: false, reason: tooLarge };
  let body: unknown;
  try {
    body = JSON.parse(typeof content === 'string' ? content : content.toString('utf8'));
  } catch {
    return { ok: false, reason: 'not JSON' };
  }
  if (!isObject(body)) return { ok: false, reason: 'not a JSON object' };
  const rawId = body.message_id;
  const messageId = typeof rawId === 'number' ? rawId : typeof rawId === 'string' && /^\d{1,15}$/.test(rawId) ? Number(rawId) : NaN;
  if (rawId === undefined) return { ok: false, reason: 'message_id is missing' };
  if (!Number.isSafeInteger(messageId) || messageId < 1) return { ok: false, reason: 'message_id is not a whole number from 1' };
  for (const field of ['severity', 'event_type', 'event_time'] as const) if (body[field] === undefined || body[field] === null) return { ok: false, reason: `${field} is missing` };
  const severity = severityOf(body.severity);
  if (!severity) return { ok: false, reason: `severity “${textOf(body.severity).slice(0, 40)}” is not a known severity` };
  const eventType = filled(body.event_type) ?? '';
  const head = readHead(body.alarm, 'alarm');
  if (!head.ok) return head;
  const director = filled(body.director_hostname) ?? '';
  const base = { head: head.value, messageId, director, eventType, changes: [] as ChangeIn[], handlings: [] as HandlingIn[] };
  if (body.statusChange !== undefined) {
    const c = readChange(body.statusChange, 'statusChange', { eventMs: timeMs(body.event_time), severity });
    if (!c.ok) return c;
    base.changes.push(c.value);
  }
  if (body.alarmHandling !== undefined) {
    const h = readHandling(body.alarmHandling, 'alarmHandling');
    if (!h.ok) return h;
    base.handlings.push(h.value);
  }
  if (base.changes.length === 0 && base.handlings.length === 0) return { ok: false, reason: 'neither statusChange nor alarmHandling is present' };
  return { ok: true, value: boundAlarm.message(base) };
}

/** `GET /mgmt/fault/types`: names, as strings or objects with `type` or `name`. */
export function parseAlarmTypes(body: unknown): string[] {
  const page = isObject(body) && isObject(body.List) ? listOf(body, ['value'], 'an alarm type list', ['List']) : Array.isArray(body) ? { items: body } : listOf(body, ['types', 'alarm-types'], 'an alarm type list');
  const out = page.items.map((t) => (isObject(t) ? filled(t.type) ?? filled(t.name) : filled(t))).filter((t): t is string => Boolean(t));
  if (out.length === 0 && page.items.length > 0) throw unexpectedAnswer('an alarm type list');
  return out;
}
