/**
 * A running cycle's staging on PostgreSQL (issue 24.1, C-61, C-63), the fleet's side of
 * edr-staging.ts. Several processes share the database, so a cycle's rows live in UNLOGGED tables
 * keyed by cycle (edr-pg-schema.ts), never in one connection; its commit is edr-pg-commit.ts.
 *
 * Each batch is one statement: multi-row INSERTs from `unnest` of one array per column, run only
 * while the cycle is `running` (the statement locks the cycle's row FOR SHARE, so an interruption
 * waits for it and then deletes what it added). Cost is kept to what changed as on SQLite
 * (EDR-H1…H3): a host whose digest (host-digest.ts) is the stored one is a light row in
 * `staged_seen` (its key, last-seen and scoring time); a changed or new host a full row in
 * `staged_scores` with its record as JSON.
 *
 * What a process knows of a connector's stored hosts (digest, key, band count group, score) is read
 * once and kept while the connector's `connector_writes.version` stays where it was read (a commit
 * that rewrote its hosts, or a prune that deleted some, moves it); the commit applies its own
 * rewrites to it. The band counts a commit stores are counted here, a light row's host as stored
 * and a full row's as staged, unless the version moved while the cycle ran: then the commit counts
 * them from the tables (edr-pg-commit.ts). A cycle's own record of what it staged (which host, light
 * or full, its group and score) lives with the process running it, as the scheduler's does: a cycle
 * whose process is gone is interrupted, never committed by another.
 */
import type { ScoredHost } from '../../../shared/model/edr';
import { hostAttributes } from '../../../shared/model/zta-columns';
import type { PgPool } from '../../store/postgres';
import { BandGroups, type BandCounter } from './band-counts';
import { PG_ATTRIBUTES } from './edr-pg-schema';
import { digestKey, hostDigestKey, lastDigestText } from './host-digest';
import { contributionsJson, storedRecord } from './host-json';
import { notRunning } from './edr-pg-errors';

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
  /** Per position of a light row: the stored host's key. */
  hid: number[];
}

/** A full row's columns, one array each, with the array type `unnest` reads it as. */
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
const FULL_ARGS = FULL.map(([, t], i) => `$${i + 6}::${t}[]`).join(', ');

/**
 * One batch: $1 cycle, $2 connector, $3-$5 light rows (key, last seen, scored at), $6… full rows;
 * with `repeats`, first the earlier sightings of hosts seen again ($N light keys, $N+1 host ids of
 * full rows now light). Answers whether the cycle was running.
 */
function stageSql(repeats: boolean): string {
  const n = 6 + FULL.length;
  const ok = 'WHERE EXISTS (SELECT 1 FROM ok)';
  return `WITH ok AS (SELECT 1 FROM edr.cycles WHERE id = $1 AND status = 'running' FOR SHARE),
${repeats ? `gone_light AS (DELETE FROM edr.staged_seen WHERE cycle_id = $1 AND hid = ANY($${n}::int8[]) AND EXISTS (SELECT 1 FROM ok)),
gone_full AS (DELETE FROM edr.staged_scores WHERE cycle_id = $1 AND host_id = ANY($${n + 1}::text[]) AND EXISTS (SELECT 1 FROM ok)),` : ''}
light_rows AS (INSERT INTO edr.staged_seen (cycle_id, hid, last_seen, scored_at) SELECT $1, u.* FROM unnest($3::int8[], $4::text[], $5::text[]) u ${ok}),
full_rows AS (INSERT INTO edr.staged_scores (cycle_id, connector_id, ${FULL_NAMES.join(', ')}) SELECT $1, $2, u.* FROM unnest(${FULL_ARGS}) u ${ok}
  ON CONFLICT (cycle_id, host_id) DO UPDATE SET ${FULL_NAMES.slice(1).map((c) => `${c} = excluded.${c}`).join(', ')})
SELECT COUNT(*)::int AS running FROM ok`;
}
const STAGE_SQL = stageSql(false);
const STAGE_REPEATS_SQL = stageSql(true);

const bool = (v: boolean | null) => (v === null ? null : v ? 1 : 0);

