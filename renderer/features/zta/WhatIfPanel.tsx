/**
 * What-if (issue 11.4, EDR-Z2): on one tenant, edit its weights, point values, thresholds and band
 * edges with the connector form's boxes and validation, and watch the band distribution and the
 * host table change live: every valid change goes to the page (`onPreview`), which scores the
 * tenant's hosts again in the window. Invalid settings keep the last valid preview and say so.
 * Save stores the settings and rescores the stored hosts in main (zta.applyRisk): a cycle of kind
 * `rescore`, published like a poll; the panel follows its progress and closes when it completed.
 * In a team (C-93) an admin's Save stores them in the team and a worker rescores; a console role
 * sees Save disabled, with why and who may (main refuses it anyway).
 */
import { X } from 'lucide-react';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useForm, useWatch, type FieldPath } from 'react-hook-form';
import { toast } from 'sonner';
import type { ConnectorStatus } from '../../../shared/contract';
import { notAssessedOf, type NotAssessedPublication } from '../../../shared/model/connector';
import { countOf } from '../../../shared/text';
import { BANDS, type ZtaConnector } from '../../../shared/model/zta';
import { tenantRiskConfig, type RiskConfig } from '../../../shared/risk';
import { useConnectors } from '../../api/connectors';
import { useTeam } from '../../api/team';
import { useApplyRisk } from '../../api/zta';
import { riskReadOnlyReason } from '../../../shared/model/team';
import type { ApplyRiskResult } from '../../../shared/contract-zta';
import { reportError } from '../../app/report-error';
import { serverIssues } from '../../app/server-issues';
import { formatCount } from '../../components/format';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Spinner } from '../../components/Spinner';
import { effective, fieldsOf, riskFormValues, riskOverrides } from '../../components/risk-form';
import { RiskSettingsFields } from '../../components/RiskSettingsFields';
import { bandClass } from '../../components/zta-labels';
import type { WhatIfResult } from './whatif';
import { whatIfResolver, type WhatIfParsed, type WhatIfValues } from './whatif-form';

export interface WhatIfPanelProps {
  /** Tenants that can be rescored (a completed cycle). */
  tenants: readonly ZtaConnector[];
  connectorId: string;
  onTenant(connectorId: string): void;
  /** A valid configuration to preview (undefined: the stored one). */
  onPreview(config: RiskConfig | undefined): void;
  result: WhatIfResult | undefined;
  onClose(): void;
}

/**
 * Beside the dashboard in a wide window; in a narrower one (below 1,280 px, zta-panels.css) a
 * drawer over its right side, so the dashboard keeps its width (issue 22.7). Either way it is not
 * modal: the charts and the table it changes stay in use. The focus moves into it when it opens;
 * Escape inside it closes it (the page gives the focus back to the What-if button).
 */
export function WhatIfPanel(props: WhatIfPanelProps) {
  const live = useConnectors().data;
  const tenant = props.tenants.find((t) => t.connectorId === props.connectorId);
  const stored = live?.find((c) => c.id === props.connectorId);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => panel.current?.focus(), []);
  const { onClose } = props;
  const onKeyDown = (e: KeyboardEvent<HTMLElement>) => {
    // A dialog over the panel (Save and rescore's confirmation) takes its own Escape.
    if (e.key !== 'Escape' || e.defaultPrevented || document.querySelector('[aria-modal="true"]')) return;
    e.preventDefault();
    onClose();
  };
  return (
    <aside className="zta-whatif" aria-labelledby="zta-whatif-title" data-testid="zta-whatif" ref={panel} tabIndex={-1} onKeyDown={onKeyDown}>
      <header className="zta-whatif-head">
        <h3 id="zta-whatif-title">What-if</h3>
        <button type="button" className="icon-button" onClick={props.onClose} aria-label="Close the what-if">
          <X size={16} aria-hidden="true" />
        </button>
      </header>
      <label className="field">
        <span className="field-label">Tenant</span>
        <select value={props.connectorId} onChange={(e) => props.onTenant(e.target.value)} data-testid="zta-whatif-tenant">
          {props.tenants.map((t) => (
            <option key={t.connectorId} value={t.connectorId}>
              {t.name}
            </option>
          ))}
        </select>
      </label>
      {tenant && stored ? <WhatIfForm key={tenant.connectorId} tenant={tenant} stored={stored} {...props} /> : <Spinner />}
    </aside>
  );
}

