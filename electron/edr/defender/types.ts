/**
 * Constants and options of the Microsoft Defender for Endpoint connector (vendor B of the spec).
 */
import type { HostRecord } from '../../../shared/model/edr';
import type { TlsTrust } from '../../../shared/model/profile';
import type { Logger } from '../../log';

export const DEFAULT_IDP_URL = 'https://login.microsoftonline.com';
export const DEFAULT_API_URL = 'https://api.securitycenter.microsoft.com';
/** WindowsDefenderATP: Machine.Read.All, Vulnerability.Read.All, Alert.Read.All. */
export const DEFENDER_RESOURCE = 'https://api.securitycenter.microsoft.com';
/** Microsoft Cloud App Security (Defender for Cloud Apps): discovery.manage, discovery.read. */
export const MCAS_RESOURCE = '05a65629-4c1b-48c1-a78b-804c4abdd4af';

export type ApiName = 'WindowsDefenderATP' | 'Microsoft Cloud App Security';

export interface RequiredPermission {
  name: string;
  api: ApiName;
  /** Resource whose token carries the permission in `roles`. */
  resource: string;
  purpose: string;
}

/** Spec §5.3: all five are required, all of type Application. */
export const REQUIRED_PERMISSIONS: readonly RequiredPermission[] = [
  { name: 'Machine.Read.All', api: 'WindowsDefenderATP', resource: DEFENDER_RESOURCE, purpose: 'read the device list' },
  { name: 'Vulnerability.Read.All', api: 'WindowsDefenderATP', resource: DEFENDER_RESOURCE, purpose: 'read the CVEs of the devices' },
  { name: 'Alert.Read.All', api: 'WindowsDefenderATP', resource: DEFENDER_RESOURCE, purpose: 'read alerts' },
  { name: 'discovery.manage', api: 'Microsoft Cloud App Security', resource: MCAS_RESOURCE, purpose: 'manage cloud discovery' },
  { name: 'discovery.read', api: 'Microsoft Cloud App Security', resource: MCAS_RESOURCE, purpose: 'read cloud discovery' },
];

/** Endpoint classes, each with its own documented rate limit. */
export type EndpointClass = 'machines' | 'vulnerabilities' | 'bulk';

export interface RateWindow {
  calls: number;
  windowMs: number;
}
export type RateLimits = Record<EndpointClass, RateWindow[]>;

/** Documented limits (vendor time): List machines 100/min and 1 500/h; machine vulnerabilities 50/min and 1 500/h; export 30/min and 1 000/h. */
export const DOCUMENTED_LIMITS: RateLimits = {
  machines: [
    { calls: 100, windowMs: 60_000 },
    { calls: 1_500, windowMs: 3_600_000 },
  ],
  vulnerabilities: [
    { calls: 50, windowMs: 60_000 },
    { calls: 1_500, windowMs: 3_600_000 },
  ],
  bulk: [
    { calls: 30, windowMs: 60_000 },
    { calls: 1_000, windowMs: 3_600_000 },
  ],
};

export interface RetryPolicy {
  /** Attempts per call for 5xx, connection failures, timeouts and unreadable JSON (first try included). */
  maxAttempts: number;
  /** Backoff: min(maxDelayMs, baseDelayMs × 2^(n−1)), half of it jittered. Real ms. */
  baseDelayMs: number;
  maxDelayMs: number;
  /** 429 answers tolerated per call before the cycle fails. */
  maxThrottleRetries: number;
  /** A Retry-After longer than this (vendor seconds) fails the cycle instead of waiting. */
  maxRetryAfterSec: number;
}

export const DEFAULT_RETRY: RetryPolicy = { maxAttempts: 5, baseDelayMs: 1_000, maxDelayMs: 30_000, maxThrottleRetries: 8, maxRetryAfterSec: 600 };

export interface DefenderSecrets {
  getClientSecret(): Promise<string | undefined>;
}

export interface DefenderConnectorOptions {
  /** Entra tenant id; also the Customer ID of the hosts. */
  tenantId: string;
  clientId: string;
  secrets: DefenderSecrets;
  /** Our connector id for HostRecord.tenantId; default the Entra tenant id. */
  connectorId?: string;
  idpUrl?: string;
  apiUrl?: string;
  /** Trust of both the identity provider and the API; default the system CAs. */
  tls?: TlsTrust;
  logger?: Logger;
  /** Clock (epoch ms) for token expiry and the rate windows. */
  now?: () => number;
  /** Vendor time runs this many times faster (rate windows and Retry-After shrink by it). Default 1. */
  rateScale?: number;
  limits?: Partial<RateLimits>;
  retry?: Partial<RetryPolicy>;
  /** Per-device vulnerability calls in flight; default and maximum 10 (spec §8). */
  concurrency?: number;
  /** Vulnerability source: 'bulk' (default; falls back to per-machine when refused) or 'per-machine'. */
  vulnerabilitySource?: 'bulk' | 'per-machine';
  /** Records per bulk export page; default 8 000 (the service allows up to 200 000; 20 000-record pages made a 50,000-host cycle peak at 460 MB RSS, 10 000 at 375–430 MB, 8 000 near 270 MB). */
  bulkPageSize?: number;
  /** Machines per page; default 5 000, maximum 10 000. */
  machinePageSize?: number;
  timeoutMs?: number;
  /** Largest response accepted; default 64 MiB. */
  maxBodyBytes?: number;
}

export type PollPhase = 'token' | 'machines' | 'vulnerabilities' | 'done';

export interface PollProgress {
  phase: PollPhase;
  machines: number;
  /** Machines whose CVE facts are known so far (≤ machines; bulk: devices seen in the export so far). */
  vulnerabilitiesDone: number;
  source?: 'bulk' | 'per-machine';
  /** Bulk only: export records read so far. */
  exportRows?: number;
}

export interface PollOptions {
  signal?: AbortSignal;
  onProgress?: (p: PollProgress) => void;
  /** Receives the cycle's records in batches (≤ 2,000), which are then not kept: poll resolves to []. */
  onHosts?: (batch: HostRecord[]) => void | Promise<void>;
}

export interface CycleReport {
  source: 'bulk' | 'per-machine';
  /** Why the bulk export was not used, when it was refused. */
  fallbackReason?: string;
  calls: Record<EndpointClass, number>;
  retries: number;
  throttled: number;
  /** Tokens fetched during the cycle (0 when the cached one served; 2 after a mid-cycle refresh). */
  tokensFetched: number;
  machinePages: number;
  bulkPages: number;
  durationMs: number;
}
