/**
 * The "Risk scoring" part of the connector form (spec 2.3): one text box per setting of
 * `RiskConfig`, empty = the documented default (shown as the placeholder). Only values that differ
 * from the defaults become overrides, so a later change of a default still reaches every tenant
 * that never customised that setting. Edges (bands, inactivity days) are one setting each: when
 * any edge differs, all four are sent (empty boxes filled with their defaults).
 *
 * Validation is not repeated here: `ConnectorInput` merges the overrides onto the defaults with
 * `tenantRiskConfig` and reports each issue at its field (`risk.weights`, `risk.bands`,
 * `risk.points.riskScore.High` …), which are the names of the boxes below.
 */
import type { RiskConfig, RiskConfigOverrides } from '../../shared/risk/config';
import { defaultRiskConfig } from '../../shared/risk/config';
import type { Vendor } from '../../shared/model/edr';

/** Every number of `RiskConfig` as the text typed into its box. */
type FormOf<T> = T extends number ? string : { -readonly [K in keyof T]: FormOf<T[K]> };
export type RiskFormValues = FormOf<RiskConfig>;

/** `risk.<path>`: the form field name, also the path of server and zod issues. */
export type RiskFieldName = `risk.${string}`;

export type RiskGroupId = 'weights' | 'critical' | 'operational' | 'thresholds' | 'edges' | 'bands' | 'falcon';

export interface RiskField {
  name: RiskFieldName;
  path: readonly (string | number)[];
  label: string;
  group: RiskGroupId;
  /** Input step; 1 unless the setting takes decimals. */
  step?: number;
}

const f = (group: RiskGroupId, path: readonly (string | number)[], label: string, step?: number): RiskField => ({
  name: `risk.${path.join('.')}`,
  path,
  label,
  group,
  ...(step !== undefined ? { step } : {}),
});

export const RISK_FIELDS: readonly RiskField[] = [
  f('weights', ['weights', 'critical'], 'Critical risk (%)'),
  f('weights', ['weights', 'operational'], 'Operational health (%)'),
  f('critical', ['points', 'riskScore', 'Low'], 'Risk score Low'),
  f('critical', ['points', 'riskScore', 'Medium'], 'Risk score Medium'),
  f('critical', ['points', 'riskScore', 'High'], 'Risk score High'),
  f('critical', ['points', 'exposureLevel', 'Medium'], 'Exposure Medium'),
  f('critical', ['points', 'exposureLevel', 'High'], 'Exposure High'),
  f('critical', ['points', 'avStatus', 'Disabled'], 'AV Disabled'),
  f('critical', ['points', 'avStatus', 'NotReporting'], 'AV Not Reporting'),
  f('critical', ['points', 'onboarding', 'NotOnboarded'], 'Not onboarded'),
  f('operational', ['points', 'healthStatus', 'Inactive'], 'Health Inactive'),
  f('operational', ['points', 'healthStatus', 'ImpairedCommunication'], 'Impaired communication'),
  f('operational', ['points', 'inactivity', 'lessThan1Day'], 'Inactive < 1 day'),
  f('operational', ['points', 'inactivity', 'days1To3'], 'Inactive 1–3 days'),
  f('operational', ['points', 'inactivity', 'days4To7'], 'Inactive 4–7 days'),
  f('operational', ['points', 'inactivity', 'days8To14'], 'Inactive 8–14 days'),
  f('operational', ['points', 'inactivity', 'moreThan14Days'], 'Inactive > 14 days'),
  f('operational', ['points', 'criticalCves', 'perCve'], 'Per critical CVE'),
  f('thresholds', ['thresholds', 'criticalCvss'], 'Critical CVSS (at least)', 0.1),
  f('thresholds', ['thresholds', 'criticalCveCap'], 'Critical CVE cap'),
  f('edges', ['thresholds', 'inactivityDayEdges', 0], 'Edge 1 (day)'),
  f('edges', ['thresholds', 'inactivityDayEdges', 1], 'Edge 2 (day)'),
  f('edges', ['thresholds', 'inactivityDayEdges', 2], 'Edge 3 (day)'),
  f('edges', ['thresholds', 'inactivityDayEdges', 3], 'Edge 4 (day)'),
  f('bands', ['bands', 0], 'Trustworthy up to'),
  f('bands', ['bands', 1], 'Low Risk up to'),
  f('bands', ['bands', 2], 'Moderate Risk up to'),
  f('bands', ['bands', 3], 'Suspicious up to'),
  f('falcon', ['falcon', 'postureMinOverall'], 'Min overall ZTA'),
  f('falcon', ['falcon', 'postureMinSensorConfig'], 'Min sensor ZTA'),
  f('falcon', ['falcon', 'postureMinOs'], 'Min OS ZTA'),
];

