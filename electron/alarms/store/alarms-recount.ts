/**
 * Every source's counts of alarms and changes in alarms.db from its rows (C-82), as schema step 3
 * set them: run in the transaction of a retention or a repair that removed rows (SQLite has one
 * writer at a time, so no batch comes between). The batches keep them as they store (alarms-db.ts).
 */
export const RECOUNT_SQL = `UPDATE sources SET alarm_count = (SELECT COUNT(*) FROM alarms a WHERE a.source = sources.source),
  change_count = (SELECT COUNT(*) FROM changes c JOIN alarms a ON a.aid = c.aid WHERE a.source = sources.source)`;
