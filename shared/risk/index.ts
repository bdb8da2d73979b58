/**
 * Risk scoring (pure): vendor B formula of spec 2.3, vendor A mapping and profiles of spec 2.4,
 * per-tenant configuration. See docs/spec-decisions.md (EDR-S*) for the choices the spec leaves open.
 */
import type { HostRecord, ScoredHost } from '../model/edr';
import { AppError } from '../model/errors';
import type { CompiledRiskConfig } from './compile';
import type { RiskConfig } from './config';
import { scoreDefenderHost, type RiskResult } from './defender';
import { scoreFalconHost } from './falcon';

export { NOT_ASSESSED_SCORE, RISK_BANDS, bandFor, bandIndexFor, bandRange, roundScore } from './bands';
export { compileRiskConfig, type CompiledRiskConfig } from './compile';
export {
  FalconRiskConfig,
  RISK_CONFIG_INVALID,
  RiskBandEdges,
  RiskConfig,
  RiskConfigError,
  RiskPoints,
  RiskThresholds,
  RiskWeights,
  defaultRiskConfig,
  isValidatedRiskConfig,
  parseRiskConfig,
  tenantRiskConfig,
  tenantRiskConfigOrThrow,
  type RiskConfigIssue,
  type RiskConfigOverrides,
  type RiskConfigResult,
} from './config';
export {
  DEFENDER_INDICATORS,
  countCriticalCves,
  DEFENDER_NOT_ASSESSED,
  defenderNotAssessed,
  defenderSubScores,
  inactivityBucket,
  prepareDefenderHosts,
  scoreDefenderHost,
  scorePreparedDefender,
  toEpochMs,
  type DefenderIndicator,
  type PreparedDefenderHosts,
  type RiskResult,
} from './defender';
export {
  FALCON_NOT_ASSESSED,
  FALCON_POSTURE_OBJECT_ID,
  FALCON_POSTURE_PROFILE_ID,
  FALCON_PROFILES,
  FALCON_SOFTWARE_OBJECT_ID,
  FALCON_SOFTWARE_PROFILE_ID,
  FALCON_VENDOR_NAME,
  evaluateFalconProfiles,
  falconPostureProfile,
  falconRiskFromOverall,
  falconSoftwareProfile,
  scoreFalconHost,
  type FalconProfileId,
} from './falcon';

export const RISK_MISSING_FACTS = 'risk.missing_facts';

/** Result of `scoreHost`: a `ScoredHost` without the host and the time stamp, which the caller adds. */
export type HostScore = Omit<ScoredHost, 'scoredAt' | 'host'>;

/**
 * Scores one host with its tenant's configuration at the cycle time `now`, by vendor.
 * Throws an `AppError` (`risk.missing_facts`) when the host lacks its vendor's facts — a connector
 * fault; callers scoring many hosts catch it per host.
 */
export function scoreHost(host: HostRecord, config: RiskConfig | CompiledRiskConfig, now: Date | number): HostScore {
  let r: RiskResult;
  if (host.vendor === 'defender') {
    if (!host.defender) throw missingFacts(host);
    r = scoreDefenderHost(host.defender, config, now);
  } else {
    if (!host.falcon) throw missingFacts(host);
    r = scoreFalconHost(host.falcon, config);
  }
  return r;
}

const missingFacts = (host: HostRecord) =>
  new AppError(RISK_MISSING_FACTS, `Host ${host.hostname} (${host.hostId}) has no ${host.vendor === 'defender' ? 'Defender' : 'Falcon'} data to score.`, 'Check the connector of this tenant; the host is skipped until its data arrives.', {
    details: { hostId: host.hostId, vendor: host.vendor, tenantId: host.tenantId },
  });