/** The groups each vendor's scoring uses (Falcon: its ZTA mapping and the bands). */
export const RISK_GROUPS: Record<Vendor, readonly RiskGroupId[]> = {
  defender: ['weights', 'critical', 'operational', 'thresholds', 'edges', 'bands'],
  falcon: ['falcon', 'bands'],
};

export const fieldsOf = (group: RiskGroupId): RiskField[] => RISK_FIELDS.filter((x) => x.group === group);

/** Tuple settings: sent whole. */
const TUPLES: readonly (readonly string[])[] = [['bands'], ['thresholds', 'inactivityDayEdges']];
const tupleOf = (path: readonly (string | number)[]) => TUPLES.find((t) => t.every((seg, i) => path[i] === seg));

function getPath(obj: unknown, path: readonly (string | number)[]): unknown {
  let cur = obj;
  for (const seg of path) {
    if (typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string | number, unknown>)[seg];
  }
  return cur;
}

function setPath(obj: Record<string, unknown>, path: readonly (string | number)[], value: unknown): void {
  let cur: Record<string | number, unknown> = obj;
  path.forEach((seg, i) => {
    if (i === path.length - 1) {
      cur[seg] = value;
      return;
    }
    const next = cur[seg];
    if (typeof next !== 'object' || next === null) cur[seg] = typeof path[i + 1] === 'number' ? [] : {};
    cur = cur[seg] as Record<string | number, unknown>;
  });
}

export const defaultOf = (field: RiskField): number => getPath(defaultRiskConfig, field.path) as number;

/** Empty boxes everywhere: all defaults. */
export function emptyRiskForm(): RiskFormValues {
  const blank = (v: unknown): unknown => (Array.isArray(v) ? v.map(blank) : typeof v === 'object' && v !== null ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, blank(x)])) : '');
  return blank(defaultRiskConfig) as RiskFormValues;
}

/** The boxes for stored overrides: each overridden value typed in, the rest empty. */
export function riskFormValues(overrides: RiskConfigOverrides | undefined): RiskFormValues {
  const out = emptyRiskForm();
  for (const field of RISK_FIELDS) {
    const v = getPath(overrides, field.path);
    if (typeof v === 'number' || typeof v === 'string') setPath(out as unknown as Record<string, unknown>, field.path, String(v));
  }
  return out;
}

/** "" → undefined (default); a number; anything else is passed on as typed so the schema names the field. */
export function parseBox(raw: unknown): number | string | undefined {
  if (raw === undefined || raw === null) return undefined;
  const text = String(raw).trim();
  if (text === '') return undefined;
  const n = Number(text);
  return Number.isFinite(n) ? n : text;
}

/** The value a box stands for: what is typed, else the default. */
export const effective = (values: RiskFormValues | undefined, field: RiskField): number | string => parseBox(getPath(values, field.path)) ?? defaultOf(field);

/** The overrides to send for this vendor: only values that differ from the defaults; undefined when there are none. */
export function riskOverrides(values: RiskFormValues | undefined, vendor: Vendor): RiskConfigOverrides | undefined {
  const out: Record<string, unknown> = {};
  const groups = RISK_GROUPS[vendor];
  for (const field of RISK_FIELDS) {
    if (!groups.includes(field.group)) continue;
    const tuple = tupleOf(field.path);
    if (tuple) continue;
    const v = parseBox(getPath(values, field.path));
    if (v !== undefined && v !== defaultOf(field)) setPath(out, field.path, v);
  }
  for (const tuple of TUPLES) {
    const fields = RISK_FIELDS.filter((x) => tupleOf(x.path) === tuple && groups.includes(x.group));
    if (fields.length === 0) continue;
    const typed = fields.map((x) => parseBox(getPath(values, x.path)));
    if (typed.some((v, i) => v !== undefined && v !== defaultOf(fields[i] as RiskField))) {
      setPath(
        out,
        tuple,
        fields.map((x, i) => typed[i] ?? defaultOf(x)),
      );
    }
  }
  return Object.keys(out).length ? (out as RiskConfigOverrides) : undefined;
}

