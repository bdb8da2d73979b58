// @vitest-environment jsdom
/**
 * Text from the network is shown as text (issue 20.6), on the real main: a node whose alarm names
 * hold bidi overrides (`safe\u202Egnp.exe` would read "safeexe.png") and a Defender tenant with
 * such a host name and one of 1 MB. The Alarms table, the alarm's details, the counters and the
 * risk report show every bidi control as a visible mark, each field isolated in a <bdi>; the
 * report clips the long name with a visible mark.
 */
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { until } from '../../support/until';
import { alarmMain, list, row, shownIds } from './support/alarm-steps';
import { stubScrollerSize } from './support/layout';
import { MainBridge } from './support/main-bridge';
import { saveDefender } from './support/zta-steps';
import { renderApp } from './support/render';

const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;
/** What a person sees of an element: its text and the attributes shown on hover or read aloud. */
const shown = (el: Element): string[] => [el.textContent ?? '', ...[...el.querySelectorAll('[title],[aria-label]'), el].flatMap((e) => [e.getAttribute('title') ?? '', e.getAttribute('aria-label') ?? ''])];
const noBidi = (el: Element) => expect(shown(el).filter((s) => BIDI.test(s))).toEqual([]);
/** The <bdi> elements of `el` whose text is exactly `text`. */
const isolated = (el: Element, text: string) => [...el.querySelectorAll('bdi')].filter((b) => b.textContent === text);

let restore: () => void;
beforeEach(() => (restore = stubScrollerSize(600)));
afterEach(() => restore());

describe('alarm texts from a node', () => {
  it('the table, the details and the counters show bidi overrides as marks, each field isolated', async () => {
    const am = await alarmMain({ changes: 5 });
    const key = { deviceName: 'safe\u202Egnp.exe', object: 'vni-0/1\u202E', type: 'interface\u2067down', specificProblem: 'link\u200Fdown' };
    await am.sim.call('alarms.model.change', key, 'critical', 'Started safe\u202Egnp.exe', 'system', { uuid: '9c0e7f0a-5b8e-4d8e-9d7e-000000000001', org: 'Org\u202Exe.exe' });
    const target = await until('the alarm stored', async () => (await list(am)).rows.find((r) => r.object === key.object), 10_000);
    const { user } = renderApp(am.main, { at: `/alarms?connection=${am.profileId}` });
    await waitFor(() => expect(shownIds()).toContain(target.id));

    const r = row(target.id);
    noBidi(r);
    expect(isolated(r, 'safe⟪RLO⟫gnp.exe')).toHaveLength(1);
    expect(isolated(r, 'Started safe⟪RLO⟫gnp.exe')).toHaveLength(1);
    expect(isolated(r, 'vni-0/1⟪RLO⟫')).toHaveLength(1);
    expect(isolated(r, 'interface⟪RLI⟫down')).toHaveLength(1);
    expect(isolated(r, 'Org⟪RLO⟫xe.exe')).toHaveLength(1);

    const counters = screen.getByTestId('alarm-counters');
    await waitFor(() => expect(isolated(counters, 'Org⟪RLO⟫xe.exe')).toHaveLength(1));
    noBidi(counters);

    await user.click(isolated(r, 'Started safe⟪RLO⟫gnp.exe')[0]!);
    const details = await screen.findByTestId('alarm-detail');
    const dialog = screen.getByTestId('alarm-details');
    await waitFor(() => expect(within(details).getAllByTestId('alarm-change')).toHaveLength(1));
    noBidi(dialog);
    expect(dialog).toHaveTextContent('interface⟪RLI⟫down on safe⟪RLO⟫gnp.exe');
    expect(isolated(details, 'link⟪RLM⟫down')).toHaveLength(1);
    expect(isolated(details, 'Org⟪RLO⟫xe.exe')).toHaveLength(1);
    expect(isolated(within(details).getByTestId('alarm-changes'), 'Started safe⟪RLO⟫gnp.exe')).toHaveLength(1);
  });
});

describe('the risk report', () => {
  it('a host named with a bidi override shows the mark; a 1 MB host name is clipped with a visible mark and the report is ready', async () => {
    const main = await MainBridge.start({ app: { edr: { firstPullDelayMs: 3_600_000, publishDelayMs: 3_600_000 } } });
    const huge = `huge-${'x'.repeat(1024 * 1024)}`;
    const sim = await main.defender([{ hosts: 12, seed: 4, hostnames: { 0: 'safe\u202Egnp.exe', 1: huge } }]);
    const saved = await saveDefender(main, sim, 'Contoso\u202E Defender');
    const done = main.next('edr.progress', (p) => p.connectorId === saved.id && p.phase === 'completed', 30_000);
    await main.call('connectors.pollNow', { connectorId: saved.id });
    await done;
    const snapshot = await main.call('zta.snapshot');
    // The connector cuts the name where it reads it (shared/model/limits.ts); the report clips what it prints again.
    const stored = snapshot.rows.hostname.find((h: string) => h.startsWith('huge-'))!;
    expect(stored).toMatch(/^huge-x+… \[truncated, 1,048,581 characters\]$/);
    expect(stored.length).toBeLessThanOrEqual(256);

    renderApp(main, { at: '/zta/report' });
    await waitFor(() => expect(document.documentElement.dataset.reportReady).toBe('true'), { timeout: 15_000 });
    const page = document.querySelector('.report-page')!;
    noBidi(page);
    const riskiest = screen.getByTestId('report-riskiest');
    expect(isolated(riskiest, 'safe⟪RLO⟫gnp.exe')).toHaveLength(1);
    expect(isolated(screen.getByTestId('report-connectors'), 'Contoso⟪RLO⟫ Defender')).toHaveLength(1);
    const clipped = [...riskiest.querySelectorAll('bdi')].find((b) => b.textContent?.startsWith('huge-'))!;
    expect(clipped.textContent).toMatch(/^huge-x+…\(\+\d+ characters\)$/);
    expect(clipped.textContent!.length).toBeLessThan(300);
    // No field carries the megabyte into the page.
    expect(page.textContent!.length).toBeLessThan(100_000);
  }, 60_000);
});
