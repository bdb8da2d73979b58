/**
 * The ZTA dashboard's reads of edr.db (issue 11): the snapshot of every connector's newest
 * completed cycle (columnar, one pass over the narrow hosts table), a host's score at each cycle
 * (from the change rows: a score holds until it moves), the band counts per cycle (from the cycle
 * aggregates) and what changed in each connector's newest cycle.
 */
import Database from 'better-sqlite3';
import type { HostRecord, RiskBand } from '../../../shared/model/edr';
import { emptyBandCounts, type ZtaChanges, type ZtaColumns } from '../../../shared/model/zta';
import { COUNT_CAP, type HostCounts, type HostCountsQuery, type HostWindow, type HostWindowQuery, type HostWindowRow } from '../../../shared/model/zta-window';
import { exportSql, type HostExportQuery } from './edr-export-sql';
import type { CycleGroup, LatestCycle } from './edr-store';
import { CountsCache, boundedCounts, countsSql, latestIdsSql, windowRow, windowSql, windowTotal, type Statement } from './edr-window-sql';
import { appendRow, changesFrom, historyPoints, noChanges, trendPoints, trendWindow, type HostRow, type MoveRow } from './edr-views-shared';
import { withLastSeen } from './host-json';

export type { LatestCycle } from './edr-store';

export { TREND_MOMENT_MS } from './edr-views-shared';

const CYCLE_GROUPS_SQLITE = `SELECT cycle_id AS cycleId, customer_id AS customerId, platform, SUM(hosts) AS hosts FROM cycle_bands
  WHERE cycle_id IN (SELECT value FROM json_each(?)) GROUP BY cycle_id, customer_id, platform HAVING SUM(hosts) > 0`;

export class EdrViews {
  private readonly stmt;
  /** The windows' and counts' statements by their text (a few dozen shapes: sort key, direction, filters). */
  private readonly prepared = new Map<string, Database.Statement>();
  private readonly countsCache = new CountsCache();

  /** `countCap`: how many hosts matching a search are counted before the counts become lower bounds (C-79). */
  constructor(
    private readonly db: Database.Database,
    private readonly countCap = COUNT_CAP,
  ) {
    this.stmt = {
      latest: db.prepare(
        `SELECT c.connector_id AS connectorId, c.id AS cycleId, c.finished_at AS finishedAt, c.kind, c.hosts FROM cycles c
         WHERE c.id IN (SELECT MAX(id) FROM cycles WHERE status = 'completed' GROUP BY connector_id)`,
      ),
      rows: db
        .prepare(
          `SELECT h.connector_id, h.host_id, h.hostname, h.customer_id, h.platform, h.score, h.band, s.last_seen,
             h.os_assessment, h.sensor_assessment, h.overall_assessment, h.sensor_running, h.reduced_functionality,
             h.risk_level, h.exposure, h.health, h.av_status, h.onboarding, h.critical_cves, h.cve_count, h.max_cvss, h.cvss
           FROM hosts h JOIN host_seen s ON s.hid = h.hid
           WHERE h.connector_id = (SELECT connector_id FROM cycles WHERE id = @cycle) AND s.last_cycle = @cycle ORDER BY h.host_id`,
        )
        .raw(),
      records: db.prepare(
        `SELECT d.record_json AS record, s.last_seen AS lastSeen, h.host_id AS hostId FROM hosts h
         JOIN host_seen s ON s.hid = h.hid JOIN host_details d ON d.hid = h.hid
         WHERE h.connector_id = ? AND s.last_cycle = ? AND h.host_id > ? ORDER BY h.host_id LIMIT ?`,
      ),
      host: db.prepare(
        `SELECT h.score, h.band, s.scored_at AS scoredAt, s.last_cycle AS cycleId, s.last_seen AS lastSeen,
           d.record_json AS record, d.contributions_json AS contributions, d.profiles_json AS profiles
         FROM hosts h JOIN host_seen s ON s.hid = h.hid JOIN host_details d ON d.hid = h.hid
         WHERE h.connector_id = ? AND h.host_id = ?`,
      ),
      completed: db.prepare(
        `SELECT id, finished_at AS at, kind FROM cycles WHERE connector_id = ? AND status = 'completed' ORDER BY id DESC LIMIT ?`,
      ),
      changesOf: db.prepare(
        'SELECT c.cycle_id AS cycleId, c.score, c.band FROM score_changes c JOIN hosts h ON h.hid = c.hid WHERE h.connector_id = ? AND h.host_id = ? ORDER BY c.cycle_id',
      ),
      trendCycles: db.prepare(
        `SELECT id, connector_id AS connectorId, finished_at AS at FROM cycles WHERE status = 'completed' ORDER BY finished_at, id`,
      ),
      previous: db.prepare(`SELECT MAX(id) FROM cycles WHERE connector_id = ? AND status = 'completed' AND id < ?`).pluck(),
      previousCycle: db.prepare(`SELECT id, finished_at AS at FROM cycles WHERE connector_id = ? AND status = 'completed' AND id < ? ORDER BY id DESC LIMIT 1`),
      cycleBands: db.prepare('SELECT band, SUM(hosts) AS n FROM cycle_bands WHERE cycle_id = ? GROUP BY band'),
      moves: db.prepare(
        `SELECT h.host_id AS hostId, h.hostname, h.customer_id AS customerId, h.platform, c.score, c.band,
           (SELECT p.score FROM score_changes p WHERE p.hid = c.hid AND p.cycle_id < c.cycle_id ORDER BY p.cycle_id DESC LIMIT 1) AS prevScore,
           (SELECT p.band FROM score_changes p WHERE p.hid = c.hid AND p.cycle_id < c.cycle_id ORDER BY p.cycle_id DESC LIMIT 1) AS prevBand
         FROM score_changes c JOIN hosts h ON h.hid = c.hid
         WHERE h.connector_id = ? AND c.cycle_id = ? ORDER BY h.host_id`,
      ),
    };
  }