export class PgStaging {
  /** Per connector: its stored hosts as this process last read or wrote them. */
  private readonly known = new Map<string, KnownHosts>();
  /** Per running cycle of this process: what it staged. */
  private readonly cycles = new Map<number, Promise<CycleStage>>();
  /** The customer, platform and band of a host's band count, numbered. */
  readonly groups = new BandGroups();

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

  /** Appends one scored batch of a running cycle in one statement; answers how many hosts it had. Rejects when the cycle is not running. */
  async stage(cycleId: number, connectorId: string, scored: Iterable<ScoredHost>): Promise<number> {
    let pending = this.cycles.get(cycleId);
    if (!pending) {
      pending = this.knownHosts(connectorId).then((known) => ({ connectorId, version: known.version, known, at: new Map(), full: [], group: [], score: [], digest: [], hid: [] }));
      this.cycles.set(cycleId, pending);
      pending.catch(() => this.cycles.delete(cycleId));
    }
    const stage = await pending;
    // This batch's sightings, by host (the last one counts); they join the cycle's record once the statement ran.
    const batch = new Map<string, { light: boolean; row: unknown[]; group: number; score: number; digest: number; hid: number }>();
    let n = 0;
    for (const s of scored) {
      n += 1;
      const h = s.host;
      const digest = hostDigestKey(s);
      const stored = stage.known.byHost.get(h.hostId);
      if (stored !== undefined && stored.digest === digest) {
        batch.delete(h.hostId);
        batch.set(h.hostId, { light: true, row: [stored.hid, h.lastSeen, s.scoredAt], group: stored.group, score: stored.score, digest, hid: stored.hid });
        continue;
      }
      const a = hostAttributes(h);
      const row = [h.hostId, h.lastSeen, s.scoredAt, h.vendor, h.hostname, h.customerId, h.platform, h.osVersion, s.score, s.band, lastDigestText()];
      row.push(a.osAssessment, a.sensorAssessment, a.overallAssessment, bool(a.sensorRunning), bool(a.reducedFunctionality));
      row.push(a.riskLevel, a.exposure, a.health, a.avStatus, a.onboarding, a.criticalCves, a.cveCount, a.maxCvss, a.cvss);
      row.push(storedRecord(h), contributionsJson(s.contributions), s.profiles ? JSON.stringify(s.profiles) : null);
      batch.delete(h.hostId);
      batch.set(h.hostId, { light: false, row, group: this.groups.id(h.customerId, h.platform, s.band), score: s.score, digest, hid: 0 });
    }
    if (n === 0) return 0;
    const light: unknown[][] = [[], [], []];
    const full: unknown[][] = FULL.map(() => []);
    // Hosts staged by an earlier batch: their earlier row goes (a light one by key; a full one now light by id; a full one now full is replaced in place).
    const goneLight: number[] = [];
    const goneFull: string[] = [];
    for (const [hostId, b] of batch) {
      const p = stage.at.get(hostId);
      if (p !== undefined) {
        if (!stage.full[p]) goneLight.push(stage.hid[p]!);
        else if (b.light) goneFull.push(hostId);
      }
      const cols = b.light ? light : full;
      for (let c = 0; c < cols.length; c++) cols[c]!.push(b.row[c] ?? null);
    }
    const repeats = goneLight.length + goneFull.length > 0;
    const args = [cycleId, connectorId, ...light, ...full, ...(repeats ? [goneLight, goneFull] : [])];
    const r = await this.pool.query<{ running: number }>(repeats ? STAGE_REPEATS_SQL : STAGE_SQL, args);
    if (r.rows[0]?.running !== 1) {
      const status = (await this.pool.query<{ status: string }>('SELECT status FROM edr.cycles WHERE id = $1', [cycleId])).rows[0]?.status;
      this.cycles.delete(cycleId);
      throw notRunning(cycleId, status);
    }
    for (const [hostId, b] of batch) {
      let p = stage.at.get(hostId);
      if (p === undefined) stage.at.set(hostId, (p = stage.group.length));
      stage.full[p] = b.light ? 0 : 1;
      stage.group[p] = b.group;
      stage.score[p] = b.score;
      stage.digest[p] = b.digest;
      stage.hid[p] = b.hid;
    }
    return n;
  }
}
