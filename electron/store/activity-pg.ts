/**
 * The activity log in the fleet's PostgreSQL (issue 24.1): the same table, search, paging and
 * retention as activity.db (activity-db.ts), so every console of a team reads one log. Its own
 * migrations (store `activity`, postgres.ts).
 */
import type { ActivityEntry } from '../../shared/model/activity';
import { MAX_ACTIVITY_ENTRIES, type ActivityFilter, type NewActivity } from './activity-db';
import type { ActivityStore } from './activity-store';
import { isoText, migratePg, type PgPool } from './postgres';

/** The channel a recorded entry is announced on (C-88): its id. */
export const ACTIVITY_CHANNEL = 'northbound_activity';

/** The activity store's migrations (a console checks the team's version against their count). */
export const ACTIVITY_PG_STEPS: readonly string[] = [
  `CREATE TABLE activity (
     id bigserial PRIMARY KEY,
     at timestamptz NOT NULL,
     "user" text NOT NULL,
     node_user text,
     action text NOT NULL,
     what text NOT NULL,
     object_kind text NOT NULL,
     object_id text NOT NULL,
     object_name text NOT NULL,
     connection text,
     outcome text NOT NULL,
     detail text NOT NULL
   );
   CREATE INDEX activity_at ON activity(at);`,
  // 2: which console made the write (issue 25.2, C-88): its host name and install ID.
  `ALTER TABLE activity ADD COLUMN console text;`,
];

const COLUMNS = `id, ${isoText('at')} AS at, "user", node_user AS "nodeUser", action, what, object_kind AS "objectKind", object_id AS "objectId", object_name AS "objectName", connection, outcome, detail, console`;
/** The columns a search looks in (as activity.db's). */
const SEARCHED = ['"user"', "coalesce(node_user, '')", 'what', 'object_name', 'object_id', 'detail', 'action', "coalesce(console, '')"] as const;

type Row = Omit<ActivityEntry, 'id'> & { id: string | number };
const entryOf = (r: Row): ActivityEntry => ({ ...r, id: Number(r.id) });

export async function openPgActivityStore(pool: PgPool): Promise<ActivityStore> {
  await migratePg(pool, 'activity', ACTIVITY_PG_STEPS);
  return {
    backend: 'postgres',
    async record(e: NewActivity) {
      // One statement, so the notice goes out with the entry's commit (C-88).
      const r = await pool.query<{ id: string }>(
        `WITH e AS (
           INSERT INTO activity (at, "user", node_user, action, what, object_kind, object_id, object_name, connection, outcome, detail, console)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id)
         SELECT id, pg_notify('${ACTIVITY_CHANNEL}', id::text) FROM e`,
        [e.at, e.user, e.nodeUser, e.action, e.what, e.objectKind, e.objectId, e.objectName, e.connection, e.outcome, e.detail, e.console ?? null],
      );
      return { id: Number(r.rows[0]!.id), ...e, console: e.console ?? null };
    },
    async list(f: ActivityFilter) {
      const where: string[] = [];
      const args: unknown[] = [];
      const q = f.q?.trim();
      if (q) {
        // Plain text, not a pattern: LIKE's own characters are escaped.
        args.push(`%${q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
        where.push(`(${SEARCHED.map((c) => `lower(${c}) LIKE $${args.length} ESCAPE '\\'`).join(' OR ')})`);
      }
      if (f.outcome) {
        args.push(f.outcome);
        where.push(`outcome = $${args.length}`);
      }
      const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const total = Number((await pool.query<{ n: string }>(`SELECT COUNT(*) AS n FROM activity ${filter}`, args)).rows[0]!.n);
      const pageArgs = [...args];
      let page = filter;
      if (f.beforeId !== undefined) {
        pageArgs.push(f.beforeId);
        page = `${filter ? `${filter} AND` : 'WHERE'} id < $${pageArgs.length}`;
      }
      pageArgs.push(f.limit);
      const rows = (await pool.query<Row>(`SELECT ${COLUMNS} FROM activity ${page} ORDER BY id DESC LIMIT $${pageArgs.length}`, pageArgs)).rows.map(entryOf);
      return { rows, total };
    },
    async *all(chunk = 1_000) {
      let after = 0;
      for (;;) {
        const rows = (await pool.query<Row>(`SELECT ${COLUMNS} FROM activity WHERE id > $1 ORDER BY id LIMIT $2`, [after, chunk])).rows.map(entryOf);
        if (rows.length === 0) return;
        yield rows;
        after = rows[rows.length - 1]!.id;
      }
    },
    async prune(days: number, now: Date, max = MAX_ACTIVITY_ENTRIES) {
      const cutoff = new Date(now.getTime() - days * 86_400_000).toISOString();
      let gone = (await pool.query('DELETE FROM activity WHERE at < $1', [cutoff])).rowCount ?? 0;
      gone += (await pool.query('DELETE FROM activity WHERE id <= (SELECT id FROM activity ORDER BY id DESC LIMIT 1 OFFSET $1)', [max])).rowCount ?? 0;
      return gone;
    },
    close: async () => undefined,
  };
}
