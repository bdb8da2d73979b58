// @vitest-environment jsdom
/**
 * The "Risk scoring" section of the connector form (spec 2.3, EDR-S8): collapsed with a summary,
 * live weight total, client-side validation with the shared schema, only changed values sent,
 * reset to defaults, and main's `risk.*` issues under their fields.
 */
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { emptyRiskForm, riskFormValues, riskOverrides, riskSummary } from '../../../renderer/components/risk-form';
import { openConnectors, startConnectorForm, startDefenderForm } from './support/connector-steps';
import { answering, MainBridge } from './support/main-bridge';
import { rowAction } from './support/row-menu';
import { renderApp } from './support/render';

/** No scheduled poll: these connectors' vendors are not reachable from a test. */
const noPolls = { app: { edr: { firstPullDelayMs: 3_600_000 } } };

/** Main with a Defender connector saved with risk overrides. */
async function customDefender() {
  const main = await MainBridge.start(noPolls);
  const saved = await main.call('connectors.save', {
    name: 'Contoso Defender',
    vendor: 'defender',
    tenantId: 'contoso.onmicrosoft.com',
    clientId: 'fe9643fa-ccd2-4235-881c-49a705ef7e01',
    clientSecret: 'first-secret',
    pollIntervalMinutes: 60,
    risk: { weights: { critical: 70, operational: 30 }, points: { riskScore: { High: 50 } } },
  });
  return { main, id: saved.id };
}

const storedRisk = async (main: MainBridge) => (await main.call('connectors.list'))[0]?.risk;


