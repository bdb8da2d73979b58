/**
 * The attributes of a scored host that the ZTA dashboard shows and the what-if rescoring reads,
 * flattened out of its vendor facts (EDR-H2). Main stores them as columns beside the latest score;
 * the window receives them as a snapshot. The CVSS scores of a Defender host travel as one compact
 * string (`encodeCvss`), so counting critical CVEs against another threshold needs no record.
 */
import type { DefenderFacts, FalconFacts, HostRecord } from './edr';

export interface HostAttributes {
  osAssessment: number | null;
  sensorAssessment: number | null;
  overallAssessment: number | null;
  sensorRunning: boolean | null;
  reducedFunctionality: boolean | null;
  riskLevel: DefenderFacts['riskScore'];
  exposure: DefenderFacts['exposureLevel'];
  health: DefenderFacts['healthStatus'];
  avStatus: DefenderFacts['avStatus'];
  onboarding: DefenderFacts['onboardingStatus'];
  criticalCves: number | null;
  cveCount: number | null;
  maxCvss: number | null;
  /** `encodeCvss` of the host's CVEs; null when unknown (not Defender, or a record without its list). */
  cvss: string | null;
}

/** The CVSS scores of a host's CVEs as one string: one character per scored CVE, tenths above 32, highest first. */
export function encodeCvss(list: ReadonlyArray<{ cvss: number | null }>): string {
  const tenths: number[] = [];
  for (const v of list) if (v.cvss !== null) tenths.push(Math.round(v.cvss * 10));
  tenths.sort((a, b) => b - a);
  return String.fromCharCode(...tenths.map((t) => 32 + t));
}

/** How many CVEs of an encoded list reach `threshold` (a CVSS score). */
export function countCvssAtLeast(encoded: string, threshold: number): number {
  const min = 32 + Math.round(threshold * 10);
  let n = 0;
  while (n < encoded.length && encoded.charCodeAt(n) >= min) n += 1;
  return n;
}

const NONE: HostAttributes = {
  osAssessment: null,
  sensorAssessment: null,
  overallAssessment: null,
  sensorRunning: null,
  reducedFunctionality: null,
  riskLevel: null,
  exposure: null,
  health: null,
  avStatus: null,
  onboarding: null,
  criticalCves: null,
  cveCount: null,
  maxCvss: null,
  cvss: null,
};

export function hostAttributes(h: HostRecord): HostAttributes {
  if (h.falcon) return falconAttributes(h.falcon);
  if (h.defender) return defenderAttributes(h.defender);
  return NONE;
}

function falconAttributes(f: FalconFacts): HostAttributes {
  const a = f.assessment;
  return {
    ...NONE,
    osAssessment: a?.os ?? null,
    sensorAssessment: a?.sensor_config ?? null,
    overallAssessment: a?.overall ?? null,
    sensorRunning: f.sensorRunning,
    reducedFunctionality: f.reducedFunctionalityMode,
  };
}

function defenderAttributes(d: DefenderFacts): HostAttributes {
  return {
    ...NONE,
    riskLevel: d.riskScore,
    exposure: d.exposureLevel,
    health: d.healthStatus,
    avStatus: d.avStatus,
    onboarding: d.onboardingStatus,
    criticalCves: d.criticalCveCount,
    cveCount: d.cveCount,
    maxCvss: d.maxCvss,
    cvss: d.vulnerabilities ? encodeCvss(d.vulnerabilities) : null,
  };
}

/** The facts a rescoring needs, rebuilt from the attributes (what-if in the window; EDR-H6). */
export function defenderFactsOf(a: HostAttributes, lastSeen: string | null, criticalCvss: number): DefenderFacts {
  return {
    riskScore: a.riskLevel,
    exposureLevel: a.exposure,
    healthStatus: a.health,
    avStatus: a.avStatus,
    onboardingStatus: a.onboarding,
    lastSeen,
    criticalCveCount: a.cvss !== null ? countCvssAtLeast(a.cvss, criticalCvss) : (a.criticalCves ?? 0),
    cveCount: a.cveCount ?? 0,
    maxCvss: a.maxCvss,
  };
}

export function falconFactsOf(a: HostAttributes, lastSeen: string | null): FalconFacts {
  const assessed = a.overallAssessment !== null;
  return {
    assessment: assessed ? { os: a.osAssessment ?? 0, sensor_config: a.sensorAssessment ?? 0, overall: a.overallAssessment ?? 0, os_signals: [], sensor_signals: [] } : null,
    sensorRunning: a.sensorRunning ?? false,
    agentVersion: null,
    lastSeen,
    reducedFunctionalityMode: a.reducedFunctionality ?? false,
  };
}
