/**
 * Vendor A (CrowdStrike Falcon). Falcon's Zero Trust Assessment gives an OS, a sensor-config and
 * an overall score, 1..100, higher is better; they are kept as the vendor gives them (they stay
 * in `HostRecord.falcon.assessment`). The console's 0..100 risk score, higher is riskier, is
 * derived from the vendor's overall score only (EDR-S6):
 *
 *   risk = 100 - overall
 *
 * and banded by the table of spec 2.3. A host without an assessment yet is Not assessed (EDR-N1):
 * it has no score of its own, and what is published for it is its connector's choice. The OS and sensor assessments are part of the vendor's
 * overall; they are listed as contributions with a share of 0 so the UI shows all three.
 *
 * The two predefined profiles of spec 2.4 (EDR-S7):
 * - software: the Falcon sensor is installed and running = `sensorRunning` and not in reduced
 *   functionality mode;
 * - posture: an assessment exists, overall >= `postureMinOverall` (70), sensor_config >=
 *   `postureMinSensorConfig` (70) and os >= `postureMinOs` (0, i.e. not checked). Whether the
 *   sensor runs is the software profile's question; a rule can require both.
 */
import { NOT_ASSESSED, type Contribution, type FalconFacts } from '../model/edr';
import { NOT_ASSESSED_SCORE, bandFor, roundScore } from './bands';
import { compileRiskConfig, type CompiledRiskConfig } from './compile';
import type { FalconRiskConfig, RiskConfig } from './config';
import type { RiskResult } from './defender';

export const FALCON_VENDOR_NAME = 'crowdstrike';

export const FALCON_SOFTWARE_PROFILE_ID = 'eip-profile-endpoint_security-software-crowdstrike';
export const FALCON_SOFTWARE_OBJECT_ID = 'eip-object-endpoint_security-software-crowdstrike';
export const FALCON_POSTURE_PROFILE_ID = 'eip-profile-endpoint_security-crowdstrike';
export const FALCON_POSTURE_OBJECT_ID = 'eip-object-endpoint_security-crowdstrike';

export type FalconProfileId = typeof FALCON_SOFTWARE_PROFILE_ID | typeof FALCON_POSTURE_PROFILE_ID;

/** The predefined profiles and objects of spec 2.4, as security rules reference them. */
export const FALCON_PROFILES = Object.freeze([
  Object.freeze({ profile: FALCON_SOFTWARE_PROFILE_ID, object: FALCON_SOFTWARE_OBJECT_ID, checks: 'The CrowdStrike Falcon sensor is installed and running' }),
  Object.freeze({ profile: FALCON_POSTURE_PROFILE_ID, object: FALCON_POSTURE_OBJECT_ID, checks: 'CrowdStrike Falcon posture (Zero Trust Assessment)' }),
] as const);

/** Maps Falcon's overall ZTA (higher is better) to the console's risk score (higher is riskier). */
export const falconRiskFromOverall = (overall: number): number => roundScore(100 - overall);

/** Software profile: the agent is installed and running. */
export const falconSoftwareProfile = (facts: FalconFacts): boolean => facts.sensorRunning && !facts.reducedFunctionalityMode;

/** Posture profile: the assessment meets the tenant's thresholds. */
export function falconPostureProfile(facts: FalconFacts, thresholds: FalconRiskConfig): boolean {
  const a = facts.assessment;
  if (a === null) return false;
  return a.overall >= thresholds.postureMinOverall && a.sensor_config >= thresholds.postureMinSensorConfig && a.os >= thresholds.postureMinOs;
}

/** Both profiles, by identifier. */
export function evaluateFalconProfiles(facts: FalconFacts, config: RiskConfig | CompiledRiskConfig): Record<FalconProfileId, boolean> {
  const f = compileRiskConfig(config).falcon;
  return { [FALCON_SOFTWARE_PROFILE_ID]: falconSoftwareProfile(facts), [FALCON_POSTURE_PROFILE_ID]: falconPostureProfile(facts, f) };
}

/** Why a Falcon host is Not assessed: its only contribution (shared, frozen). */
export const FALCON_NOT_ASSESSED: Contribution = Object.freeze({
  indicator: 'assessment',
  group: 'falcon',
  points: 0,
  scoreShare: 0,
  detail: 'Not assessed: Falcon has no Zero Trust Assessment for this host yet (a new sensor is usually assessed within a day)',
});

/** Scores one Falcon host: risk from the overall ZTA, contributions explaining it, profiles evaluated. */
export function scoreFalconHost(facts: FalconFacts, config: RiskConfig | CompiledRiskConfig): RiskResult {
  const c = compileRiskConfig(config);
  const a = facts.assessment;
  const profiles = evaluateFalconProfiles(facts, c);
  if (a === null) return { score: NOT_ASSESSED_SCORE, band: NOT_ASSESSED, contributions: [FALCON_NOT_ASSESSED], profiles };
  const score = falconRiskFromOverall(a.overall);
  const contributions: Contribution[] = [
    { indicator: 'overall', group: 'falcon', points: a.overall, scoreShare: score, detail: `Falcon overall ZTA ${a.overall} of 100 (higher is better): risk 100 - ${a.overall} = ${score}` },
    { indicator: 'os', group: 'falcon', points: a.os, scoreShare: 0, detail: `Falcon OS assessment ${a.os} (part of the vendor's overall)` },
    { indicator: 'sensor_config', group: 'falcon', points: a.sensor_config, scoreShare: 0, detail: `Falcon sensor assessment ${a.sensor_config} (part of the vendor's overall)` },
  ];
  return { score, band: bandFor(score, c.bands), contributions, profiles };
}
