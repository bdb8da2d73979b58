/**
 * A simulated Falcon tenant: up to 100,000 hosts, none of them stored. Every field of host
 * `index` is a pure function of (seed, index, anchor), so 100,000 hosts cost no memory and the
 * same seed gives the same fleet on every run. The device_id encodes the index (a bijective
 * 32-bit permutation), so a lookup by id is O(1) without an index table.
 */
export const MAX_SIM_HOSTS = 100_000;

/** 32-bit avalanche (murmur3 finaliser). */
export function mix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** mulberry32: a small, fast, seeded generator of floats in [0, 1). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const hex8 = (n: number) => (n >>> 0).toString(16).padStart(8, '0');
const ODD = 0x2c1b3c6d | 1;
/** Multiplicative inverse of ODD modulo 2^32 (Newton iteration). */
const INV = (() => {
  let inv = ODD;
  for (let i = 0; i < 5; i++) inv = Math.imul(inv, 2 - Math.imul(ODD, inv));
  return inv >>> 0;
})();

export type SimPlatform = 'Windows' | 'Mac' | 'Linux';
export type SimProduct = 'Workstation' | 'Server' | 'Domain Controller';

/** What both the device record and its assessment agree on. */
export interface HostTraits {
  index: number;
  deviceId: string;
  platform: SimPlatform;
  product: SimProduct;
  hostname: string;
  /** Milliseconds before the anchor the sensor was last seen. */
  lastSeenAgoMs: number;
  firstSeenAgoMs: number;
  reducedFunctionality: boolean;
  /** Not yet assessed by Zero Trust Assessment. */
  assessed: boolean;
  contained: boolean;
  /** 0..1: how well the host is configured; drives the ZTA signals. */
  hygiene: number;
  serial: string;
  r: () => number;
}

const MINUTE = 60_000;
const DAY = 86_400_000;

export class SimTenant {
  readonly cid: string;
  readonly hosts: number;
  readonly seed: number;
  private readonly tag: number;
  private readonly mask: number;

  /**
   * Every this many ms about 4 % of the hosts' posture moves (up or down by a fifth to a third of
   * the scale) for that period, then comes back: a fleet that lives without drifting away (the
   * demo, issue 22.12). Unset: the data never changes.
   */
  readonly driftEveryMs: number | undefined;

  constructor(spec: { cid?: string; hosts: number; seed?: number; driftEveryMs?: number }, readonly anchorMs: number) {
    this.driftEveryMs = spec.driftEveryMs;
    if (!Number.isInteger(spec.hosts) || spec.hosts < 0 || spec.hosts > MAX_SIM_HOSTS) {
      throw new RangeError(`A simulated Falcon tenant has 0 to ${MAX_SIM_HOSTS} hosts, not ${spec.hosts}.`);
    }
    this.seed = spec.seed ?? 1;
    this.hosts = spec.hosts;
    const s = mix32(this.seed ^ 0x5bd1e995);
    this.cid = (spec.cid ?? [s, mix32(s + 1), mix32(s + 2), mix32(s + 3)].map(hex8).join('')).toLowerCase();
    if (!/^[0-9a-f]{32}$/.test(this.cid)) throw new RangeError(`A Falcon CID is 32 hexadecimal characters, not ${spec.cid}.`);
    this.tag = parseInt(this.cid.slice(0, 8), 16) >>> 0;
    this.mask = mix32(this.tag ^ this.seed);
  }

  deviceId(index: number): string {
    const p = Math.imul((index ^ this.mask) >>> 0, ODD) >>> 0;
    const a = mix32(this.tag ^ p);
    return `${hex8(p)}${hex8(a)}${hex8(mix32(a ^ this.seed))}${hex8(mix32(a + p))}`;
  }

  /** Index of a device_id of this tenant, or undefined (unknown, malformed, or beyond the fleet). */
  indexOf(deviceId: string): number | undefined {
    if (!/^[0-9a-f]{32}$/.test(deviceId)) return undefined;
    const p = parseInt(deviceId.slice(0, 8), 16) >>> 0;
    const index = (Math.imul(p, INV) >>> 0) ^ this.mask;
    const i = index >>> 0;
    return i < this.hosts && this.deviceId(i) === deviceId ? i : undefined;
  }

  /** The host's posture at `atMs`: its own, or moved for this drift period (see `driftEveryMs`). */
  private hygieneAt(index: number, base: number, atMs: number): number {
    const every = this.driftEveryMs;
    if (!every || atMs <= this.anchorMs) return base;
    const period = Math.floor((atMs - this.anchorMs) / every);
    const h = mix32(this.seed ^ Math.imul(index + 1, 0x85ebca77) ^ Math.imul(period + 1, 0xc2b2ae3d)) >>> 0;
    if (h % 1000 >= 40) return base;
    const by = 0.2 + ((h >>> 10) % 1000) / 6000;
    return Math.min(0.99, Math.max(0.05, base + (h & 1024 ? by : -by)));
  }

  traits(index: number, atMs = this.anchorMs): HostTraits {
    const r = rng(mix32(this.seed ^ Math.imul(index + 1, 0x9e3779b1)));
    const pr = r();
    const platform: SimPlatform = pr < 0.62 ? 'Windows' : pr < 0.85 ? 'Mac' : 'Linux';
    const kind = r();
    const product: SimProduct =
      platform === 'Mac' ? 'Workstation' : platform === 'Linux' ? (kind < 0.85 ? 'Server' : 'Workstation') : kind < 0.8 ? 'Workstation' : kind < 0.97 ? 'Server' : 'Domain Controller';
    const stale = r() < 0.08;
    const lastSeenAgoMs = stale ? Math.round((2 + r() * 43) * DAY) : Math.round(r() * 50 * MINUTE);
    const prefix = platform === 'Windows' ? (product === 'Workstation' ? 'WIN' : product === 'Server' ? 'SRV' : 'DC') : platform === 'Mac' ? 'MAC' : 'lnx';
    return {
      index,
      deviceId: this.deviceId(index),
      platform,
      product,
      hostname: `${prefix}-${(index + 1).toString(36).toUpperCase().padStart(4, '0')}${Math.floor(r() * 1296).toString(36).padStart(2, '0')}`,
      lastSeenAgoMs,
      firstSeenAgoMs: lastSeenAgoMs + Math.round((1 + r() * 700) * DAY),
      reducedFunctionality: r() < 0.03,
      assessed: r() >= 0.07,
      contained: r() < 0.01,
      hygiene: this.hygieneAt(index, 0.35 + r() * 0.63, atMs),
      serial: `${platform === 'Mac' ? 'C02' : 'PF'}${Math.floor(r() * 36 ** 6).toString(36).toUpperCase().padStart(6, '0')}`,
      r,
    };
  }
}
