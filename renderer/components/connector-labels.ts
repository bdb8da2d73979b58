/** Words the connectors page shows for vendor, region, phase and times. */
import type { CycleProgress, CycleState } from '../../shared/contract';
import type { FalconRegion, NotAssessedPublication } from '../../shared/model/connector';
import type { Vendor } from '../../shared/model/edr';
import { formatCount, formatDuration } from './format';
import { REGION_LABELS, VENDOR_LABELS } from '../../shared/validation/labels';

export { agoText } from './format';

/** The same words the validation messages use (shared/validation/labels.ts). */
export const vendorLabel: Record<Vendor, string> = VENDOR_LABELS;
export const regionLabel: Record<FalconRegion, string> = REGION_LABELS;

/** A connector's choice for hosts its vendor has not assessed (EDR-N2): the form's option, the row's word, what it means, and what it does to one host (its details). */
export const NOT_ASSESSED_CHOICES: Record<NotAssessedPublication, { option: string; short: string; hint: string; forHost: string }> = {
  'fail-closed': {
    option: 'Publish as High Risk (fail-closed, default)',
    short: 'published as High Risk',
    forHost: 'Published to the SD-WAN as High Risk (score 100): fail-closed, the zero trust default.',
    hint: 'Hosts the vendor has not assessed yet are published to the SD-WAN as High Risk (score 100, assessed: false): zero trust, nothing unvouched-for passes as safe.',
  },
  withhold: {
    option: 'Withhold: publish nothing for them',
    short: 'withheld',
    forHost: 'Not published to the SD-WAN: the connector withholds hosts not assessed, so the SD-WAN’s own rule for a host without a score applies.',
    hint: 'Hosts the vendor has not assessed yet are left out of what is published: the SD-WAN’s own rule for a host without a score applies to them.',
  },
};

export const phaseLabel: Record<CycleProgress['phase'], string> = {
  starting: 'starting',
  devices: 'devices',
  vulnerabilities: 'vulnerabilities',
  scoring: 'scoring',
  storing: 'storing',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
};

export const cycleStatusLabel: Record<CycleState, string> = {
  running: 'running',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
};

/** What an interrupted cycle (the app stopped while it ran) means for its scores. */
export function interruptedText(hostsStored: number): string {
  const stored = hostsStored > 0 ? ` The scores of ${formatCount(hostsStored)} hosts were stored but not published.` : ' No scores were stored.';
  return `Interrupted — the app stopped during this poll.${stored}`;
}

/** 10 → "every 10 min", 90 → "every 1 h 30 min", 1440 → "every 1 d". */
export const pollEvery = (minutes: number) => `every ${formatDuration(minutes * 60)}`;

/** "in 8 min", "in 2 h", "due now". */
export function inText(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const min = Math.ceil((t - now) / 60_000);
  if (min <= 0) return 'due now';
  if (min < 60) return `in ${min} min`;
  const h = Math.round(min / 60);
  return h < 48 ? `in ${h} h` : `in ${Math.round(h / 24)} d`;
}

/** "vulnerabilities 120/400", or "devices 300" while the total is unknown. */
export function progressText(p: CycleProgress): string {
  return `${phaseLabel[p.phase]} ${p.total === null ? p.done : `${p.done}/${p.total}`}`;
}
