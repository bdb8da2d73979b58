/**
 * A running cycle's staging on PostgreSQL (issue 24.1, C-61, C-63), the fleet's side of
 * edr-staging.ts. Several processes share the database, so a cycle's changed rows live in an
 * UNLOGGED table keyed by cycle (edr-pg-schema.ts), never in one connection; its commit is
 * edr-pg-commit.ts.
 *
 * Cost is kept to what changed as on SQLite (EDR-H1…H3): a host whose digest (host-digest.ts) is
 * the stored one is a light row — its key, last-seen and scoring time — which the process keeps
 * with the cycle's record and hands to the commit in one statement (96 % of a cycle: writing them
 * to a table here and reading them back at the commit cost twice what they carry); a changed or
 * new host is a full row in `staged_scores` with its record as JSON. Each batch with full rows is
 * one statement: multi-row INSERTs from `unnest` of one array per column, run only while the cycle
 * is `running` (the statement locks the cycle's row FOR SHARE, so an interruption waits for it and
 * then deletes what it added); a batch of light rows only reads the cycle's status, so a cycle taken
 * over stops at its next batch either way.
 *
 * What a process knows of a connector's stored hosts (digest, key, band count group, score) is read
 * once and kept while the connector's `connector_writes.version` stays where it was read (a commit
 * that rewrote its hosts, or a prune that deleted some, moves it); the commit applies its own
 * rewrites to it. The band counts a commit stores are counted here, a light row's host as stored
 * and a full row's as staged, unless the version moved while the cycle ran: then the commit counts
 * them from the tables (edr-pg-commit.ts). A cycle's own record of what it staged (which host, light
 * or full, its group and score, a light row's times) lives with the process running it, as the
 * scheduler's does: a cycle whose process is gone is interrupted, never committed by another.
  */
import { randomUUID } from 'node:crypto';
import type { ScoredHost } from '../../../shared/model/edr';
import { hostAttributes } from '../../../shared/model/zta-columns';
import { copyRows, textArray, withTransaction, type PgPool } from '../../store/postgres';
import { BandGroups, type BandCounter } from './band-counts';
import { PG_ATTRIBUTES } from './edr-pg-schema';
import { digestKey, hostDigestKey, lastDigestText } from './host-digest';
import { contributionsJson, storedRecord } from './host-json';
import { notRunning, stagedElsewhere } from './edr-pg-errors';

/** What a process knows of one stored host. */
export interface KnownHost {
  digest: number;
  hid: number;
  group: number;
  score: number;
}

/** A connector's stored hosts as read at `version` of its `connector_writes` row (0: no row yet). */
export interface KnownHosts {
  version: number;
  byHost: Map<string, KnownHost>;
}

/** One running cycle's record of what it staged: per host, its last sighting (light or full), band count group and score. */
export interface CycleStage {
  connectorId: string;
  /** The connector's version its light rows were decided against. */
  version: number;
  known: KnownHosts;
  at: Map<string, number>;
  full: number[];
  group: number[];
  score: number[];
  /** Per position of a full row: its digest key (what the cache learns after the commit). */
  digest: number[];
  /** Per position of a light row: the stored host's key, its last-seen and scoring time. */
  hid: number[];
  lastSeen: Array<string | null>;
  scoredAt: string[];
  /** Per position: the batch that last sighted the host, and where in that batch's full rows its row is. */
  batch: number[];
  row: number[];
  batches: number;
}

/** A full row's columns, with their types. */
const FULL: ReadonlyArray<readonly [string, string]> = [
  ['host_id', 'text'],
  ['last_seen', 'text'],
  ['scored_at', 'text'],
  ['vendor', 'text'],
  ['hostname', 'text'],
  ['customer_id', 'text'],
  ['platform', 'text'],
  ...PG_ATTRIBUTES,
  ['record_json', 'text'],
  ['contributions_json', 'text'],
  ['profiles_json', 'text'],
];
const FULL_NAMES = FULL.map(([n]) => n);

/** Whether the cycle runs, its row locked FOR SHARE for the batch's transaction: an interruption waits for the batch, then deletes what it added. */
const RUNNING_FOR_SHARE = `SELECT 1 FROM edr.cycles WHERE id = $1 AND status = 'running' FOR SHARE`;
const RUNNING = `SELECT 1 FROM edr.cycles WHERE id = $1 AND status = 'running'`;
/** A cycle's first batch names the process staging it ($2): it runs only while the cycle runs and no other process stages it. */
const STAGED_BY = `UPDATE edr.cycles SET staged_by = $2 WHERE id = $1 AND status = 'running' AND (staged_by IS NULL OR staged_by = $2)`;
const STAGED_COLUMNS = ['cycle_id', 'connector_id', ...FULL_NAMES];

