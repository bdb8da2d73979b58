/**
 * The EDR feature's store on the fleet's PostgreSQL (issue 24.1, C-61…C-63): `EdrStore` with the
 * SQLite store's answers (sqlite-edr-store.ts over edr-db.ts), for several processes at once.
 * Schema and its migrations: edr-pg-schema.ts; a cycle's staging and commit: edr-pg-staging.ts; the
 * dashboard's reads: edr-pg-views.ts; retention: edr-pg-retention.ts.
 *
 * What differs because processes share it: a cycle found `running` may be a live worker's, so none
 * is interrupted at open (`interruptedAtOpen` is 0); a worker taking over a connector whose lease
 * lapsed calls `interruptCycles`, and the interrupted cycle's own worker then has its stage and
 * commit refused (CYCLE_NOT_RUNNING) and its `finishCycle` changes nothing (only a running cycle is
 * finished). Publication marks are single statements (a conditional UPDATE, INSERT … ON CONFLICT DO
 * NOTHING), so of two processes marking one cycle exactly one hears true.
 */
import type { RiskBand, ScoredHost, Vendor } from '../../../shared/model/edr';
import type { ZtaColumns } from '../../../shared/model/zta';
import type { HostCountsQuery, HostWindowQuery } from '../../../shared/model/zta-window';
import { migratePg, withTransaction, type PgPool } from '../../store/postgres';
import { EDR_PG_STEPS, TS } from './edr-pg-schema';
import { prunePgEdrStore } from './edr-pg-retention';
import { PgStaging } from './edr-pg-staging';
import { commitPgCycle, discardPgCycle, interruptPgCycles, type CommitFence } from './edr-pg-commit';
import { PgEdrViews } from './edr-pg-views';
import type { PgWindowOptions } from './edr-window-pg';
import type { CycleHost, CycleKind, CycleSummary, EdrStore, HostExportQuery, StoredHostScore, TrendFilter } from './edr-store';
import { hostScoreOf, summaryOf, toCycle } from './edr-views-shared';

export { CYCLE_NOT_RUNNING, CYCLE_STAGED_ELSEWHERE, TAKEN_OVER_ERROR } from './edr-pg-errors';

export interface PgEdrStore extends EdrStore {
  /** `commitCycle` with what else the commit must hold, checked in its transaction (CommitFence). */
  commitCycleFenced(cycleId: number, at: Date, fence: CommitFence): Promise<number>;
  /** Marks a connector's `running` cycles `interrupted` and drops their staged rows (a worker taking the connector over); answers how many. */
  interruptCycles(connectorId: string, at: Date): Promise<number>;
  /** How many hosts a running cycle of this process has staged: its changed or new hosts in the database, and the hosts seen as stored it holds. */
  stagedHosts(cycleId: number): Promise<number>;
}

const CYCLE_COLUMNS = `id, connector_id, vendor, tenant_id, ${TS('started_at')} AS started_at, ${TS('finished_at')} AS finished_at, status, hosts, error,
  ${TS('published_at')} AS published_at, publish_attempts, publish_error, kind, error_code`;

/**
 * Migrates the `edr` schema (one transaction under its advisory lock, C-60) and answers the store on `pool` (the caller ends the pool).
 * `countCap`: the ZTA windows' count of a search's matches stops past this many (C-79; COUNT_CAP unless given).
 * `windows`: the window plans' options (edr-window-pg.ts; tests).
 */
