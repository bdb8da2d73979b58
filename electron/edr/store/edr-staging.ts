/**
 * Staging of a running poll cycle's scores (edr.db, table `staged_scores`), so the app's poller
 * keeps no more than one batch of hosts in memory (and a light row per host seen as it was, below)
 * and a cycle still becomes visible all at once.
 *
 * Each batch the connector hands out is scored and appended here in its own transaction. The
 * views never read this table. When the cycle completes, `promote` moves its rows with INSERT …
 * SELECT (SQLite does the copy; nothing of the whole cycle is held in JavaScript) and deletes them;
 * `EdrStore` runs that and the cycle's `completed` mark in one transaction. A failed or cancelled
 * cycle's rows are discarded. The table is a TEMP table (STAGING_TEMP): the rows of a cycle the app
 * stopped during go with its process, and staging never writes the WAL or grows the file.
 *
 * Cost is kept to what changes (EDR-H1…H3). A host is digested (host-digest.ts: its record
 * without its last-seen times, its contributions, profiles, score and band); when the digest is
 * the stored one, only a light row is kept (its integer key, last-seen time and when it was scored,
 * in columns (light-rows.ts): about 28 bytes a host besides its last-seen text, 3 MB for a cycle
 * of 100,000, in memory until the commit). The commit writes the light rows into the narrow
 * `host_seen` in the order of their key: the hosts come in the vendor's order, which is random
 * against the key, and a B-tree written at random places costs several times one written in order.
 * Staging compares digests as numbers (`hostDigestKey`) and makes a digest's text only for a full
 * row. A host that changed gets a full row: its attributes, and its record, contributions and
 * profiles, which replace the stored ones; its score history gains a row only when its score or
 * band moved.
 *
 * The commit counts the cycle's bands (`cycle_bands`: hosts and score sum per customer, platform and
 * band) from what staging holds, not from the tables: a light row's host is as stored (its digest
 * covers its customer, platform, band and score, which staging keeps beside the digest), a full
 * row's is as staged. Reading them back from `hosts` took 75-85 ms of each 100,000-host commit, and
 * the index that read needed moved a thousand pages a cycle.
 */
import type Database from 'better-sqlite3';
import type { ScoredHost } from '../../../shared/model/edr';
import { hostAttributes } from '../../../shared/model/zta-columns';
import { BandGroups } from './band-counts';
import { STAGING_TEMP } from './edr-schema';
import { SEEN_ROWS, stagingStatements } from './edr-staging-sql';
import { digestKey, hostDigestKey, lastDigestText } from './host-digest';
import { contributionsJson, storedRecord } from './host-json';
import { joinBatch, LightRows } from './light-rows';

const bool = (v: boolean | null) => (v === null ? null : v ? 1 : 0);

/** What a host's row stores that staging keeps: its digest (as `hostDigestKey` gives it), and its band count's group (BandGroups) and score. */
interface Staged {
  digest: number;
  group: number;
  score: number;
}

/** What staging knows of a stored host: what it stores (Staged), and its integer key. */
interface Known extends Staged {
  hid: number;
}

/**
 * A running cycle's staging state. A host is in at most one of `full` and `light`: a host handed
 * out twice keeps its last sighting (a full row, or a light row when it came back as stored).
 */
interface CycleStage {
  connectorId: string;
  /** Hosts with a full row staged (in `staged_scores`): host id → what the commit stores. */
  full: Map<string, Staged>;
  /** Light rows: per stored host seen as it was, its last-seen time and when it was scored. */
  light: LightRows;
  /** The keys the commit gave the hosts it added (read inside its transaction). */
  added?: Array<[string, number]>;
  /**
   * How often its connector's stored hosts had changed behind it when it began (EdrStaging.changes).
   * When that moved before its commit, a light row's host may no longer be stored as staging kept
   * it, and the commit counts the bands from the tables instead.
   */
  changes: number;
}

export class EdrStaging {
  private readonly stmt: ReturnType<typeof stagingStatements>;
  /**
   * What is stored of each host, per connector (its digest, band count group, score and integer
   * key): read from the store once, then kept up to date by the commits (each applies what it
   * rewrote and the keys of the hosts it added), so a cycle reads none of them. Read again after
   * another connection committed (`PRAGMA data_version` moved: the command line's `edr poll
   * --data-dir` beside the app).
   */
  private readonly digests = new Map<string, Map<string, Known>>();
  /** Per running cycle: what it staged (CycleStage). */
  private readonly cycles = new Map<number, CycleStage>();
  /** The customer, platform and band of a host's band count, numbered. */
  private readonly groups = new BandGroups();
  /** Per connector, commits of this store that rewrote some of its hosts. */
  private readonly rewrites = new Map<string, number>();
  /** Times another connection was seen to have committed (every connector's hosts may have changed). */
  private otherWrites = 0;
  /** `PRAGMA data_version` when last read: it moves when another connection commits. */
  private dataVersion: number;

