/**
 * What a fleet of collectors on one node's queue shares in PostgreSQL (issue 24.4, C-66):
 *
 * - The node's lock: `pg_try_advisory_lock` on a key of the source, held on one connection of the
 *   pool while a collector checks the stream and backfills; another collector that asks meanwhile
 *   is told no and goes on consuming. A collector that dies loses its connection and with it the
 *   lock (the server releases a session's locks), so nobody waits for a dead one.
 * - The stream check. With competing consumers each collector sees only its share of the node's
 *   numbering, so a gap cannot be seen in one collector's stream (gaps.ts would see one in every
 *   batch). Every collector records the messages it stored (`alarm_mark_sets`: per batch and director
 *   one row of message IDs, C-73); the lock holder walks them up from the fleet's watermark (`alarm_message_ids`): a
 *   run without holes moves the watermark and the cursor on; an ID still missing `graceMs` after a
 *   higher one was stored (time for another collector's batch to commit) is a gap, closed by a
 *   REST backfill that starts after it was seen; an ID far from the watermark is a jump, checked
 *   the same way and believed only once the node goes on counting from it (gaps.ts's rule).
 */
import type { Pool, PoolClient } from 'pg';
import { CONFIRM_RUN, MAX_ID_JUMP } from '../gaps';

export interface StreamHole {
  director: string;
  from: number;
  to: number;
  kind: 'gap' | 'jump';
}

export interface StreamCheck {
  /** Holes to close with a backfill (none: the stream is whole up to the watermarks). */
  holes: StreamHole[];
  /** Per director, the watermark a finished backfill may move to (every ID marked when the check ran, jumps left out). */
  upTo: Map<string, number>;
  /** The watermark moved over this many messages. */
  advanced: number;
}

type Num = string | number;
const n = (v: Num | null | undefined): number => Number(v ?? 0);
const lockKey = (source: string) => `northbound:alarms:node:${source}`;

/** Runs `fn` holding the node's lock; `{ ran: false }` when another collector holds it. */
export async function withNodeLock<T>(pool: Pool, source: string, fn: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
  const c = await pool.connect();
  let held = false;
  try {
    held = (await c.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [lockKey(source)])).rows[0]!.ok;
    if (!held) return { ran: false };
    return { ran: true, value: await fn() };
  } finally {
    let broken: Error | undefined;
    if (held) await c.query('SELECT pg_advisory_unlock(hashtextextended($1, 0))', [lockKey(source)]).catch((e: Error) => (broken = e));
    // A connection whose unlock failed is closed, not pooled: it may still hold the lock.
    c.release(broken);
  }
}

interface Mark {
  id: number;
  eventMs: number | null;
  storedMs: number;
}

