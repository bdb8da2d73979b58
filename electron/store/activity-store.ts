/**
 * The activity log's store behind one interface (issue 24.1): `activity.db` on one desk (SQLite,
 * activity-db.ts) or the fleet's PostgreSQL (activity-pg.ts). The same contract tests run against
 * both (tests/integration/store/activity-store.test.ts).
 */
import type { ActivityEntry } from '../../shared/model/activity';
import { ActivityDb, type ActivityFilter, type NewActivity } from './activity-db';

export type { ActivityFilter, NewActivity } from './activity-db';

export interface ActivityStore {
  readonly backend: 'sqlite' | 'postgres';
  record(e: NewActivity): Promise<ActivityEntry>;
  /** Newest first, `limit` at a time (`beforeId` for the next page), with the total the filter matches. */
  list(f: ActivityFilter): Promise<{ rows: ActivityEntry[]; total: number }>;
  /** Every entry, oldest first, a chunk at a time (the export). */
  all(chunk?: number): AsyncIterable<ActivityEntry[]>;
  /** Drops entries older than `days` before `now`, then the oldest beyond `max`; answers how many went. */
  prune(days: number, now: Date, max?: number): Promise<number>;
  close(): Promise<void>;
}

/** activity.db of a data folder. Its writes are synchronous underneath: a recorded entry is stored when `record` returns its promise. */
export function openSqliteActivityStore(file: string): ActivityStore {
  const db = new ActivityDb(file);
  return {
    backend: 'sqlite',
    record: async (e) => db.record(e),
    list: async (f) => db.list(f),
    async *all(chunk) {
      for (const rows of db.all(chunk)) yield rows;
    },
    prune: async (days, now, max) => db.prune(days, now, max),
    close: async () => db.close(),
  };
}
