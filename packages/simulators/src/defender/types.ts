/**
 * Types of the Microsoft Defender for Endpoint simulator: an Entra ID token endpoint and the
 * Defender API (machines, per-machine vulnerabilities, the bulk software-vulnerabilities export).
 */
import type { SimLogger as Logger } from '../log';
import type { SimClock } from '../clock';

/** The five permissions spec §5.3 requires (three on WindowsDefenderATP, two on Microsoft Cloud App Security). */
export type DefenderPermission = 'Machine.Read.All' | 'Vulnerability.Read.All' | 'Alert.Read.All' | 'discovery.manage' | 'discovery.read';

/** One app registration in one Entra tenant, and the Defender data behind it. */
export interface DefenderTenantConfig {
  tenantId: string;
  clientId: string;
  clientSecret: string;
  /** ISO time (or epoch ms) after which the secret answers AADSTS7000222. */
  secretExpiresAt?: string | number;
  /** Admin consent granted; false answers AADSTS65001. */
  consent: boolean;
  /** How the permissions were added: Delegated ones put `scp` in the token and leave `roles` empty. */
  permissionType: 'Application' | 'Delegated';
  /** Granted permissions (any subset of the five; unknown names are ignored). */
  permissions: string[];
  /** Devices of the tenant, 10..100 000, generated lazily from (seed, index). */
  hosts: number;
  seed: number;
  /** Display name of the app (AADSTS65001 message). */
  appName?: string;
  /** Names of the tenant's own choosing for some machines (index → computerDnsName): hostile or odd names. */
  hostnames?: Readonly<Record<number, string>>;
}

/** Endpoint classes, each with its own rate limit. */
export type EndpointClass = 'machines' | 'vulnerabilities' | 'bulk';

/** A sliding window: at most `calls` calls in any `windowMs` (vendor time). */
export interface RateWindow {
  calls: number;
  windowMs: number;
}
export type RateLimits = Record<EndpointClass, RateWindow[]>;

export interface DefenderStatsView {
  /** Calls per normalized path, e.g. `GET /api/machines/{id}/vulnerabilities`. */
  calls: Record<string, number>;
  /** Answers per status code (API and token endpoint). */
  statuses: Record<string, number>;
  /** 429s sent (rate limits and injected bursts). */
  throttled: number;
  /** 429s sent because a documented limit was exceeded (not injected). */
  rateLimited: number;
  tokensIssued: number;
  inFlightVulnerabilities: number;
  maxInFlightVulnerabilities: number;
}

export interface DefenderSimulatorOptions {
  tenants: DefenderTenantConfig[];
  /** Loopback address to listen on; default 127.0.0.1. */
  host?: string;
  clock?: SimClock;
  logger?: Logger;
  /**
   * Vendor time runs `rateScale` times faster for rate limiting: windows are `windowMs / rateScale`
   * real ms and Retry-After stays in vendor seconds. Default 1 (the documented limits).
   */
  rateScale?: number;
  /** Replace the documented limits (vendor time). */
  limits?: Partial<RateLimits>;
  /** Access token lifetime in seconds; default 3599. */
  tokenLifetimeSec?: number;
  /** The time the generated lastSeen/firstSeen values are relative to; default the clock at start. */
  dataAnchorMs?: number;
  /** Every this many ms about 4 % of the onboarded machines' risk score moves a step for that period (the demo); unset: never. */
  driftEveryMs?: number;
}

export interface DefenderSimulator {
  /** Token endpoint base: POST `${idpUrl}/<tenant>/oauth2/v2.0/token`. */
  idpUrl: string;
  /** Defender API base: `${apiUrl}/api/machines`. */
  apiUrl: string;
  fingerprint256: string;
  certificatePem: string;
  /** The live tenant configuration (mutations take effect on the next request). */
  tenants: DefenderTenantConfig[];
  stats: DefenderStatsView & { reset(): void };
  clock: SimClock;
  /** Every token issued so far answers 401 from now on. */
  expireTokens(): void;
  close(): Promise<void>;
}