  constructor(private readonly db: Database.Database) {
    db.exec(STAGING_TEMP);
    this.stmt = stagingStatements(db);
    this.dataVersion = this.stmt.dataVersion.get() as number;
  }

  /**
   * Appends one scored batch of a running cycle, in one transaction; answers how many rows. Given
   * a generator, each host is scored as it is written, so no array of scored hosts is built.
   */
  stage(cycleId: number, connectorId: string, scored: Iterable<ScoredHost>): number {
    let n = 0;
    this.noticeOtherWriters();
    let cycle = this.cycles.get(cycleId);
    if (!cycle) this.cycles.set(cycleId, (cycle = { connectorId, full: new Map(), light: new LightRows(), changes: this.changes(connectorId) }));
    const { full } = cycle;
    // This batch's sightings join the cycle's state only once its transaction committed (a batch that
    // fails leaves none): its light rows, its full rows (by host: a later sighting in the batch
    // replaces an earlier one) and the full rows of earlier batches it dropped.
    // Flat: the host, its last-seen time, when it was scored; the next host.
    const lights: Array<Known | string | null> = [];
    const fulls = new Map<string, [Staged, number | undefined]>();
    const dropped: string[] = [];
    const write = this.db.transaction((rows: Iterable<ScoredHost>) => {
      const stored = this.storedDigests(connectorId);
      for (const s of rows) {
        n += 1;
        const h = s.host;
        const digest = hostDigestKey(s);
        const known = stored.get(h.hostId);
        if (known !== undefined && known.digest === digest) {
          // Seen as stored after a full row of this cycle: the full row goes (the last sighting counts).
          if ((fulls.size !== 0 && fulls.delete(h.hostId)) || (full.size !== 0 && full.has(h.hostId))) {
            this.stmt.dropFull.run(cycleId, h.hostId);
            dropped.push(h.hostId);
          }
          lights.push(known, h.lastSeen, s.scoredAt);
          continue;
        }
        const digestText = lastDigestText();
        // Last in the map's order too: applied after any light row of the same host in this batch.
        fulls.delete(h.hostId);
        fulls.set(h.hostId, [{ digest, group: this.groups.id(h.customerId, h.platform, s.band), score: s.score }, known?.hid]);
        const a = hostAttributes(h);
        const profiles = s.profiles ? JSON.stringify(s.profiles) : null;
        // In the order of FULL (edr-staging-sql.ts): cycle, COLUMNS (identity, then HOST_ATTRIBUTE_COLUMNS), seen, record, flag.
        this.stmt.full.run(
          cycleId,
          connectorId,
          h.hostId,
          h.vendor,
          h.hostname,
          h.customerId,
          h.platform,
          h.osVersion,
          s.score,
          s.band,
          digestText,
          a.osAssessment,
          a.sensorAssessment,
          a.overallAssessment,
          bool(a.sensorRunning),
          bool(a.reducedFunctionality),
          a.riskLevel,
          a.exposure,
          a.health,
          a.avStatus,
          a.onboarding,
          a.criticalCves,
          a.cveCount,
          a.maxCvss,
          a.cvss,
          h.lastSeen,
          s.scoredAt,
          storedRecord(h),
          contributionsJson(s.contributions),
          profiles,
          known === undefined ? 1 : 0,
        );
      }
    });
    write(scored);
    joinBatch(full, cycle.light, dropped, lights, fulls);
    return n;
  }

  private storedDigests(connectorId: string): Map<string, Known> {
    let byHost = this.digests.get(connectorId);
    if (!byHost) {
      byHost = new Map();
      const rows = this.stmt.digests.iterate(connectorId) as Iterable<[string, string, number, string, string, string, number]>;
      for (const [hostId, digest, hid, customer, platform, band, score] of rows) byHost.set(hostId, { digest: digestKey(digest), hid, group: this.groups.id(customer, platform, band), score });
      this.digests.set(connectorId, byHost);
    }
    return byHost;
  }

  /**
   * The cycle's band counts, into `cycle_bands`: every host it lists, a light row's as stored and a
   * full row's as staged (a host is in one of them). A cycle promoted before (writeScores called
   * more than once for it) is counted anew from the tables instead, all of its calls' hosts; so is
   * one whose connector's hosts another commit changed while it ran (CycleStage.changes).
   */
  private writeBands(cycleId: number, cycle: CycleStage | undefined): void {
    if (this.stmt.promotedBefore.get(cycleId) !== undefined || (cycle && cycle.changes !== this.changes(cycle.connectorId))) {
      this.stmt.clearBands.run(cycleId);
      this.stmt.recountBands.run({ cycle: cycleId });
      return;
    }
    if (!cycle) return;
    const counter = this.groups.counter();
    cycle.light.forEachCount((group, score) => counter.add(group, score));
    for (const staged of cycle.full.values()) counter.add(staged.group, staged.score);
    for (const row of counter.rows()) this.stmt.band.run(cycleId, ...row);
  }

