/**
 * Public types of the Falcon simulator (docs/spec-decisions.edr-falcon.md, EDR-F1..). Tests, the
 * bench and the demo workspace code against exactly these.
 */
import type { FalconCloud } from '../vendor/falcon-clouds';
import type { SimLogger as Logger } from '../log';
import type { SimClock } from '../clock';

export type { FalconCloud };

/** API client scopes the simulator knows (the Falcon console names them "Hosts: Read", "Zero Trust Assessment: Read"). */
export type FalconScope = 'hosts:read' | 'zero-trust-assessment:read';

/** One tenant's hosts, generated lazily from (seed, index): nothing per host is stored. */
export interface FalconTenantSpec {
  /** Customer ID, 32 lower-case hex; derived from the seed when absent. */
  cid?: string;
  /** 0..100,000. */
  hosts: number;
  /** Default 1. */
  seed?: number;
}

export interface FalconClientSpec {
  /** 32 hex characters; random when absent. */
  clientId?: string;
  /** 40 characters; random when absent. */
  clientSecret?: string;
  /** The cloud the tenant lives in; default the first simulated cloud. */
  region?: FalconCloud;
  /** The client's own tenant. Default: `hosts` of the simulator options, seed 1. */
  tenant?: FalconTenantSpec;
  /** Flight Control children reachable with `member_cid`. */
  members?: FalconTenantSpec[];
  /** Default both scopes. */
  scopes?: FalconScope[];
}

export interface FalconSimulatorOptions {
  /** Default '127.0.0.1'; only loopback addresses are allowed. */
  host?: string;
  /** Clouds to serve, one HTTPS listener each; default all four. */
  regions?: FalconCloud[];
  /** Hosts of the default client's tenant when `clients` is not given; default 10. */
  hosts?: number;
  /** Default seed of generated data; default 1. */
  seed?: number;
  /** Default: one client in the first cloud with `hosts` hosts. */
  clients?: FalconClientSpec[];
  /** Requests per window per client (X-RateLimit-Limit); default 6000. */
  rateLimit?: number;
  /** Length of the rate window in ms; default 60,000 (the vendor's limit is per minute). */
  rateWindowMs?: number;
  /**
   * Requests each client may make at once when the simulator starts (0..rateLimit; default the
   * full limit). 0 models a budget already spent (back-to-back cycles, other users of the API
   * client): the limit then binds from the first call, which is what a rate bench measures.
   * When given, a client's budget starts refilling at its first request (token requests
   * included), not when the simulator starts, so time spent before that earns nothing.
   */
  rateBudgetAtStart?: number;
  /** Token lifetime in seconds; default 1799. */
  tokenLifetimeS?: number;
  /** Time the generated data is relative to (last_seen, first_seen); default the clock at start. */
  anchorMs?: number;
  /** Every this many ms about 4 % of the hosts' assessments move for that period (the demo); unset: never. */
  driftEveryMs?: number;
  clock?: SimClock;
  logger?: Logger;
}

export interface FalconSimStats {
  /** Requests per path (no query string), token requests included. */
  readonly calls: Record<string, number>;
  /** Every status answered, by code. */
  readonly statuses: Record<number, number>;
  r429: number;
  tokensIssued: number;
  inFlight: number;
  maxInFlight: number;
  /** All requests. */
  total(): number;
  reset(): void;
}

export interface FalconSimClient {
  clientId: string;
  clientSecret: string;
  region: FalconCloud;
  cid: string;
  hosts: number;
  members: { cid: string; hosts: number }[];
  scopes: FalconScope[];
}

export interface FalconSimulator {
  /** Origin of a simulated cloud, e.g. https://127.0.0.1:40123 (paths as on the real API). */
  baseUrl(region: FalconCloud): string;
  /** Every simulated cloud's origin, to hand to the connector as its cloud URLs. */
  baseUrls(): Partial<Record<FalconCloud, string>>;
  regions: FalconCloud[];
  fingerprint256: string;
  certificatePem: string;
  clients: FalconSimClient[];
  stats: FalconSimStats;
  clock: SimClock;
  /** Expire every token issued so far, now. */
  expireTokens(): void;
  /** Revoke every token issued so far, now. */
  revokeTokens(): void;
  /** Give every client a full rate budget again. */
  resetRateLimits(): void;
  /** device_id of host `index` of a tenant (for tests). */
  deviceId(cid: string, index: number): string;
  close(): Promise<void>;
}
