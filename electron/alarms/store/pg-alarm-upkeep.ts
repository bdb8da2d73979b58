/**
 * Upkeep of the alarm store on PostgreSQL, as alarms-retention.ts and alarms-repair.ts do it on
 * SQLite: retention by age with the row cap (MN-AL11), the repair of times past now plus the
 * clock skew (issue 20), and forgetting a source. Each runs in one transaction (the caller's
 * client); retention and repair take a transaction-scoped advisory lock first, so when every
 * collector of a fleet runs its hourly upkeep, one does the work and the others find it done.
 */
import type { PoolClient } from 'pg';
import { safeIso, type TimeWindow } from './alarm-times';
import { DEFAULT_MAX_CHANGES, type RetentionResult } from './alarms-retention';
import type { TimeRepair } from './alarms-repair';

type Num = string | number;
const n = (v: Num | null | undefined): number => Number(v ?? 0);

/** Whether this transaction is the one doing `what` now (others skip it). */
const mine = async (c: PoolClient, what: string) => (await c.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [`northbound:alarms:${what}`])).rows[0]!.ok;

/**
 * What a transaction of upkeep removed, per source (C-82): applied to the sources' counts as
 * differences at its end (`apply`), never as counts read again, which would lose a batch another
 * collector committed meanwhile; a batch adds its own in its transaction (pg-alarm-ingest.ts).
 */
class Removed {
  private readonly by = new Map<string, { alarms: number; changes: number }>();

  add(source: string | null, what: 'alarms' | 'changes', k: number): void {
    if (source === null || k === 0) return;
    const x = this.by.get(source) ?? { alarms: 0, changes: 0 };
    x[what] += k;
    this.by.set(source, x);
  }

  /** Runs a `DELETE … RETURNING` wrapped to answer `source, n` per source (a change whose alarm is gone counts under none), noting them; answers the rows deleted. */
  async delete(c: PoolClient, what: 'alarms' | 'changes', sql: string, params: unknown[]): Promise<number> {
    const rows = (await c.query<{ source: string | null; n: string }>(sql, params)).rows;
    let total = 0;
    for (const r of rows) {
      this.add(r.source, what, n(r.n));
      total += n(r.n);
    }
    return total;
  }

  async apply(c: PoolClient): Promise<void> {
    if (this.by.size === 0) return;
    const rows = [...this.by].map(([source, x]) => ({ source, a: x.alarms, c: x.changes }));
    await c.query(
      `UPDATE alarm_sources s SET alarm_count = s.alarm_count - d.a, change_count = s.change_count - d.c
       FROM json_to_recordset($1::json) AS d(source text, a bigint, c bigint) WHERE s.source = d.source`,
      [JSON.stringify(rows)],
    );
  }
}

/** `DELETE FROM alarm_changes …` (its WHERE, alias `ch`) answering the changes deleted per source. */
const deleteChanges = (where: string) => `WITH d AS (DELETE FROM alarm_changes ch WHERE ${where} RETURNING ch.aid) SELECT a.source, COUNT(*) AS n FROM d LEFT JOIN alarms a ON a.aid = d.aid GROUP BY a.source`;
/** `DELETE FROM alarms …` (its WHERE, alias `a`) answering the alarms deleted per source. */
const deleteAlarms = (where: string) => `WITH d AS (DELETE FROM alarms a WHERE ${where} RETURNING a.source) SELECT source, COUNT(*) AS n FROM d GROUP BY source`;