const count = (v: unknown): number => (typeof v === 'object' && v !== null && !Array.isArray(v) ? Object.values(v).reduce<number>((n, x) => n + count(x), 0) : 1);
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** One line for the collapsed section: "Defaults", or "Custom: weights 70/30 · 2 point values". */
export function riskSummary(values: RiskFormValues | undefined, vendor: Vendor): string {
  const o = riskOverrides(values, vendor);
  if (!o) return 'Defaults';
  const parts: string[] = [];
  const eff = (group: RiskGroupId) => fieldsOf(group).map((x) => effective(values, x));
  if (o.weights) parts.push(`weights ${eff('weights').join('/')}`);
  if (o.points) parts.push(plural(count(o.points), 'point value', 'point values'));
  const { inactivityDayEdges, ...thresholds } = o.thresholds ?? {};
  if (Object.keys(thresholds).length) parts.push(plural(count(thresholds), 'threshold', 'thresholds'));
  if (inactivityDayEdges) parts.push(`inactivity days ${eff('edges').join('/')}`);
  if (o.bands) parts.push(`bands ${eff('bands').join('/')}`);
  if (o.falcon) {
    const [overall, sensor, os] = eff('falcon');
    // A stored `noAssessmentScore` is no longer used (EDR-N2): not a customisation to show.
    const { noAssessmentScore: _unused, ...posture } = o.falcon;
    if (Object.keys(posture).length) parts.push(`posture ${overall}/${sensor}/${os}`);
  }
  return parts.length ? `Custom: ${parts.join(' · ')}` : 'Defaults';
}

/** "Inactive < 1 day", "Inactive 1–3 days" … "Inactive > 14 days" under the effective day edges. */
export function inactivityLabels(values: RiskFormValues | undefined): string[] {
  const e = fieldsOf('edges').map((x) => effective(values, x));
  const days = (n: number) => `${n} day${n === 1 ? '' : 's'}`;
  const whole = e.every((x): x is number => typeof x === 'number');
  if (!whole) return fieldsOf('operational').filter((x) => x.path[1] === 'inactivity').map((x) => x.label);
  const range = (from: number, next: number) => (next - 1 <= from ? days(from) : `${from}–${days(next - 1)}`);
  return [`Inactive < ${days(e[0]!)}`, `Inactive ${range(e[0]!, e[1]!)}`, `Inactive ${range(e[1]!, e[2]!)}`, `Inactive ${range(e[2]!, e[3]!)}`, `Inactive > ${days(e[3]! - 1)}`];
}

/** A box's label; the inactivity buckets follow the edges typed. */
export function labelOf(field: RiskField, values: RiskFormValues | undefined): string {
  if (field.path[1] !== 'inactivity') return field.label;
  const i = fieldsOf('operational').filter((x) => x.path[1] === 'inactivity').indexOf(field);
  return inactivityLabels(values)[i] ?? field.label;
}

/** "Trustworthy 0–20 · Low Risk 21–40 · … · High Risk 81–100" under the effective band edges. */
export function bandsNote(values: RiskFormValues | undefined): string {
  const e = fieldsOf('bands').map((x) => effective(values, x));
  const ordered = e.every((x, i): x is number => typeof x === 'number' && (i === 0 || x > (e[i - 1] as number)));
  if (!ordered) return 'Each band ends at the score entered; High Risk is above the last.';
  const names = ['Trustworthy', 'Low Risk', 'Moderate Risk', 'Suspicious', 'High Risk'];
  const bounds = [0, ...e.map((x) => x + 1)];
  return names.map((n, i) => `${n} ${bounds[i]}–${i < 4 ? e[i] : 100}`).join(' · ');
}
