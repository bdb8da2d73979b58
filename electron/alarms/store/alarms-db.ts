/**
 * The alarm store `alarms.db` (SQLite, WAL; issue 12): per source (a connection profile in the
 * app, a node address in the CLI) each alarm's latest state, every status change and handling
 * stored once, the source's cursors (the time up to which its changes are known to be complete,
 * the last message ID per node), and malformed messages set aside. A batch of changes is one
 * transaction; a broker message is acknowledged only after its batch committed (MN-AL9).
 *
 * A change is identified by its alarm (device, object, type, specific problem) and its time on the
 * node (MN-AL6): `INSERT OR IGNORE` on that key drops the second copy whichever path brought the
 * first (broker, backfill, poll); a copy from the broker fills in the message ID a REST copy lacked.
 * The reads for the window are in alarms-views.ts, retention in alarms-retention.ts.
 */
import type Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import type { AlarmItem } from '../../../shared/model/alarms';
import { DEFAULT_FUTURE_SKEW_MS, timeWindow } from './alarm-times';
import { repairAlarmTimes, type TimeRepair } from './alarms-repair';
import { migrate, openPrivateDatabase } from '../../store/sqlite';
import { AlarmWrites } from './alarms-writer';

const MIGRATIONS: readonly string[] = [
  // 1: the first schema (issue 12).
  `CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
   CREATE TABLE alarms (
     aid INTEGER PRIMARY KEY,
     source TEXT NOT NULL,
     device TEXT NOT NULL,
     device_name TEXT NOT NULL,
     org TEXT NOT NULL,
     object TEXT NOT NULL,
     type TEXT NOT NULL,
     specific_problem TEXT NOT NULL,
     severity TEXT NOT NULL,
     cleared INTEGER NOT NULL,
     text TEXT NOT NULL,
     last_change_ms INTEGER NOT NULL,
     handling_state TEXT,
     handling_user TEXT,
     handling_ms INTEGER,
     handling_description TEXT,
     last_seq INTEGER NOT NULL,
     UNIQUE (source, device, object, type, specific_problem)
   );
   CREATE INDEX alarms_recent ON alarms(source, last_change_ms DESC, aid DESC);
   CREATE TABLE changes (
     seq INTEGER PRIMARY KEY,
     aid INTEGER NOT NULL,
     event_ms INTEGER NOT NULL,
     severity TEXT NOT NULL,
     text TEXT NOT NULL,
     message_id INTEGER,
     stored_ms INTEGER NOT NULL,
     UNIQUE (aid, event_ms)
   );
   CREATE INDEX changes_time ON changes(event_ms);
   CREATE TABLE handlings (
     hid INTEGER PRIMARY KEY,
     aid INTEGER NOT NULL,
     at_ms INTEGER NOT NULL,
     state TEXT NOT NULL,
     user TEXT NOT NULL,
     description TEXT NOT NULL,
     message_id INTEGER,
     stored_ms INTEGER NOT NULL,
     UNIQUE (aid, at_ms, state)
   );
   CREATE TABLE sources (
     source TEXT PRIMARY KEY,
     cursor_ms INTEGER NOT NULL DEFAULT 0,
     last_backfill_ms INTEGER,
     last_backfill_new INTEGER,
     last_stored_ms INTEGER,
     last_lag_ms INTEGER
   ) WITHOUT ROWID;
   CREATE TABLE message_ids (source TEXT NOT NULL, director TEXT NOT NULL, last_id INTEGER NOT NULL, PRIMARY KEY (source, director)) WITHOUT ROWID;
   CREATE TABLE dead_letters (id INTEGER PRIMARY KEY, source TEXT NOT NULL, at_ms INTEGER NOT NULL, reason TEXT NOT NULL, routing_key TEXT NOT NULL, excerpt TEXT NOT NULL);`,
  // 2: the Overview's counts (issue 13) read from the index alone: the active alarms by severity,
  // handling and organization, and the sidebar's unhandled critical ones as one range.
  `CREATE INDEX alarms_active ON alarms(source, cleared, severity, handling_state, org);`,
  // 3: each source's alarms and changes counted as they are stored and removed (issue 25.3, C-82):
  // `counts` (the page's status, a source's start) read them instead of counting the changes.
  `ALTER TABLE sources ADD COLUMN alarm_count INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE sources ADD COLUMN change_count INTEGER NOT NULL DEFAULT 0;
   INSERT OR IGNORE INTO sources (source) SELECT DISTINCT source FROM alarms;
   UPDATE sources SET alarm_count = (SELECT COUNT(*) FROM alarms a WHERE a.source = sources.source),
     change_count = (SELECT COUNT(*) FROM changes c JOIN alarms a ON a.aid = c.aid WHERE a.source = sources.source);`,
];

