/**
 * A batch into the alarm store on PostgreSQL (issue 24.4): the semantics of alarms-db.ts `ingest`
 * in one transaction of a few set-based statements (arrays through `unnest`), whatever the batch's
 * size, so that several collectors can write one node's stream side by side.
 *
 * - Each change is stored once (C-65): `INSERT … ON CONFLICT (aid, event_ms) DO NOTHING`, the key
 *   of the change itself (its alarm and its time on the node, MN-AL6), so a second delivery, the
 *   REST copy of a change the broker brought and the same change from two collectors are one row;
 *   a broker copy fills in the message ID a REST copy lacked.
 * - An alarm's state is that of its newest change by the node's time, never by arrival (C-65): the
 *   UPDATE takes a candidate only when it is newer than what the row holds, so an older change
 *   arriving late is kept in the history and leaves the state alone.
 * - Two batches of the same alarms (two collectors, or two batches of one collector in flight,
 *   C-70) wait for each other only where they must (C-70): the batch's alarms are found by a plain
 *   read and only the missing ones inserted (an `INSERT … ON CONFLICT` over alarms another batch
 *   just updated would wait for that batch's commit); the changes go in; the alarm rows are locked
 *   last, in one order every batch uses (by aid, `FOR UPDATE`), then the one row every batch of the
 *   node writes (`alarm_sources`), right before their UPDATE (which finds them by the primary key,
 *   `aid = ANY(…)`: joined to the batch's rows alone, a small table was scanned whole) and the
 *   commit. The UPDATE takes the alarms' sequence while the node's row is held, so a node's batches
 *   number their alarms in the order they commit (C-87), and the commit announces the batch (C-88). A deadlock or serialization failure anyway is retried by the caller (pg-alarm-store.ts).
 */
import type { PoolClient } from 'pg';
import type { AlarmHead, AlarmItem } from '../../../shared/model/alarms';
import type { IngestOptions, IngestResult } from './ingest';

export const PG_DEAD_LETTERS_KEPT = 1000;

/** The channel a committed batch is announced on (C-88): `{ source, headSeq, changes, aids, more }`. */
export const ALARMS_CHANNEL = 'northbound_alarms';
/** At most this many alarm IDs in a notice (a NOTIFY payload holds under 8,000 bytes); `more` says there were more. */
const NOTICE_IDS = 200;

export interface AlarmNotice {
  source: string;
  headSeq: number;
  changes: number;
  aids: number[];
  more: boolean;
}

export function alarmNotice(n: { source: string; headSeq: number; changes: number; aids: readonly number[] }): string {
  return JSON.stringify({ source: n.source.slice(0, 1000), headSeq: n.headSeq, changes: n.changes, aids: n.aids.slice(0, NOTICE_IDS), more: n.aids.length > NOTICE_IDS } satisfies AlarmNotice);
}

/**
 * A node's newest change sequence as committed (C-87): its batches take their sequences holding its
 * row in `alarm_sources`, so every batch of that node committed later has a higher one.
 */
export async function sourceHeadSeq(c: { query: PoolClient['query'] }, source: string): Promise<number> {
  return Number((await c.query<{ s: string }>('SELECT COALESCE(MAX(last_seq), 0) AS s FROM alarms WHERE source = $1', [source])).rows[0]!.s);
}

const keyOf = (h: AlarmHead) => JSON.stringify([h.device, h.object, h.type, h.specificProblem]);

/**
 * A batch's rows as one JSON parameter, read by `json_to_recordset` (C-72): one native
 * JSON.stringify costs the collector less than node-postgres' escaping of an array per column, and
 * PostgreSQL reads it for less than as many array literals. A lone surrogate (which UTF-8 cannot
 * carry and PostgreSQL's json refuses) becomes U+FFFD, as a text parameter's UTF-8 makes it.
 */
