/**
 * The ZTA dashboard's reads on PostgreSQL (issue 24.1), the fleet's side of edr-views.ts: the same
 * rows in the same order, made into answers by the same code (edr-views-shared.ts). A cycle's hosts
 * are read in pages of one snapshot (REPEATABLE READ), so a commit landing between two pages cannot
 * split them.
 */
import type { HostRecord, RiskBand } from '../../../shared/model/edr';
import { emptyBandCounts, type ZtaChanges, type ZtaColumns } from '../../../shared/model/zta';
import { withTransaction, type PgPool, type PoolClient } from '../../store/postgres';
import { TS } from './edr-pg-schema';
import type { CycleGroup, LatestCycle, ScorePoint, TrendFilter } from './edr-store';
import { appendRow, changesFrom, historyPoints, noChanges, trendPoints, trendWindow, type HostRow, type MoveRow } from './edr-views-shared';
import { withLastSeen } from './host-json';
import { COUNT_CAP, type HostCounts, type HostCountsQuery, type HostWindow, type HostWindowQuery, type HostWindowRow } from '../../../shared/model/zta-window';
import { CountsCache, boundedCounts, countsSql, latestIdsSql, windowRow, windowSql, windowTotal, type Statement } from './edr-window-sql';
import { pgWindow, type PgWindowOptions } from './edr-window-pg';
import { exportSql, type HostExportQuery } from './edr-export-sql';


/** Rows of a cycle's snapshot read at a time. */
const PAGE = 10_000;

const ROWS_SQL = `SELECT h.connector_id, h.host_id, h.hostname, h.customer_id, h.platform, h.score, h.band, s.last_seen,
    h.os_assessment, h.sensor_assessment, h.overall_assessment, h.sensor_running, h.reduced_functionality,
    h.risk_level, h.exposure, h.health, h.av_status, h.onboarding, h.critical_cves, h.cve_count, h.max_cvss, h.cvss
  FROM edr.hosts h JOIN edr.host_seen s ON s.hid = h.hid
  WHERE h.connector_id = (SELECT connector_id FROM edr.cycles WHERE id = $1) AND s.last_cycle = $1 AND h.host_id > $2
  ORDER BY h.host_id LIMIT $3`;

export interface PgHostRow {
  score: number;
  band: RiskBand;
  scoredAt: string;
  cycleId: number;
  lastSeen: string | null;
  record: string;
  contributions: string;
  profiles: string | null;
}

/**
 * A window's and the counts' read: one snapshot (REPEATABLE READ); no JIT (its compiling costs more
 * than these queries save); sorts and hashes of a million hosts in memory, not in batches on disk.
 */
const READ_SETTINGS = ['SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY', 'SET LOCAL jit = off', "SET LOCAL work_mem = '64MB'"];

export class PgEdrViews {
  private readonly countsCache = new CountsCache();
  /**
   * Counts being made, by the cache's key: a window and its counts asked at once (two transactions,
   * as the table asks them) count once. The key names the newest cycles, so both read the same hosts.
   */
  private readonly counting = new Map<string, Promise<HostCounts>>();
  /** `countCap`: how many hosts matching a search are counted before the counts become lower bounds (C-79). */
  constructor(
    private readonly pool: PgPool,
    private readonly countCap = COUNT_CAP,
    private readonly windows: PgWindowOptions = {},
  ) {}

  async latestCycles(): Promise<LatestCycle[]> {
    const r = await this.pool.query<{ connectorId: string; cycleId: string; finishedAt: string; kind: string; hosts: number }>(
      `SELECT c.connector_id AS "connectorId", c.id AS "cycleId", ${TS('c.finished_at')} AS "finishedAt", c.kind, c.hosts FROM edr.cycles c
       WHERE c.id IN (SELECT MAX(id) FROM edr.cycles WHERE status = 'completed' GROUP BY connector_id) ORDER BY c.id`,
    );
    return r.rows.map((c) => ({ ...c, cycleId: Number(c.cycleId), kind: c.kind === 'rescore' ? 'rescore' : 'poll' }));
  }

