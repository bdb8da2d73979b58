/**
 * The collapsible "Risk scoring" section of the connector form (spec 2.3): per-tenant weights,
 * point values, thresholds and band edges for Defender; the ZTA posture thresholds, the score of
 * an unassessed host and the band edges for Falcon. Empty boxes use the documented defaults (the
 * placeholders); only what differs is saved. Errors come from `ConnectorInput` (client side) or
 * from main (`risk.*` paths) and sit under the box they concern. Any form whose values hold the
 * boxes under `risk` can use it: the connector form, and the ZTA dashboard's what-if (always open).
 */
import { ChevronDown, ChevronRight, RotateCcw } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { get, useWatch, type FieldErrors, type FieldPath, type FieldValues, type PathValue, type UseFormReturn } from 'react-hook-form';
import type { Vendor } from '../../shared/model/edr';
import { TextField } from './Field';
import { bandsNote, defaultOf, effective, emptyRiskForm, fieldsOf, inactivityLabels, labelOf, parseBox, RISK_FIELDS, RISK_GROUPS, riskSummary, type RiskField, type RiskFormValues, type RiskGroupId } from './risk-form';

/** A form with the risk boxes under `risk` (what it validates into is its own). */
export type RiskForm<T extends FieldValues & { risk: RiskFormValues }, TOut = T> = UseFormReturn<T, unknown, TOut>;

/** The message of an error at `name`, also when zod's resolver put it on `root` (a whole tuple such as the bands). */
function errorAt(errors: FieldErrors, name: string): string | undefined {
  const e = get(errors, name) as { message?: unknown; root?: { message?: unknown } } | undefined;
  const m = e?.message ?? e?.root?.message;
  return typeof m === 'string' && m ? m : undefined;
}

const GROUP_ERROR_PATHS: Record<RiskGroupId, string[]> = {
  weights: ['risk.weights'],
  critical: [],
  operational: [],
  thresholds: [],
  edges: ['risk.thresholds.inactivityDayEdges'],
  bands: ['risk.bands'],
  falcon: ['risk.falcon'],
};

const SHOWN = new Set<string>([...RISK_FIELDS.map((f) => f.name), ...Object.values(GROUP_ERROR_PATHS).flat()]);

/** Messages under `risk` that no box or group shows (e.g. an unknown setting named by main): listed at the top. */
function otherMessages(node: unknown, path = 'risk', out: string[] = []): string[] {
  if (typeof node !== 'object' || node === null) return out;
  const e = node as Record<string, unknown> & { message?: unknown; root?: { message?: unknown } };
  const message = e.message ?? e.root?.message;
  if (typeof message === 'string' && message && !SHOWN.has(path)) out.push(message);
  for (const [k, v] of Object.entries(e)) if (!['message', 'type', 'types', 'ref', 'root'].includes(k)) otherMessages(v, `${path}.${k}`, out);
  return out;
}

export interface RiskSettingsFieldsProps<T extends FieldValues & { risk: RiskFormValues }, TOut> {
  form: RiskForm<T, TOut>;
  vendor: Vendor;
  /** Always open, without the disclosure button (the what-if). */
  alwaysOpen?: boolean;
  /** Prefix of the boxes' ids (two forms on one page need two). */
  idPrefix?: string;
  /** Shown under the weights (the what-if's slider). */
  weightsExtra?: ReactNode;
}