function WhatIfForm({ tenant, stored, onPreview, result, onClose }: WhatIfPanelProps & { tenant: ZtaConnector; stored: ConnectorStatus }) {
  const vendor = tenant.vendor;
  const resolver = useMemo(() => whatIfResolver(vendor), [vendor]);
  const form = useForm<WhatIfValues, unknown, WhatIfParsed>({ resolver, defaultValues: { risk: riskFormValues(stored.risk) }, mode: 'onChange' });
  const { control, handleSubmit, setError, setValue, formState, reset, trigger } = form;
  const apply = useApplyRisk();
  const readOnly = riskReadOnlyReason(useTeam().data);
  const values = useWatch({ control, name: 'risk' });
  const overrides = riskOverrides(values, vendor);
  const key = JSON.stringify(overrides ?? {});
  const config = useMemo(() => tenantRiskConfig(JSON.parse(key) as unknown), [key]);
  const valid = config.ok;
  useEffect(() => {
    if (config.ok) onPreview(config.value);
  }, [config, onPreview]);
  // Every box is checked as the operator types (an error about the pair of weights sits on their
  // parent, which a change of one box would not check by itself).
  useEffect(() => {
    if (formState.isDirty) void trigger();
  }, [key, trigger, formState.isDirty]);

  const progress = stored.running ? stored.progress : undefined;
  // Saving changes what the SD-WAN enforces: it is confirmed first, with the numbers that move (issue 22.9).
  const [confirming, setConfirming] = useState<WhatIfParsed>();
  const save = handleSubmit((parsed) => setConfirming(parsed));
  const commit = async (parsed: WhatIfParsed) => {
    try {
      const saved = await apply.mutateAsync({ connectorId: tenant.connectorId, risk: parsed.risk ?? {} });
      toast.success(saved.rescore ? `Saved the risk settings of ${tenant.name} to the team.` : `Saved the risk settings of ${tenant.name}.`, { description: savedDescription(saved) });
      onClose();
    } catch (e) {
      const issues = serverIssues(e);
      if (issues.length === 0) reportError(e);
      for (const issue of issues) setError(issue.path as FieldPath<WhatIfValues>, { type: 'server', message: issue.message });
    }
  };

  const critical = fieldsOf('weights').map((f) => effective(values, f))[0];
  const slider =
    vendor === 'defender' ? (
      <label className="zta-slider">
        <span>Critical weight</span>
        <input
          type="range"
          min={0}
          max={100}
          step={1}
          value={typeof critical === 'number' ? critical : 60}
          aria-label="Critical weight"
          aria-valuetext={`critical ${String(critical)} %, operational ${typeof critical === 'number' ? 100 - critical : '?'} %`}
          onChange={(e) => {
            const v = Number(e.target.value);
            setValue('risk.weights.critical' as FieldPath<WhatIfValues>, String(v), { shouldDirty: true, shouldValidate: true });
            setValue('risk.weights.operational' as FieldPath<WhatIfValues>, String(100 - v), { shouldDirty: true, shouldValidate: true });
          }}
          data-testid="zta-whatif-slider"
        />
        <span className="muted">moves both weights, keeping the total at 100 %</span>
      </label>
    ) : undefined;

  return (
    <form className="form zta-whatif-form" onSubmit={save} noValidate>
      {confirming ? (
        <ConfirmDialog title={`Save the risk settings of ${tenant.name} and rescore its hosts?`} confirmLabel="Save and rescore" onConfirm={() => commit(confirming)} onClose={() => setConfirming(undefined)} testId="zta-whatif-confirm">
          <RescoreConsequences result={result} tenant={tenant} notAssessed={notAssessedOf(stored)} />
        </ConfirmDialog>
      ) : null}
      <WhatIfSummary result={result} valid={valid} />
      <RiskSettingsFields form={form} vendor={vendor} alwaysOpen idPrefix="whatif" weightsExtra={slider} />
      <div className="zta-whatif-actions">
        {apply.isPending ? (
          <span className="muted" role="status">
            <Spinner /> Rescoring {progress?.total ? `${formatCount(progress.done)} / ${formatCount(progress.total)}` : '…'}
          </span>
        ) : null}
        <button type="button" className="button" onClick={() => reset({ risk: riskFormValues(stored.risk) })} disabled={!formState.isDirty || apply.isPending}>
          Back to stored
        </button>
        <button type="submit" className="button button-primary" disabled={!formState.isDirty || !valid || apply.isPending || readOnly !== null} title={readOnly ?? undefined}>
          Save and rescore
        </button>
      </div>
      {readOnly ? (
        <p className="muted" role="note" data-testid="zta-whatif-read-only">
          {readOnly}
        </p>
      ) : null}
    </form>
  );
}