export const ALARMS_SCHEMA_VERSION = MIGRATIONS.length;
/** Dead letters kept (the newest); the reason is also logged. */
export const DEAD_LETTERS_KEPT = 1000;

export type { DeadLetter, IngestOptions, IngestResult } from './ingest';
import type { DeadLetter, IngestOptions, IngestResult } from './ingest';

export interface SourceState {
  cursorMs: number;
  lastBackfillMs: number | null;
  lastBackfillNew: number | null;
  lastStoredMs: number | null;
  lastLagMs: number | null;
  /** The last message ID seen per node. */
  messageIds: Map<string, number>;
}

interface AlarmRow {
  aid: number;
  last_change_ms: number;
  handling_ms: number | null;
}

export class AlarmDb {
  readonly db: Database.Database;
  /** What the repair at open set aside (times past now plus the clock skew, issue 20). */
  readonly repaired: TimeRepair;
  private seq: number;
  private readonly stmt;
  /** `offMain`: `ingestBatch` writes on a worker thread (alarms-writer.ts). */
  readonly writes: AlarmWrites;

  /** `offMain`: the app's batches are written on a worker thread; `repair: false`: that worker's own store (the owner repaired). */
  constructor(readonly file: string, o: { futureSkewMs?: number; now?: () => number; offMain?: boolean; repair?: boolean } = {}) {
    this.db = openPrivateDatabase(file);
    migrate(this.db, MIGRATIONS);
    const db = this.db;
    this.writes = new AlarmWrites(file, o.offMain === true);
    this.repaired = o.repair === false ? { cursors: 0, changes: 0, handlings: 0, alarms: 0 } : this.repairTimes((o.now ?? Date.now)(), o.futureSkewMs);
    this.seq = (db.prepare('SELECT COALESCE(MAX(last_seq), 0) AS s FROM alarms').get() as { s: number }).s;
    this.stmt = {
      findAlarm: db.prepare('SELECT aid, last_change_ms, handling_ms FROM alarms WHERE source = ? AND device = ? AND object = ? AND type = ? AND specific_problem = ?'),
      insertAlarm: db.prepare(
        `INSERT INTO alarms (source, device, device_name, org, object, type, specific_problem, severity, cleared, text, last_change_ms, last_seq)
         VALUES (@source, @device, @deviceName, @org, @object, @type, @specificProblem, @severity, @cleared, @text, @lastChangeMs, @seq)`,
      ),
      updateState: db.prepare('UPDATE alarms SET device_name = ?, org = ?, severity = ?, cleared = ?, text = ?, last_change_ms = ? WHERE aid = ?'),
      updateHandling: db.prepare('UPDATE alarms SET handling_state = ?, handling_user = ?, handling_ms = ?, handling_description = ? WHERE aid = ?'),
      touch: db.prepare('UPDATE alarms SET last_seq = ? WHERE aid = ?'),
      insertChange: db.prepare('INSERT OR IGNORE INTO changes (aid, event_ms, severity, text, message_id, stored_ms) VALUES (?, ?, ?, ?, ?, ?)'),
      fillChangeId: db.prepare('UPDATE changes SET message_id = ? WHERE aid = ? AND event_ms = ? AND message_id IS NULL'),
      insertHandling: db.prepare('INSERT OR IGNORE INTO handlings (aid, at_ms, state, user, description, message_id, stored_ms) VALUES (?, ?, ?, ?, ?, ?, ?)'),
      fillHandlingId: db.prepare('UPDATE handlings SET message_id = ? WHERE aid = ? AND at_ms = ? AND state = ? AND message_id IS NULL'),
      ensureSource: db.prepare('INSERT OR IGNORE INTO sources (source) VALUES (?)'),
      stored: db.prepare('UPDATE sources SET last_stored_ms = ?, last_lag_ms = ? WHERE source = ?'),
      counted: db.prepare('UPDATE sources SET alarm_count = alarm_count + ?, change_count = change_count + ? WHERE source = ?'),
      cursor: db.prepare('UPDATE sources SET cursor_ms = MAX(cursor_ms, ?) WHERE source = ?'),
      messageId: db.prepare('INSERT INTO message_ids (source, director, last_id) VALUES (?, ?, ?) ON CONFLICT (source, director) DO UPDATE SET last_id = excluded.last_id'),
      deadLetter: db.prepare('INSERT INTO dead_letters (source, at_ms, reason, routing_key, excerpt) VALUES (?, ?, ?, ?, ?)'),
      trimDeadLetters: db.prepare('DELETE FROM dead_letters WHERE id <= (SELECT MAX(id) FROM dead_letters) - ?'),
    };
  }