export async function openPgEdrStore(pool: PgPool, opts: { countCap?: number; windows?: PgWindowOptions } = {}): Promise<PgEdrStore> {
  await migratePg(pool, 'edr', EDR_PG_STEPS);
  const staging = new PgStaging(pool);
  const views = new PgEdrViews(pool, opts.countCap, opts.windows);
  const one = async (sql: string, args: unknown[]) => (await pool.query<Record<string, unknown>>(sql, args)).rows[0];
  return {
    interruptedAtOpen: 0,

    async beginCycle(connectorId: string, vendor: Vendor, tenantId: string, startedAt: Date, kind: CycleKind = 'poll') {
      const r = await one(`INSERT INTO edr.cycles (connector_id, vendor, tenant_id, started_at, status, kind) VALUES ($1, $2, $3, $4, 'running', $5) RETURNING id`, [
        connectorId,
        vendor,
        tenantId,
        startedAt.toISOString(),
        kind,
      ]);
      return Number(r!.id);
    },
    stageScores: (cycleId: number, connectorId: string, scored: Iterable<ScoredHost>) => staging.stage(cycleId, connectorId, scored),
    commitCycle: (cycleId: number, at: Date) => commitPgCycle(pool, staging, cycleId, at),
    commitCycleFenced: (cycleId: number, at: Date, fence: CommitFence) => commitPgCycle(pool, staging, cycleId, at, fence),
    async finishCycle(cycleId, status, info) {
      await withTransaction(pool, async (c) => {
        const r = await c.query(`UPDATE edr.cycles SET status = $1, finished_at = $2, hosts = $3, error = $4, error_code = $5 WHERE id = $6 AND status = 'running'`, [
          status,
          info.at.toISOString(),
          info.hosts,
          info.error ?? null,
          info.errorCode ?? null,
          cycleId,
        ]);
        if (status !== 'completed' && r.rowCount) await discardPgCycle(c, staging, cycleId);
      });
    },
    interruptCycles: (connectorId: string, at: Date) => interruptPgCycles(pool, staging, connectorId, at),
    stagedHosts: (cycleId: number) => staging.stagedHosts(cycleId),

    cycle: async (id: number) => toCycle(await one(`SELECT ${CYCLE_COLUMNS} FROM edr.cycles WHERE id = $1`, [id])),
    lastCycle: async (connectorId: string) => toCycle(await one(`SELECT ${CYCLE_COLUMNS} FROM edr.cycles WHERE connector_id = $1 ORDER BY id DESC LIMIT 1`, [connectorId])),

    async unpublishedCycles() {
      // Only the newest completed cycle of a connector is worth publishing: an older one's scores are superseded.
      const r = await pool.query<Record<string, unknown>>(
        `SELECT ${CYCLE_COLUMNS} FROM edr.cycles c WHERE status = 'completed' AND published_at IS NULL
           AND id = (SELECT MAX(id) FROM edr.cycles WHERE connector_id = c.connector_id AND status = 'completed') ORDER BY id`,
      );
      return r.rows.map((x) => toCycle(x)!);
    },
    async cycleSummary(cycleId: number): Promise<CycleSummary> {
      return summaryOf((await pool.query<{ band: RiskBand; hosts: string; sum: number }>('SELECT band, SUM(hosts) AS hosts, SUM(score_sum) AS sum FROM edr.cycle_bands WHERE cycle_id = $1 GROUP BY band', [cycleId])).rows);
    },
    async cycleHosts(cycleId: number): Promise<CycleHost[]> {
      const r = await pool.query<Omit<CycleHost, 'profiles'> & { profiles: string | null }>(
        `SELECT h.host_id AS "hostId", h.hostname, h.customer_id AS "customerId", h.platform, h.score, h.band, d.profiles_json AS profiles
         FROM edr.hosts h JOIN edr.host_seen s ON s.hid = h.hid LEFT JOIN edr.host_details d ON d.hid = h.hid
         WHERE h.connector_id = (SELECT connector_id FROM edr.cycles WHERE id = $1) AND s.last_cycle = $1 ORDER BY h.host_id`,
        [cycleId],
      );
      return r.rows.map(({ profiles, ...h }) => (profiles ? { ...h, profiles: JSON.parse(profiles) as Record<string, boolean> } : h));
    },
    targetPublished: async (cycleId: number, target: string) => (await one('SELECT 1 AS done FROM edr.publications WHERE cycle_id = $1 AND target = $2', [cycleId, target])) !== undefined,
    async markTargetPublished(cycleId: number, target: string, at: Date) {
      const r = await pool.query('INSERT INTO edr.publications (cycle_id, target, published_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [cycleId, target, at.toISOString()]);
      return r.rowCount === 1;
    },
    async markPublished(cycleId: number, at: Date) {
      // Of two processes, the second waits for the first's row lock, then finds published_at set: 0 rows.
      const r = await pool.query('UPDATE edr.cycles SET published_at = $1, publish_attempts = publish_attempts + 1, publish_error = NULL WHERE id = $2 AND published_at IS NULL', [at.toISOString(), cycleId]);
      return r.rowCount === 1;
    },
    async recordPublishAttempt(cycleId: number, error: string) {
      await pool.query('UPDATE edr.cycles SET publish_attempts = publish_attempts + 1, publish_error = $1 WHERE id = $2', [error, cycleId]);
    },

    latestCycles: () => views.latestCycles(),
    hostWindow: (q: HostWindowQuery) => views.hostWindow(q),
    hostCounts: (q: HostCountsQuery) => views.hostCounts(q),
    exportHosts: (q: HostExportQuery) => views.exportHosts(q),
    cycleGroups: (cycleIds: readonly number[]) => views.cycleGroups(cycleIds),
    appendRows: (cols: ZtaColumns, cycleId: number, connector: number, customerIndex: (id: string) => number) => views.appendRows(cols, cycleId, connector, customerIndex),
    storedRecords: (connectorId: string, cycleId: number, afterHostId: string, limit: number) => views.storedRecords(connectorId, cycleId, afterHostId, limit),
    async hostScore(connectorId: string, hostId: string): Promise<StoredHostScore | undefined> {
      const row = await views.host(connectorId, hostId);
      return row && hostScoreOf(row);
    },
    scoreHistory: (connectorId: string, hostId: string, limit?: number) => views.scoreHistory(connectorId, hostId, limit),
    trend: (f: TrendFilter, limit?: number) => views.trend(f, limit),
    bandTotals: (cycleIds: readonly number[]) => views.bandTotals(cycleIds),
    previousCycle: (connectorId: string, cycleId: number) => views.previousCycle(connectorId, cycleId),
    changes: (connectorId: string, cycleId: number, top?: number) => views.changes(connectorId, cycleId, top),

    prune: (now: Date, days: number) => prunePgEdrStore(pool, now, days),
    close: async () => undefined,
  };
}
