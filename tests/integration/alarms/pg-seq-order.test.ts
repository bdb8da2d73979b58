/**
 * The PostgreSQL alarm store's change sequence and commits out of order (issue 25.2, C-87): a
 * console reads "the alarms changed after N" with N the `headSeq` of its last read. Two batches of
 * one node run side by side (two collectors, or two of one collector's batches in flight, C-70).
 * Batch A is held inside its transaction after each of its statements in turn while batch B runs;
 * a reader then reads the node's `headSeq` (B may have committed, A has not); once both committed,
 * the alarms changed after that `headSeq` hold A's change (and B's when it was not committed yet):
 * a late commit is never skipped. Also: each committed batch is announced by NOTIFY, and only once
 * committed (C-88).
 */
import type { PoolClient } from 'pg';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ingestPg, ALARMS_CHANNEL } from '../../../electron/alarms/store/pg-alarm-ingest';
import { openPgAlarmStore, type PgAlarmStore } from '../../../electron/alarms/store/pg-alarm-store';
import type { PgPool } from '../../../electron/store/postgres';
import type { AlarmItem } from '../../../shared/model/alarms';
import { usePostgres } from '../../support/postgres';
import { until } from '../../support/until';

const pgc = usePostgres();
let pool: PgPool;
let store: PgAlarmStore;
const SOURCE = 'node:10.0.0.1:9182';
const T = Date.UTC(2026, 10, 29, 12);

function item(object: string, ms = T): AlarmItem {
  return {
    head: { device: 'dev-1', deviceName: 'dev-1', org: 'Contoso', object, type: 'interface-down', specificProblem: 'link-down', severity: 'major', cleared: false, text: 'down', lastChangeMs: ms },
    changes: [{ eventMs: ms, severity: 'major', text: 'down' }],
    handlings: [],
    messageId: null,
  };
}

/** A client whose `query` stops after its `pauseAfter`-th statement (0-based) until released. */
function holding(c: PoolClient, pauseAfter: number) {
  let n = 0;
  let release!: () => void;
  let reached!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const paused = new Promise<void>((r) => (reached = r));
  const statements: string[] = [];
  const client = {
    query: async (...args: unknown[]) => {
      const r = await (c.query as (...a: unknown[]) => Promise<unknown>)(...args);
      statements.push(String(args[0]).slice(0, 60));
      if (n++ === pauseAfter) {
        reached();
        await gate;
      }
      return r;
    },
  } as unknown as PoolClient;
  return { client, release, paused, statements };
}

/** One batch in its own transaction on its own connection. */
async function batch(c: PoolClient | { query: PoolClient['query'] }, raw: PoolClient, items: AlarmItem[]) {
  await raw.query('BEGIN');
  try {
    const r = await ingestPg(c as PoolClient, SOURCE, items, { storedMs: T });
    await raw.query('COMMIT');
    return r;
  } catch (e) {
    await raw.query('ROLLBACK');
    throw e;
  }
}

const changedAfter = async (seq: number) => (await store.list(SOURCE, { cleared: 'all', afterSeq: seq }, 0, 1000)).rows.map((r) => r.object).sort();

beforeAll(async () => {
  const db = await pgc.freshDatabase('seqorder');
  pool = db.pool;
  store = await openPgAlarmStore(pool);
  await store.ingest(SOURCE, [item('seed')], { storedMs: T });
}, 60_000);

afterAll(async () => {
  await store.close();
});

describe('the change sequence under commits out of order', () => {
  it('a reader of "changed after headSeq" never misses a batch that committed after it read, wherever that batch was held', async () => {
    // How many statements a batch of one new alarm runs (a dry run on a connection of its own).
    const dry = await pool.connect();
    const probe = holding(dry, Number.MAX_SAFE_INTEGER);
    await batch(probe.client, dry, [item('dry')]);
    dry.release();
    const count = probe.statements.length;
    expect(count).toBeGreaterThan(4);

    const bCommittedFirst: number[] = [];
    for (let k = 0; k < count; k++) {
      const ca = await pool.connect();
      const cb = await pool.connect();
      const watcher = await pool.connect();
      try {
        const bPid = (await cb.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        const a = holding(ca, k);
        const aDone = batch(a.client, ca, [item(`a-${k}`)]);
        await a.paused;
        let bFinished = false;
        const bDone = batch(cb, cb, [item(`b-${k}`)]).then((r) => {
          bFinished = true;
          return r;
        });
        // B either commits, or waits for a lock A holds (PostgreSQL says so).
        await until(`batch B finished or waiting for a lock (A held after statement ${k}: ${a.statements[k]})`, async () => {
          if (bFinished) return true;
          const w = (await watcher.query<{ w: string | null }>('SELECT wait_event_type AS w FROM pg_stat_activity WHERE pid = $1', [bPid])).rows[0];
          return w?.w === 'Lock';
        });
        const head = await store.headSeq(SOURCE);
        const seen = await changedAfter(0);
        if (bFinished) bCommittedFirst.push(k);
        a.release();
        await Promise.all([aDone, bDone]);
        const after = await changedAfter(head);
        expect(seen).not.toContain(`a-${k}`);
        expect(after, `A held after statement ${k} (${a.statements[k]}), B ${bFinished ? 'committed first' : 'waited'}`).toContain(`a-${k}`);
        if (!seen.includes(`b-${k}`)) expect(after).toContain(`b-${k}`);
        // Nothing changed before the read shows again.
        expect(after.every((o) => o === `a-${k}` || o === `b-${k}`)).toBe(true);
      } finally {
        ca.release();
        cb.release();
        watcher.release();
      }
    }
    // The case that used to lose a change is among those run: B committed while A was held inside its transaction.
    expect(bCommittedFirst.length).toBeGreaterThan(0);
  }, 60_000);

  it('a committed batch is announced on its channel, once, after its commit; a rolled-back one never', async () => {
    const listener = new pg.Client({ connectionString: pgc.cluster().urlOf((await pool.query<{ d: string }>('SELECT current_database() AS d')).rows[0]!.d) });
    await listener.connect();
    const notices: Array<{ source: string; headSeq: number; aids: number[]; changes: number }> = [];
    listener.on('notification', (m) => notices.push(JSON.parse(m.payload ?? '{}') as (typeof notices)[number]));
    await listener.query(`LISTEN ${ALARMS_CHANNEL}`);
    try {
      const c = await pool.connect();
      try {
        await c.query('BEGIN');
        await ingestPg(c, SOURCE, [item('rolled-back')], { storedMs: T });
        await c.query('ROLLBACK');
      } finally {
        c.release();
      }
      const r = await store.ingest(SOURCE, [item('announced', T + 5)], { storedMs: T + 5 });
      const got = await until('the batch’s notice', () => notices.find((n) => n.headSeq === r.headSeq));
      expect(got).toEqual({ source: SOURCE, headSeq: r.headSeq, changes: 1, aids: r.aids, more: false });
      expect(notices).toHaveLength(1);
      expect(await store.headSeq(SOURCE)).toBe(r.headSeq);
    } finally {
      await listener.end();
    }
  });
});
