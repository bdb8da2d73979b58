// @vitest-environment jsdom
/**
 * The printable risk report (issue 11.6, EDR-Z6, EDR-Z7) on the real main: the report of a filter from
 * the stored scores (band counts, riskiest hosts with their reasons, the connectors), the page
 * telling the PDF window it is ready (or that it failed), its toolbar per mode (Save as PDF only
 * on the desktop), and an address with wrong values falling back to "all hosts".
 */
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { BANDS, type ZtaFilter } from '../../../shared/model/zta';
import { reasonsOf, RISKIEST } from '../../../renderer/features/zta/report/report-model';
import { changesOfSnapshot, reportOfSnapshot } from '../../support/report-oracle';
import { answering, MainBridge } from './support/main-bridge';
import { address, renderApp } from './support/render';
import { saveDefender } from './support/zta-steps';

const noPolls = { app: { edr: { firstPullDelayMs: 3_600_000, publishDelayMs: 3_600_000 } } };

/** Main with one Defender tenant of 40 hosts polled once. */
async function polledMain(mode: 'desktop' | 'browser' = 'desktop') {
  const main = await MainBridge.start({ ...noPolls, mode });
  const sim = await main.defender([{ hosts: 40, seed: 4 }]);
  const saved = await saveDefender(main, sim, 'Contoso Defender');
  const done = main.next('edr.progress', (p) => p.connectorId === saved.id && p.phase === 'completed', 30_000);
  await main.call('connectors.pollNow', { connectorId: saved.id });
  await done;
  return main;
}

const ready = () => waitFor(() => expect(document.documentElement.dataset.reportReady).toBe('true'), { timeout: 15_000 });

afterEach(() => {
  vi.restoreAllMocks();
});

