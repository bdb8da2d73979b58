/**
 * A running cycle's staging on PostgreSQL (issue 24.1, C-61, C-74), the fleet's side of
 * edr-staging.ts and shaped like it. Several processes share the database, so a cycle's changed
 * rows live in an UNLOGGED table keyed by cycle (edr-pg-schema.ts), never in one connection; its
 * commit is edr-pg-commit.ts.
 *
 * Cost is kept to what changed as on SQLite (EDR-H1…H3): a host whose digest (host-digest.ts) is
 * the stored one is a light row — its key, last-seen and scoring time — kept in the cycle's
 * LightRows (light-rows.ts) as SQLite's staging keeps them, and written by the commit in one
 * statement (96 % of a cycle: writing them to a table here and reading them back at the commit
 * cost more than they carry); a changed or new host is a full row in `staged_scores` with its record
 * as JSON. A batch's full rows go in with one COPY, in a transaction that first locks the cycle's
 * row (FOR SHARE, so an interruption waits for the batch and then deletes what it added; the first
 * batch names this process in `cycles.staged_by` instead, and a cycle another process stages is
 * refused); a batch of light rows only reads the cycle's status, so a cycle taken over stops at its
 * next batch either way. A batch joins the cycle's record only once its transaction committed.
 *
 * What a process knows of a connector's stored hosts (digest, key, band count group, score) is read
 * once and kept while the connector's `connector_writes.version` stays where it was read (a commit
 * that rewrote its hosts, or a prune that deleted some, moves it); the commit applies its own
 * rewrites to it. The band counts a commit stores are counted here, a light row's host as stored
 * and a full row's as staged, unless the version moved while the cycle ran: then the commit counts
 * them from the tables (edr-pg-commit.ts). A cycle's record lives with the process running it, as
 * the scheduler's does: a cycle whose process is gone is interrupted, never committed by another.
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
import { joinBatch, LightRows } from './light-rows';

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

/** What a full row of a cycle stores that staging keeps: its digest (what the cache learns after the commit), band count group and score. */
interface Staged {
  digest: number;
  group: number;
  score: number;
}

/**
 * One running cycle's record of what it staged, as edr-staging.ts keeps SQLite's: a host is in at
 * most one of `full` (its row is in `staged_scores`) and `light` (LightRows: its key, last-seen and
 * scoring time, band count group and score as stored), its last sighting counting.
 */
export interface CycleStage {
  connectorId: string;
  /** The connector's version its light rows were decided against. */
  version: number;
  known: KnownHosts;
  full: Map<string, Staged>;
  light: LightRows;
  /** Whether a batch named this process in the cycle's `staged_by`. */
  named: boolean;
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

  /** What this process staged for a cycle (undefined: it staged nothing, or the cycle is another process's). */
  stageOf(cycleId: number): Promise<CycleStage> | undefined {
    return this.cycles.get(cycleId);
  }

  /** Forgets a cycle (committed, finished, interrupted); `connectorId`: what is known of its stored hosts too (another writer was seen). */
  forget(cycleId: number, connectorId?: string): void {
    this.cycles.delete(cycleId);
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
    for (const [hostId, staged] of stage.full) {
      const hid = rewritten.get(hostId);
      if (hid === undefined) known.byHost.delete(hostId);
      else known.byHost.set(hostId, { ...staged, hid });
    }
    known.version = after;
  }

  /** The cycle's hosts counted by band group (each host's last sighting). */
  count(stage: CycleStage): BandCounter {
    const counter = this.groups.counter();
    stage.light.forEachCount((group, score) => counter.add(group, score));
    for (const x of stage.full.values()) counter.add(x.group, x.score);
    return counter;
  }