const bool = (v: boolean | null) => (v === null ? null : v ? 1 : 0);

export class PgStaging {
  /** Per connector: its stored hosts as this process last read or wrote them. */
  private readonly known = new Map<string, KnownHosts>();
  /** Per running cycle of this process: what it staged. */
  private readonly cycles = new Map<number, Promise<CycleStage>>();
  /** Cycles of this process a batch failed for: their record no longer says what the database holds. */
  private readonly failed = new Set<number>();
  /** The customer, platform and band of a host's band count, numbered. */
  readonly groups = new BandGroups();
  /** This process's name in `cycles.staged_by` for the cycles it stages. */
  readonly token = randomUUID();

  constructor(private readonly pool: PgPool) {}

  private async knownHosts(connectorId: string): Promise<KnownHosts> {
    const version = Number((await this.pool.query<{ version: string }>('SELECT version FROM edr.connector_writes WHERE connector_id = $1', [connectorId])).rows[0]?.version ?? 0);
    const cached = this.known.get(connectorId);
    if (cached?.version === version) return cached;
    const r = await this.pool.query<[string, string, string, string, string, string, number]>({
      text: 'SELECT host_id, digest, hid, customer_id, platform, band, score FROM edr.hosts WHERE connector_id = $1',
      values: [connectorId],
      rowMode: 'array',
    });
    const byHost = new Map<string, KnownHost>();
    for (const [hostId, digest, hid, customer, platform, band, score] of r.rows) byHost.set(hostId, { digest: digestKey(digest), hid: Number(hid), group: this.groups.id(customer, platform, band), score });
    const known = { version, byHost };
    this.known.set(connectorId, known);
    return known;
  }

  /** What this process staged for a cycle (undefined: it staged nothing, or the cycle is another process's). Rejects for a cycle a batch failed for. */
  stageOf(cycleId: number): Promise<CycleStage> | undefined {
    if (this.failed.has(cycleId)) return Promise.reject(new Error(`Cycle ${cycleId} cannot be committed: a batch of it failed to stage.`));
    return this.cycles.get(cycleId);
  }

  /** Forgets a cycle (committed, finished, interrupted); `connectorId`: what is known of its stored hosts too (another writer was seen). */
  forget(cycleId: number, connectorId?: string): void {
    this.cycles.delete(cycleId);
    this.failed.delete(cycleId);
    if (connectorId !== undefined) this.known.delete(connectorId);
  }

  /**
   * After a commit of `stage` that moved the connector's version from `before` to `after`: the hosts
   * it rewrote (`rewritten`: host id → key) are known as it staged them. What was known at another
   * version is forgotten instead.
   */
  learn(stage: CycleStage, before: number, after: number, rewritten: ReadonlyMap<string, number>): void {
    const known = this.known.get(stage.connectorId);
    if (!known) return;
    if (known.version !== before) {
      this.known.delete(stage.connectorId);
      return;
    }
    for (const [hostId, p] of stage.at) {
      if (!stage.full[p]) continue;
      const hid = rewritten.get(hostId);
      if (hid === undefined) known.byHost.delete(hostId);
      else known.byHost.set(hostId, { digest: stage.digest[p]!, hid, group: stage.group[p]!, score: stage.score[p]! });
    }
    known.version = after;
  }

  /** The cycle's hosts counted by band group (each host's last sighting). */
  count(stage: CycleStage): BandCounter {
    const counter = this.groups.counter();
    for (const p of stage.at.values()) counter.add(stage.group[p]!, stage.score[p]!);
    return counter;
  }