export async function retentionPg(c: PoolClient, o: { nowMs: number; days: number; maxChanges?: number }): Promise<RetentionResult> {
  if (!(await mine(c, 'retention'))) return { changes: 0, handlings: 0, alarms: 0 };
  const cut = o.nowMs - o.days * 86_400_000;
  const max = o.maxChanges ?? DEFAULT_MAX_CHANGES;
  const removed = new Removed();
  // An active alarm keeps its newest change whatever its age (its row shows it).
  // As alarms-retention.ts: a cleared alarm's changes are not counted here (the comparison is NULL), they go with it below.
  const changes = await removed.delete(c, 'changes', deleteChanges('ch.event_ms < $1 AND NOT (ch.event_ms = (SELECT a.last_change_ms FROM alarms a WHERE a.aid = ch.aid AND NOT a.cleared))'), [cut]);
  const handlings = (await c.query('DELETE FROM alarm_handlings WHERE at_ms < $1', [cut])).rowCount ?? 0;
  const stale = 'SELECT aid FROM alarms WHERE cleared AND last_change_ms < $1';
  await removed.delete(c, 'changes', deleteChanges(`ch.aid IN (${stale})`), [cut]);
  await c.query(`DELETE FROM alarm_handlings WHERE aid IN (${stale})`, [cut]);
  let alarms = await removed.delete(c, 'alarms', deleteAlarms('a.cleared AND a.last_change_ms < $1'), [cut]);
  // The row cap: the oldest stored changes beyond it go, and cleared alarms left without any.
  let capped = 0;
  const count = n((await c.query<{ n: string }>('SELECT COUNT(*) AS n FROM alarm_changes')).rows[0]!.n);
  if (count > max) {
    capped = await removed.delete(c, 'changes', deleteChanges('ch.seq IN (SELECT seq FROM alarm_changes ORDER BY seq LIMIT $1)'), [count - max]);
    alarms += await removed.delete(c, 'alarms', deleteAlarms('a.cleared AND NOT EXISTS (SELECT 1 FROM alarm_changes ch WHERE ch.aid = a.aid)'), []);
  }
  // Broker marks older than the history kept (the fleet's gap check has long moved past them).
  await c.query('DELETE FROM alarm_mark_sets WHERE stored_ms < $1', [cut]);
  await removed.apply(c);
  return { changes: changes + capped, handlings, alarms };
}

const REASON = (what: string, ms: number, w: TimeWindow) => `stored ${what} ${safeIso(ms)} is after ${safeIso(w.maxMs)} (now plus the allowed clock skew); set aside when the store opened`;