export function RiskSettingsFields<T extends FieldValues & { risk: RiskFormValues }, TOut = T>({ form, vendor, alwaysOpen = false, idPrefix = 'connector', weightsExtra }: RiskSettingsFieldsProps<T, TOut>) {
  const [open, setOpen] = useState(false);
  const { register, setValue, clearErrors, formState, control } = form;
  const errors = formState.errors as FieldErrors;
  const name = (n: string) => n as FieldPath<T>;
  const values = useWatch({ control, name: name('risk') }) as RiskFormValues | undefined;
  const groups = RISK_GROUPS[vendor];
  const hasErrors = !!errors.risk;
  const show = alwaysOpen || open || hasErrors;
  const summary = riskSummary(values, vendor);

  // An error about the pair sits on `risk.weights`, a parent of the boxes, which react-hook-form
  // does not revalidate when one box changes: ask for it, so a fixed total clears the message.
  const recheckWeights = () => {
    if (form.getFieldState(name('risk.weights')).error) void form.trigger(name('risk.weights'));
  };

  const box = (field: RiskField, extra: { className?: string; invalid?: boolean; describedBy?: string } = {}) => {
    const id = `${idPrefix}-${field.name.replace(/\./g, '-')}`;
    const error = errorAt(errors, field.name);
    const typed = parseBox(get(values, field.path.join('.')));
    const d = defaultOf(field);
    const hint = typed !== undefined && typed !== d ? `Default ${d}` : undefined;
    const describedBy = [error || hint ? `${id}-msg` : '', extra.describedBy ?? ''].filter(Boolean).join(' ') || undefined;
    return (
      <TextField
        key={field.name}
        id={id}
        label={labelOf(field, values)}
        type="number"
        inputMode="decimal"
        step={field.step ?? 1}
        min={0}
        placeholder={String(d)}
        title={`Default ${d}`}
        {...register(name(field.name), { onChange: field.group === 'weights' ? recheckWeights : undefined })}
        error={error}
        hint={hint}
        className={extra.className}
        aria-invalid={error || extra.invalid ? true : undefined}
        aria-describedby={describedBy}
      />
    );
  };

  const groupMessage = (group: RiskGroupId) => GROUP_ERROR_PATHS[group].map((p) => errorAt(errors, p)).find(Boolean);
  const groupError = (group: RiskGroupId) => {
    const message = groupMessage(group);
    return message ? (
      <p className="field-error risk-group-error" role="alert">
        {message}
      </p>
    ) : null;
  };

  const section = (group: RiskGroupId, legend: string, note?: string) =>
    groups.includes(group) ? (
      <fieldset className="form-section risk-section" key={group}>
        <legend>{legend}</legend>
        <div className="form-grid form-grid-4">{fieldsOf(group).map((f) => box(f, { invalid: !!groupMessage(group) }))}</div>
        {note ? <p className="field-hint risk-note">{note}</p> : null}
        {groupError(group)}
      </fieldset>
    ) : null;

  const reset = () => {
    setValue(name('risk'), emptyRiskForm() as PathValue<T, FieldPath<T>>, { shouldDirty: true });
    clearErrors(name('risk'));
  };

  return (
    <div className="disclosure risk-disclosure">
      <div className="risk-disclosure-head">
        {alwaysOpen ? (
          <strong className="risk-title">Risk scoring</strong>
        ) : (
          <button type="button" className="button button-ghost button-small" aria-expanded={show} aria-controls={`${idPrefix}-risk`} onClick={() => setOpen(!show)}>
            {show ? <ChevronDown size={14} aria-hidden="true" /> : <ChevronRight size={14} aria-hidden="true" />}
            Risk scoring
          </button>
        )}
        <span className={summary === 'Defaults' ? 'risk-summary' : 'risk-summary risk-summary-custom'} data-testid="risk-summary">
          {summary}
        </span>
      </div>
      {show ? (
        <div className="risk-body" id={`${idPrefix}-risk`}>
          <div className="risk-intro">
            <p className="field-hint">
              {vendor === 'defender'
                ? 'score = critical sub-score × critical weight + operational sub-score × operational weight; each sub-score is its points over the group’s maximum. Empty boxes use the defaults shown.'
                : 'Falcon’s overall ZTA (1–100, higher is better) becomes the risk score 100 − overall; the posture profile passes at or above the minimums. Empty boxes use the defaults shown.'}
            </p>
            <button type="button" className="button button-small" onClick={reset} disabled={summary === 'Defaults' && !hasErrors}>
              <RotateCcw size={13} aria-hidden="true" />
              Reset to defaults
            </button>
          </div>
          {otherMessages(errors.risk).map((m) => (
            <p className="field-error" role="alert" key={m}>
              {m}
            </p>
          ))}
          {groups.includes('weights') ? <WeightsSection values={values} box={box} schemaMessage={groupMessage('weights')} totalId={`${idPrefix}-risk-weights-total`} extra={weightsExtra} /> : null}
          {section('critical', 'Critical risk indicators (points)')}
          {section('operational', 'Operational health indicators (points)')}
          {groups.includes('thresholds') ? (
            <fieldset className="form-section risk-section">
              <legend>Thresholds</legend>
              <div className="form-grid form-grid-4">{fieldsOf('thresholds').map((f) => box(f))}</div>
              <div className="form-grid form-grid-4 risk-subgrid">{fieldsOf('edges').map((f) => box(f, { invalid: !!groupMessage('edges') }))}</div>
              <p className="field-hint risk-note">
                A CVE is critical at or above the CVSS; critical CVEs beyond the cap add no points. Day edges start inactivity buckets 2 to 5, now:{' '}
                {inactivityLabels(values)
                  .map((l) => l.replace(/^Inactive /, ''))
                  .join(' · ')}
                .
              </p>
              {groupError('edges')}
            </fieldset>
          ) : null}
          {section('falcon', 'Posture profile and unassessed hosts', 'The posture profile passes when the overall, sensor and OS ZTA reach these minimums (OS 0 = not checked).')}
          {section('bands', 'Risk bands (highest whole score of each band)', bandsNote(values))}
        </div>
      ) : null}
    </div>
  );
}

/** The two weights and their live total; a schema or server message about the pair replaces the total line. */
function WeightsSection({
  values,
  box,
  schemaMessage,
  totalId,
  extra,
}: {
  values: RiskFormValues | undefined;
  box: (field: RiskField, extra?: { className?: string; invalid?: boolean; describedBy?: string }) => ReactNode;
  schemaMessage: string | undefined;
  totalId: string;
  extra?: ReactNode;
}) {
  const weights = fieldsOf('weights').map((f) => effective(values, f));
  const numeric = weights.every((w): w is number => typeof w === 'number');
  const total = numeric ? weights.reduce<number>((a, b) => a + (b as number), 0) : undefined;
  const bad = total !== 100 || !!schemaMessage;
  let line: string;
  if (schemaMessage) line = schemaMessage;
  else if (total === undefined) line = 'Enter both weights as whole percentages.';
  else line = total === 100 ? 'Total 100 %.' : `Total ${total} %: the two weights must total 100 %.`;
  return (
    <fieldset className="form-section risk-section">
      <legend>Weights</legend>
      <div className="form-grid form-grid-4">
        {fieldsOf('weights').map((f) => box(f, { invalid: bad, describedBy: totalId }))}
        <p id={totalId} className={bad ? 'field-error risk-total span-2' : 'field-hint risk-total span-2'} aria-live="polite" data-testid="risk-weights-total">
          {line}
        </p>
      </div>
      {extra}
    </fieldset>
  );
}