  /**
   * Appends one scored batch of a running cycle (its full rows in one transaction); answers how
   * many hosts it had. Rejects when the cycle is not running. Each sighting is recorded as it is
   * read (one lookup of the host in the cycle's record, one in what is known of the stored hosts);
   * a batch that fails leaves the record unusable, and the cycle with it (the scheduler fails it).
   */
  async stage(cycleId: number, connectorId: string, scored: Iterable<ScoredHost>): Promise<number> {
    if (this.failed.has(cycleId)) throw new Error(`Cycle ${cycleId} cannot be staged further: an earlier batch of it failed.`);
    let pending = this.cycles.get(cycleId);
    if (!pending) {
      pending = this.knownHosts(connectorId).then((known) => ({
        connectorId,
        version: known.version,
        known,
        at: new Map(),
        full: [],
        group: [],
        score: [],
        digest: [],
        hid: [],
        lastSeen: [],
        scoredAt: [],
        batch: [],
        row: [],
        batches: 0,
      }));
      this.cycles.set(cycleId, pending);
      pending.catch(() => this.cycles.delete(cycleId));
    }
    let stage: CycleStage;
    try {
      stage = await pending;
    } catch (e) {
      this.failed.add(cycleId);
      throw e;
    }
    const batch = ++stage.batches;
    const full: Array<unknown[] | null> = [];
    let dropped = 0;
    // Hosts staged full by an earlier batch: their earlier row goes (seen as stored now, or staged full again).
    const replaced: string[] = [];
    let n = 0;
    for (const s of scored) {
      n += 1;
      const h = s.host;
      const digest = hostDigestKey(s);
      let p = stage.at.get(h.hostId);
      if (p === undefined) {
        p = stage.group.length;
        stage.at.set(h.hostId, p);
      } else if (stage.batch[p] !== batch) {
        if (stage.full[p]) replaced.push(h.hostId);
      } else if (stage.full[p]) {
        // Sighted before in this batch: the last sighting counts.
        full[stage.row[p]!] = null;
        dropped += 1;
      }
      stage.batch[p] = batch;
      stage.digest[p] = digest;
      const stored = stage.known.byHost.get(h.hostId);
      if (stored !== undefined && stored.digest === digest) {
        stage.full[p] = 0;
        stage.group[p] = stored.group;
        stage.score[p] = stored.score;
        stage.hid[p] = stored.hid;
        stage.lastSeen[p] = h.lastSeen;
        stage.scoredAt[p] = s.scoredAt;
        stage.row[p] = -1;
        continue;
      }
      stage.full[p] = 1;
      stage.group[p] = this.groups.id(h.customerId, h.platform, s.band);
      stage.score[p] = s.score;
      stage.hid[p] = 0;
      stage.lastSeen[p] = null;
      stage.scoredAt[p] = '';
      stage.row[p] = full.length;
      const a = hostAttributes(h);
      const row: unknown[] = [cycleId, connectorId, h.hostId, h.lastSeen, s.scoredAt, h.vendor, h.hostname, h.customerId, h.platform, h.osVersion, s.score, s.band, lastDigestText()];
      row.push(a.osAssessment, a.sensorAssessment, a.overallAssessment, bool(a.sensorRunning), bool(a.reducedFunctionality));
      row.push(a.riskLevel, a.exposure, a.health, a.avStatus, a.onboarding, a.criticalCves, a.cveCount, a.maxCvss, a.cvss);
      row.push(storedRecord(h), contributionsJson(s.contributions), s.profiles ? JSON.stringify(s.profiles) : null);
      full.push(row);
    }
    if (n === 0) return 0;
    const rows = (dropped ? full.filter((r) => r !== null) : full) as unknown[][];
    let running: boolean;
    try {
      const first = batch === 1;
      if (rows.length + replaced.length > 0)
        running = await withTransaction(this.pool, async (c) => {
          if ((await (first ? c.query(STAGED_BY, [cycleId, this.token]) : c.query(RUNNING_FOR_SHARE, [cycleId]))).rowCount !== 1) return false;
          if (replaced.length) await c.query('DELETE FROM edr.staged_scores WHERE cycle_id = $1 AND host_id = ANY($2::text[])', [cycleId, textArray(replaced)]);
          await copyRows(c, 'edr.staged_scores', STAGED_COLUMNS, rows);
          return true;
        });
      else running = (await (first ? this.pool.query(STAGED_BY, [cycleId, this.token]) : this.pool.query(RUNNING, [cycleId]))).rowCount === 1;
    } catch (e) {
      this.cycles.delete(cycleId);
      this.failed.add(cycleId);
      throw e;
    }
    if (!running) {
      const status = (await this.pool.query<{ status: string }>('SELECT status FROM edr.cycles WHERE id = $1', [cycleId])).rows[0]?.status;
      this.cycles.delete(cycleId);
      throw status === 'running' ? stagedElsewhere(cycleId) : notRunning(cycleId, status);
    }
    return n;
  }

  /** A cycle's light rows as the commit reads them: the stored hosts' keys, last-seen and scoring times, one array each. */
  lightRows(stage: CycleStage): [number[], Array<string | null>, string[]] {
    const hid: number[] = [];
    const lastSeen: Array<string | null> = [];
    const scoredAt: string[] = [];
    for (const p of stage.at.values()) {
      if (stage.full[p]) continue;
      hid.push(stage.hid[p]!);
      lastSeen.push(stage.lastSeen[p]!);
      scoredAt.push(stage.scoredAt[p]!);
    }
    return [hid, lastSeen, scoredAt];
  }

  /** How many hosts this process staged for a running cycle (full rows and light ones). */
  stagedHosts(cycleId: number): Promise<number> {
    return this.cycles.get(cycleId)?.then((s) => s.at.size, () => 0) ?? Promise.resolve(0);
  }
}
