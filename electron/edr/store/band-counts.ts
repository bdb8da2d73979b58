/**
 * A cycle's band counts as `cycle_bands` keeps them: hosts and their score sum per customer,
 * platform and band. Staging (edr-staging.ts) numbers each group once and counts a commit's hosts
 * by number, so a 100,000-host cycle is counted without reading its hosts back from the tables.
 */

/** The groups of band counts, each numbered once: [customer, platform, band]. */
export class BandGroups {
  private readonly groups: Array<readonly [string, string, string]> = [];
  /** customer → platform → band → the group's number. */
  private readonly ids = new Map<string, Map<string, Map<string, number>>>();

  /** The number of the group of a customer, platform and band. */
  id(customer: string, platform: string, band: string): number {
    let platforms = this.ids.get(customer);
    if (!platforms) this.ids.set(customer, (platforms = new Map()));
    let bands = platforms.get(platform);
    if (!bands) platforms.set(platform, (bands = new Map()));
    let g = bands.get(band);
    if (g === undefined) {
      g = this.groups.length;
      this.groups.push([customer, platform, band]);
      bands.set(band, g);
    }
    return g;
  }

  /** A count of hosts by group number. */
  counter(): BandCounter {
    return new BandCounter(this.groups);
  }
}

/** Hosts and their score sum, summed as SQLite's SUM does (Kahan-Babuska-Neumaier), so a sum practically does not depend on the order of its hosts. */
class Sum {
  hosts = 0;
  private sum = 0;
  private carry = 0;

  add(score: number): void {
    this.hosts += 1;
    const t = this.sum + score;
    this.carry += Math.abs(this.sum) >= Math.abs(score) ? this.sum - t + score : score - t + this.sum;
    this.sum = t;
  }

  get total(): number {
    return this.sum + this.carry;
  }
}

export class BandCounter {
  /** By group number (BandGroups numbers them from 0): its sum, once it has a host. */
  private readonly sums: Array<Sum | undefined> = [];

  constructor(private readonly groups: ReadonlyArray<readonly [string, string, string]>) {}

  /** One host of group `group` (BandGroups.id) with its score. */
  add(group: number, score: number): void {
    let s = this.sums[group];
    if (s === undefined) {
      while (this.sums.length < group) this.sums.push(undefined);
      this.sums[group] = s = new Sum();
    }
    s.add(score);
  }

  /** Each group counted: customer, platform, band, hosts, score sum. */
  *rows(): Generator<[string, string, string, number, number]> {
    for (let group = 0; group < this.sums.length; group++) {
      const s = this.sums[group];
      if (s !== undefined) yield [...this.groups[group]!, s.hosts, s.total];
    }
  }
}