  /** Each connector's newest completed cycle. */
  latestCycles(): LatestCycle[] {
    return (this.stmt.latest.all() as Array<LatestCycle & { kind: string }>).map((c) => ({ ...c, kind: c.kind === 'rescore' ? 'rescore' : 'poll' }));
  }

  /**
   * Appends the hosts of one cycle to the columns (indexes for the enums; `connector` and the
   * customer dictionary are the caller's). Answers how many rows were added.
   */
  appendRows(cols: ZtaColumns, cycleId: number, connector: number, customerIndex: (id: string) => number): number {
    let n = 0;
    for (const r of this.stmt.rows.iterate({ cycle: cycleId }) as Iterable<HostRow>) {
      n += 1;
      appendRow(cols, r, connector, customerIndex);
    }
    return n;
  }

  /** Up to `limit` stored records of a cycle's hosts after `afterHostId` (a rescore reads them batch by batch). */
  storedRecords(connectorId: string, cycleId: number, afterHostId: string, limit: number): HostRecord[] {
    const rows = this.stmt.records.all(connectorId, cycleId, afterHostId, limit) as Array<{ record: string; lastSeen: string | null }>;
    return rows.map((r) => withLastSeen(JSON.parse(r.record) as HostRecord, r.lastSeen));
  }

  /** A host's latest score, record and contributions. */
  host(connectorId: string, hostId: string) {
    return this.stmt.host.get(connectorId, hostId) as
      | { score: number; band: RiskBand; scoredAt: string; cycleId: number; lastSeen: string | null; record: string; contributions: string; profiles: string | null }
      | undefined;
  }

  /** The host's score at each of its connector's last `limit` completed cycles, oldest first (from the change rows). */
  scoreHistory(connectorId: string, hostId: string, limit = 200): Array<{ cycleId: number; at: string; score: number; band: RiskBand; kind: 'poll' | 'rescore' }> {
    const cycles = (this.stmt.completed.all(connectorId, limit) as Array<{ id: number; at: string; kind: string }>).reverse();
    const changes = this.stmt.changesOf.all(connectorId, hostId) as Array<{ cycleId: number; score: number; band: RiskBand }>;
    return historyPoints(cycles, changes);
  }

  /**
   * Band counts over time (EDR-Z14): at each completed cycle (oldest first, the last `limit`), the
   * sum over the chosen connectors of each one's latest cycle up to then, counting the customers and
   * platforms asked for (from the per-cycle aggregates; no host row is read). Cycles of *other*
   * connectors that end within TREND_MOMENT_MS of a moment's first cycle are that moment of the
   * fleet (the later state stands), so tenants polled together are one point, not a climb from one
   * tenant to both; a connector's own next cycle (a rescore seconds later) is a point of its own.
   */
  trend(f: { connectors: ReadonlySet<string>; customer?: string; platform?: string }, limit = 100) {
    const where = ['cycle_id = @cycle'];
    if (f.customer !== undefined) where.push('customer_id = @customer');
    if (f.platform !== undefined) where.push('platform = @platform');
    const counts = this.db.prepare(`SELECT band, SUM(hosts) AS n FROM cycle_bands WHERE ${where.join(' AND ')} GROUP BY band`);
    const cycles = (this.stmt.trendCycles.all() as Array<{ id: number; connectorId: string; at: string }>).filter((c) => f.connectors.has(c.connectorId));
    const bandsOf = (id: number) => {
      const bands = emptyBandCounts();
      for (const row of counts.all({ cycle: id, customer: f.customer, platform: f.platform }) as Array<{ band: RiskBand; n: number }>) bands[row.band] = row.n;
      return bands;
    };
    return trendPoints(trendWindow(cycles, f.connectors.size, limit), bandsOf, limit);
  }

