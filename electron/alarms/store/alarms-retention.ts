/**
 * Retention of alarms.db (MN-AL11): status changes and handlings older than the setting
 * (default 30 days) go; a cleared alarm whose last change is older goes with them; an active
 * alarm stays (with its newest change) however old. On top of that a row cap: past `maxChanges`
 * stored changes the oldest go first, so the file never grows without bound even when a node
 * floods it within the retention period.
 */
import type Database from 'better-sqlite3';
import { RECOUNT_SQL } from './alarms-recount';

export const DEFAULT_ALARM_RETENTION_DAYS = 30;
export const DEFAULT_MAX_CHANGES = 2_000_000;

export interface RetentionResult {
  changes: number;
  handlings: number;
  alarms: number;
}

export function applyAlarmRetention(db: Database.Database, o: { nowMs: number; days: number; maxChanges?: number }): RetentionResult {
  const cut = o.nowMs - o.days * 86_400_000;
  const max = o.maxChanges ?? DEFAULT_MAX_CHANGES;
  return db.transaction((): RetentionResult => {
    // An active alarm keeps its newest change whatever its age (its row shows it).
    const changes = db
      .prepare(
        `DELETE FROM changes WHERE event_ms < ?
           AND NOT (event_ms = (SELECT a.last_change_ms FROM alarms a WHERE a.aid = changes.aid AND a.cleared = 0))`,
      )
      .run(cut).changes;
    const handlings = db.prepare('DELETE FROM handlings WHERE at_ms < ?').run(cut).changes;
    const stale = 'SELECT aid FROM alarms WHERE cleared = 1 AND last_change_ms < ?';
    const staleChanges = db.prepare(`DELETE FROM changes WHERE aid IN (${stale})`).run(cut).changes;
    db.prepare(`DELETE FROM handlings WHERE aid IN (${stale})`).run(cut);
    let alarms = db.prepare('DELETE FROM alarms WHERE cleared = 1 AND last_change_ms < ?').run(cut).changes;
    // The row cap: the oldest stored changes beyond it go, and cleared alarms left without any.
    let capped = 0;
    const count = (db.prepare('SELECT COUNT(*) AS n FROM changes').get() as { n: number }).n;
    if (count > max) {
      capped = db.prepare('DELETE FROM changes WHERE seq IN (SELECT seq FROM changes ORDER BY seq LIMIT ?)').run(count - max).changes;
      alarms += db.prepare('DELETE FROM alarms WHERE cleared = 1 AND NOT EXISTS (SELECT 1 FROM changes c WHERE c.aid = alarms.aid)').run().changes;
    }
    // The sources' counts (C-82), in this transaction: no other writer comes between.
    if (changes + staleChanges + capped + alarms > 0) db.exec(RECOUNT_SQL);
    return { changes: changes + capped, handlings, alarms };
  })();
}
