/**
 * Repair of alarm times an older console let in (issue 20): a time after now plus the clock skew
 * allowed (alarm-times.ts) in a cursor, a status change, a handling or an alarm's last change.
 * Run when alarms.db opens and with retention. Such rows are set aside in the dead-letter table
 * with their reason and removed (an alarm takes the state of its newest change left); a
 * cursor past the window goes back to when the first such row was stored (or the newest
 * plausible change when none is left), so the next backfill reads again what it had skipped.
 */
import type Database from 'better-sqlite3';
import { RECOUNT_SQL } from './alarms-recount';
import { safeIso, type TimeWindow } from './alarm-times';

export interface TimeRepair {
  cursors: number;
  changes: number;
  handlings: number;
  alarms: number;
}

const REASON = (what: string, ms: number, w: TimeWindow) => `stored ${what} ${safeIso(ms)} is after ${safeIso(w.maxMs)} (now plus the allowed clock skew); set aside when the store opened`;

/** Sets aside every stored time past `w.maxMs` (non-numbers too) and rewinds cursors past it; cheap when there are none. */
export function repairAlarmTimes(db: Database.Database, w: TimeWindow, nowMs: number, deadLettersKept: number): TimeRepair {
  const max = Math.floor(w.maxMs);
  // A REAL such as 1e300 compares as a number and text sorts after every number, so one comparison
  // (which the index on changes.event_ms serves) finds them all; the columns are NOT NULL.
  const bad = (col: string) => `(${col} > ${max})`;
  return db.transaction((): TimeRepair => {
    const r: TimeRepair = { cursors: 0, changes: 0, handlings: 0, alarms: 0 };
    const dead = db.prepare("INSERT INTO dead_letters (source, at_ms, reason, routing_key, excerpt) VALUES (?, ?, ?, 'store repair', ?)");
    const badCursors = db.prepare(`SELECT source, cursor_ms FROM sources WHERE ${bad('cursor_ms')}`).all() as Array<{ source: string; cursor_ms: number }>;
    for (const s of badCursors) {
      const firstBad = db
        .prepare(
          `SELECT MIN(x) AS m FROM (
             SELECT MIN(c.stored_ms) AS x FROM changes c JOIN alarms a ON a.aid = c.aid WHERE a.source = ? AND ${bad('c.event_ms')}
             UNION ALL SELECT MIN(h.stored_ms) FROM handlings h JOIN alarms a ON a.aid = h.aid WHERE a.source = ? AND ${bad('h.at_ms')})`,
        )
        .get(s.source, s.source) as { m: number | null };
      const newest = db.prepare(`SELECT MAX(c.event_ms) AS m FROM changes c JOIN alarms a ON a.aid = c.aid WHERE a.source = ? AND NOT ${bad('c.event_ms')}`).get(s.source) as { m: number | null };
      const to = Math.min(firstBad.m ?? newest.m ?? 0, max);
      db.prepare('UPDATE sources SET cursor_ms = ? WHERE source = ?').run(Math.max(0, Math.floor(to)), s.source);
      dead.run(s.source, nowMs, `${REASON('cursor', s.cursor_ms, w)}; moved back to ${safeIso(to)}`, JSON.stringify({ cursorMs: String(s.cursor_ms) }));
      r.cursors += 1;
    }
    const changes = db.prepare(`SELECT c.seq, c.event_ms, c.severity, c.text, c.message_id, a.source, a.device_name, a.object, a.type FROM changes c JOIN alarms a ON a.aid = c.aid WHERE ${bad('c.event_ms')}`).all() as Array<Record<string, string | number | null> & { seq: number; source: string; event_ms: number }>;
    for (const c of changes) {
      dead.run(c.source, nowMs, REASON('status change time', c.event_ms, w), JSON.stringify({ ...c, event_ms: String(c.event_ms) }).slice(0, 2048));
      db.prepare('DELETE FROM changes WHERE seq = ?').run(c.seq);
      r.changes += 1;
    }
    const handlings = db.prepare(`SELECT h.hid, h.at_ms, h.state, h.user, a.source, a.device_name, a.object, a.type FROM handlings h JOIN alarms a ON a.aid = h.aid WHERE ${bad('h.at_ms')}`).all() as Array<Record<string, string | number | null> & { hid: number; source: string; at_ms: number }>;
    for (const h of handlings) {
      dead.run(h.source, nowMs, REASON('handling time', h.at_ms, w), JSON.stringify({ ...h, at_ms: String(h.at_ms) }).slice(0, 2048));
      db.prepare('DELETE FROM handlings WHERE hid = ?').run(h.hid);
      r.handlings += 1;
    }
    // An alarm whose state came from such a time takes the state of its newest change left (or goes when none is left).
    const alarms = db.prepare(`SELECT aid, source, device_name, object, type, severity, last_change_ms, handling_ms FROM alarms WHERE ${bad('last_change_ms')} OR ${bad('COALESCE(handling_ms, 0)')}`).all() as Array<Record<string, string | number | null> & { aid: number; source: string; last_change_ms: number; handling_ms: number | null }>;
    for (const a of alarms) {
      dead.run(a.source, nowMs, REASON('alarm last change', Math.max(a.last_change_ms, a.handling_ms ?? 0), w), JSON.stringify({ ...a, last_change_ms: String(a.last_change_ms), handling_ms: String(a.handling_ms) }).slice(0, 2048));
      const c = db.prepare('SELECT event_ms, severity, text FROM changes WHERE aid = ? ORDER BY event_ms DESC LIMIT 1').get(a.aid) as { event_ms: number; severity: string; text: string } | undefined;
      if (!c) {
        for (const t of ['handlings', 'alarms']) db.prepare(`DELETE FROM ${t} WHERE aid = ?`).run(a.aid);
      } else {
        db.prepare('UPDATE alarms SET severity = ?, cleared = ?, text = ?, last_change_ms = ? WHERE aid = ?').run(c.severity, c.severity === 'cleared' ? 1 : 0, c.text, c.event_ms, a.aid);
        const h = db.prepare('SELECT at_ms, state, user, description FROM handlings WHERE aid = ? ORDER BY at_ms DESC, hid DESC LIMIT 1').get(a.aid) as { at_ms: number; state: string; user: string; description: string } | undefined;
        db.prepare('UPDATE alarms SET handling_state = ?, handling_user = ?, handling_ms = ?, handling_description = ? WHERE aid = ?').run(h?.state ?? null, h?.user ?? null, h?.at_ms ?? null, h?.description ?? null, a.aid);
      }
      r.alarms += 1;
    }
    if (r.cursors + r.changes + r.handlings + r.alarms > 0) db.prepare('DELETE FROM dead_letters WHERE id <= (SELECT MAX(id) FROM dead_letters) - ?').run(deadLettersKept);
    // The sources' counts (C-82) when rows went.
    if (r.changes + r.alarms > 0) db.exec(RECOUNT_SQL);
    return r;
  })();
}