  /**
   * Hosts per band over several cycles (each connector's newest, for the Overview and the sidebar),
   * from the cycle aggregates: no host row is read.
   */
  bandTotals(cycleIds: readonly number[]): Record<RiskBand, number> {
    const out = emptyBandCounts();
    for (const id of cycleIds) for (const r of this.stmt.cycleBands.all(id) as Array<{ band: RiskBand; n: number }>) if (r.band in out) out[r.band] += r.n;
    return out;
  }

  /** The completed cycle of a connector before `cycleId` (what its changes compare against), if any. */
  previousCycle(connectorId: string, cycleId: number): { id: number; at: string } | undefined {
    return this.stmt.previousCycle.get(connectorId, cycleId) as { id: number; at: string } | undefined;
  }

  /** What changed in a connector's newest completed cycle against its previous completed one (EDR-Z12). */
  changes(connectorId: string, cycleId: number, top = 10): ZtaChanges {
    const prev = this.stmt.previous.get(connectorId, cycleId) as number | null;
    if (prev === null) return noChanges();
    return changesFrom(connectorId, this.stmt.moves.all(connectorId, cycleId) as MoveRow[], top);
  }

  private run(st: Statement, raw: boolean): unknown[] {
    let p = this.prepared.get(st.text);
    if (!p) {
      if (this.prepared.size >= 200) this.prepared.clear();
      p = this.db.prepare(st.text);
      this.prepared.set(st.text, p);
    }
    return raw ? (p.raw(true).all(...st.args) as unknown[]) : (p.raw(false).all(...st.args) as unknown[]);
  }

  private counts(q: HostCountsQuery): HostCounts {
    const key = this.countsCache.key(this.run({ text: latestIdsSql('sqlite'), args: [] }, true).map((r) => (r as [number])[0]), q.filter, this.countCap);
    const hit = this.countsCache.get(key);
    if (hit) return hit;
    const st = countsSql('sqlite', q.filter, this.countCap);
    const rows = this.run(st, true) as Array<[string, string, string, number]>;
    const counts = boundedCounts(rows.map(([customer, platform, band, n]) => ({ customer, platform, band, n })), st.cap);
    this.countsCache.set(key, counts);
    return counts;
  }

  /** A window of the latest snapshot's hosts (issue 25.3) and how many match; one read transaction. */
  hostWindow(q: HostWindowQuery): HostWindow {
    return this.db.transaction(() => {
      const rows = (this.run(windowSql('sqlite', q), true) as unknown[][]).map(windowRow);
      return { rows, ...windowTotal(this.counts({ filter: q.filter }), q.offset, q.limit, rows.length) };
    })();
  }

  /**
   * The export's read (C-86): one statement iterated `batch` rows at a time inside one read
   * transaction on a read-only connection of its own, so the snapshot holds from the first row to the
   * last whatever commits meanwhile, and the app's connection stays free between batches (a
   * better-sqlite3 connection runs nothing else while a statement iterates). WAL lets the writer go
   * on; its checkpoints (PASSIVE) leave the frames this reader still sees.
   */
  async *exportHosts(q: HostExportQuery): AsyncGenerator<HostWindowRow[]> {
    if (q.connectors.length === 0) return;
    const batch = Math.max(1, Math.floor(q.batch));
    const st = exportSql('sqlite', q);
    const reader = new Database(this.db.name, { readonly: true, fileMustExist: true });
    try {
      // The sort of the hosts (ORDER BY over the join: a temp B-tree) spills to a temporary file past
      // the cache; 4 MB instead of better-sqlite3's 16 MB cost the export's peak RSS 25 MB less at
      // 100,000 hosts, no slower (zta-export in docs/performance.md).
      reader.pragma('cache_size = -4096');
      reader.exec('BEGIN');
      const rows = reader.prepare(st.text).raw(true).iterate(...st.args) as IterableIterator<unknown[]>;
      try {
        for (;;) {
          const out: HostWindowRow[] = [];
          while (out.length < batch) {
            const next = rows.next();
            if (next.done) break;
            out.push(windowRow(next.value));
          }
          if (out.length) yield out;
          if (out.length < batch) break;
        }
      } finally {
        rows.return?.();
      }
      reader.exec('COMMIT');
    } finally {
      reader.close();
    }
  }

  /** Hosts by customer and platform in each of these cycles (C-78). */
  cycleGroups(cycleIds: readonly number[]): CycleGroup[] {
    if (cycleIds.length === 0) return [];
    return this.run({ text: CYCLE_GROUPS_SQLITE, args: [JSON.stringify(cycleIds)] }, false) as CycleGroup[];
  }

  /** The matching hosts by band and by customer → platform (issue 25.3). */
  hostCounts(q: HostCountsQuery): HostCounts {
    return this.db.transaction(() => this.counts(q))();
  }
}
