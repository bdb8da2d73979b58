/**
 * What the window and the CLI read from alarms.db: a window of the list (newest change first,
 * filtered, for a virtualized list of 100,000 alarms), one alarm with its history, the counters
 * per organization and severity, the changes per minute, and every alarm for an export.
 */
import type Database from 'better-sqlite3';
import { boundText, LIMITS } from '../../../shared/model/limits';
import { ACTIVE_SEVERITIES, type AlarmCounts, type AlarmDetail, type AlarmFilter, type AlarmRate, type AlarmSeverity, type AlarmSummary, type AlarmView, type HandlingState } from '../../../shared/model/alarms';

import { safeIso } from './alarm-times';

// Never throws, whatever a stored time is (issue 20).
const iso = safeIso;

interface AlarmRowFull {
  aid: number;
  device: string;
  device_name: string;
  org: string;
  object: string;
  type: string;
  specific_problem: string;
  severity: string;
  cleared: number;
  text: string;
  last_change_ms: number;
  handling_state: string | null;
  handling_user: string | null;
  handling_ms: number | null;
  handling_description: string | null;
  changes: number;
  source?: string;
}

const COLUMNS = `a.aid, a.device, a.device_name, a.org, a.object, a.type, a.specific_problem, a.severity, a.cleared, a.text, a.last_change_ms,
  a.handling_state, a.handling_user, a.handling_ms, a.handling_description, (SELECT COUNT(*) FROM changes c WHERE c.aid = a.aid) AS changes`;

/** A stored alarm as the window sees it; fields stored before they were bounded at the wire (issue 20.5) are bounded here. */
function view(r: AlarmRowFull): AlarmView {
  return {
    id: r.aid,
    device: boundText(r.device, LIMITS.key),
    deviceName: boundText(r.device_name, LIMITS.key),
    org: boundText(r.org, LIMITS.name),
    object: boundText(r.object, LIMITS.key),
    type: boundText(r.type, LIMITS.key),
    specificProblem: boundText(r.specific_problem, LIMITS.key),
    severity: r.severity as AlarmSeverity,
    cleared: r.cleared === 1,
    text: boundText(r.text, LIMITS.text),
    lastChangeAt: iso(r.last_change_ms),
    changes: r.changes,
    handling:
      r.handling_state !== null
        ? { state: r.handling_state as HandlingState, user: boundText(r.handling_user ?? '', LIMITS.name), at: iso(r.handling_ms ?? 0), description: boundText(r.handling_description ?? '', LIMITS.text) }
        : null,
  };
}

