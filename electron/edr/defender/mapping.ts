/**
 * Defender wire data → the shared model: platform of an osPlatform, enum values read
 * case-insensitively, CVE aggregation (bulk export rows or per-machine Vulnerability entities)
 * into DefenderFacts, and a Machine into a HostRecord.
 */
import {
  CveSeverity,
  DefenderAvStatus,
  DefenderExposureLevel,
  DefenderHealthStatus,
  DefenderOnboardingStatus,
  DefenderRiskScore,
  type DefenderFacts,
  type HostRecord,
  type Platform,
} from '../../../shared/model/edr';
import { boundText, LIMITS } from '../../../shared/model/limits';

/** CVSS at or above this is critical (spec §2.3). */
export const CRITICAL_CVSS = 9.0;

/** Windows* → Windows; macOS / Mac* / OSX → Mac; Linux and distribution names → Linux; the rest (iOS, Android, …) → Other. */
export function platformOf(osPlatform: unknown): Platform {
  const p = typeof osPlatform === 'string' ? osPlatform.toLowerCase().replace(/[\s_-]/g, '') : '';
  if (p.startsWith('windows')) return 'Windows';
  if (p.startsWith('mac') || p === 'osx') return 'Mac';
  if (/^(linux|ubuntu|debian|rhel|redhat|centos|suse|sles|opensuse|fedora|oraclelinux|amazonlinux|almalinux|rocky)/.test(p)) return 'Linux';
  return 'Other';
}

/** The enum option equal to `v` ignoring case (the docs write `onboarded`, the API `Onboarded`), else null. */
export function enumValue<T extends string>(options: readonly T[], v: unknown): T | null {
  if (typeof v !== 'string') return null;
  const lower = v.toLowerCase();
  return options.find((o) => o.toLowerCase() === lower) ?? null;
}

/** A CVSS score from a number or a numeric string; null when absent or out of 0..10. */
export function cvssOf(v: unknown): number | null {
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : Number.NaN;
  return Number.isFinite(n) && n >= 0 && n <= 10 ? n : null;
}

export type CveFacts = Pick<DefenderFacts, 'criticalCveCount' | 'cveCount' | 'maxCvss' | 'vulnerabilities'>;
export const NO_CVES: CveFacts = { criticalCveCount: 0, cveCount: 0, maxCvss: null, vulnerabilities: [] };

/** One CVE of a device: its highest CVSS and the severity Defender gave with it. */
interface CveEntry {
  cvss: number | null;
  severity: CveSeverity | null;
}

/**
 * The severity Defender names (`vulnerabilitySeverityLevel`, `severity`), else the CVSS v3
 * qualitative rating of the score (9.0 Critical, 7.0 High, 4.0 Medium, above 0 Low; EDR-H5).
 */
export function severityOf(named: unknown, cvss: number | null): CveSeverity | null {
  const given = enumValue(CveSeverity.options, named);
  if (given) return given;
  if (cvss === null || cvss <= 0) return null;
  return cvss >= 9 ? 'Critical' : cvss >= 7 ? 'High' : cvss >= 4 ? 'Medium' : 'Low';
}

/** Unique CVEs → facts: a CVE counted once per device, at its highest CVSS; the list highest first. */
function factsOf(cves: Map<string, CveEntry>): CveFacts {
  let critical = 0;
  let max: number | null = null;
  const vulnerabilities: NonNullable<CveFacts['vulnerabilities']> = [];
  for (const [cveId, { cvss, severity }] of cves) {
    vulnerabilities.push({ cveId, cvss, severity });
    if (cvss === null) continue;
    if (cvss >= CRITICAL_CVSS) critical += 1;
    if (max === null || cvss > max) max = cvss;
  }
  vulnerabilities.sort((a, b) => (b.cvss ?? -1) - (a.cvss ?? -1) || (a.cveId < b.cveId ? -1 : a.cveId > b.cveId ? 1 : 0));
  return { criticalCveCount: critical, cveCount: cves.size, maxCvss: max, vulnerabilities };
}

function addCve(map: Map<string, CveEntry>, cveId: string, cvss: number | null, severity: unknown): void {
  const key = cveId.toUpperCase();
  const prev = map.get(key);
  if (prev === undefined || (cvss !== null && (prev.cvss === null || cvss > prev.cvss))) map.set(key, { cvss, severity: severityOf(severity, cvss) });
}