export function jsonRows(rows: readonly object[]): string {
  const json = JSON.stringify(rows);
  if (!json.includes('\\ud')) return json;
  return JSON.stringify(rows, (_k, v: unknown) => (typeof v === 'string' ? v.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd') : v));
}

interface Candidate {
  ms: number;
  head: AlarmHead;
  severity: string;
  cleared: boolean;
  text: string;
}

interface PerAlarm {
  aid: number;
  fresh: boolean;
  added: boolean;
  best: Candidate | undefined;
  handling: { atMs: number; state: string; user: string; description: string } | undefined;
}

export async function ingestPg(c: PoolClient, source: string, items: readonly AlarmItem[], o: IngestOptions): Promise<IngestResult> {
  // The batch's alarms, each once, in one order for every batch (the order new ones are inserted in).
  const keys = items.map((i) => keyOf(i.head));
  const firstHead = new Map<string, AlarmHead>();
  items.forEach((i, k) => {
    if (!firstHead.has(keys[k]!)) firstHead.set(keys[k]!, i.head);
  });
  const heads = [...firstHead.keys()].sort().map((k) => firstHead.get(k)!);
  const fresh = new Set<string>();
  const aidOf = new Map<string, number>();
  type Row = { aid: string; device: string; object: string; type: string; specific_problem: string };
  const noteAids = (rows: Row[]) => rows.forEach((r) => aidOf.set(JSON.stringify([r.device, r.object, r.type, r.specific_problem]), Number(r.aid)));
  // The stored ones by a plain read: it waits for no other batch.
  const find = async (hs: AlarmHead[]) =>
    noteAids(
      (
        await c.query<Row>(
          `SELECT a.aid, a.device, a.object, a.type, a.specific_problem
           FROM json_to_recordset($2::json) AS u(d text, o text, t text, p text)
           JOIN alarms a ON a.source = $1 AND a.device = u.d AND a.object = u.o AND a.type = u.t AND a.specific_problem = u.p`,
          [source, jsonRows(hs.map((h) => ({ d: h.device, o: h.object, t: h.type, p: h.specificProblem })))],
        )
      ).rows,
    );
  if (heads.length > 0) await find(heads);
  const missing = heads.filter((h) => !aidOf.has(keyOf(h)));
  if (missing.length > 0) {
    const col = <T>(f: (h: AlarmHead) => T) => missing.map(f);
    const inserted = await c.query<Row>(
      `INSERT INTO alarms (source, device, device_name, org, object, type, specific_problem, severity, cleared, text, last_change_ms, last_seq)
       SELECT $1, u.device, u.device_name, u.org, u.object, u.type, u.sp, u.severity, u.cleared, u.text, u.ms, 0
       FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::boolean[], $10::text[], $11::bigint[])
         WITH ORDINALITY AS u(device, device_name, org, object, type, sp, severity, cleared, text, ms, n)
       ORDER BY u.n
       ON CONFLICT (source, device, object, type, specific_problem) DO NOTHING
       RETURNING aid, device, object, type, specific_problem`,
      [source, col((h) => h.device), col((h) => h.deviceName), col((h) => h.org), col((h) => h.object), col((h) => h.type), col((h) => h.specificProblem), col((h) => h.severity), col((h) => h.cleared), col((h) => h.text), col((h) => h.lastChangeMs)],
    );
    for (const r of inserted.rows) fresh.add(JSON.stringify([r.device, r.object, r.type, r.specific_problem]));
    noteAids(inserted.rows);
    // Inserted meanwhile by another batch that committed first (the insert skipped them).
    const taken = missing.filter((h) => !aidOf.has(keyOf(h)));
    if (taken.length > 0) await find(taken);
  }

  // Changes and handlings, each once; which of them were new.
  const ch: Array<{ a: number; m: number; s: string; t: string; i: number | null }> = [];
  const hd = { aid: [] as number[], ms: [] as number[], state: [] as string[], user: [] as string[], description: [] as string[], mid: [] as Array<number | null> };
  const aids = keys.map((k) => aidOf.get(k)!);
  items.forEach((i, k) => {
    const aid = aids[k]!;
    for (const x of i.changes) ch.push({ a: aid, m: x.eventMs, s: x.severity, t: x.text, i: i.messageId });
    for (const x of i.handlings) {
      hd.aid.push(aid);
      hd.ms.push(x.atMs);
      hd.state.push(x.state);
      hd.user.push(x.user);
      hd.description.push(x.description);
      hd.mid.push(i.messageId);
    }
  });
  const newChanges = new Set<string>();
  if (ch.length > 0) {
    const r = await c.query<{ aid: string; event_ms: string }>(
      `INSERT INTO alarm_changes (aid, event_ms, severity, text, message_id, stored_ms)
       SELECT u.a, u.m, u.s, u.t, u.i, $2 FROM ROWS FROM (json_to_recordset($1::json) AS (a bigint, m bigint, s text, t text, i bigint)) WITH ORDINALITY AS u(a, m, s, t, i, n)
       ORDER BY u.n
       ON CONFLICT (aid, event_ms) DO NOTHING RETURNING aid, event_ms`,
      [jsonRows(ch), o.storedMs],
    );
    for (const x of r.rows) newChanges.add(`${x.aid}:${x.event_ms}`);
  }
  const newHandlings = new Set<string>();
  if (hd.aid.length > 0) {
    const r = await c.query<{ aid: string; at_ms: string; state: string }>(
      `INSERT INTO alarm_handlings (aid, at_ms, state, "user", description, message_id, stored_ms)
       SELECT u.aid, u.ms, u.state, u.usr, u.description, u.mid, $7 FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::bigint[]) WITH ORDINALITY AS u(aid, ms, state, usr, description, mid, n)
       ORDER BY u.n
       ON CONFLICT (aid, at_ms, state) DO NOTHING RETURNING aid, at_ms, state`,
      [hd.aid, hd.ms, hd.state, hd.user, hd.description, hd.mid, o.storedMs],
    );
    for (const x of r.rows) newHandlings.add(`${x.aid}:${x.at_ms}:${x.state}`);
  }

  // Per alarm, in the batch's order: the newest state (heads and new changes, a later equal time never wins) and the latest new handling.
  const per = new Map<number, PerAlarm>();
  let duplicates = 0;
  let changeCount = 0;
  let handlingCount = 0;
  let lag: number | null = null;
  const fill = { changes: { aid: [] as number[], ms: [] as number[], mid: [] as number[] }, handlings: { aid: [] as number[], ms: [] as number[], state: [] as string[], mid: [] as number[] } };
  items.forEach((i, n) => {
    const aid = aids[n]!;
    let a = per.get(aid);
    if (!a) per.set(aid, (a = { aid, fresh: fresh.has(keys[n]!), added: false, best: undefined, handling: undefined }));
    const take = (cand: Candidate) => {
      if (!a.best || cand.ms > a.best.ms) a.best = cand;
    };
    const h = i.head;
    take({ ms: h.lastChangeMs, head: h, severity: h.severity, cleared: h.cleared, text: h.text });
    for (const x of i.changes) {
      if (newChanges.delete(`${aid}:${x.eventMs}`)) {
        a.added = true;
        changeCount += 1;
        if (i.messageId !== null) lag = Math.max(lag ?? 0, o.storedMs - x.eventMs);
        take({ ms: x.eventMs, head: h, severity: x.severity, cleared: x.severity === 'cleared', text: x.text });
      } else {
        duplicates += 1;
        if (i.messageId !== null) {
          fill.changes.aid.push(aid);
          fill.changes.ms.push(x.eventMs);
          fill.changes.mid.push(i.messageId);
        }
      }
    }
    for (const x of i.handlings) {
      if (newHandlings.delete(`${aid}:${x.atMs}:${x.state}`)) {
        a.added = true;
        handlingCount += 1;
        if (!a.handling || x.atMs >= a.handling.atMs) a.handling = x;
      } else {
        duplicates += 1;
        if (i.messageId !== null) {
          fill.handlings.aid.push(aid);
          fill.handlings.ms.push(x.atMs);
          fill.handlings.state.push(x.state);
          fill.handlings.mid.push(i.messageId);
        }
      }
    }
  });
  if (fill.changes.aid.length > 0) {
    await c.query(
      `UPDATE alarm_changes c SET message_id = u.mid FROM unnest($1::bigint[], $2::bigint[], $3::bigint[]) AS u(aid, ms, mid)
       WHERE c.aid = u.aid AND c.event_ms = u.ms AND c.message_id IS NULL`,
      [fill.changes.aid, fill.changes.ms, fill.changes.mid],
    );
  }
  if (fill.handlings.aid.length > 0) {
    await c.query(
      `UPDATE alarm_handlings h SET message_id = u.mid FROM unnest($1::bigint[], $2::bigint[], $3::text[], $4::bigint[]) AS u(aid, ms, state, mid)
       WHERE h.aid = u.aid AND h.at_ms = u.ms AND h.state = u.state AND h.message_id IS NULL`,
      [fill.handlings.aid, fill.handlings.ms, fill.handlings.state, fill.handlings.mid],
    );
  }

  const ids = [...(o.messageIds ?? [])];
  if (ids.length > 0) {
    await c.query(
      `INSERT INTO alarm_message_ids (source, director, last_id) SELECT $1, u.director, u.id FROM unnest($2::text[], $3::bigint[]) AS u(director, id)
       ON CONFLICT (source, director) DO UPDATE SET last_id = EXCLUDED.last_id`,
      [source, ids.map(([d]) => d), ids.map(([, id]) => id)],
    );
  }
  if (o.deadLetters?.length) {
    const d = o.deadLetters;
    await c.query(
      `INSERT INTO alarm_dead_letters (source, at_ms, reason, routing_key, excerpt) SELECT $1, $2, u.reason, u.rk, u.excerpt
       FROM unnest($3::text[], $4::text[], $5::text[]) WITH ORDINALITY AS u(reason, rk, excerpt, n) ORDER BY u.n`,
      [source, o.storedMs, d.map((x) => x.reason), d.map((x) => x.routingKey), d.map((x) => x.excerpt.slice(0, 2048))],
    );
    await c.query('DELETE FROM alarm_dead_letters WHERE id <= (SELECT MAX(id) FROM alarm_dead_letters) - $1', [PG_DEAD_LETTERS_KEPT]);
  }
  if (o.marks?.length) {
    // One row per director of the batch (C-73), its IDs ascending; a message marked twice is read once (pg-alarm-fleet.ts).
    const byDirector = new Map<string, Array<{ id: number; ms: number | null }>>();
    for (const x of o.marks) {
      let list = byDirector.get(x.director);
      if (!list) byDirector.set(x.director, (list = []));
      list.push({ id: x.messageId, ms: x.newestEventMs ?? null });
    }
    for (const [director, list] of byDirector) {
      list.sort((a, b) => a.id - b.id);
      await c.query('INSERT INTO alarm_mark_sets (source, director, stored_ms, min_id, max_id, ids, event_ms) VALUES ($1, $2, $3, $4, $5, $6::bigint[], $7::bigint[])', [
        source,
        director,
        o.storedMs,
        list[0]!.id,
        list[list.length - 1]!.id,
        `{${list.map((x) => x.id).join(',')}}`,
        `{${list.map((x) => x.ms ?? 'NULL').join(',')}}`,
      ]);
    }
  }
  // One UPDATE for every alarm of the batch: the state only when newer by the node's time, the handling when not older; a new sequence when anything moved.
  const rows = [...per.values()].sort((x, y) => x.aid - y.aid);
  const touched = new Map<number, number>();
  if (rows.length > 0) {
    // Locked only now, in one order every batch uses, so two batches of the same alarms wait for each other instead of deadlocking.
    // (Left to the UPDATE alone, two batches at once deadlocked and waited out deadlock_timeout: store alone, 2 at once, 4,000–9,000/s instead of ~21,000/s.)
    const aids = `{${rows.map((x) => x.aid).join(',')}}`;
    await c.query('SELECT 1 FROM alarms WHERE aid = ANY($1::bigint[]) ORDER BY aid FOR UPDATE', [aids]);
    // Then the node's row (C-87): the sequence is taken below while it is held, so one node's batches take
    // their sequences in the order they commit and a reader of "changes after N" never skips a late commit.
    await c.query('INSERT INTO alarm_sources AS s (source) VALUES ($1) ON CONFLICT (source) DO UPDATE SET cursor_ms = s.cursor_ms', [source]);
    const r = await c.query<{ aid: string; last_seq: string }>(
      `UPDATE alarms a SET
         device_name = CASE WHEN u.ms > a.last_change_ms THEN u.device_name ELSE a.device_name END,
         org = CASE WHEN u.ms > a.last_change_ms THEN u.org ELSE a.org END,
         severity = CASE WHEN u.ms > a.last_change_ms THEN u.severity ELSE a.severity END,
         cleared = CASE WHEN u.ms > a.last_change_ms THEN u.cleared ELSE a.cleared END,
         text = CASE WHEN u.ms > a.last_change_ms THEN u.text ELSE a.text END,
         last_change_ms = GREATEST(a.last_change_ms, u.ms),
         handling_state = CASE WHEN u.h_ms IS NOT NULL AND u.h_ms >= COALESCE(a.handling_ms, -1) THEN u.h_state ELSE a.handling_state END,
         handling_user = CASE WHEN u.h_ms IS NOT NULL AND u.h_ms >= COALESCE(a.handling_ms, -1) THEN u.h_user ELSE a.handling_user END,
         handling_description = CASE WHEN u.h_ms IS NOT NULL AND u.h_ms >= COALESCE(a.handling_ms, -1) THEN u.h_description ELSE a.handling_description END,
         handling_ms = CASE WHEN u.h_ms IS NOT NULL AND u.h_ms >= COALESCE(a.handling_ms, -1) THEN u.h_ms ELSE a.handling_ms END,
         last_seq = nextval('alarm_seq')
       FROM json_to_recordset($1::json)
         AS u(aid bigint, ms bigint, device_name text, org text, severity text, cleared boolean, text text, h_ms bigint, h_state text, h_user text, h_description text, touch boolean)
       WHERE a.aid = ANY($2::bigint[]) AND a.aid = u.aid AND (u.touch OR u.ms > a.last_change_ms)
       RETURNING a.aid, a.last_seq`,
      [
        jsonRows(
          rows.map((x) => ({
            aid: x.aid,
            ms: x.best!.ms,
            device_name: x.best!.head.deviceName,
            org: x.best!.head.org,
            severity: x.best!.severity,
            cleared: x.best!.cleared,
            text: x.best!.text,
            h_ms: x.handling?.atMs ?? null,
            h_state: x.handling?.state ?? null,
            h_user: x.handling?.user ?? null,
            h_description: x.handling?.description ?? null,
            touch: x.fresh || x.added,
          })),
        ),
        aids,
      ],
    );
    for (const x of r.rows) touched.set(Number(x.aid), Number(x.last_seq));
  }

  // The node's row last: every batch of the node writes it, and holds it until its commit.
  const stored = changeCount + handlingCount > 0;
  // The source's counts (C-82) move by what this batch added, in this row too.
  if (stored || o.cursorMs !== undefined || fresh.size > 0) {
    await c.query(
      `INSERT INTO alarm_sources AS s (source, cursor_ms, last_stored_ms, last_lag_ms, alarm_count, change_count) VALUES ($1, COALESCE($2::bigint, 0), $3::bigint, $4::bigint, $6, $7)
       ON CONFLICT (source) DO UPDATE SET
         cursor_ms = GREATEST(s.cursor_ms, COALESCE($2::bigint, s.cursor_ms)),
         last_stored_ms = CASE WHEN $5 THEN GREATEST(COALESCE(s.last_stored_ms, 0), $3::bigint) ELSE s.last_stored_ms END,
         last_lag_ms = CASE WHEN $5 THEN $4::bigint ELSE s.last_lag_ms END,
         alarm_count = s.alarm_count + $6, change_count = s.change_count + $7`,
      [source, o.cursorMs ?? null, stored ? o.storedMs : null, stored ? lag : null, stored, fresh.size, changeCount],
    );
  } else await c.query('INSERT INTO alarm_sources (source) VALUES ($1) ON CONFLICT DO NOTHING', [source]);
  const headSeq = touched.size > 0 ? [...touched.values()].reduce((a, b) => Math.max(a, b), 0) : await sourceHeadSeq(c, source);
  if (touched.size > 0) {
    // Told to every listening console when (and only if) the batch commits (C-88).
    await c.query('SELECT pg_notify($1, $2)', [ALARMS_CHANNEL, alarmNotice({ source, headSeq, changes: changeCount + handlingCount, aids: [...touched.keys()] })]);
  }
  return { newChanges: changeCount, newHandlings: handlingCount, duplicates, aids: [...touched.keys()], newAlarms: fresh.size, headSeq, lagMs: lag };
}