/** The WHERE clause of a filter (AND of every field given). */
function where(source: string, f: AlarmFilter): { sql: string; params: unknown[] } {
  const parts = ['a.source = ?'];
  const params: unknown[] = [source];
  const cleared = f.cleared ?? 'active';
  if (cleared !== 'all') parts.push(`a.cleared = ${cleared === 'cleared' ? 1 : 0}`);
  if (f.severity && f.severity.length > 0) {
    parts.push(`a.severity IN (${f.severity.map(() => '?').join(', ')})`);
    params.push(...f.severity);
  }
  for (const [column, value] of [['a.org', f.org], ['a.device_name', f.device], ['a.type', f.type]] as const) {
    if (!value) continue;
    parts.push(`${column} = ?`);
    params.push(value);
  }
  if (f.unacked) parts.push("(a.handling_state IS NULL OR a.handling_state = 'none')");
  if (f.afterSeq !== undefined) {
    parts.push('a.last_seq > ?');
    params.push(f.afterSeq);
  }
  if (f.text) {
    // LIKE with the wildcards of the words escaped; case-insensitive for ASCII.
    const like = `%${f.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push("(a.text LIKE ? ESCAPE '\\' OR a.object LIKE ? ESCAPE '\\' OR a.device_name LIKE ? ESCAPE '\\' OR a.type LIKE ? ESCAPE '\\' OR a.specific_problem LIKE ? ESCAPE '\\')");
    params.push(like, like, like, like, like);
  }
  return { sql: parts.join(' AND '), params };
}

/**
 * A window of the list. Rows are added until `limit`, or until their JSON reaches `budgetBytes`
 * (LIMITS.alarmWindowBytes; the first row always comes): then `more` says the window stopped short
 * and the rest is read from `offset + rows.length`.
 */
export function listAlarms(db: Database.Database, source: string, filter: AlarmFilter, offset: number, limit: number, budgetBytes: number = LIMITS.alarmWindowBytes): { total: number; rows: AlarmView[]; more: boolean } {
  const w = where(source, filter);
  const total = (db.prepare(`SELECT COUNT(*) AS n FROM alarms a WHERE ${w.sql}`).get(...w.params) as { n: number }).n;
  // Fewer matches than the window reaches: walking the newest-first index would read every alarm of
  // the source to its end; the matches are found as the count found them and sorted (the unary `+`
  // keeps the index out of the ORDER BY and leaves the values as they are; C-82).
  const order = total < offset + limit && (filter.text || filter.org || filter.device || filter.type) ? '+a.last_change_ms DESC, +a.aid DESC' : 'a.last_change_ms DESC, a.aid DESC';
  const found = db.prepare(`SELECT ${COLUMNS} FROM alarms a WHERE ${w.sql} ORDER BY ${order} LIMIT ? OFFSET ?`).iterate(...w.params, limit, offset) as IterableIterator<AlarmRowFull>;
  return { total, ...withinBudget(found, view, budgetBytes) };
}

/**
 * The rows of a window as views, until their JSON reaches `budgetBytes` (the first row always):
 * `more` when rows were left for the next window. Both stores' lists (alarms.db, PostgreSQL).
 */
export function withinBudget<R>(found: Iterable<R>, view: (r: R) => AlarmView, budgetBytes: number): { rows: AlarmView[]; more: boolean } {
  const rows: AlarmView[] = [];
  let bytes = 0;
  for (const r of found) {
    const v = view(r);
    const size = Buffer.byteLength(JSON.stringify(v)) + 1;
    if (rows.length > 0 && bytes + size > budgetBytes) return { rows, more: true };
    rows.push(v);
    bytes += size;
  }
  return { rows, more: false };
}

export function alarmDetail(db: Database.Database, source: string, aid: number): AlarmDetail | undefined {
  const row = db.prepare(`SELECT ${COLUMNS} FROM alarms a WHERE a.source = ? AND a.aid = ?`).get(source, aid) as AlarmRowFull | undefined;
  if (!row) return undefined;
  const changes = db.prepare('SELECT event_ms, severity, text, message_id, stored_ms FROM changes WHERE aid = ? ORDER BY event_ms').all(aid) as Array<{ event_ms: number; severity: string; text: string; message_id: number | null; stored_ms: number }>;
  const handlings = db.prepare('SELECT at_ms, state, user, description FROM handlings WHERE aid = ? ORDER BY at_ms, hid').all(aid) as Array<{ at_ms: number; state: string; user: string; description: string }>;
  return {
    ...view(row),
    statusChanges: changes.map((c) => ({ at: iso(c.event_ms), severity: c.severity as AlarmSeverity, text: boundText(c.text, LIMITS.text), messageId: c.message_id, storedAt: iso(c.stored_ms) })),
    handlings: handlings.map((h) => ({ at: iso(h.at_ms), state: h.state as HandlingState, user: boundText(h.user, LIMITS.name), description: boundText(h.description, LIMITS.text) })),
  };
}

/** The natural keys of stored alarms of a source (for actions on the node); unknown ids are left out. */
export function alarmKeys(db: Database.Database, source: string, aids: readonly number[]): Array<{ aid: number; device: string; deviceName: string; object: string; type: string; specificProblem: string }> {
  const stmt = db.prepare('SELECT aid, device, device_name, object, type, specific_problem FROM alarms WHERE source = ? AND aid = ?');
  const out = [];
  for (const aid of aids) {
    const r = stmt.get(source, aid) as { aid: number; device: string; device_name: string; object: string; type: string; specific_problem: string } | undefined;
    if (r) out.push({ aid: r.aid, device: r.device, deviceName: r.device_name, object: r.object, type: r.type, specificProblem: r.specific_problem });
  }
  return out;
}

const zero = (): AlarmCounts => ({ critical: 0, major: 0, minor: 0, warning: 0, indeterminate: 0 });

export function alarmSummary(db: Database.Database, source: string): Omit<AlarmSummary, 'profileId'> {
  const rows = db.prepare('SELECT org, severity, COUNT(*) AS n FROM alarms WHERE source = ? AND cleared = 0 GROUP BY org, severity ORDER BY org').all(source) as Array<{ org: string; severity: string; n: number }>;
  const byOrg = new Map<string, AlarmCounts & { total: number }>();
  const totals = { ...zero(), total: 0 };
  for (const r of rows) {
    if (!(ACTIVE_SEVERITIES as readonly string[]).includes(r.severity)) continue;
    const sev = r.severity as keyof AlarmCounts;
    const o = byOrg.get(r.org) ?? { ...zero(), total: 0 };
    o[sev] += r.n;
    o.total += r.n;
    totals[sev] += r.n;
    totals.total += r.n;
    byOrg.set(r.org, o);
  }
  return { organizations: [...byOrg].map(([org, c]) => ({ org, ...c })), totals };
}

/** Changes per minute of the node's time over the `minutes` up to `nowMs`, empty minutes included. */
export function alarmRate(db: Database.Database, source: string, minutes: number, nowMs: number): Omit<AlarmRate, 'profileId'> {
  const end = Math.floor(nowMs / 60_000) + 1;
  const start = end - minutes;
  const rows = db
    .prepare(
      `SELECT c.event_ms / 60000 AS m, COUNT(*) AS n, SUM(c.severity = 'critical') AS critical, SUM(c.severity = 'major') AS major, SUM(c.severity = 'cleared') AS cleared
       FROM changes c JOIN alarms a ON a.aid = c.aid
       WHERE a.source = ? AND c.event_ms >= ? AND c.event_ms < ? GROUP BY m`,
    )
    .all(source, start * 60_000, end * 60_000) as Array<{ m: number; n: number; critical: number; major: number; cleared: number }>;
  const byMinute = new Map(rows.map((r) => [r.m, r]));
  const buckets = [];
  for (let m = start; m < end; m++) {
    const r = byMinute.get(m);
    buckets.push({ at: iso(m * 60_000), count: r?.n ?? 0, critical: r?.critical ?? 0, major: r?.major ?? 0, cleared: r?.cleared ?? 0 });
  }
  return { buckets };
}

/** Every stored alarm changed at or after `sinceMs` (all sources), newest change first, a row at a time. */
export function* exportAlarms(db: Database.Database, sinceMs = 0): Generator<AlarmView & { source: string }> {
  const stmt = db.prepare(`SELECT a.source, ${COLUMNS} FROM alarms a WHERE a.last_change_ms >= ? ORDER BY a.last_change_ms DESC, a.aid DESC`);
  for (const r of stmt.iterate(sinceMs) as Iterable<AlarmRowFull & { source: string }>) yield { source: r.source, ...view(r) };
}