/** A word of Defender's data (an ID, a CVE ID, a host name, an OS version), cut to LIMITS.name (issue 20.5). */
const str = (v: unknown) => boundText(typeof v === 'string' && v.trim() !== '' ? v : undefined, LIMITS.name);

/**
 * Aggregates SoftwareVulnerabilitiesByMachine rows per device. A row is one (device, software,
 * version, CVE); rows without a cveId (software with no known CVE) are skipped; the same CVE in
 * two products of one device counts once.
 */
export class CveAggregator {
  private readonly byDevice = new Map<string, Map<string, CveEntry>>();
  rows = 0;
  skipped = 0;

  add(row: unknown): void {
    this.rows += 1;
    const r = (typeof row === 'object' && row !== null ? row : {}) as Record<string, unknown>;
    const device = str(r.deviceId) ?? str(r.machineId);
    const cve = str(r.cveId);
    if (!device || !cve) {
      this.skipped += 1;
      return;
    }
    const key = device.toLowerCase();
    let cves = this.byDevice.get(key);
    if (!cves) this.byDevice.set(key, (cves = new Map()));
    addCve(cves, cve, cvssOf(r.cvssScore), r.vulnerabilitySeverityLevel);
  }

  get devices(): number {
    return this.byDevice.size;
  }

  /** Facts of a device; a device without rows has no known CVE. */
  factsFor(deviceId: string): CveFacts {
    const cves = this.byDevice.get(deviceId.toLowerCase());
    return cves ? factsOf(cves) : NO_CVES;
  }
}

/** Facts from GET /api/machines/{id}/vulnerabilities (Vulnerability entities: id, cvssV3). */
export function factsFromVulnerabilities(list: readonly unknown[]): CveFacts {
  const cves = new Map<string, CveEntry>();
  for (const v of list) {
    const r = (typeof v === 'object' && v !== null ? v : {}) as Record<string, unknown>;
    const id = str(r.id) ?? str(r.cveId);
    if (id) addCve(cves, id, cvssOf(r.cvssV3 ?? r.cvssScore), r.severity ?? r.vulnerabilitySeverityLevel);
  }
  return factsOf(cves);
}

const isoOrNull = (v: unknown): string | null => {
  if (typeof v !== 'string') return null;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
};

/** The id of a Machine entity (lower case), or undefined when the entry has none. */
export const machineIdOf = (m: unknown): string | undefined => {
  const id = (m as Record<string, unknown> | null)?.id;
  return typeof id === 'string' && id ? boundText(id, LIMITS.name).toLowerCase() : undefined;
};

export interface HostContext {
  /** Our connector id (HostRecord.tenantId). */
  connectorId: string;
  /** The Entra tenant id (HostRecord.customerId). */
  tenantId: string;
}

/** A Machine entity and its CVE facts as a HostRecord. */
export function hostRecord(machine: Record<string, unknown>, cves: CveFacts, ctx: HostContext): HostRecord {
  const id = machineIdOf(machine) ?? '';
  const lastSeen = isoOrNull(machine.lastSeen);
  const osVersion = str(machine.osVersion) ?? str(machine.version) ?? (typeof machine.osBuild === 'number' ? String(machine.osBuild) : null);
  return {
    vendor: 'defender',
    tenantId: ctx.connectorId,
    hostId: id,
    hostname: str(machine.computerDnsName) ?? id,
    customerId: ctx.tenantId,
    platform: platformOf(machine.osPlatform),
    osVersion,
    lastSeen,
    defender: {
      riskScore: enumValue(DefenderRiskScore.options, machine.riskScore),
      exposureLevel: enumValue(DefenderExposureLevel.options, machine.exposureLevel),
      healthStatus: enumValue(DefenderHealthStatus.options, machine.healthStatus),
      avStatus: enumValue(DefenderAvStatus.options, machine.defenderAvStatus),
      onboardingStatus: enumValue(DefenderOnboardingStatus.options, machine.onboardingStatus ?? machine.onboardingstatus),
      lastSeen,
      ...cves,
    },
  };
}