/** Sets aside every stored time past `w.maxMs` and rewinds cursors past it (alarms-repair.ts); cheap when there are none. */
export async function repairPg(c: PoolClient, w: TimeWindow, nowMs: number, deadLettersKept: number): Promise<TimeRepair> {
  const r: TimeRepair = { cursors: 0, changes: 0, handlings: 0, alarms: 0 };
  if (!(await mine(c, 'repair'))) return r;
  const removed = new Removed();
  const max = Math.floor(w.maxMs);
  const dead = (source: string, reason: string, excerpt: string) => c.query("INSERT INTO alarm_dead_letters (source, at_ms, reason, routing_key, excerpt) VALUES ($1, $2, $3, 'store repair', $4)", [source, nowMs, reason, excerpt.slice(0, 2048)]);
  for (const s of (await c.query<{ source: string; cursor_ms: Num }>('SELECT source, cursor_ms FROM alarm_sources WHERE cursor_ms > $1', [max])).rows) {
    const firstBad = (
      await c.query<{ m: Num | null }>(
        `SELECT MIN(x) AS m FROM (
           SELECT MIN(ch.stored_ms) AS x FROM alarm_changes ch JOIN alarms a ON a.aid = ch.aid WHERE a.source = $1 AND ch.event_ms > $2
           UNION ALL SELECT MIN(h.stored_ms) FROM alarm_handlings h JOIN alarms a ON a.aid = h.aid WHERE a.source = $1 AND h.at_ms > $2) t`,
        [s.source, max],
      )
    ).rows[0]!.m;
    const newest = (await c.query<{ m: Num | null }>('SELECT MAX(ch.event_ms) AS m FROM alarm_changes ch JOIN alarms a ON a.aid = ch.aid WHERE a.source = $1 AND ch.event_ms <= $2', [s.source, max])).rows[0]!.m;
    const to = Math.min(firstBad !== null ? n(firstBad) : newest !== null ? n(newest) : 0, max);
    await c.query('UPDATE alarm_sources SET cursor_ms = $1 WHERE source = $2', [Math.max(0, Math.floor(to)), s.source]);
    await dead(s.source, `${REASON('cursor', n(s.cursor_ms), w)}; moved back to ${safeIso(to)}`, JSON.stringify({ cursorMs: String(s.cursor_ms) }));
    r.cursors += 1;
  }
  const changes = (await c.query<Record<string, unknown> & { seq: Num; source: string; event_ms: Num }>('SELECT ch.seq, ch.event_ms, ch.severity, ch.text, ch.message_id, a.source, a.device_name, a.object, a.type FROM alarm_changes ch JOIN alarms a ON a.aid = ch.aid WHERE ch.event_ms > $1', [max])).rows;
  for (const ch of changes) {
    await dead(ch.source, REASON('status change time', n(ch.event_ms), w), JSON.stringify({ ...ch, seq: n(ch.seq), message_id: ch.message_id === null ? null : n(ch.message_id as Num), event_ms: String(ch.event_ms) }));
    removed.add(ch.source, 'changes', (await c.query('DELETE FROM alarm_changes WHERE seq = $1', [ch.seq])).rowCount ?? 0);
    r.changes += 1;
  }
  const handlings = (await c.query<Record<string, unknown> & { hid: Num; source: string; at_ms: Num }>('SELECT h.hid, h.at_ms, h.state, h."user", a.source, a.device_name, a.object, a.type FROM alarm_handlings h JOIN alarms a ON a.aid = h.aid WHERE h.at_ms > $1', [max])).rows;
  for (const h of handlings) {
    await dead(h.source, REASON('handling time', n(h.at_ms), w), JSON.stringify({ ...h, hid: n(h.hid), at_ms: String(h.at_ms) }));
    await c.query('DELETE FROM alarm_handlings WHERE hid = $1', [h.hid]);
    r.handlings += 1;
  }
  // An alarm whose state came from such a time takes the state of its newest change left (or goes when none is left).
  const alarms = (await c.query<{ aid: Num; source: string; last_change_ms: Num; handling_ms: Num | null }>('SELECT aid, source, device_name, object, type, severity, last_change_ms, handling_ms FROM alarms WHERE last_change_ms > $1 OR COALESCE(handling_ms, 0) > $1', [max])).rows;
  for (const a of alarms) {
    await dead(a.source, REASON('alarm last change', Math.max(n(a.last_change_ms), n(a.handling_ms)), w), JSON.stringify({ ...a, aid: n(a.aid), last_change_ms: String(a.last_change_ms), handling_ms: String(a.handling_ms) }));
    const ch = (await c.query<{ event_ms: Num; severity: string; text: string }>('SELECT event_ms, severity, text FROM alarm_changes WHERE aid = $1 ORDER BY event_ms DESC LIMIT 1', [a.aid])).rows[0];
    if (!ch) {
      await c.query('DELETE FROM alarm_handlings WHERE aid = $1', [a.aid]);
      removed.add(a.source, 'alarms', (await c.query('DELETE FROM alarms WHERE aid = $1', [a.aid])).rowCount ?? 0);
    } else {
      const h = (await c.query<{ at_ms: Num; state: string; user: string; description: string }>('SELECT at_ms, state, "user", description FROM alarm_handlings WHERE aid = $1 ORDER BY at_ms DESC, hid DESC LIMIT 1', [a.aid])).rows[0];
      await c.query('UPDATE alarms SET severity = $1, cleared = $2, text = $3, last_change_ms = $4, handling_state = $5, handling_user = $6, handling_ms = $7, handling_description = $8 WHERE aid = $9', [
        ch.severity,
        ch.severity === 'cleared',
        ch.text,
        ch.event_ms,
        h?.state ?? null,
        h?.user ?? null,
        h?.at_ms ?? null,
        h?.description ?? null,
        a.aid,
      ]);
    }
    r.alarms += 1;
  }
  if (r.cursors + r.changes + r.handlings + r.alarms > 0) await c.query('DELETE FROM alarm_dead_letters WHERE id <= (SELECT MAX(id) FROM alarm_dead_letters) - $1', [deadLettersKept]);
  await removed.apply(c);
  return r;
}

export async function forgetSourcePg(c: PoolClient, source: string): Promise<void> {
  await c.query('DELETE FROM alarm_changes WHERE aid IN (SELECT aid FROM alarms WHERE source = $1)', [source]);
  await c.query('DELETE FROM alarm_handlings WHERE aid IN (SELECT aid FROM alarms WHERE source = $1)', [source]);
  for (const t of ['alarms', 'alarm_sources', 'alarm_message_ids', 'alarm_dead_letters', 'alarm_mark_sets']) await c.query(`DELETE FROM ${t} WHERE source = $1`, [source]);
}
