/**
 * The alarms feature's store on the fleet's PostgreSQL (issue 24.1, 24.4): `AlarmStore` with the
 * semantics of the SQLite one (sqlite-alarm-store.ts) — the contract suite runs both
 * (tests/integration/store/alarm-store-contract.test.ts) — for collectors on several hosts and the
 * consoles that read them. Its own migrations (store `alarms`, pg-alarm-schema.ts). A batch is one
 * transaction of a few set-based statements (pg-alarm-ingest.ts), committed when `ingest`
 * resolves, so a broker ack after it never acknowledges what is not stored; a deadlock or a
 * serialization failure is retried. The fleet's shared parts — the node's advisory lock and the
 * stream check over every collector's messages — are in pg-alarm-fleet.ts (`AlarmFleet`).
 */
import { randomUUID } from 'node:crypto';
import type { PoolClient } from 'pg';
import type { ActiveSeverity, AlarmFilter, AlarmItem } from '../../../shared/model/alarms';
import { isDatabaseUnreachable, migratePg, type PgPool } from '../../store/postgres';
import { DEFAULT_FUTURE_SKEW_MS, timeWindow } from './alarm-times';
import type { AlarmStore, ChangeRange, DeadLetter, IngestOptions, IngestResult, SourceState } from './alarm-store';
import { checkStream, closeHoles, withNodeLock, type StreamCheck } from './pg-alarm-fleet';
import { ingestPg, PG_DEAD_LETTERS_KEPT, sourceHeadSeq } from './pg-alarm-ingest';
import { ALARM_PG_STEPS } from './pg-alarm-schema';
import { forgetSourcePg, repairPg, retentionPg } from './pg-alarm-upkeep';
import * as views from './pg-alarm-views';

/** What a fleet collector asks of the shared store beyond `AlarmStore` (C-66). */
export interface AlarmFleet {
  /** Runs `fn` holding the node's advisory lock; `{ ran: false }` (at once) when another collector holds it. */
  exclusive<T>(source: string, fn: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
  /** The fleet's stream check (call it holding the node's lock). */
  checkStream(source: string, o: { nowMs: number; graceMs: number }): Promise<StreamCheck>;
  /** A backfill that started after `check` finished (holding the node's lock). */
  closeHoles(source: string, check: StreamCheck): Promise<void>;
  /** Whether `e` says the database could not be reached (worth waiting for), not that it refused what was asked. */
  unreachable(e: unknown): boolean;
}

export type { StreamCheck, StreamHole } from './pg-alarm-fleet';

type Num = string | number;
const n = (v: Num | null | undefined): number => Number(v ?? 0);
/** Retried: another transaction's locks crossed ours, or a snapshot could not be kept. */
const RETRIED = new Set(['40P01', '40001']);

export class PgAlarmStore implements AlarmStore, AlarmFleet {
  readonly backend = 'postgres';

  /** `ownsPool`: `close` ends the pool (the CLI's); else the caller does. */
  constructor(
    readonly pool: PgPool,
    private readonly o: { ownsPool?: boolean } = {},
  ) {}

