/**
 * The notifier's reads of alarms.db (C-31): the newest change sequence, and the status changes of
 * a source stored between two sequences whose time on the node is recent enough to be news.
 */
import type Database from 'better-sqlite3';
import type { ActiveSeverity } from '../../../shared/model/alarms';

/** A change to be named in a notification. */
export interface NotifiedChange {
  aid: number;
  severity: ActiveSeverity;
  text: string;
  device_name: string;
  org: string;
  object: string;
}

/** Changes stored after `fromSeq` up to `toSeq` of a source, at or after `sinceMs` on the node's clock. */
export interface ChangeRange {
  fromSeq: number;
  toSeq: number;
  sinceMs: number;
}

export class AlarmNotifyReads {
  private readonly stmt;

  constructor(db: Database.Database) {
    this.stmt = {
      head: db.prepare('SELECT COALESCE(MAX(seq), 0) AS s FROM changes'),
      counts: db.prepare(
        `SELECT c.severity, COUNT(*) AS n FROM changes c JOIN alarms a ON a.aid = c.aid
         WHERE c.seq > ? AND c.seq <= ? AND a.source = ? AND c.event_ms >= ? GROUP BY c.severity`,
      ),
      newest: db.prepare(
        `SELECT a.aid, c.severity, c.text, a.device_name, a.org, a.object FROM changes c JOIN alarms a ON a.aid = c.aid
         WHERE c.seq > ? AND c.seq <= ? AND a.source = ? AND c.event_ms >= ? AND c.severity = ? ORDER BY c.seq DESC LIMIT 1`,
      ),
    };
  }

  /** The newest change's sequence (0 when none). */
  changeSeq(): number {
    return (this.stmt.head.get() as { s: number }).s;
  }

  /** How many such changes per severity. */
  changeCounts(source: string, r: ChangeRange): Array<{ severity: string; n: number }> {
    return this.stmt.counts.all(r.fromSeq, r.toSeq, source, r.sinceMs) as Array<{ severity: string; n: number }>;
  }

  /** The newest such change of a severity. */
  newestChange(source: string, r: ChangeRange, severity: ActiveSeverity): NotifiedChange | undefined {
    return this.stmt.newest.get(r.fromSeq, r.toSeq, source, r.sinceMs, severity) as NotifiedChange | undefined;
  }
}