  /** Staged rows of a cycle whose host changed (or is new): their record is written at the commit. */
  countChanged(cycleId: number): number {
    return this.stmt.countFull.get(cycleId) as number;
  }

  /** Staged rows of one cycle, or of all cycles. */
  count(cycleId?: number): number {
    if (cycleId !== undefined) return (this.stmt.countFull.get(cycleId) as number) + (this.cycles.get(cycleId)?.light.size ?? 0);
    let n = this.stmt.countAll.get() as number;
    for (const c of this.cycles.values()) n += c.light.size;
    return n;
  }

  /** The cycle's light rows into `host_seen`, in the order of the host key. */
  private writeSeen(cycleId: number): void {
    const light = this.cycles.get(cycleId)?.light;
    if (!light || light.size === 0) return;
    const args: Array<number | string | null> = [cycleId];
    const rest = light.size % SEEN_ROWS;
    let i = 0;
    light.forEach((hid, lastSeen, scoredAt) => {
      // The first rows one by one, then the others a hundred at a time.
      if (i++ < rest) this.stmt.light.run(cycleId, lastSeen, scoredAt, hid);
      else {
        args.push(hid, lastSeen, scoredAt);
        if (args.length === 1 + 3 * SEEN_ROWS) {
          this.stmt.lights.run(args);
          args.length = 1;
        }
      }
    });
  }

  /**
   * Moves a cycle's staged rows into the store and deletes them; answers how many hosts moved. The
   * history rows of moved hosts are taken before the hosts change (they compare with the stored
   * score). Call it inside the transaction that marks the cycle completed.
   */
  promote(cycleId: number): number {
    this.noticeOtherWriters();
    const n = this.count(cycleId);
    // Before the upsert: a light row names a host stored before this commit, never one it adds (a deleted host's key may be given again).
    this.writeSeen(cycleId);
    this.stmt.moved.run(cycleId);
    this.stmt.hosts.run(cycleId);
    this.stmt.fullSeen.run(cycleId);
    this.stmt.first.run(cycleId);
    const cycle = this.cycles.get(cycleId);
    if (cycle) cycle.added = this.stmt.added.all(cycleId) as Array<[string, number]>;
    this.stmt.details.run(cycleId);
    this.writeBands(cycleId, cycle);
    // Only this cycle staged (every staged row is a running cycle's): the whole table goes.
    if (this.cycles.size === 1 && this.cycles.has(cycleId)) this.stmt.discardAll.run();
    else this.stmt.discard.run(cycleId);
    return n;
  }

  /** After the transaction that promoted `cycleId` committed: the hosts it rewrote now carry the digests it staged. */
  committed(cycleId: number): void {
    // Kept until now: a commit that failed can be tried again.
    const done = this.cycles.get(cycleId);
    this.cycles.delete(cycleId);
    if (done && done.full.size > 0) this.rewrites.set(done.connectorId, (this.rewrites.get(done.connectorId) ?? 0) + 1);
    const known = done && this.digests.get(done.connectorId);
    if (!known) return;
    const hids = new Map(done.added);
    for (const [hostId, staged] of done.full) {
      const hid = known.get(hostId)?.hid ?? hids.get(hostId);
      // A host whose key is not known yet stays unknown: its next sighting stages a full row.
      if (hid === undefined) known.delete(hostId);
      else known.set(hostId, { ...staged, hid });
    }
  }

  /** How often the stored hosts of a connector have changed behind a running cycle's back: rewritten by a commit, or maybe by another connection. */
  private changes(connectorId: string): number {
    return this.otherWrites + (this.rewrites.get(connectorId) ?? 0);
  }

  /**
   * After another connection committed (PRAGMA data_version moved), what staging knows of the stored
   * hosts is read again, and the cycles running count their bands from the tables at their commits.
   */
  private noticeOtherWriters(): void {
    const version = this.stmt.dataVersion.get() as number;
    if (version === this.dataVersion) return;
    this.dataVersion = version;
    this.otherWrites += 1;
    this.forgetDigests();
  }

  /**
   * Forgets the known digests (a commit failed, or hosts were deleted behind staging's back): they
   * are read again. What the running cycles staged stays, and applies at their commits.
   */
  forgetDigests(): void {
    this.digests.clear();
  }

  /**
   * Hosts retention deleted (by key): forgotten, and dropped from the light rows of the running
   * cycles, which would otherwise land on whatever host a commit gives the key to next. Such a host
   * (one no completed cycle listed within the retention period, listed again unchanged by a cycle
   * still running) is missing from that cycle; the next cycle stores it again as new.
   */
  forgetHosts(hids: Iterable<number>): void {
    this.forgetDigests();
    for (const hid of hids) for (const c of this.cycles.values()) c.light.delete(hid);
  }

  /** Deletes a cycle's staged rows (failed, cancelled); answers how many. */
  discard(cycleId: number): number {
    const light = this.cycles.get(cycleId)?.light.size ?? 0;
    this.cycles.delete(cycleId);
    return this.stmt.discard.run(cycleId).changes + light;
  }
}
