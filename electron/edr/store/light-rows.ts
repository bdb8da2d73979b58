/**
 * A running cycle's light rows (edr-staging.ts): for each stored host it listed as it was, its
 * last-seen time and scoring time, by the host's integer key (`hosts.hid`), the last sighting
 * counting.
 *
 * A row also carries the host's band count group and score as stored, which the commit counts.
 *
 * A cycle adds 100,000 of them, so they are kept in columns with a typed index by key: adding one
 * allocates nothing (the Map of tuples this replaced made an array a host and rehashed as it
 * grew), and the commit reads them in key order, as `host_seen` is written, by walking the index
 * instead of sorting the keys, and counts them down the columns, never reaching for the host
 * objects scattered over the heap.
 * The keys are SQLite rowids given as the largest plus one, so they are dense and not far above
 * the number of hosts the store ever held; a key at or above `indexLimit` (16 MB of index at the
 * default), or one SQLite did not give (below 1), is kept in a Map instead and read after the
 * others, in its order too.
 */
export class LightRows {
  /** Per key below `indexLimit`: its row's position plus one (0: no row). Grown to the largest key seen. */
  private index = new Int32Array(0);
  /** Per key at or above `indexLimit` (or below 1): its row's position. */
  private readonly far = new Map<number, number>();
  /** Per position: the host's last-seen time and its scoring time, as the cycle saw it. */
  private readonly lastSeen: Array<string | null> = [];
  private readonly scoredAt: string[] = [];
  /** Per position: the host's band count group (BandGroups; -1 once its row was deleted) and score, as stored. */
  private readonly group: number[] = [];
  private readonly score: number[] = [];
  private rows = 0;

  constructor(private readonly indexLimit = 1 << 22) {}

  /** Rows held (each key once). */
  get size(): number {
    return this.rows;
  }

  /** The row of host `hid`, replacing the one it had: its sighting, and its band count group and score as stored. */
  set(hid: number, lastSeen: string | null, scoredAt: string, group: number, score: number): void {
    const p = this.position(hid);
    if (p >= 0) {
      this.lastSeen[p] = lastSeen;
      this.scoredAt[p] = scoredAt;
      this.group[p] = group;
      this.score[p] = score;
      return;
    }
    const at = this.group.length;
    this.lastSeen.push(lastSeen);
    this.scoredAt.push(scoredAt);
    this.group.push(group);
    this.score.push(score);
    this.rows += 1;
    if (this.near(hid)) {
      if (hid >= this.index.length) this.grow(hid);
      this.index[hid] = at + 1;
    } else this.far.set(hid, at);
  }

  /** Deletes the row of a key, if it has one. */
  delete(hid: number): void {
    const p = this.position(hid);
    if (p < 0) return;
    if (this.near(hid)) this.index[hid] = 0;
    else this.far.delete(hid);
    this.group[p] = -1;
    this.rows -= 1;
  }

  /** Each row (its key, last-seen time and scoring time), in the order of its key. */
  forEach(fn: (hid: number, lastSeen: string | null, scoredAt: string) => void): void {
    const { index, lastSeen, scoredAt } = this;
    for (let hid = 0; hid < index.length; hid++) {
      const p = index[hid]! - 1;
      if (p >= 0) fn(hid, lastSeen[p]!, scoredAt[p]!);
    }
    if (this.far.size === 0) return;
    for (const hid of [...this.far.keys()].sort((a, b) => a - b)) {
      const p = this.far.get(hid)!;
      fn(hid, lastSeen[p]!, scoredAt[p]!);
    }
  }

  /** Each row's band count group and score, in no particular order. */
  forEachCount(fn: (group: number, score: number) => void): void {
    const { group, score } = this;
    for (let p = 0; p < group.length; p++) if (group[p]! >= 0) fn(group[p]!, score[p]!);
  }

  /** Whether a key is kept in the typed index (a rowid SQLite gave: 1 and up, below the limit). */
  private near(hid: number): boolean {
    return hid > 0 && hid < this.indexLimit && Number.isInteger(hid);
  }

  private position(hid: number): number {
    if (this.near(hid)) return hid < this.index.length ? this.index[hid]! - 1 : -1;
    return this.far.get(hid) ?? -1;
  }

  private grow(hid: number): void {
    const next = new Int32Array(Math.min(this.indexLimit, Math.max(1024, 2 ** Math.ceil(Math.log2(hid + 1)))));
    next.set(this.index);
    this.index = next;
  }
}

/** A stored host as a light row names it: its key, and its band count group and score as stored. */
export interface LightKey {
  hid: number;
  group: number;
  score: number;
}

/**
 * A staged batch joining its cycle's record once its transaction committed (edr-staging.ts on
 * SQLite, edr-pg-staging.ts on PostgreSQL): the full rows of earlier batches it dropped go, its
 * light rows (flat: the stored host, its last-seen time, when it was scored) are set, then its full
 * rows (by host, each with the host's key when stored), each of which replaces a light row of its
 * host: a full row standing at the end of the batch came after any light row of its host in it.
 */
export function joinBatch<S>(
  full: Map<string, S>,
  light: LightRows,
  dropped: Iterable<string>,
  lights: ReadonlyArray<LightKey | string | null>,
  fulls: ReadonlyMap<string, readonly [S, number | undefined, ...unknown[]]>,
): void {
  for (const hostId of dropped) full.delete(hostId);
  for (let i = 0; i < lights.length; i += 3) {
    const k = lights[i] as LightKey;
    light.set(k.hid, lights[i + 1] as string | null, lights[i + 2] as string, k.group, k.score);
  }
  for (const [hostId, [staged, hid]] of fulls) {
    full.set(hostId, staged);
    if (hid !== undefined) light.delete(hid);
  }
}
