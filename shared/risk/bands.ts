/**
 * Risk bands of spec 2.3. The table lists whole scores (0 to 20, 21 to 40, ...); scores are
 * fractional, so a score is banded by its value rounded to the nearest whole number, halves up
 * (EDR-S4): 20.49 is Trustworthy, 20.5 is Low Risk. Every real number lands in exactly one band;
 * values below 0 band as Trustworthy and above 100 as High Risk (scoring never produces them).
 */
import type { RiskBand, ScoreBand } from '../model/edr';
import { defaultRiskConfig, type RiskBandEdges } from './config';

/** The five bands of a score (spec 2.3); RiskBand adds Not assessed after them. */
export const RISK_BANDS: readonly ScoreBand[] = Object.freeze(['Trustworthy', 'Low Risk', 'Moderate Risk', 'Suspicious', 'High Risk'] as const);


/**
 * The score stored for a host its vendor has not assessed (EDR-N1): what zero trust assumes of a
 * host nobody vouches for, and what a fail-closed connector publishes for it. No view shows it as a
 * score: the band says Not assessed, and means, movers and the riskiest hosts leave such hosts out.
 */
export const NOT_ASSESSED_SCORE = 100;

/** The band of a 0..100 score under `edges` (inclusive upper bounds of the first four bands). */
export function bandFor(score: number, edges: RiskBandEdges = defaultRiskConfig.bands): ScoreBand {
  if (Number.isNaN(score)) throw new RangeError('A risk score must be a number.');
  return RISK_BANDS[bandIndexFor(score, edges)]!;
}

/** `bandFor` as the band's place in RISK_BANDS (0 Trustworthy … 4 High Risk); a NaN score is High Risk. */
export function bandIndexFor(score: number, edges: RiskBandEdges): number {
  // Math.round rounds halves towards +Infinity, i.e. up for every score of the 0..100 scale.
  const whole = Math.round(score);
  if (whole <= edges[0]) return 0;
  if (whole <= edges[1]) return 1;
  if (whole <= edges[2]) return 2;
  if (whole <= edges[3]) return 3;
  return 4;
}

/** The whole-score range of a band as the spec's table writes it, e.g. Low Risk = { min: 21, max: 40 }. */
export function bandRange(band: RiskBand, edges: RiskBandEdges = defaultRiskConfig.bands): { min: number; max: number } {
  const i = RISK_BANDS.indexOf(band as ScoreBand);
  if (i < 0) throw new RangeError(`Unknown risk band: ${String(band)}.`);
  const min = i === 0 ? 0 : (edges[i - 1] as number) + 1;
  const max = i === 4 ? 100 : (edges[i] as number);
  return { min, max };
}

/** Clamps to [0, 100] and keeps two decimals; the stored score, which is also the one banded. */
export function roundScore(raw: number): number {
  if (!(raw > 0)) return 0; // also NaN
  if (raw >= 100) return 100;
  return Math.round(raw * 100) / 100;
}