  async appendRows(cols: ZtaColumns, cycleId: number, connector: number, customerIndex: (id: string) => number): Promise<number> {
    return withTransaction(this.pool, async (c) => {
      await c.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      let n = 0;
      for (let after = ''; ; ) {
        const rows = (await c.query<HostRow>({ text: ROWS_SQL, values: [cycleId, after, PAGE], rowMode: 'array' })).rows;
        for (const r of rows) appendRow(cols, r, connector, customerIndex);
        n += rows.length;
        if (rows.length < PAGE) return n;
        after = rows[rows.length - 1]![1];
      }
    });
  }

  /** A window of the latest snapshot's hosts and how many match, read in one snapshot (REPEATABLE READ). */
  async hostWindow(q: HostWindowQuery): Promise<HostWindow> {
    return withTransaction(this.pool, async (c) => {
      for (const sql of READ_SETTINGS) await c.query(sql);
      const read = async (st: Statement) => (await c.query<unknown[]>({ text: st.text, values: st.args, rowMode: 'array' })).rows;
      // The counts first (the same snapshot): how far a search reaches picks a plan (edr-window-pg.ts).
      const counts = await this.counts(c, { filter: q.filter });
      const plan = pgWindow(q, this.windows, counts);
      let rows = plan.rows(await read(plan.st));
      this.windows.observe?.(plan.kind, rows !== undefined);
      if (rows === undefined) rows = (await read(windowSql('pg', q))).map(windowRow);
      return { rows, ...windowTotal(counts, q.offset, q.limit, rows.length) };
    });
  }

  async hostCounts(q: HostCountsQuery): Promise<HostCounts> {
    return withTransaction(this.pool, async (c) => {
      for (const sql of READ_SETTINGS) await c.query(sql);
      return this.counts(c, q);
    });
  }

  /**
   * The export's read (C-86): a cursor (DECLARE … NO SCROLL, FETCH FORWARD `batch`) in one REPEATABLE
   * READ, READ ONLY transaction on a connection of its own, so the rows are one snapshot however long
   * the export takes and main holds one batch of them. Ended early (a cancel) or failed, the
   * transaction is rolled back and the connection handed back (closed if even that failed).
   */
  async *exportHosts(q: HostExportQuery): AsyncGenerator<HostWindowRow[]> {
    if (q.connectors.length === 0) return;
    const batch = Math.max(1, Math.floor(q.batch));
    const st = exportSql('pg', q);
    const c = await this.pool.connect();
    let ended = false;
    let broken = false;
    try {
      await c.query('BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY');
      await c.query('SET LOCAL jit = off');
      await c.query({ text: `DECLARE export_hosts NO SCROLL CURSOR FOR ${st.text}`, values: st.args });
      for (;;) {
        const rows = (await c.query<unknown[]>({ text: `FETCH FORWARD ${batch} FROM export_hosts`, rowMode: 'array' })).rows;
        if (rows.length) yield rows.map(windowRow);
        if (rows.length < batch) break;
      }
      await c.query('COMMIT');
      ended = true;
    } finally {
      if (!ended) await c.query('ROLLBACK').catch(() => (broken = true));
      c.release(broken);
    }
  }

  private async counts(c: PoolClient, q: HostCountsQuery): Promise<HostCounts> {
    const key = this.countsCache.key((await c.query<{ id: string }>(latestIdsSql('pg'))).rows.map((r) => r.id), q.filter, this.countCap);
    const hit = this.countsCache.get(key);
    if (hit) return hit;
    const pending = this.counting.get(key);
    if (pending) return structuredClone(await pending);
    const counting = (async () => {
      const st = countsSql('pg', q.filter, this.countCap);
      const rows = (await c.query<[string, string, string, string]>({ text: st.text, values: st.args, rowMode: 'array' })).rows;
      const counts = boundedCounts(rows.map(([customer, platform, band, n]) => ({ customer, platform, band, n: Number(n) })), st.cap);
      this.countsCache.set(key, counts);
      return counts;
    })();
    this.counting.set(key, counting);
    try {
      return structuredClone(await counting);
    } finally {
      this.counting.delete(key);
    }
  }