describe('connector form: risk scoring', () => {
  it('weights that do not total 100 show an inline error and block saving; fixed, only the changed values are sent', async () => {
    const main = await MainBridge.start(noPolls);
    const { user } = await openConnectors(main);
    const form = await startDefenderForm(user, 'secret-value-1');
    await user.type(within(form).getByLabelText('Poll interval (minutes)'), '30');

    // Collapsed by default, with its summary.
    const toggle = within(form).getByRole('button', { name: 'Risk scoring' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(within(form).getByTestId('risk-summary')).toHaveTextContent('Defaults');
    expect(within(form).queryByLabelText('Critical risk (%)')).toBeNull();
    await user.click(toggle);

    const critical = within(form).getByLabelText('Critical risk (%)');
    const operational = within(form).getByLabelText('Operational health (%)');
    expect(critical).toHaveAttribute('placeholder', '60');
    expect(operational).toHaveAttribute('placeholder', '40');
    expect(within(form).getByTestId('risk-weights-total')).toHaveTextContent('Total 100 %.');

    await user.type(critical, '70');
    expect(within(form).getByTestId('risk-weights-total')).toHaveTextContent('Total 110 %: the two weights must total 100 %.');
    expect(within(form).getByTestId('risk-weights-total')).toHaveClass('field-error');
    expect(critical).toHaveAttribute('aria-invalid', 'true');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(within(form).getByText(/Weights must total 100 %; critical 70 \+ operational 40 = 110/)).toBeVisible());
    expect(main.callsTo('connectors.save')).toHaveLength(0);

    await user.type(operational, '30');
    // The form validates again after a failed Save asynchronously (zod resolver): wait for it.
    await waitFor(() => expect(within(form).getByTestId('risk-weights-total')).toHaveTextContent('Total 100 %.'));
    await waitFor(() => expect(within(form).queryByText(/Weights must total 100 %;/)).toBeNull());
    await waitFor(() => expect(critical).not.toHaveAttribute('aria-invalid'));
    // One point value changed, one typed equal to its default (not an override).
    await user.type(within(form).getByLabelText('Risk score High'), '55');
    await user.type(within(form).getByLabelText('Exposure High'), '20');
    expect(within(form).getByTestId('risk-summary')).toHaveTextContent('Custom: weights 70/30 · 1 point value');

    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByTestId('connector-form')).toBeNull());
    const [req] = main.callsTo('connectors.save') as Array<Record<string, unknown>>;
    expect(req?.risk).toEqual({ weights: { critical: 70, operational: 30 }, points: { riskScore: { High: 55 } } });
    expect(await storedRisk(main)).toEqual({ weights: { critical: 70, operational: 30 }, points: { riskScore: { High: 55 } } });
  });

  it('catches other invalid values with the shared schema before saving, under the right fields', async () => {
    const { main } = await customDefender();
    const { user } = await openConnectors(main);
    await rowAction(user, await screen.findByTestId('connector-row-Contoso Defender'), 'Edit');
    const form = await screen.findByTestId('connector-form');
    await user.click(within(form).getByRole('button', { name: 'Risk scoring' }));
    await user.clear(within(form).getByLabelText('Risk score High'));
    await user.type(within(form).getByLabelText('Risk score High'), '5');
    await user.type(within(form).getByLabelText('Edge 3 (day)'), '3');
    await user.type(within(form).getByLabelText('Trustworthy up to'), '50');
    await user.click(within(form).getByRole('button', { name: 'Save' }));

    expect(await within(form).findByText(/Risk score High \(5\) must be at least Risk score Medium \(25\)/)).toBeVisible();
    expect(within(form).getByLabelText('Risk score High')).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByText('Inactivity day edges must increase: 1, 4, 3, 15.')).toBeVisible();
    expect(within(form).getByLabelText('Edge 3 (day)')).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByText('Band edges must increase strictly within 0 to 99: 50, 40, 60, 80.')).toBeVisible();
    expect(within(form).getByLabelText('Trustworthy up to')).toHaveAttribute('aria-invalid', 'true');
    expect(main.callsTo('connectors.save')).toHaveLength(0);
  });

  it('an edited connector shows its stored values; Reset to defaults saves without overrides', async () => {
    const { main, id } = await customDefender();
    const { user } = await openConnectors(main);
    await rowAction(user, await screen.findByTestId('connector-row-Contoso Defender'), 'Edit');
    const form = await screen.findByTestId('connector-form');
    expect(within(form).getByTestId('risk-summary')).toHaveTextContent('Custom: weights 70/30 · 1 point value');
    await user.click(within(form).getByRole('button', { name: 'Risk scoring' }));
    expect(within(form).getByLabelText('Critical risk (%)')).toHaveValue(70);
    expect(within(form).getByLabelText('Risk score High')).toHaveValue(50);
    expect(within(form).getByLabelText('Risk score Low')).toHaveValue(null);
    expect(within(form).getByText('Default 40', { selector: '#connector-risk-points-riskScore-High-msg' })).toBeVisible();

    await user.click(within(form).getByRole('button', { name: 'Reset to defaults' }));
    expect(within(form).getByTestId('risk-summary')).toHaveTextContent('Defaults');
    expect(within(form).getByLabelText('Critical risk (%)')).toHaveValue(null);
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByTestId('connector-form')).toBeNull());
    const [req] = main.callsTo('connectors.save') as Array<Record<string, unknown>>;
    expect(req).toMatchObject({ id, vendor: 'defender' });
    expect(req).not.toHaveProperty('risk');
    expect(await storedRisk(main)).toBeUndefined();
  });

  it("main's risk.* issues land under the same fields, and the section opens to show them", async () => {
    const { main } = await customDefender();
    // A main whose schema is newer than this window's refuses what the window's own check let through.
    const transport = answering(main, 'connectors.save', {
      ok: false,
      error: {
        code: 'request.invalid',
        message: 'The request is not valid. risk.points.riskScore.High: too high for this tenant',
        hint: 'Correct the highlighted fields and try again.',
        details: {
          issues: [
            { path: 'risk.points.riskScore.High', message: 'Too high for this tenant.' },
            { path: 'risk.weights', message: 'The node refuses these weights.' },
            { path: 'risk', message: 'Unknown setting "points.riskScore.Extreme".' },
          ],
        },
      },
    });
    const { user } = renderApp(main, { transport });
    await user.click(await screen.findByRole('link', { name: /^Connectors/ }));
    await rowAction(user, await screen.findByTestId('connector-row-Contoso Defender'), 'Edit');
    const form = await screen.findByTestId('connector-form');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('Too high for this tenant.')).toBeVisible();
    expect(within(form).getByRole('button', { name: 'Risk scoring' })).toHaveAttribute('aria-expanded', 'true');
    expect(within(form).getByLabelText('Risk score High')).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByText('The node refuses these weights.')).toBeVisible();
    expect(within(form).getByText('Unknown setting "points.riskScore.Extreme".')).toBeVisible();
  });

  it('Falcon shows its own settings; only they are sent, never hidden Defender values', async () => {
    const main = await MainBridge.start(noPolls);
    const { user } = await openConnectors(main);
    const form = await startConnectorForm(user, /Microsoft Defender/);
    await user.click(within(form).getByRole('button', { name: 'Risk scoring' }));
    await user.type(within(form).getByLabelText('Critical risk (%)'), '90');
    await user.click(within(form).getByLabelText(/CrowdStrike Falcon/));
    expect(within(form).queryByLabelText('Critical risk (%)')).toBeNull();
    expect(within(form).getByTestId('risk-summary')).toHaveTextContent('Defaults');
    await user.type(within(form).getByLabelText('Tenant ID'), 'a1b2c3d4e5f60718293a4b5c6d7e8f90');
    await user.type(within(form).getByLabelText('Client ID'), 'e020ea474eadb81232f488287ff3257a');
    await user.type(within(form).getByLabelText('Client secret'), 'secret-value-2');
    await user.type(within(form).getByLabelText('Min overall ZTA'), '85');
    await user.type(within(form).getByLabelText('Suspicious up to'), '75');
    expect(within(form).getByTestId('risk-summary')).toHaveTextContent('Custom: bands 20/40/60/75 · posture 85/70/0');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByTestId('connector-form')).toBeNull());
    const [req] = main.callsTo('connectors.save') as Array<Record<string, unknown>>;
    expect(req?.risk).toEqual({ falcon: { postureMinOverall: 85 }, bands: [20, 40, 60, 75] });
    expect(await storedRisk(main)).toEqual({ falcon: { postureMinOverall: 85 }, bands: [20, 40, 60, 75] });
  });
});