  /**
   * Appends one scored batch of a running cycle (its full rows in one transaction); answers how
   * many hosts it had. Rejects when the cycle is not running or another process stages it. The
   * batch's sightings join the cycle's record only once its transaction committed: a batch that
   * fails leaves none, in the database and here.
   */
  async stage(cycleId: number, connectorId: string, scored: Iterable<ScoredHost>): Promise<number> {
    let pending = this.cycles.get(cycleId);
    if (!pending) {
      pending = this.knownHosts(connectorId).then((known) => ({ connectorId, version: known.version, known, full: new Map(), light: new LightRows(), named: false }));
      this.cycles.set(cycleId, pending);
      pending.catch(() => this.cycles.delete(cycleId));
    }
    const cycle = await pending;
    const { full } = cycle;
    const stored = cycle.known.byHost;
    // Flat: the stored host, its last-seen time, when it was scored; the next host.
    const lights: Array<KnownHost | string | null> = [];
    // By host (a later sighting in the batch replaces an earlier one): what the row stores, the host's key if stored, its row.
    const fulls = new Map<string, [Staged, number | undefined, number]>();
    const rows: Array<unknown[] | null> = [];
    // Hosts staged full by an earlier batch: their earlier row goes (seen as stored now, or staged full again).
    const replaced = new Set<string>();
    let n = 0;
    for (const s of scored) {
      n += 1;
      const h = s.host;
      const digest = hostDigestKey(s);
      const known = stored.get(h.hostId);
      const earlier = fulls.size !== 0 ? fulls.get(h.hostId) : undefined;
      if (earlier !== undefined) {
        rows[earlier[2]] = null;
        fulls.delete(h.hostId);
      }
      if (full.size !== 0 && full.has(h.hostId)) replaced.add(h.hostId);
      if (known !== undefined && known.digest === digest) {
        lights.push(known, h.lastSeen, s.scoredAt);
        continue;
      }
      fulls.set(h.hostId, [{ digest, group: this.groups.id(h.customerId, h.platform, s.band), score: s.score }, known?.hid, rows.length]);
      const a = hostAttributes(h);
      const row: unknown[] = [cycleId, connectorId, h.hostId, h.lastSeen, s.scoredAt, h.vendor, h.hostname, h.customerId, h.platform, h.osVersion, s.score, s.band, lastDigestText()];
      row.push(a.osAssessment, a.sensorAssessment, a.overallAssessment, bool(a.sensorRunning), bool(a.reducedFunctionality));
      row.push(a.riskLevel, a.exposure, a.health, a.avStatus, a.onboarding, a.criticalCves, a.cveCount, a.maxCvss, a.cvss);
      row.push(storedRecord(h), contributionsJson(s.contributions), s.profiles ? JSON.stringify(s.profiles) : null);
      rows.push(row);
    }
    if (n === 0) return 0;
    const copy = (fulls.size === rows.length ? rows : rows.filter((r) => r !== null)) as unknown[][];
    const check = cycle.named ? RUNNING_FOR_SHARE : STAGED_BY;
    const checkArgs = cycle.named ? [cycleId] : [cycleId, this.token];
    let running: boolean;
    if (copy.length + replaced.size > 0)
      running = await withTransaction(this.pool, async (c) => {
        if ((await c.query(check, checkArgs)).rowCount !== 1) return false;
        if (replaced.size) await c.query('DELETE FROM edr.staged_scores WHERE cycle_id = $1 AND host_id = ANY($2::text[])', [cycleId, textArray([...replaced])]);
        await copyRows(c, 'edr.staged_scores', STAGED_COLUMNS, copy);
        return true;
      });
    else running = (await this.pool.query(cycle.named ? RUNNING : STAGED_BY, checkArgs)).rowCount === 1;
    if (!running) {
      const status = (await this.pool.query<{ status: string }>('SELECT status FROM edr.cycles WHERE id = $1', [cycleId])).rows[0]?.status;
      this.cycles.delete(cycleId);
      throw status === 'running' ? stagedElsewhere(cycleId) : notRunning(cycleId, status);
    }
    cycle.named = true;
    joinBatch(full, cycle.light, replaced, lights, fulls);
    return n;
  }

  /** A cycle's light rows as the commit reads them, in the order of their key: the stored hosts' keys, last-seen and scoring times. */
  lightRows(stage: CycleStage): [number[], Array<string | null>, string[]] {
    const hid: number[] = [];
    const lastSeen: Array<string | null> = [];
    const scoredAt: string[] = [];
    stage.light.forEach((k, seen, scored) => {
      hid.push(k);
      lastSeen.push(seen);
      scoredAt.push(scored);
    });
    return [hid, lastSeen, scoredAt];
  }

  /** How many hosts this process staged for a running cycle (full rows and light ones). */
  stagedHosts(cycleId: number): Promise<number> {
    return this.cycles.get(cycleId)?.then((s) => s.full.size + s.light.size, () => 0) ?? Promise.resolve(0);
  }
}