  /** Hosts by customer and platform in each of these cycles (C-78). */
  async cycleGroups(cycleIds: readonly number[]): Promise<CycleGroup[]> {
    if (cycleIds.length === 0) return [];
    const r = await this.pool.query<{ cycleId: string; customerId: string; platform: string; hosts: string }>(
      `SELECT cycle_id AS "cycleId", customer_id AS "customerId", platform, SUM(hosts) AS hosts FROM edr.cycle_bands
        WHERE cycle_id = ANY($1::bigint[]) GROUP BY cycle_id, customer_id, platform HAVING SUM(hosts) > 0`,
      [cycleIds],
    );
    return r.rows.map((x) => ({ cycleId: Number(x.cycleId), customerId: x.customerId, platform: x.platform, hosts: Number(x.hosts) }));
  }

  async storedRecords(connectorId: string, cycleId: number, afterHostId: string, limit: number): Promise<HostRecord[]> {
    const r = await this.pool.query<{ record: string; lastSeen: string | null }>(
      `SELECT d.record_json AS record, s.last_seen AS "lastSeen" FROM edr.hosts h
       JOIN edr.host_seen s ON s.hid = h.hid JOIN edr.host_details d ON d.hid = h.hid
       WHERE h.connector_id = $1 AND s.last_cycle = $2 AND h.host_id > $3 ORDER BY h.host_id LIMIT $4`,
      [connectorId, cycleId, afterHostId, limit],
    );
    return r.rows.map((x) => withLastSeen(JSON.parse(x.record) as HostRecord, x.lastSeen));
  }

  async host(connectorId: string, hostId: string): Promise<PgHostRow | undefined> {
    const r = await this.pool.query<PgHostRow & { cycleId: string }>(
      `SELECT h.score, h.band, s.scored_at AS "scoredAt", s.last_cycle AS "cycleId", s.last_seen AS "lastSeen",
         d.record_json AS record, d.contributions_json AS contributions, d.profiles_json AS profiles
       FROM edr.hosts h JOIN edr.host_seen s ON s.hid = h.hid JOIN edr.host_details d ON d.hid = h.hid
       WHERE h.connector_id = $1 AND h.host_id = $2`,
      [connectorId, hostId],
    );
    const row = r.rows[0];
    return row && { ...row, cycleId: Number(row.cycleId) };
  }

  async scoreHistory(connectorId: string, hostId: string, limit = 200): Promise<ScorePoint[]> {
    const [cycles, changes] = await Promise.all([
      this.pool.query<{ id: string; at: string; kind: string }>(
        `SELECT id, ${TS('finished_at')} AS at, kind FROM edr.cycles WHERE connector_id = $1 AND status = 'completed' ORDER BY id DESC LIMIT $2`,
        [connectorId, limit],
      ),
      this.pool.query<{ cycleId: string; score: number; band: RiskBand }>(
        `SELECT c.cycle_id AS "cycleId", c.score, c.band FROM edr.score_changes c JOIN edr.hosts h ON h.hid = c.hid
         WHERE h.connector_id = $1 AND h.host_id = $2 ORDER BY c.cycle_id`,
        [connectorId, hostId],
      ),
    ]);
    return historyPoints(
      cycles.rows.map((c) => ({ ...c, id: Number(c.id) })).reverse(),
      changes.rows.map((c) => ({ ...c, cycleId: Number(c.cycleId) })),
    );
  }

