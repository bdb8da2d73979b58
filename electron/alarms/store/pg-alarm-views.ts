/**
 * What the window, the CLI, the Overview and the notifier read from the alarm store on PostgreSQL:
 * the reads of alarms-views.ts, alarms-overview.ts and alarms-notify.ts in the same shapes and
 * orders (text sorted by code point, as SQLite's BINARY; a text search case-blind and literal).
 */
import type { Pool } from 'pg';
import { boundText, LIMITS } from '../../../shared/model/limits';
import { ACTIVE_SEVERITIES, type ActiveSeverity, type AlarmCounts, type AlarmDetail, type AlarmFilter, type AlarmRate, type AlarmSeverity, type AlarmSummary, type AlarmView, type HandlingState } from '../../../shared/model/alarms';
import { safeIso } from './alarm-times';
import { bySeverity, type AlarmOverview, type OrganizationAlarms } from './alarms-overview';
import { withinBudget } from './alarms-views';
import type { ChangeRange, NotifiedChange } from './alarms-notify';

type Num = string | number;
const n = (v: Num | null | undefined): number => Number(v ?? 0);

interface Row {
  aid: Num;
  device: string;
  device_name: string;
  org: string;
  object: string;
  type: string;
  specific_problem: string;
  severity: string;
  cleared: boolean;
  text: string;
  last_change_ms: Num;
  handling_state: string | null;
  handling_user: string | null;
  handling_ms: Num | null;
  handling_description: string | null;
  changes: Num;
  source?: string;
}

const COLUMNS = `a.aid, a.device, a.device_name, a.org, a.object, a.type, a.specific_problem, a.severity, a.cleared, a.text, a.last_change_ms,
  a.handling_state, a.handling_user, a.handling_ms, a.handling_description, (SELECT COUNT(*) FROM alarm_changes c WHERE c.aid = a.aid) AS changes`;
const UNHANDLED = "(handling_state IS NULL OR handling_state = 'none')";

function view(r: Row): AlarmView {
  return {
    id: n(r.aid),
    device: boundText(r.device, LIMITS.key),
    deviceName: boundText(r.device_name, LIMITS.key),
    org: boundText(r.org, LIMITS.name),
    object: boundText(r.object, LIMITS.key),
    type: boundText(r.type, LIMITS.key),
    specificProblem: boundText(r.specific_problem, LIMITS.key),
    severity: r.severity as AlarmSeverity,
    cleared: r.cleared,
    text: boundText(r.text, LIMITS.text),
    lastChangeAt: safeIso(n(r.last_change_ms)),
    changes: n(r.changes),
    handling:
      r.handling_state !== null
        ? { state: r.handling_state as HandlingState, user: boundText(r.handling_user ?? '', LIMITS.name), at: safeIso(n(r.handling_ms)), description: boundText(r.handling_description ?? '', LIMITS.text) }
        : null,
  };
}