describe('risk report', () => {
  it('shows the filtered stored scores: scope, connectors, band counts, the riskiest hosts with their reasons; the title and readiness for the PDF', async () => {
    const main = await polledMain();
    const filter: ZtaFilter = { platform: 'Windows' };
    renderApp(main, { at: '/zta/report?platform=Windows' });
    await ready();
    expect(document.title).toBe('Northbound risk report');
    // What the report printed when it read every host (the snapshot), from the same stored scores.
    const snapshot = await main.call('zta.snapshot');
    const expected = reportOfSnapshot(snapshot, filter);
    expect(expected.total).toBeGreaterThan(5);

    expect(screen.getByTestId('report-scope')).toHaveTextContent('Hosts: Windows');
    expect(screen.getByTestId('report-asof')).toHaveTextContent(`${expected.total} host(s)`);
    expect(within(screen.getByTestId('report-connectors')).getByText('Contoso Defender')).toBeVisible();
    const counts = screen.getByTestId('report-band-counts');
    for (const b of BANDS) expect(counts.querySelector(`tr[data-band="${b}"] td:nth-child(2)`)).toHaveTextContent(String(expected.bands[b]));

    const rows = within(screen.getByTestId('report-riskiest')).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.dataset.hostId)).toEqual(expected.riskiest.map((r) => r.hostId));
    // The first host's reasons: its contributions that add points, largest first, in the scoring's words.
    const top = expected.riskiest[0]!;
    const detail = await main.call('zta.host', { connectorId: top.connectorId, hostId: top.hostId });
    const reasons = within(rows[0]!).getAllByRole('listitem').map((li) => li.textContent);
    expect(reasons).toEqual(reasonsOf(detail.contributions).map((c) => `${c.detail} (+${c.scoreShare.toFixed(1)})`));
    expect(reasons.length).toBeGreaterThan(0);
    // The overview was asked for the same filter.
    expect(main.callsTo('zta.overview')).toContainEqual(filter);
    expect(screen.getByTestId('report-section-changes')).toHaveTextContent(/of these connectors changed score in the newest cycle/);
  });

  it('reads only what it shows: the facets, the counts and the riskiest rows of its filter, the overview and those hosts — never the snapshot of every host (issue 25.3, C-95)', async () => {
    const main = await polledMain();
    // Stricter band edges rescore the tenant as a cycle of its own: hosts of every platform enter High Risk.
    const [connector] = await main.call('connectors.list', {});
    const done = main.next('edr.progress', (p) => p.connectorId === connector!.id && p.phase === 'completed', 30_000);
    await main.call('zta.applyRisk', { connectorId: connector!.id, risk: { bands: [5, 10, 15, 20] } });
    await done;
    const filter: ZtaFilter = { platform: 'Windows' };
    renderApp(main, { at: '/zta/report?platform=Windows' });
    await ready();

    expect(main.callsTo('zta.snapshot')).toEqual([]);
    expect(main.callsTo('zta.facets')).toEqual([{}]);
    expect(main.callsTo('zta.counts')).toEqual([{ filter }]);
    expect(main.callsTo('zta.window')).toEqual([{ filter, offset: 0, limit: RISKIEST }]);
    expect(main.callsTo('zta.overview')).toEqual([filter]);
    const snapshot = await main.call('zta.snapshot');
    const expected = reportOfSnapshot(snapshot, filter);
    expect(main.callsTo('zta.host').map((q) => (q as { hostId: string }).hostId).sort()).toEqual(expected.riskiest.map((r) => r.hostId).sort());

    // The changes: those of the Windows hosts, as the snapshot's rows decided them.
    const overview = await main.call('zta.overview', filter);
    const changes = changesOfSnapshot(snapshot, filter, overview.changes);
    const listed = (id: string) => within(screen.getByTestId(id)).queryAllByRole('row').slice(1).map((r) => r.dataset.hostId);
    expect(listed('report-entered')).toEqual(changes.enteredHighRisk.map((m) => m.hostId));
    expect(listed('report-left')).toEqual(changes.leftHighRisk.map((m) => m.hostId));
    expect(listed('report-movers')).toEqual(changes.biggestMovers.map((m) => m.hostId));
    // Narrowed for real: hosts of other platforms entered High Risk too, and are not listed.
    expect(changes.enteredHighRisk.length).toBeGreaterThan(0);
    expect(changes.enteredHighRisk.length).toBeLessThan(overview.changes.enteredHighRisk.length);
  });

  it('says "at least" and that the counts are lower bounds when the store stopped counting a search’s matches (C-79)', async () => {
    const main = await polledMain();
    // This main's 40 hosts are under the store's count cap: its counts of the search, answered as a capped store answers them.
    const counts = await main.call('zta.counts', { filter: { q: 'a' } });
    expect(counts.exact).toBe(true);
    const transport = answering(main, 'zta.counts', { ok: true, value: { ...counts, exact: false } });
    renderApp(main, { at: '/zta/report?q=a', transport });
    await ready();
    expect(screen.getByTestId('report-asof')).toHaveTextContent(`at least ${counts.total} host(s)`);
    expect(screen.getByTestId('report-section-bands')).toHaveTextContent(`More than ${counts.total} hosts match this search`);
  });

  it('on the desktop asks main for the PDF with the report’s filters, and shows main’s refusal', async () => {
    const main = await polledMain('desktop');
    const { user } = renderApp(main, { at: '/zta/report?band=High%20Risk' });
    await ready();
    // This main has no Electron to print with: it says what to do instead.
    await user.click(screen.getByRole('button', { name: 'Save as PDF' }));
    expect(await screen.findByText('PDF reports are made by the desktop app.', { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
    expect(main.callsTo('zta.report.pdf')).toEqual([{ filter: { band: 'High Risk' } }]);
  });

  it('answers a saved PDF with its file name', async () => {
    const main = await polledMain('desktop');
    const transport = answering(main, 'zta.report.pdf', { ok: true, value: { saved: true, name: 'northbound-risk-report.pdf' } });
    const { user } = renderApp(main, { at: '/zta/report', transport });
    await ready();
    await user.click(screen.getByRole('button', { name: 'Save as PDF' }));
    expect(await screen.findByText('northbound-risk-report.pdf', { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
  });

  it('in browser mode prints with the browser and offers no PDF of its own; Back goes to the dashboard with the filters', async () => {
    const main = await polledMain('browser');
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    const { user } = renderApp(main, { at: '/zta/report?customer=nobody' });
    await ready();
    expect(screen.getByTestId('report-section-bands')).toHaveTextContent('No host matches these filters.');
    expect(screen.queryByRole('button', { name: 'Save as PDF' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Print report' }));
    expect(print).toHaveBeenCalledTimes(1);
    await user.click(screen.getByRole('link', { name: 'Back to the dashboard' }));
    await waitFor(() => expect(address()).toMatch(/^\/zta\?/));
    expect(address()).toContain('customer=nobody');
    // Leaving the report gives the window its title back and takes the ready mark away.
    expect(document.title).not.toBe('Northbound risk report');
    expect(document.documentElement.dataset.reportReady).toBeUndefined();
  });

  it('an address with wrong values reports on all hosts; print=1 lays the page out alone, without its toolbar', async () => {
    const main = await polledMain();
    renderApp(main, { at: '/zta/report?band=Scary&platform=Amiga&print=1' });
    await ready();
    expect(screen.getByTestId('report-scope')).toHaveTextContent('All hosts');
    expect(main.callsTo('zta.overview')).toContainEqual({});
    expect(document.documentElement).toHaveClass('report-print');
    expect(screen.queryByRole('button', { name: 'Print report' })).toBeNull();
  });

  it('tells the PDF window when the stored scores cannot be read, and says so on the page', async () => {
    const main = await MainBridge.start(noPolls);
    const transport = answering(main, 'zta.counts', { ok: false, error: { code: 'internal', message: 'edr.db is locked.', hint: '' } });
    renderApp(main, { at: '/zta/report', transport });
    await waitFor(() => expect(document.documentElement.dataset.reportReady).toBe('failed'), { timeout: 15_000 });
    expect(screen.getByRole('alert')).toHaveTextContent('The stored scores could not be read: edr.db is locked.');
  });
});