/** Walks the marks of every director of `source` up from the watermarks (in the caller's transaction). */
export async function checkStream(c: PoolClient, source: string, o: { nowMs: number; graceMs: number; maxJump?: number }): Promise<StreamCheck> {
  const maxJump = o.maxJump ?? MAX_ID_JUMP;
  // Each message once (the first mark of a message marked twice, as the table of one row per mark kept it).
  const marks = (
    await c.query<{ director: string; message_id: Num; event_ms: Num | null; stored_ms: Num }>(
      `SELECT DISTINCT ON (s.director, u.id) s.director, u.id AS message_id, u.ms AS event_ms, s.stored_ms
       FROM alarm_mark_sets s, unnest(s.ids, s.event_ms) AS u(id, ms) WHERE s.source = $1 ORDER BY s.director, u.id, s.stored_ms`,
      [source],
    )
  ).rows;
  const watermarks = new Map((await c.query<{ director: string; last_id: Num }>('SELECT director, last_id FROM alarm_message_ids WHERE source = $1', [source])).rows.map((r) => [r.director, n(r.last_id)]));
  const byDirector = new Map<string, Mark[]>();
  for (const m of marks) {
    let list = byDirector.get(m.director);
    if (!list) byDirector.set(m.director, (list = []));
    list.push({ id: n(m.message_id), eventMs: m.event_ms === null ? null : n(m.event_ms), storedMs: n(m.stored_ms) });
  }
  const check: StreamCheck = { holes: [], upTo: new Map(), advanced: 0 };
  let newestMs: number | undefined;
  for (const [director, list] of byDirector) {
    // The first messages ever seen of a director start its numbering (as gaps.ts's 'first').
    let w = watermarks.get(director) ?? list[0]!.id - 1;
    // The node counted from 1 again (what is at or below the watermark was deleted when it moved).
    if (list[0]!.id === 1 && w > 1) w = 0;
    const start = w;
    const near = list.filter((m) => m.id > w && m.id - w <= maxJump);
    for (const m of near) {
      if (m.id !== w + 1) break;
      w = m.id;
      if (m.eventMs !== null) newestMs = Math.max(newestMs ?? 0, m.eventMs);
    }
    check.advanced += w - start;
    const rest = near.filter((m) => m.id > w);
    if (rest.length > 0 && rest[0]!.storedMs <= o.nowMs - o.graceMs) check.holes.push({ director, from: w + 1, to: rest[0]!.id - 1, kind: 'gap' });
    const far = list.filter((m) => m.id > w && m.id - w > maxJump);
    if (far.length > 0 && far[0]!.storedMs <= o.nowMs - o.graceMs) check.holes.push({ director, from: w, to: far[0]!.id, kind: 'jump' });
    check.upTo.set(director, Math.max(w, ...near.map((m) => m.id)));
    if (w !== start || !watermarks.has(director)) await setWatermark(c, source, director, w);
  }
  if (newestMs !== undefined) await c.query('UPDATE alarm_sources SET cursor_ms = GREATEST(cursor_ms, $1) WHERE source = $2', [newestMs, source]);
  return check;
}

async function setWatermark(c: PoolClient, source: string, director: string, id: number): Promise<void> {
  await c.query('INSERT INTO alarm_message_ids (source, director, last_id) VALUES ($1, $2, $3) ON CONFLICT (source, director) DO UPDATE SET last_id = EXCLUDED.last_id', [source, director, id]);
  // The marks at or below the watermark go: whole sets, and the IDs of a set that reaches past it.
  await c.query('DELETE FROM alarm_mark_sets WHERE source = $1 AND director = $2 AND max_id <= $3', [source, director, id]);
  await c.query(
    `UPDATE alarm_mark_sets s SET min_id = k.min_id, ids = k.ids, event_ms = k.event_ms
     FROM (SELECT s2.ctid AS row, MIN(u.id) AS min_id, array_agg(u.id ORDER BY u.n) AS ids, array_agg(u.ms ORDER BY u.n) AS event_ms
           FROM alarm_mark_sets s2, unnest(s2.ids, s2.event_ms) WITH ORDINALITY AS u(id, ms, n)
           WHERE s2.source = $1 AND s2.director = $2 AND s2.min_id <= $3 AND u.id > $3 GROUP BY s2.ctid) k
     WHERE s.ctid = k.row`,
    [source, director, id],
  );
}

/**
 * A backfill that started after `check` finished: its holes are closed, the watermarks move to what
 * was marked then; a jump is believed when the node went on counting from it (CONFIRM_RUN IDs in a row).
 */
export async function closeHoles(c: PoolClient, source: string, check: StreamCheck): Promise<void> {
  for (const [director, upTo] of check.upTo) {
    let w = upTo;
    if (check.holes.some((h) => h.director === director && h.kind === 'jump')) {
      const ids = (await c.query<{ message_id: Num }>('SELECT DISTINCT u.id AS message_id FROM alarm_mark_sets s, unnest(s.ids) AS u(id) WHERE s.source = $1 AND s.director = $2 AND s.max_id > $3 AND u.id > $3 ORDER BY 1', [source, director, w])).rows.map((r) => n(r.message_id));
      let run = 0;
      for (let i = 0; i < ids.length; i++) {
        run = i > 0 && ids[i] === ids[i - 1]! + 1 ? run + 1 : 1;
        if (run >= CONFIRM_RUN) {
          w = ids[i - run + 1]! - 1;
          break;
        }
      }
    }
    await setWatermark(c, source, director, w);
  }
}