  /** One transaction on one connection; retried (a few times) when PostgreSQL picked it as a deadlock's victim. */
  private async tx<T>(fn: (c: PoolClient) => Promise<T>, isolation = ''): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      const c = await this.pool.connect();
      try {
        await c.query(`BEGIN${isolation ? ` ISOLATION LEVEL ${isolation}` : ''}`);
        const r = await fn(c);
        await c.query('COMMIT');
        c.release();
        return r;
      } catch (e) {
        const broken = await c.query('ROLLBACK').then(
          () => undefined,
          (x: Error) => x,
        );
        c.release(broken);
        if (attempt >= 5 || !RETRIED.has((e as { code?: string }).code ?? '')) throw e;
      }
    }
  }

  /** With a source: that node's newest sequence as committed, below every sequence its later commits take (C-87). */
  async headSeq(source?: string) {
    if (source !== undefined) return sourceHeadSeq(this.pool, source);
    return n((await this.pool.query<{ s: string }>('SELECT COALESCE(MAX(last_seq), 0) AS s FROM alarms')).rows[0]!.s);
  }

  async installId() {
    await this.pool.query("INSERT INTO alarm_meta (key, value) VALUES ('install_id', $1) ON CONFLICT DO NOTHING", [randomUUID()]);
    return (await this.pool.query<{ value: string }>("SELECT value FROM alarm_meta WHERE key = 'install_id'")).rows[0]!.value;
  }

  ingest(source: string, items: readonly AlarmItem[], o: IngestOptions): Promise<IngestResult> {
    return this.tx((c) => ingestPg(c, source, items, o));
  }

  async sourceState(source: string): Promise<SourceState> {
    const row = (await this.pool.query<{ cursor_ms: Num; last_backfill_ms: Num | null; last_backfill_new: number | null; last_stored_ms: Num | null; last_lag_ms: Num | null }>('SELECT cursor_ms, last_backfill_ms, last_backfill_new, last_stored_ms, last_lag_ms FROM alarm_sources WHERE source = $1', [source])).rows[0];
    const ids = (await this.pool.query<{ director: string; last_id: Num }>('SELECT director, last_id FROM alarm_message_ids WHERE source = $1', [source])).rows;
    const orNull = (v: Num | null | undefined) => (v === null || v === undefined ? null : n(v));
    return {
      cursorMs: n(row?.cursor_ms),
      lastBackfillMs: orNull(row?.last_backfill_ms),
      lastBackfillNew: row?.last_backfill_new ?? null,
      lastStoredMs: orNull(row?.last_stored_ms),
      lastLagMs: orNull(row?.last_lag_ms),
      messageIds: new Map(ids.map((r) => [r.director, n(r.last_id)])),
    };
  }

  async advanceCursor(source: string, ms: number) {
    await this.pool.query('INSERT INTO alarm_sources (source, cursor_ms) VALUES ($1, $2) ON CONFLICT (source) DO UPDATE SET cursor_ms = GREATEST(alarm_sources.cursor_ms, EXCLUDED.cursor_ms)', [source, ms]);
  }

  async recordBackfill(source: string, atMs: number, added: number) {
    await this.pool.query('INSERT INTO alarm_sources (source, last_backfill_ms, last_backfill_new) VALUES ($1, $2, $3) ON CONFLICT (source) DO UPDATE SET last_backfill_ms = EXCLUDED.last_backfill_ms, last_backfill_new = EXCLUDED.last_backfill_new', [source, atMs, added]);
  }

  async counts(source: string) {
    return this.countsOn(this.pool, source);
  }

  private async countsOn(q: { query: PgPool['query'] }, source: string) {
    // Kept as batches store and upkeep removes (C-82): counting 5,000,000 changes took 1.8 s.
    const r = (await q.query<{ alarms: string; changes: string }>('SELECT alarm_count AS alarms, change_count AS changes FROM alarm_sources WHERE source = $1', [source])).rows[0];
    return { alarms: n(r?.alarms), changes: n(r?.changes) };
  }

  async countsAt(source: string) {
    // One statement reads one snapshot.
    const r = (
      await this.pool.query<{ alarms: string; changes: string; seq: string }>(
        'SELECT (SELECT alarm_count FROM alarm_sources WHERE source = $1) AS alarms, (SELECT change_count FROM alarm_sources WHERE source = $1) AS changes, (SELECT COALESCE(MAX(last_seq), 0) FROM alarms WHERE source = $1) AS seq',
        [source],
      )
    ).rows[0]!;
    return { counts: { alarms: n(r.alarms), changes: n(r.changes) }, seq: n(r.seq) };
  }

  async deadLetters(source: string, limit = 100): Promise<Array<DeadLetter & { atMs: number }>> {
    const rows = (await this.pool.query<{ at_ms: Num; reason: string; routing_key: string; excerpt: string }>('SELECT at_ms, reason, routing_key, excerpt FROM alarm_dead_letters WHERE source = $1 ORDER BY id DESC LIMIT $2', [source, limit])).rows;
    return rows.map((r) => ({ atMs: n(r.at_ms), reason: r.reason, routingKey: r.routing_key, excerpt: r.excerpt }));
  }

  list(source: string, filter: AlarmFilter, offset: number, limit: number) {
    return views.listAlarmsPg(this.pool, source, filter, offset, limit);
  }

  detail(source: string, aid: number) {
    return views.alarmDetailPg(this.pool, source, aid);
  }

  keys(source: string, aids: readonly number[]) {
    return views.alarmKeysPg(this.pool, source, aids);
  }

  summary(source: string) {
    return views.alarmSummaryPg(this.pool, source);
  }

  rate(source: string, minutes: number, nowMs: number) {
    return views.alarmRatePg(this.pool, source, minutes, nowMs);
  }

  exportAlarms(sinceMs = 0) {
    return views.exportAlarmsPg(this.pool, sinceMs);
  }

  overview(source: string) {
    return views.alarmOverviewPg(this.pool, source);
  }

  collected(source: string) {
    return views.alarmsCollectedPg(this.pool, source);
  }

  criticalUnacknowledged(source: string) {
    return views.criticalUnacknowledgedPg(this.pool, source);
  }

  newestChangeMs(source: string) {
    return views.newestChangeMsPg(this.pool, source);
  }

  changeSeq() {
    return views.changeSeqPg(this.pool);
  }

  changeCounts(source: string, range: ChangeRange) {
    return views.changeCountsPg(this.pool, source, range);
  }

  newestChange(source: string, range: ChangeRange, severity: ActiveSeverity) {
    return views.newestChangePg(this.pool, source, range, severity);
  }

  repairTimes(nowMs: number, futureSkewMs = DEFAULT_FUTURE_SKEW_MS) {
    return this.tx((c) => repairPg(c, timeWindow(nowMs, futureSkewMs), nowMs, PG_DEAD_LETTERS_KEPT));
  }

  applyRetention(o: { nowMs: number; days: number; maxChanges?: number }) {
    return this.tx((c) => retentionPg(c, o));
  }

  forgetSource(source: string) {
    return this.tx((c) => forgetSourcePg(c, source));
  }

  exclusive<T>(source: string, fn: () => Promise<T>) {
    return withNodeLock(this.pool, source, fn);
  }

  checkStream(source: string, o: { nowMs: number; graceMs: number }) {
    return this.tx((c) => checkStream(c, source, o));
  }

  closeHoles(source: string, check: StreamCheck) {
    return this.tx((c) => closeHoles(c, source, check));
  }

  unreachable(e: unknown) {
    return isDatabaseUnreachable(e);
  }

  async close() {
    if (this.o.ownsPool) await this.pool.end();
  }
}

/** The alarm store on `pool`, its schema migrated first. */
export async function openPgAlarmStore(pool: PgPool, o: { ownsPool?: boolean } = {}): Promise<PgAlarmStore> {
  await migratePg(pool, 'alarms', ALARM_PG_STEPS);
  return new PgAlarmStore(pool, o);
}

export const isAlarmFleet = (s: unknown): s is AlarmFleet => s instanceof PgAlarmStore;