/** What the Save did: the desk's rescore cycle, none to rescore, or (in a team) a rescore asked of the workers. */
function savedDescription(saved: ApplyRiskResult): string {
  if (saved.rescore) {
    return saved.rescore.workersAlive > 0
      ? 'A worker of the team rescores its stored hosts now; every console’s dashboard shows the rescored cycle once it is stored.'
      : 'No worker of the team is running now: its stored hosts are rescored when one starts (the settings are saved).';
  }
  return saved.cycleId === null ? 'It had no stored hosts to rescore; the next poll uses them.' : `Its stored hosts were rescored (cycle ${saved.cycleId}); the dashboard shows the rescored cycle.`;
}

/** What a save and rescore will do, in numbers: how many hosts move, High Risk before and after, and that it is published. */
function RescoreConsequences({ result, tenant, notAssessed }: { result: WhatIfResult | undefined; tenant: ZtaConnector; notAssessed: NotAssessedPublication }) {
  const high = (counts: WhatIfResult['stored'] | undefined) => counts?.['High Risk'] ?? 0;
  return (
    <div data-testid="zta-whatif-consequences">
      {result ? (
        <ul className="zta-whatif-consequences">
          <li>
            <strong>{countOf(result.bandChanged, 'host changes band', 'hosts change band')}</strong>, {countOf(result.scoreChanged, 'host changes score', 'hosts change score')} (of {formatCount(tenant.hosts)}).
          </li>
          <li>
            High Risk: <strong>{formatCount(high(result.stored))}</strong> → <strong>{formatCount(high(result.whatIf))}</strong>
            {high(result.whatIf) !== high(result.stored) ? ` (${high(result.whatIf) > high(result.stored) ? '+' : ''}${high(result.whatIf) - high(result.stored)})` : ''}.
          </li>
        </ul>
      ) : null}
      <p>
        The settings are stored for {tenant.name}, its stored hosts are scored again as a cycle of their own, and the new scores are <strong>published to the SD-WAN</strong> about a minute later
        (hosts not assessed {notAssessed === 'withhold' ? 'stay withheld' : 'stay High Risk, fail-closed'}): the rules that use risk scores act on them.
      </p>
    </div>
  );
}

/** Stored against what-if band counts of the tenant, and how many hosts change band. */
function WhatIfSummary({ result, valid }: { result: WhatIfResult | undefined; valid: boolean }) {
  return (
    <div className="zta-whatif-summary" data-testid="zta-whatif-summary" aria-live="polite">
      {!valid ? <p className="field-error">Fix the settings marked below: the preview shows the last valid settings.</p> : null}
      <table className="zta-whatif-table">
        <thead>
          <tr>
            <th>Band</th>
            <th>Stored</th>
            <th>What-if</th>
          </tr>
        </thead>
        <tbody>
          {BANDS.map((b) => {
            const before = result?.stored[b] ?? 0;
            const after = result?.whatIf[b] ?? before;
            const delta = after - before;
            return (
              <tr key={b} data-testid={`whatif-band-${b}`}>
                <td>
                  <span className={`zta-swatch ${bandClass(b)}`} aria-hidden="true" /> {b}
                </td>
                <td>{formatCount(before)}</td>
                <td>
                  <strong>{formatCount(after)}</strong> {delta ? <span className={delta > 0 ? 'zta-delta-up' : 'zta-delta-down'}>{delta > 0 ? `+${delta}` : delta}</span> : null}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <p className="muted" data-testid="zta-whatif-changed">
        {result ? `${formatCount(result.bandChanged)} hosts change band, ${formatCount(result.scoreChanged)} change score.` : 'The stored settings: nothing changes yet.'}
      </p>
    </div>
  );
}
