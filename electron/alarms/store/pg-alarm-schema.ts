/**
 * The alarm store's schema on the fleet's PostgreSQL (issue 24.1, 24.4): the tables of alarms.db
 * (alarms-db.ts) under `alarm_` names beside the other stores' tables, times as bigint epoch ms
 * (as SQLite's integers), and one table SQLite has no need of: `alarm_mark_sets` (step 2; `alarm_marks`
 * before it), the broker messages the fleet stored, a batch's IDs per director in one row — a collector sees only its share of a
 * node's numbering, so gaps are found over what every collector stored (pg-alarm-fleet.ts, C-65).
 * Applied by `migratePg(pool, 'alarms', ALARM_PG_STEPS)`; a step is never edited once shipped.
 */
export const ALARM_PG_STEPS: readonly string[] = [
  // 1: the first schema (issue 24).
  `CREATE TABLE alarm_meta (key text PRIMARY KEY, value text NOT NULL);
   CREATE SEQUENCE alarm_seq;
   CREATE TABLE alarms (
     aid bigserial PRIMARY KEY,
     source text NOT NULL,
     device text NOT NULL,
     device_name text NOT NULL,
     org text NOT NULL,
     object text NOT NULL,
     type text NOT NULL,
     specific_problem text NOT NULL,
     severity text NOT NULL,
     cleared boolean NOT NULL,
     text text NOT NULL,
     last_change_ms bigint NOT NULL,
     handling_state text,
     handling_user text,
     handling_ms bigint,
     handling_description text,
     last_seq bigint NOT NULL,
     UNIQUE (source, device, object, type, specific_problem)
   );
   CREATE INDEX alarms_recent ON alarms(source, last_change_ms DESC, aid DESC);
   CREATE INDEX alarms_active ON alarms(source, cleared, severity, handling_state, org);
   CREATE INDEX alarms_seq ON alarms(last_seq);
   CREATE TABLE alarm_changes (
     seq bigserial PRIMARY KEY,
     aid bigint NOT NULL,
     event_ms bigint NOT NULL,
     severity text NOT NULL,
     text text NOT NULL,
     message_id bigint,
     stored_ms bigint NOT NULL,
     UNIQUE (aid, event_ms)
   );
   CREATE INDEX alarm_changes_time ON alarm_changes(event_ms);
   CREATE TABLE alarm_handlings (
     hid bigserial PRIMARY KEY,
     aid bigint NOT NULL,
     at_ms bigint NOT NULL,
     state text NOT NULL,
     "user" text NOT NULL,
     description text NOT NULL,
     message_id bigint,
     stored_ms bigint NOT NULL,
     UNIQUE (aid, at_ms, state)
   );
   CREATE TABLE alarm_sources (
     source text PRIMARY KEY,
     cursor_ms bigint NOT NULL DEFAULT 0,
     last_backfill_ms bigint,
     last_backfill_new integer,
     last_stored_ms bigint,
     last_lag_ms bigint
   );
   CREATE TABLE alarm_message_ids (source text NOT NULL, director text NOT NULL, last_id bigint NOT NULL, PRIMARY KEY (source, director));
   CREATE TABLE alarm_dead_letters (id bigserial PRIMARY KEY, source text NOT NULL, at_ms bigint NOT NULL, reason text NOT NULL, routing_key text NOT NULL, excerpt text NOT NULL);
   CREATE TABLE alarm_marks (
     source text NOT NULL,
     director text NOT NULL,
     message_id bigint NOT NULL,
     event_ms bigint,
     stored_ms bigint NOT NULL,
     PRIMARY KEY (source, director, message_id)
   );`,
  // 2: a batch's marks as one row per director (C-73): a row and an index entry per message cost
  // PostgreSQL about a tenth of a batch's time. Each set's IDs ascend; min_id and max_id bound them.
  `CREATE TABLE alarm_mark_sets (
     source text NOT NULL,
     director text NOT NULL,
     stored_ms bigint NOT NULL,
     min_id bigint NOT NULL,
     max_id bigint NOT NULL,
     ids bigint[] NOT NULL,
     event_ms bigint[] NOT NULL
   );
   CREATE INDEX alarm_mark_sets_ids ON alarm_mark_sets(source, director, max_id);
   INSERT INTO alarm_mark_sets (source, director, stored_ms, min_id, max_id, ids, event_ms)
     SELECT source, director, stored_ms, MIN(message_id), MAX(message_id), array_agg(message_id ORDER BY message_id), array_agg(event_ms ORDER BY message_id)
     FROM alarm_marks GROUP BY source, director, stored_ms;
   DROP TABLE alarm_marks;`,
  // 3: each source's alarms and changes counted as batches store them and upkeep removes them
  // (issue 25.3, C-82): `counts` read them instead of counting every change (1.8 s at 5,000,000).
  `ALTER TABLE alarm_sources ADD COLUMN alarm_count bigint NOT NULL DEFAULT 0, ADD COLUMN change_count bigint NOT NULL DEFAULT 0;
   INSERT INTO alarm_sources (source) SELECT DISTINCT source FROM alarms ON CONFLICT DO NOTHING;
   UPDATE alarm_sources s SET alarm_count = (SELECT COUNT(*) FROM alarms a WHERE a.source = s.source),
     change_count = (SELECT COUNT(*) FROM alarm_changes c JOIN alarms a ON a.aid = c.aid WHERE a.source = s.source);`,
];