  async trend(f: TrendFilter, limit = 100): Promise<Array<{ at: string; bands: Record<RiskBand, number> }>> {
    const all = await this.pool.query<{ id: string; connectorId: string; at: string }>(
      `SELECT id, connector_id AS "connectorId", ${TS('finished_at')} AS at FROM edr.cycles
       WHERE status = 'completed' AND connector_id = ANY($1::text[]) ORDER BY finished_at, id`,
      [[...f.connectors]],
    );
    const cycles = trendWindow(all.rows.map((c) => ({ ...c, id: Number(c.id) })), f.connectors.size, limit);
    const args: unknown[] = [cycles.map((c) => c.id)];
    const where = ['cycle_id = ANY($1::int8[])'];
    if (f.customer !== undefined) where.push(`customer_id = $${args.push(f.customer)}`);
    if (f.platform !== undefined) where.push(`platform = $${args.push(f.platform)}`);
    const counts = await this.pool.query<{ id: string; band: RiskBand; n: string }>(`SELECT cycle_id AS id, band, SUM(hosts) AS n FROM edr.cycle_bands WHERE ${where.join(' AND ')} GROUP BY cycle_id, band`, args);
    const byCycle = new Map<number, Record<RiskBand, number>>();
    for (const row of counts.rows) {
      let bands = byCycle.get(Number(row.id));
      if (!bands) byCycle.set(Number(row.id), (bands = emptyBandCounts()));
      bands[row.band] = Number(row.n);
    }
    return trendPoints(cycles, (id) => byCycle.get(id) ?? emptyBandCounts(), limit);
  }

  async bandTotals(cycleIds: readonly number[]): Promise<Record<RiskBand, number>> {
    const out = emptyBandCounts();
    if (cycleIds.length === 0) return out;
    const r = await this.pool.query<{ id: string; band: RiskBand; n: string }>('SELECT cycle_id AS id, band, SUM(hosts) AS n FROM edr.cycle_bands WHERE cycle_id = ANY($1::int8[]) GROUP BY cycle_id, band', [[...cycleIds]]);
    const byCycle = new Map<number, Array<{ band: RiskBand; n: number }>>();
    for (const row of r.rows) byCycle.set(Number(row.id), [...(byCycle.get(Number(row.id)) ?? []), { band: row.band, n: Number(row.n) }]);
    // Each id as often as it is given, as the SQLite store counts it.
    for (const id of cycleIds) for (const x of byCycle.get(id) ?? []) if (x.band in out) out[x.band] += x.n;
    return out;
  }

  async previousCycle(connectorId: string, cycleId: number): Promise<{ id: number; at: string } | undefined> {
    const r = await this.pool.query<{ id: string; at: string }>(
      `SELECT id, ${TS('finished_at')} AS at FROM edr.cycles WHERE connector_id = $1 AND status = 'completed' AND id < $2 ORDER BY id DESC LIMIT 1`,
      [connectorId, cycleId],
    );
    const row = r.rows[0];
    return row && { id: Number(row.id), at: row.at };
  }

  async changes(connectorId: string, cycleId: number, top = 10): Promise<ZtaChanges> {
    if (!(await this.previousCycle(connectorId, cycleId))) return noChanges();
    const r = await this.pool.query<MoveRow>(
      `SELECT h.host_id AS "hostId", h.hostname, h.customer_id AS "customerId", h.platform, c.score, c.band, p.score AS "prevScore", p.band AS "prevBand"
       FROM edr.score_changes c JOIN edr.hosts h ON h.hid = c.hid
       LEFT JOIN LATERAL (SELECT q.score, q.band FROM edr.score_changes q WHERE q.hid = c.hid AND q.cycle_id < c.cycle_id ORDER BY q.cycle_id DESC LIMIT 1) p ON true
       WHERE h.connector_id = $1 AND c.cycle_id = $2 ORDER BY h.host_id`,
      [connectorId, cycleId],
    );
    return changesFrom(connectorId, r.rows, top);
  }
}

