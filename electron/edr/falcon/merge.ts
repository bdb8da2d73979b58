/**
 * Falcon device records and Zero Trust Assessments as they enter the app (zod-checked, unknown
 * fields dropped), and their merge into the vendor-neutral HostRecord (EDR-F9, EDR-F10).
 */
import { z } from 'zod';
import type { FalconAssessment, FalconFacts, HostRecord, Platform } from '../../../shared/model/edr';
import { boundStrings, boundText, LIMITS } from '../../../shared/model/limits';

/** The device fields the connector reads; the API sends many more. */
export const FalconDevice = z.object({
  device_id: z.string().min(1),
  cid: z.string().nullish(),
  hostname: z.string().nullish(),
  platform_name: z.string().nullish(),
  os_version: z.string().nullish(),
  agent_version: z.string().nullish(),
  last_seen: z.string().nullish(),
  /** "yes" / "no" (sometimes "Unknown"); a boolean is accepted too. */
  reduced_functionality_mode: z.union([z.string(), z.boolean()]).nullish(),
});
export type FalconDevice = z.infer<typeof FalconDevice>;

const Signal = z.object({
  signal_id: z.string(),
  criteria: z.string().nullish(),
  meets_criteria: z.string().nullish(),
  group_name: z.string().nullish(),
});

const Score = z.number();

export const FalconZta = z.object({
  aid: z.string().min(1),
  assessment: z.object({ os: Score, sensor_config: Score, overall: Score, version: z.string().nullish() }).nullish(),
  assessment_items: z.object({ os_signals: z.array(Signal).nullish(), sensor_signals: z.array(Signal).nullish() }).nullish(),
});
export type FalconZta = z.infer<typeof FalconZta>;

/** Hosts count as running when seen within this window (EDR-F10). */
export const DEFAULT_SENSOR_WINDOW_MS = 24 * 3_600_000;

export function parseDevices(resources: readonly unknown[]): { devices: FalconDevice[]; invalid: number } {
  const devices: FalconDevice[] = [];
  let invalid = 0;
  for (const r of resources) {
    const p = FalconDevice.safeParse(r);
    // Every field kept is a word (an ID, a host name, an OS version): cut to LIMITS.name (issue 20.5).
    if (p.success) devices.push(boundStrings(p.data, LIMITS.name));
    else invalid += 1;
  }
  return { devices, invalid };
}

const clamp = (n: number) => Math.min(100, Math.max(0, n));
const meets = (v: string | null | undefined): 'yes' | 'no' | 'unknown' => {
  const s = (v ?? '').toLowerCase();
  return s === 'yes' || s === 'no' ? s : 'unknown';
};
type AssessmentSignal = FalconAssessment['os_signals'][number];
/**
 * Signals repeat across a fleet (a few dozen ids times yes/no/unknown), so equal ones are shared,
 * frozen objects: 100,000 hosts with a dozen signals each cost a few hundred objects, not a million.
 * Bounded, so hostile data cannot grow it without limit.
 */
const internedSignals = new Map<string, Readonly<AssessmentSignal>>();
const INTERN_MAX = 10_000;
function signal(raw: z.infer<typeof Signal>): AssessmentSignal {
  // Words of the tenant, cut to LIMITS.name (issue 20.5) before they make a key.
  const s = { signal_id: boundText(raw.signal_id, LIMITS.name), criteria: boundText(raw.criteria, LIMITS.name), group_name: boundText(raw.group_name, LIMITS.name) };
  const m = meets(raw.meets_criteria);
  const key = `${s.signal_id}\u0000${m}\u0000${s.criteria ?? ''}\u0000${s.group_name ?? ''}`;
  const hit = internedSignals.get(key);
  if (hit) return hit;
  const made: AssessmentSignal = Object.freeze({ signal_id: s.signal_id, meets_criteria: m, ...(s.criteria ? { criteria: s.criteria } : {}), ...(s.group_name ? { group_name: s.group_name } : {}) });
  if (internedSignals.size < INTERN_MAX) internedSignals.set(key, made);
  return made;
}
const signals = (xs: z.infer<typeof Signal>[] | null | undefined): AssessmentSignal[] => (xs ?? []).map(signal);

/** The assessment of a ZTA record, or null when the host has no scores yet. */
export function toAssessment(z: FalconZta): FalconAssessment | null {
  const a = z.assessment;
  if (!a) return null;
  return {
    os: clamp(a.os),
    sensor_config: clamp(a.sensor_config),
    overall: clamp(a.overall),
    ...(a.version ? { version: boundText(a.version, LIMITS.name) } : {}),
    os_signals: signals(z.assessment_items?.os_signals),
    sensor_signals: signals(z.assessment_items?.sensor_signals),
  };
}

/**
 * Assessments by aid (lower case); records that do not parse count as not assessed. `into` gathers
 * the answers of several calls in one map.
 */
export function parseAssessments(resources: readonly unknown[], into = new Map<string, FalconAssessment>()): { byAid: Map<string, FalconAssessment>; invalid: number } {
  const byAid = into;
  let invalid = 0;
  for (const r of resources) {
    const p = FalconZta.safeParse(r);
    if (!p.success) {
      invalid += 1;
      continue;
    }
    const a = toAssessment(p.data);
    if (a) byAid.set(p.data.aid.toLowerCase(), a);
  }
  return { byAid, invalid };
}

export function toPlatform(name: string | null | undefined): Platform {
  switch ((name ?? '').toLowerCase()) {
    case 'windows':
      return 'Windows';
    case 'mac':
    case 'macos':
      return 'Mac';
    case 'linux':
      return 'Linux';
    default:
      return 'Other';
  }
}

export const isReducedFunctionality = (v: string | boolean | null | undefined): boolean => v === true || (typeof v === 'string' && v.toLowerCase() === 'yes');

/** Seen within the window (a last_seen in the future counts as now) and not in reduced functionality mode. */
export function sensorRunning(lastSeen: string | null | undefined, rfm: boolean, now: number, windowMs: number): boolean {
  if (rfm || !lastSeen) return false;
  const t = Date.parse(lastSeen);
  return Number.isFinite(t) && now - t <= windowMs;
}

export interface MergeContext {
  tenantId: string;
  now: number;
  sensorWindowMs: number;
}

export function toHostRecord(d: FalconDevice, assessment: FalconAssessment | null, ctx: MergeContext): HostRecord {
  const rfm = isReducedFunctionality(d.reduced_functionality_mode);
  const lastSeen = d.last_seen ?? null;
  const falcon: FalconFacts = {
    assessment,
    sensorRunning: sensorRunning(lastSeen, rfm, ctx.now, ctx.sensorWindowMs),
    agentVersion: d.agent_version ?? null,
    lastSeen,
    reducedFunctionalityMode: rfm,
  };
  return {
    vendor: 'falcon',
    tenantId: ctx.tenantId,
    hostId: d.device_id,
    hostname: d.hostname || d.device_id,
    customerId: d.cid ?? '',
    platform: toPlatform(d.platform_name),
    osVersion: d.os_version ?? null,
    lastSeen,
    falcon,
  };
}