describe('risk-form: boxes ↔ overrides', () => {
  it('sends only values that differ from the defaults; an edge tuple is sent whole', () => {
    const v = emptyRiskForm();
    expect(riskOverrides(v, 'defender')).toBeUndefined();
    v.weights.critical = '60';
    v.points.avStatus.Disabled = ' 30 ';
    v.thresholds.inactivityDayEdges[1] = '5';
    v.thresholds.criticalCvss = '8.5';
    expect(riskOverrides(v, 'defender')).toEqual({ points: { avStatus: { Disabled: 30 } }, thresholds: { criticalCvss: 8.5, inactivityDayEdges: [1, 5, 8, 15] } });
    expect(riskOverrides(v, 'falcon')).toBeUndefined();
    v.weights.operational = 'abc';
    expect(riskOverrides(v, 'defender')?.weights).toEqual({ operational: 'abc' });
  });

  it('round-trips stored overrides and summarises them', () => {
    const stored = { weights: { critical: 50, operational: 50 }, thresholds: { criticalCveCap: 3, inactivityDayEdges: [2, 5, 9, 20] as [number, number, number, number] }, falcon: { postureMinOverall: 80, noAssessmentScore: 80 } };
    const v = riskFormValues(stored);
    expect(v.weights).toEqual({ critical: '50', operational: '50' });
    expect(riskOverrides(v, 'defender')).toEqual({ weights: stored.weights, thresholds: stored.thresholds });
    expect(riskSummary(v, 'defender')).toBe('Custom: weights 50/50 · 1 threshold · inactivity days 2/5/9/20');
    // A stored noAssessmentScore is superseded (EDR-N2): not shown, not sent back.
    expect(riskSummary(v, 'falcon')).toBe('Custom: posture 80/70/0');
    expect(riskOverrides(v, 'falcon')).toEqual({ falcon: { postureMinOverall: 80 } });
  });
});
