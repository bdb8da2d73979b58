/**
 * The activity log's store (`activity.db`, issue 22.2): one row per operator write, newest last.
 * Writes are a few a minute at most, so they are made on main, synchronously, each in its own
 * statement. Kept like the other histories: entries older than the retention (days) go at start
 * and hourly, and never more than MAX_ENTRIES (the oldest first).
 */
import type Database from 'better-sqlite3';
import type { ActivityEntry, ActivityOutcome } from '../../shared/model/activity';
import { migrate, openPrivateDatabase } from './sqlite';

export const MAX_ACTIVITY_ENTRIES = 200_000;

const STEPS = [
  `CREATE TABLE activity (
     id INTEGER PRIMARY KEY AUTOINCREMENT,
     at TEXT NOT NULL,
     user TEXT NOT NULL,
     node_user TEXT,
     action TEXT NOT NULL,
     what TEXT NOT NULL,
     object_kind TEXT NOT NULL,
     object_id TEXT NOT NULL,
     object_name TEXT NOT NULL,
     connection TEXT,
     outcome TEXT NOT NULL,
     detail TEXT NOT NULL
   );
   CREATE INDEX activity_at ON activity(at);`,
  // 2: which console made the write (issue 25.2, C-88).
  `ALTER TABLE activity ADD COLUMN console TEXT;`,
];

const COLUMNS = `id, at, user, node_user AS nodeUser, action, what, object_kind AS objectKind, object_id AS objectId, object_name AS objectName, connection, outcome, detail, console`;

export type NewActivity = Omit<ActivityEntry, 'id'>;

/** The columns a search looks in. */
const SEARCHED = ['user', "coalesce(node_user, '')", 'what', 'object_name', 'object_id', 'detail', 'action', "coalesce(console, '')"] as const;

export interface ActivityFilter {
  limit: number;
  beforeId?: number | undefined;
  q?: string | undefined;
  outcome?: ActivityOutcome | undefined;
}

export class ActivityDb {
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;

  constructor(file: string) {
    this.db = openPrivateDatabase(file);
    migrate(this.db, STEPS);
    this.insert = this.db.prepare(
      `INSERT INTO activity (at, user, node_user, action, what, object_kind, object_id, object_name, connection, outcome, detail, console)
       VALUES (@at, @user, @nodeUser, @action, @what, @objectKind, @objectId, @objectName, @connection, @outcome, @detail, @console)`,
    );
  }

  record(e: NewActivity): ActivityEntry {
    const row = { ...e, console: e.console ?? null };
    const id = Number(this.insert.run(row).lastInsertRowid);
    return { id, ...row };
  }

  /** Newest first, `limit` at a time (`beforeId` for the next page), with the total the filter matches. */
  list(f: ActivityFilter): { rows: ActivityEntry[]; total: number } {
    const where: string[] = [];
    const args: Record<string, unknown> = {};
    const q = f.q?.trim();
    if (q) {
      // Plain text, not a pattern: LIKE's own characters are escaped.
      args.q = `%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      where.push(`(${SEARCHED.map((c) => `lower(${c}) LIKE @q ESCAPE '\\'`).join(' OR ')})`);
    }
    if (f.outcome) {
      args.outcome = f.outcome;
      where.push('outcome = @outcome');
    }
    const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
    const total = (this.db.prepare(`SELECT COUNT(*) FROM activity ${filter}`).pluck().get(args) as number) ?? 0;
    const page = f.beforeId !== undefined ? `${filter ? `${filter} AND` : 'WHERE'} id < @beforeId` : filter;
    if (f.beforeId !== undefined) args.beforeId = f.beforeId;
    const rows = this.db.prepare(`SELECT ${COLUMNS} FROM activity ${page} ORDER BY id DESC LIMIT @limit`).all({ ...args, limit: f.limit }) as ActivityEntry[];
    return { rows, total };
  }

  /** Every entry, oldest first, a chunk at a time (the export). */
  *all(chunk = 1_000): Generator<ActivityEntry[]> {
    let after = 0;
    const stmt = this.db.prepare(`SELECT ${COLUMNS} FROM activity WHERE id > ? ORDER BY id LIMIT ?`);
    for (;;) {
      const rows = stmt.all(after, chunk) as ActivityEntry[];
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1]!.id;
    }
  }

  /** Drops entries older than `days` before `now`, then the oldest beyond MAX_ENTRIES; answers how many went. */
  prune(days: number, now: Date, max = MAX_ACTIVITY_ENTRIES): number {
    const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
    let gone = this.db.prepare('DELETE FROM activity WHERE at < ?').run(cutoff).changes;
    gone += this.db.prepare('DELETE FROM activity WHERE id <= (SELECT id FROM activity ORDER BY id DESC LIMIT 1 OFFSET ?)').run(max).changes;
    return gone;
  }

  close(): void {
    this.db.close();
  }
}
