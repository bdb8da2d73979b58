/**
 * "Why this host has its band", in an operator's words: each contribution's own words (the
 * scoring's `detail`, e.g. "Risk score High", "Inactive 4 to 7 days") and one sentence saying what
 * that indicator means. Pure, so the dialog and the printable report can share it.
 */
import type { Contribution, RiskBand } from '../../../shared/model/edr';
import { bandRange } from '../../../shared/risk';

const MEANING: Record<string, string> = {
  riskScore: 'Defender’s own rating of how likely the machine is compromised.',
  exposureLevel: 'How exposed the machine is to known weaknesses, as Defender measures it.',
  avStatus: 'Whether the antivirus is on and reporting.',
  onboardingStatus: 'Whether the machine is onboarded to Defender for Endpoint.',
  healthStatus: 'Whether the Defender sensor is active and talking to the service.',
  inactivity: 'How long since the machine was last seen.',
  criticalCves: 'Vulnerabilities with a critical CVSS score on the machine.',
  overall: 'Falcon’s Zero Trust Assessment of the host; the risk score is 100 minus it.',
  assessment: 'Falcon has not assessed this host yet, and an unknown host is not trusted.',
  os: 'Falcon’s assessment of the operating system (part of its overall).',
  sensor_config: 'Falcon’s assessment of the sensor’s configuration (part of its overall).',
};

const GROUP: Record<Contribution['group'], string> = { critical: 'critical-risk', operational: 'operational-health', falcon: 'Falcon' };

export interface Reason {
  contribution: Contribution;
  /** The scoring's words for the value found. */
  what: string;
  /** What the indicator means. */
  meaning: string;
  /** How it adds to the score. */
  how: string;
}

const points = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** The contributions that add to the score, largest first, and those that add nothing. */
export function reasons(contributions: readonly Contribution[]): { counted: Reason[]; nothing: Reason[] } {
  const all = contributions.map(
    (c): Reason => ({
      contribution: c,
      what: c.detail,
      meaning: MEANING[c.indicator] ?? '',
      how:
        c.group === 'falcon'
          ? c.scoreShare > 0
            ? `adds ${points(c.scoreShare)} to the score`
            : `Falcon gives ${points(c.points)} of 100`
          : c.scoreShare > 0
            ? `${points(c.points)} ${GROUP[c.group]} points: adds ${points(c.scoreShare)} to the score`
            : 'adds nothing',
    }),
  );
  const counted = all.filter((r) => r.contribution.scoreShare > 0).sort((a, b) => b.contribution.scoreShare - a.contribution.scoreShare);
  const nothing = all.filter((r) => !(r.contribution.scoreShare > 0));
  return { counted, nothing };
}

/** "Score 64.2 is Suspicious: this tenant's Suspicious band holds 61 to 80." */
export function bandSentence(score: number, band: RiskBand, edges: [number, number, number, number]): string {
  const { min, max } = bandRange(band, edges);
  return `Score ${score.toFixed(1)} is ${band}: this tenant’s ${band} band holds whole scores ${min} to ${max}.`;
}
