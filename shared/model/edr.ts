/**
 * EDR model shared by the connectors (electron/edr), the scoring (shared/risk) and the UI.
 * Vendor A = CrowdStrike Falcon, vendor B = Microsoft Defender for Endpoint. Field values follow
 * the vendors' public APIs so the console works against real tenants.
 */
import { z } from 'zod';

export const Vendor = z.enum(['falcon', 'defender']);
export type Vendor = z.infer<typeof Vendor>;

/** Defender Machine enums (public API values). */
export const DefenderRiskScore = z.enum(['None', 'Informational', 'Low', 'Medium', 'High']);
export const DefenderExposureLevel = z.enum(['None', 'Low', 'Medium', 'High']);
export const DefenderHealthStatus = z.enum(['Active', 'Inactive', 'ImpairedCommunication', 'NoSensorData', 'NoSensorDataImpairedCommunication', 'Unknown']);
export const DefenderAvStatus = z.enum(['Updated', 'NotUpdated', 'Disabled', 'NotReporting', 'NotSupported', 'Unknown']);
export const DefenderOnboardingStatus = z.enum(['Onboarded', 'CanBeOnboarded', 'Unsupported', 'InsufficientInfo']);

/** Defender's vulnerability severity (`vulnerabilitySeverityLevel` of the export, `severity` of a Vulnerability). */
export const CveSeverity = z.enum(['Critical', 'High', 'Medium', 'Low']);
export type CveSeverity = z.infer<typeof CveSeverity>;

/** The vendor B facts the risk formula reads (spec 2.2), taken from one Machine plus its vulnerabilities. */
export const DefenderFacts = z.object({
  riskScore: DefenderRiskScore.nullable(),
  exposureLevel: DefenderExposureLevel.nullable(),
  healthStatus: DefenderHealthStatus.nullable(),
  avStatus: DefenderAvStatus.nullable(),
  onboardingStatus: DefenderOnboardingStatus.nullable(),
  /** ISO time the device was last seen; days of inactivity are computed against the cycle time. */
  lastSeen: z.string().nullable(),
  /** CVEs on the device with CVSS >= 9.0. */
  criticalCveCount: z.number().int().min(0),
  /** All CVEs on the device (for the UI). */
  cveCount: z.number().int().min(0),
  /** Highest CVSS seen on the device, null when none. */
  maxCvss: z.number().min(0).max(10).nullable(),
  /**
   * The device's CVEs as Defender lists them, highest CVSS first (EDR-H5): the host details show
   * them, and a rescore (or the what-if) counts critical CVEs against the tenant's threshold.
   * Absent in records stored before the list was kept.
   */
  vulnerabilities: z.array(z.object({ cveId: z.string(), cvss: z.number().min(0).max(10).nullable(), severity: CveSeverity.nullable() })).optional(),
});
export type DefenderFacts = z.infer<typeof DefenderFacts>;

/** Falcon Zero Trust Assessment as the vendor gives it: 1..100, higher is better. */
export const FalconSignal = z.object({ signal_id: z.string(), criteria: z.string().optional(), meets_criteria: z.enum(['yes', 'no', 'unknown']), group_name: z.string().optional() });
export const FalconAssessment = z.object({
  os: z.number().min(0).max(100),
  sensor_config: z.number().min(0).max(100),
  overall: z.number().min(0).max(100),
  version: z.string().optional(),
  os_signals: z.array(FalconSignal).default([]),
  sensor_signals: z.array(FalconSignal).default([]),
});
export type FalconAssessment = z.infer<typeof FalconAssessment>;

/** Falcon host facts needed by the two predefined profiles of spec 2.4. */
export const FalconFacts = z.object({
  assessment: FalconAssessment.nullable(),
  /** Sensor reported recently and not in reduced functionality mode. */
  sensorRunning: z.boolean(),
  agentVersion: z.string().nullable(),
  lastSeen: z.string().nullable(),
  reducedFunctionalityMode: z.boolean().default(false),
});
export type FalconFacts = z.infer<typeof FalconFacts>;

export const Platform = z.enum(['Windows', 'Mac', 'Linux', 'Other']);
export type Platform = z.infer<typeof Platform>;

/** One host as a connector delivers it, vendor-neutral around the vendor's own facts. */
export const HostRecord = z.object({
  vendor: Vendor,
  /** Our tenant (connector) id. */
  tenantId: z.string(),
  /** The vendor's device id (Defender machine id, Falcon device_id / aid). */
  hostId: z.string(),
  hostname: z.string(),
  /** Customer ID shown in the ZTA dashboard filter (Falcon cid; Defender tenant id). */
  customerId: z.string(),
  platform: Platform,
  osVersion: z.string().nullable(),
  lastSeen: z.string().nullable(),
  defender: DefenderFacts.optional(),
  falcon: FalconFacts.optional(),
});
export type HostRecord = z.infer<typeof HostRecord>;

/**
 * Where a host stands: one of the spec's five score bands (spec 2.3), or **Not assessed** when its
 * vendor has not assessed it (Falcon without a Zero Trust Assessment, Defender without the fields
 * its score needs; EDR-N1). Not assessed is last, so a band's index in RISK_BANDS is the same here;
 * it is counted apart from the score bands wherever bands are counted.
 */
export const RiskBand = z.enum(['Trustworthy', 'Low Risk', 'Moderate Risk', 'Suspicious', 'High Risk', 'Not assessed']);
export type RiskBand = z.infer<typeof RiskBand>;
/** The band of a host its vendor has not assessed (EDR-N1). */
export const NOT_ASSESSED = 'Not assessed' satisfies RiskBand;
/** Not assessed's place in RiskBand's options (after the five score bands): a snapshot's band column and a prepared score hold it. */
export const NOT_ASSESSED_INDEX = RiskBand.options.indexOf(NOT_ASSESSED);
/** The five bands a score falls in (spec 2.3), without Not assessed. */
export type ScoreBand = Exclude<RiskBand, typeof NOT_ASSESSED>;

/** One indicator's share of a score, so the UI can explain it. */
export const Contribution = z.object({
  indicator: z.string(),
  group: z.enum(['critical', 'operational', 'falcon']),
  /** Raw points of the indicator before normalization. */
  points: z.number(),
  /** Points added to the final 0..100 score by this indicator. */
  scoreShare: z.number(),
  detail: z.string(),
});
export type Contribution = z.infer<typeof Contribution>;

export const ScoredHost = z.object({
  host: HostRecord,
  /** 0..100, higher is riskier, for both vendors. */
  score: z.number().min(0).max(100),
  band: RiskBand,
  contributions: z.array(Contribution),
  /** Falcon only: results of the predefined profiles of spec 2.4, by identifier. */
  profiles: z.record(z.string(), z.boolean()).optional(),
  scoredAt: z.string(),
});
export type ScoredHost = z.infer<typeof ScoredHost>;