  /** The store's newest change sequence (every new change or handling takes the next one). */
  get headSeq(): number {
    return this.seq;
  }

  /** This console install's identity (its broker queues are named after it, MN-AL9). */
  installId(): string {
    const row = this.db.prepare("SELECT value FROM meta WHERE key = 'install_id'").get() as { value: string } | undefined;
    if (row) return row.value;
    const id = randomUUID();
    this.db.prepare("INSERT OR IGNORE INTO meta (key, value) VALUES ('install_id', ?)").run(id);
    return (this.db.prepare("SELECT value FROM meta WHERE key = 'install_id'").get() as { value: string }).value;
  }

  /** `ingest`, on the worker thread when the store is `offMain` (the app's source, backfill and actions). */
  async ingestBatch(source: string, items: readonly AlarmItem[], o: IngestOptions): Promise<IngestResult> {
    const r = await (this.writes.ingest(source, items, o) ?? this.ingest(source, items, o));
    this.seq = Math.max(this.seq, r.headSeq);
    return r;
  }

  /** Stores a batch in one transaction: alarms, their new changes and handlings, cursors, dead letters. */
  ingest(source: string, items: readonly AlarmItem[], o: IngestOptions): IngestResult {
    const s = this.stmt;
    const run = this.db.transaction((): IngestResult => {
      s.ensureSource.run(source);
      let newChanges = 0;
      let newHandlings = 0;
      let duplicates = 0;
      let newAlarms = 0;
      let lag: number | null = null;
      const aids = new Set<number>();
      for (const item of items) {
        const h = item.head;
        let row = s.findAlarm.get(source, h.device, h.object, h.type, h.specificProblem) as AlarmRow | undefined;
        let fresh = false;
        if (!row) {
          const info = s.insertAlarm.run({ source, ...h, cleared: h.cleared ? 1 : 0, seq: this.seq });
          row = { aid: Number(info.lastInsertRowid), last_change_ms: h.lastChangeMs, handling_ms: null };
          fresh = true;
          newAlarms += 1;
        }
        let added = false;
        // The newest of the head and the new changes decides the alarm's state (changes may come out of order).
        const headState = { ms: h.lastChangeMs, severity: h.severity as string, cleared: h.cleared, text: h.text };
        let best = fresh || h.lastChangeMs > row.last_change_ms ? headState : undefined;
        let bestMs = best?.ms ?? row.last_change_ms;
        for (const c of item.changes) {
          if (s.insertChange.run(row.aid, c.eventMs, c.severity, c.text, item.messageId, o.storedMs).changes === 1) {
            newChanges += 1;
            added = true;
            if (item.messageId !== null) lag = Math.max(lag ?? 0, o.storedMs - c.eventMs);
            if (c.eventMs > bestMs) {
              best = { ms: c.eventMs, severity: c.severity, cleared: c.severity === 'cleared', text: c.text };
              bestMs = c.eventMs;
            }
          } else {
            duplicates += 1;
            if (item.messageId !== null) s.fillChangeId.run(item.messageId, row.aid, c.eventMs);
          }
        }
        // A new alarm was inserted with its head; anything newer, or a newer state of a known one, is written.
        if (best && !(fresh && best === headState)) s.updateState.run(h.deviceName, h.org, best.severity, best.cleared ? 1 : 0, best.text, best.ms, row.aid);
        let handlingMs = row.handling_ms ?? -1;
        for (const x of item.handlings) {
          if (s.insertHandling.run(row.aid, x.atMs, x.state, x.user, x.description, item.messageId, o.storedMs).changes === 1) {
            newHandlings += 1;
            added = true;
            if (x.atMs >= handlingMs) {
              handlingMs = x.atMs;
              s.updateHandling.run(x.state, x.user, x.atMs, x.description, row.aid);
            }
          } else {
            duplicates += 1;
            if (item.messageId !== null) s.fillHandlingId.run(item.messageId, row.aid, x.atMs, x.state);
          }
        }
        if (added || fresh || best) {
          this.seq += 1;
          s.touch.run(this.seq, row.aid);
          aids.add(row.aid);
        }
      }
      if (newChanges + newHandlings > 0) s.stored.run(o.storedMs, lag, source);
      if (newAlarms + newChanges > 0) s.counted.run(newAlarms, newChanges, source);
      for (const [director, id] of o.messageIds ?? []) s.messageId.run(source, director, id);
      if (o.cursorMs !== undefined) s.cursor.run(o.cursorMs, source);
      if (o.deadLetters?.length) {
        for (const d of o.deadLetters) s.deadLetter.run(source, o.storedMs, d.reason, d.routingKey, d.excerpt.slice(0, 2048));
        s.trimDeadLetters.run(DEAD_LETTERS_KEPT);
      }
      return { newChanges, newHandlings, duplicates, aids: [...aids], newAlarms, headSeq: this.seq, lagMs: lag };
    });
    const before = this.seq;
    try {
      return run();
    } catch (e) {
      this.seq = before; // rolled back
      throw e;
    }
  }