function where(source: string, f: AlarmFilter): { sql: string; params: unknown[] } {
  const params: unknown[] = [source];
  const p = (v: unknown) => `$${params.push(v)}`;
  const parts = ['a.source = $1'];
  const cleared = f.cleared ?? 'active';
  if (cleared !== 'all') parts.push(`a.cleared = ${cleared === 'cleared'}`);
  if (f.severity && f.severity.length > 0) parts.push(`a.severity = ANY(${p(f.severity)}::text[])`);
  for (const [column, value] of [['a.org', f.org], ['a.device_name', f.device], ['a.type', f.type]] as const) if (value) parts.push(`${column} = ${p(value)}`);
  if (f.unacked) parts.push("(a.handling_state IS NULL OR a.handling_state = 'none')");
  if (f.afterSeq !== undefined) parts.push(`a.last_seq > ${p(f.afterSeq)}`);
  if (f.text) {
    const like = p(`%${f.text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    parts.push(`(${['a.text', 'a.object', 'a.device_name', 'a.type', 'a.specific_problem'].map((c) => `${c} ILIKE ${like} ESCAPE '\\'`).join(' OR ')})`);
  }
  return { sql: parts.join(' AND '), params };
}

export async function listAlarmsPg(pool: Pool, source: string, filter: AlarmFilter, offset: number, limit: number, budgetBytes: number = LIMITS.alarmWindowBytes): Promise<{ total: number; rows: AlarmView[]; more: boolean }> {
  const w = where(source, filter);
  const total = n((await pool.query<{ n: string }>(`SELECT COUNT(*) AS n FROM alarms a WHERE ${w.sql}`, w.params)).rows[0]!.n);
  const found = await pool.query<Row>(`SELECT ${COLUMNS} FROM alarms a WHERE ${w.sql} ORDER BY a.last_change_ms DESC, a.aid DESC LIMIT $${w.params.length + 1} OFFSET $${w.params.length + 2}`, [...w.params, limit, offset]);
  return { total, ...withinBudget(found.rows, view, budgetBytes) };
}

export async function alarmDetailPg(pool: Pool, source: string, aid: number): Promise<AlarmDetail | undefined> {
  const row = (await pool.query<Row>(`SELECT ${COLUMNS} FROM alarms a WHERE a.source = $1 AND a.aid = $2`, [source, aid])).rows[0];
  if (!row) return undefined;
  const changes = (await pool.query<{ event_ms: Num; severity: string; text: string; message_id: Num | null; stored_ms: Num }>('SELECT event_ms, severity, text, message_id, stored_ms FROM alarm_changes WHERE aid = $1 ORDER BY event_ms', [aid])).rows;
  const handlings = (await pool.query<{ at_ms: Num; state: string; user: string; description: string }>('SELECT at_ms, state, "user", description FROM alarm_handlings WHERE aid = $1 ORDER BY at_ms, hid', [aid])).rows;
  return {
    ...view(row),
    statusChanges: changes.map((c) => ({ at: safeIso(n(c.event_ms)), severity: c.severity as AlarmSeverity, text: boundText(c.text, LIMITS.text), messageId: c.message_id === null ? null : n(c.message_id), storedAt: safeIso(n(c.stored_ms)) })),
    handlings: handlings.map((h) => ({ at: safeIso(n(h.at_ms)), state: h.state as HandlingState, user: boundText(h.user, LIMITS.name), description: boundText(h.description, LIMITS.text) })),
  };
}

export async function alarmKeysPg(pool: Pool, source: string, aids: readonly number[]) {
  const rows = (await pool.query<{ aid: Num; device: string; device_name: string; object: string; type: string; specific_problem: string }>('SELECT aid, device, device_name, object, type, specific_problem FROM alarms WHERE source = $1 AND aid = ANY($2::bigint[])', [source, [...aids]])).rows;
  const byAid = new Map(rows.map((r) => [n(r.aid), r]));
  return aids.flatMap((aid) => {
    const r = byAid.get(aid);
    return r ? [{ aid, device: r.device, deviceName: r.device_name, object: r.object, type: r.type, specificProblem: r.specific_problem }] : [];
  });
}

const zero = (): AlarmCounts => ({ critical: 0, major: 0, minor: 0, warning: 0, indeterminate: 0 });
const isActive = (s: string): s is ActiveSeverity => (ACTIVE_SEVERITIES as readonly string[]).includes(s);

export async function alarmSummaryPg(pool: Pool, source: string): Promise<Omit<AlarmSummary, 'profileId'>> {
  const rows = (await pool.query<{ org: string; severity: string; n: string }>('SELECT org, severity, COUNT(*) AS n FROM alarms WHERE source = $1 AND NOT cleared GROUP BY org, severity ORDER BY org COLLATE "C"', [source])).rows;
  const byOrg = new Map<string, AlarmCounts & { total: number }>();
  const totals = { ...zero(), total: 0 };
  for (const r of rows) {
    if (!isActive(r.severity)) continue;
    const o = byOrg.get(r.org) ?? { ...zero(), total: 0 };
    o[r.severity] += n(r.n);
    o.total += n(r.n);
    totals[r.severity] += n(r.n);
    totals.total += n(r.n);
    byOrg.set(r.org, o);
  }
  return { organizations: [...byOrg].map(([org, c]) => ({ org, ...c })), totals };
}

export async function alarmRatePg(pool: Pool, source: string, minutes: number, nowMs: number): Promise<Omit<AlarmRate, 'profileId'>> {
  const end = Math.floor(nowMs / 60_000) + 1;
  const start = end - minutes;
  const rows = (
    await pool.query<{ m: Num; n: Num; critical: Num; major: Num; cleared: Num }>(
      `SELECT c.event_ms / 60000 AS m, COUNT(*) AS n, COUNT(*) FILTER (WHERE c.severity = 'critical') AS critical, COUNT(*) FILTER (WHERE c.severity = 'major') AS major, COUNT(*) FILTER (WHERE c.severity = 'cleared') AS cleared
       FROM alarm_changes c JOIN alarms a ON a.aid = c.aid
       WHERE a.source = $1 AND c.event_ms >= $2 AND c.event_ms < $3 GROUP BY 1`,
      [source, start * 60_000, end * 60_000],
    )
  ).rows;
  const byMinute = new Map(rows.map((r) => [n(r.m), r]));
  const buckets = [];
  for (let m = start; m < end; m++) {
    const r = byMinute.get(m);
    buckets.push({ at: safeIso(m * 60_000), count: n(r?.n), critical: n(r?.critical), major: n(r?.major), cleared: n(r?.cleared) });
  }
  return { buckets };
}

/** Every stored alarm changed at or after `sinceMs` (all sources), newest change first, read a thousand at a time. */
export async function* exportAlarmsPg(pool: Pool, sinceMs = 0, chunk = 1_000): AsyncGenerator<AlarmView & { source: string }> {
  let after: [number, number] | undefined;
  for (;;) {
    const rows = (
      await pool.query<Row & { source: string }>(
        `SELECT a.source, ${COLUMNS} FROM alarms a WHERE a.last_change_ms >= $1 ${after ? 'AND (a.last_change_ms, a.aid) < ($3, $4)' : ''} ORDER BY a.last_change_ms DESC, a.aid DESC LIMIT $2`,
        after ? [sinceMs, chunk, ...after] : [sinceMs, chunk],
      )
    ).rows;
    for (const r of rows) yield { source: r.source, ...view(r) };
    if (rows.length < chunk) return;
    const last = rows[rows.length - 1]!;
    after = [n(last.last_change_ms), n(last.aid)];
  }
}

export async function alarmOverviewPg(pool: Pool, source: string): Promise<AlarmOverview> {
  const rows = (await pool.query<{ org: string; severity: string; n: string; open: string }>(`SELECT org, severity, COUNT(*) AS n, COUNT(*) FILTER (WHERE ${UNHANDLED}) AS open FROM alarms WHERE source = $1 AND NOT cleared GROUP BY org, severity`, [source])).rows;
  const z = () => ({ ...zero(), total: 0 });
  const active = z();
  const unacknowledged = z();
  const byOrg = new Map<string, OrganizationAlarms>();
  for (const r of rows) {
    if (!isActive(r.severity)) continue;
    active[r.severity] += n(r.n);
    active.total += n(r.n);
    unacknowledged[r.severity] += n(r.open);
    unacknowledged.total += n(r.open);
    let o = byOrg.get(r.org);
    if (!o) byOrg.set(r.org, (o = { org: r.org, ...zero(), total: 0, unacknowledged: 0 }));
    o[r.severity] += n(r.n);
    o.total += n(r.n);
    o.unacknowledged += n(r.open);
  }
  return { active, unacknowledged, organizations: [...byOrg.values()].sort(bySeverity) };
}

export async function criticalUnacknowledgedPg(pool: Pool, source: string): Promise<number> {
  return n((await pool.query<{ n: string }>(`SELECT COUNT(*) AS n FROM alarms WHERE source = $1 AND NOT cleared AND severity = 'critical' AND ${UNHANDLED}`, [source])).rows[0]!.n);
}

export async function alarmsCollectedPg(pool: Pool, source: string): Promise<boolean> {
  const r = await pool.query('SELECT EXISTS (SELECT 1 FROM alarms WHERE source = $1) OR EXISTS (SELECT 1 FROM alarm_sources WHERE source = $1 AND last_backfill_ms IS NOT NULL) AS yes', [source]);
  return (r.rows[0] as { yes: boolean }).yes;
}

export async function newestChangeMsPg(pool: Pool, source: string): Promise<number> {
  return n((await pool.query<{ ms: string }>('SELECT COALESCE(MAX(last_change_ms), 0) AS ms FROM alarms WHERE source = $1', [source])).rows[0]!.ms);
}

export async function changeSeqPg(pool: Pool): Promise<number> {
  return n((await pool.query<{ s: string }>('SELECT COALESCE(MAX(seq), 0) AS s FROM alarm_changes')).rows[0]!.s);
}

export async function changeCountsPg(pool: Pool, source: string, r: ChangeRange): Promise<Array<{ severity: string; n: number }>> {
  const rows = (
    await pool.query<{ severity: string; n: string }>(
      `SELECT c.severity, COUNT(*) AS n FROM alarm_changes c JOIN alarms a ON a.aid = c.aid
       WHERE c.seq > $1 AND c.seq <= $2 AND a.source = $3 AND c.event_ms >= $4 GROUP BY c.severity`,
      [r.fromSeq, r.toSeq, source, r.sinceMs],
    )
  ).rows;
  return rows.map((x) => ({ severity: x.severity, n: n(x.n) }));
}

export async function newestChangePg(pool: Pool, source: string, r: ChangeRange, severity: ActiveSeverity): Promise<NotifiedChange | undefined> {
  const row = (
    await pool.query<NotifiedChange & { aid: Num }>(
      `SELECT a.aid, c.severity, c.text, a.device_name, a.org, a.object FROM alarm_changes c JOIN alarms a ON a.aid = c.aid
       WHERE c.seq > $1 AND c.seq <= $2 AND a.source = $3 AND c.event_ms >= $4 AND c.severity = $5 ORDER BY c.seq DESC LIMIT 1`,
      [r.fromSeq, r.toSeq, source, r.sinceMs, severity],
    )
  ).rows[0];
  return row ? { ...row, aid: n(row.aid) } : undefined;
}