  sourceState(source: string): SourceState {
    const row = this.db.prepare('SELECT cursor_ms, last_backfill_ms, last_backfill_new, last_stored_ms, last_lag_ms FROM sources WHERE source = ?').get(source) as
      | { cursor_ms: number; last_backfill_ms: number | null; last_backfill_new: number | null; last_stored_ms: number | null; last_lag_ms: number | null }
      | undefined;
    const ids = this.db.prepare('SELECT director, last_id FROM message_ids WHERE source = ?').all(source) as Array<{ director: string; last_id: number }>;
    return {
      cursorMs: row?.cursor_ms ?? 0,
      lastBackfillMs: row?.last_backfill_ms ?? null,
      lastBackfillNew: row?.last_backfill_new ?? null,
      lastStoredMs: row?.last_stored_ms ?? null,
      lastLagMs: row?.last_lag_ms ?? null,
      messageIds: new Map(ids.map((r) => [r.director, r.last_id])),
    };
  }

  /** Sets aside stored times past now plus the clock skew and moves such cursors back (alarms-repair.ts). */
  repairTimes(nowMs: number, futureSkewMs = DEFAULT_FUTURE_SKEW_MS): TimeRepair {
    return repairAlarmTimes(this.db, timeWindow(nowMs, futureSkewMs), nowMs, DEAD_LETTERS_KEPT);
  }

  /** The source's changes up to `ms` are complete (a backfill reached it). */
  advanceCursor(source: string, ms: number): void {
    this.stmt.ensureSource.run(source);
    this.stmt.cursor.run(ms, source);
  }

  /** A backfill (or poll) finished at `atMs` and stored `added` changes the store lacked. */
  recordBackfill(source: string, atMs: number, added: number): void {
    this.stmt.ensureSource.run(source);
    this.db.prepare('UPDATE sources SET last_backfill_ms = ?, last_backfill_new = ? WHERE source = ?').run(atMs, added, source);
  }

  /** Alarms and changes stored for a source. */
  counts(source: string): { alarms: number; changes: number } {
    // Kept as rows are stored and removed (C-82): counting 5,000,000 changes took ~450 ms.
    const row = this.db.prepare('SELECT alarm_count, change_count FROM sources WHERE source = ?').get(source) as { alarm_count: number; change_count: number } | undefined;
    return { alarms: row?.alarm_count ?? 0, changes: row?.change_count ?? 0 };
  }

  /** `counts` and the newest change sequence among them, read in one snapshot (a batch whose `headSeq` is not above it is counted in them). */
  countsAt(source: string): { counts: { alarms: number; changes: number }; seq: number } {
    return this.db.transaction(() => ({ counts: this.counts(source), seq: this.db.prepare('SELECT COALESCE(MAX(last_seq), 0) FROM alarms WHERE source = ?').pluck().get(source) as number }))();
  }

  deadLetters(source: string, limit = 100): Array<DeadLetter & { atMs: number }> {
    return (this.db.prepare('SELECT at_ms, reason, routing_key, excerpt FROM dead_letters WHERE source = ? ORDER BY id DESC LIMIT ?').all(source, limit) as Array<{ at_ms: number; reason: string; routing_key: string; excerpt: string }>).map(
      (r) => ({ atMs: r.at_ms, reason: r.reason, routingKey: r.routing_key, excerpt: r.excerpt }),
    );
  }

  /** Everything stored for a source (its connection was deleted). */
  forgetSource(source: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM changes WHERE aid IN (SELECT aid FROM alarms WHERE source = ?)').run(source);
      this.db.prepare('DELETE FROM handlings WHERE aid IN (SELECT aid FROM alarms WHERE source = ?)').run(source);
      for (const t of ['alarms', 'sources', 'message_ids', 'dead_letters']) this.db.prepare(`DELETE FROM ${t} WHERE source = ?`).run(source);
    })();
  }

  /** Closes the connection; the writer (if any) first finishes the batches asked of it (awaited on quit). */
  close(): Promise<void> {
    if (this.db.open) this.db.close();
    return this.writes.close();
  }
}
