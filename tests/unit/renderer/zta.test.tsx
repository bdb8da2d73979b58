// @vitest-environment jsdom
/**
 * The ZTA dashboard (issue 11) against a real main that polled a Defender and a Falcon tenant
 * (the project's simulators): Customer ID then Platform with the platform's attribute columns,
 * the address round trip, a host's details (why its band, its history), the what-if (live band
 * counts, the inline weights error, Save rescoring as a cycle of its own), the export of the view,
 * the empty states and a vendor gone offline.
 */
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { readFile } from 'node:fs/promises';
import Papa from 'papaparse';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { BANDS, exportRecord, makeRowFilter, NOT_ASSESSED_INDEX, snapshotRow, type ZtaFilter, type ZtaSnapshot } from '../../../shared/model/zta';
import { exportedRows } from '../../../electron/edr/zta-export';
import { defenderConnectorSave } from '../../support/edr-fixtures';
import { stubScrollerSize } from './support/layout';
import { MainBridge } from './support/main-bridge';
import { address, renderApp } from './support/render';
import { noPolls, params, pollOnce, scoredMain, shownColumns, shownHosts, type ScoredMain } from './support/zta-steps';

// A table 1,400 px wide: every column fits (a narrower one is the test of its own below).
let restore: () => void;
beforeEach(() => (restore = stubScrollerSize(600, 1400)));
afterEach(() => restore());

const count = (n: number) => n.toLocaleString('en');
const expectedRows = (s: ZtaSnapshot, f: ZtaFilter) => exportedRows(s, f).map((i) => s.rows.hostId[i]!);
const bandTotals = () => Object.fromEntries(BANDS.map((b) => [b, Number(screen.getByTestId(`band-total-${b}`).querySelector('strong')!.textContent!.replace(/,/g, ''))]));

describe('ZTA dashboard over two polled tenants', () => {
  // Read by every test here, changed by none (what-if and offline have their own main).
  let fx: ScoredMain;
  let s: ZtaSnapshot;
  beforeAll(async () => {
    fx = await scoredMain({ shared: true });
    s = await fx.main.call('zta.snapshot');
  });
  afterAll(() => fx?.main.close());

  it('Ctrl+K finds a host by name among every connector’s and opens it; its connector is a link to the Connectors page (issue 22.10)', async () => {
    const { user } = renderApp(fx.main, { at: '/overview' });
    const i = 37;
    const name = s.rows.hostname[i]!;
    await user.keyboard('{Control>}k{/Control}');
    const p = await screen.findByRole('dialog', { name: 'Command palette' });
    await user.keyboard(name);
    const option = await within(p).findByRole('option', { name: new RegExp(`^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`) }, { timeout: 5000 });
    expect(option.getAttribute('data-value')).toBe(`host:${s.connectors[s.rows.connector[i]!]!.connectorId}:${s.rows.hostId[i]}`);
    await user.click(option);
    const dialog = await screen.findByTestId('zta-host');
    expect(within(dialog).getByRole('heading', { name })).toBeVisible();
    expect(new URLSearchParams(window.location.hash.split('?')[1] ?? '').get('host')).toBe(s.rows.hostId[i]);
    const connector = await within(dialog).findByTestId('zta-host-connector');
    expect(connector).toHaveTextContent(s.connectors[s.rows.connector[i]!]!.name);
    await user.click(connector);
    expect(await screen.findByRole('heading', { name: 'Connectors', level: 1 })).toBeVisible();
  });

  it('shows every host riskiest first, each tenant as of its cycle, and filters Customer ID then Platform with that platform’s attributes in view', async () => {
    const { user } = renderApp(fx.main, { at: '/zta' });
    expect(await screen.findByTestId('zta-count')).toHaveTextContent('120 hosts');
    expect(screen.getByTestId('zta-table')).toHaveAttribute('aria-rowcount', '121');
    expect(shownHosts().slice(0, 20)).toEqual(expectedRows(s, {}).slice(0, 20));
    for (const c of s.connectors) expect(within(screen.getByTestId(`zta-connector-${c.name}`)).getByTestId('zta-connector-asof')).toHaveTextContent(/^as of \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    // Names before IDs (issue 22.7): the customer is named by its connector, its ID in the title.
    expect(shownColumns()).toEqual(['Hostname', 'Customer', 'Host ID', 'Vendor', 'Platform', 'OS assessment', 'Sensor assessment', 'Overall assessment', 'Risk score', 'Band', 'Last seen']);
    const top = snapshotRow(s, exportedRows(s, {})[0]!);
    const topCells = within(screen.getAllByTestId('zta-row')[0]!).getAllByRole('cell');
    expect(topCells[1]).toHaveTextContent(top.connectorName);
    expect(topCells[1]!.querySelector('[title]')).toHaveAttribute('title', `${top.connectorName} (${top.customerId})`);
    expect(topCells[2]).toHaveTextContent(`${top.hostId.slice(0, 8)}…`);
    expect(topCells[2]!.querySelector('[title]')).toHaveAttribute('title', top.hostId);

    // Customer first: the Defender tenant's customer; then Windows brings Defender's attributes.
    const customer = s.customers[s.rows.customer[s.rows.connector.indexOf(s.connectors.findIndex((c) => c.vendor === 'defender'))]!]!;
    await user.selectOptions(screen.getByLabelText('Customer ID'), customer);
    await waitFor(() => expect(screen.getByTestId('zta-count')).toHaveTextContent(`60 of 120`));
    const windows = expectedRows(s, { customer, platform: 'Windows' });
    expect(within(screen.getByLabelText('Platform')).getByRole('option', { name: `Windows (${windows.length})` })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Platform'), 'Windows');
    await waitFor(() => expect(screen.getByTestId('zta-count')).toHaveTextContent(`${windows.length} of 120`));
    expect(shownHosts()).toEqual(windows.slice(0, shownHosts().length));
    // Over Defender's hosts alone the assessment columns are headed by its words (EDR-Z1), and its
    // risk level, exposure and health are not repeated; the customer, platform and vendor every row shares leave.
    expect(shownColumns()).toEqual(['Hostname', 'Host ID', 'Exposure', 'Health', 'Risk level', 'Risk score', 'Band', 'Last seen', 'AV status', 'CVEs']);
    const first = snapshotRow(s, exportedRows(s, { customer, platform: 'Windows' })[0]!);
    const cells = within(screen.getAllByTestId('zta-row')[0]!).getAllByRole('cell');
    expect(cells[2]).toHaveTextContent(new RegExp(first.exposure!.replace(/([a-z])([A-Z])/g, '$1 $2'), 'i'));
    expect(cells[4]).toHaveTextContent(new RegExp(first.riskLevel!.replace(/([a-z])([A-Z])/g, '$1 $2'), 'i'));

    // The Falcon tenant's Macs: Falcon's sensor comes into view, Defender's attributes do not.
    const falconCustomer = s.customers.find((c) => c !== customer)!;
    await user.selectOptions(screen.getByLabelText('Customer ID'), falconCustomer);
    await user.selectOptions(screen.getByLabelText('Platform'), 'Mac');
    const macs = expectedRows(s, { customer: falconCustomer, platform: 'Mac' });
    await waitFor(() => expect(screen.getByTestId('zta-count')).toHaveTextContent(`${macs.length} of 120`));
    expect(shownColumns()).toEqual(['Hostname', 'Host ID', 'OS assessment', 'Sensor assessment', 'Overall assessment', 'Risk score', 'Band', 'Last seen', 'Sensor']);
    expect(shownHosts()).toEqual(macs.slice(0, shownHosts().length));
  });

  it('in a table 900 px wide the host ID, vendor, platform and sensor assessment give way; the hostname, score and band stay', async () => {
    restore();
    restore = stubScrollerSize(600, 900);
    renderApp(fx.main, { at: '/zta' });
    expect(await screen.findByTestId('zta-count')).toHaveTextContent('120 hosts');
    expect(shownColumns()).toEqual(['Hostname', 'Customer', 'OS assessment', 'Overall assessment', 'Risk score', 'Band', 'Last seen']);
  });

  it('the riskiest hosts are the first scored rows of the riskiest-first table, and stay so under another sort', async () => {
    const { user } = renderApp(fx.main, { at: '/zta' });
    await screen.findByTestId('zta-count');
    const card = screen.getByTestId('zta-riskiest');
    const listed = () => within(card).queryAllByRole('button').map((b) => /\(([^)]+)\)$/.exec(b.getAttribute('title') ?? '')?.[1]);
    const scored = expectedRows(s, {}).filter((id) => s.rows.band[s.rows.hostId.indexOf(id)] !== NOT_ASSESSED_INDEX);
    await waitFor(() => expect(listed()).toEqual(shownHosts().slice(0, 10)));
    expect(listed()).toEqual(scored.slice(0, 10));
    // Under the riskiest-first sort the card asked main for nothing of its own; under another, its own window of ten.
    const ownWindows = () => fx.main.callsTo('zta.window').filter((r) => (r as { limit: number }).limit === 10).length;
    const before = ownWindows();
    await user.click(within(screen.getByRole('columnheader', { name: /Hostname/ })).getByRole('button'));
    await waitFor(() => expect(params().get('sort')).toBe('hostname'));
    await waitFor(() => expect(shownHosts()[0]).not.toBe(scored[0]));
    await waitFor(() => expect(ownWindows()).toBe(before + 1));
    await waitFor(() => expect(listed()).toEqual(scored.slice(0, 10)));
    // A search typed under that sort: the table answers it, and the card follows once the typing
    // paused — the riskiest of the matching hosts, from a window asked for the whole search (C-98).
    const q = s.rows.hostname[s.rows.hostId.indexOf(scored[3]!)]!.slice(0, 4).toLowerCase();
    await user.type(screen.getByTestId('zta-search'), q);
    const matching = expectedRows(s, { q }).filter((id) => s.rows.band[s.rows.hostId.indexOf(id)] !== NOT_ASSESSED_INDEX);
    expect(matching.length).toBeGreaterThan(0);
    await waitFor(() => expect(listed()).toEqual(matching.slice(0, 10)));
    expect(card).toHaveAttribute('aria-busy', 'false');
    const searched = fx.main.callsTo('zta.window').filter((r) => (r as { limit: number }).limit === 10 && (r as { filter: ZtaFilter }).filter.q !== undefined);
    expect(searched.at(-1)).toMatchObject({ filter: { q } });
  });

  it('asks for the table\'s first page beside the facets, in the address\'s filter and sort', async () => {
    const timeline: string[] = [];
    const invoke = fx.main.invoke.bind(fx.main);
    fx.main.invoke = async (channel, request) => {
      timeline.push(`call ${channel}`);
      const answer = await invoke(channel, request);
      timeline.push(`answer ${channel}`);
      return answer;
    };
    try {
      const before = fx.main.callsTo('zta.window').length;
      renderApp(fx.main, { at: '/zta?platform=Windows&sort=hostname&order=asc' });
      await waitFor(() => expect(shownHosts().length).toBeGreaterThan(0));
      expect(timeline.indexOf('call zta.window')).toBeGreaterThan(-1);
      expect(timeline.indexOf('call zta.window')).toBeLessThan(timeline.indexOf('answer zta.facets'));
      const firstPages = fx.main.callsTo('zta.window').slice(before).filter((r) => (r as { offset: number; limit: number }).offset === 0 && (r as { limit: number }).limit === 100);
      // (Read again if a change was told meanwhile: the shared main tells one as the page opens.)
      expect(firstPages[0]).toEqual({ filter: { platform: 'Windows' }, sort: { key: 'hostname', desc: false }, offset: 0, limit: 100 });
      const windows = new Set(expectedRows(s, { platform: 'Windows' }));
      expect(shownHosts().filter((id) => !windows.has(id!))).toEqual([]);
    } finally {
      fx.main.invoke = invoke;
    }
  });

  it('asks for a search\'s counts once the table shows the search\'s rows (the chart follows the table)', async () => {
    const timeline: string[] = [];
    const invoke = fx.main.invoke.bind(fx.main);
    const qOf = (r: unknown) => (r as { filter?: { q?: string } }).filter?.q ?? '';
    fx.main.invoke = async (channel, request) => {
      timeline.push(`call ${channel} ${qOf(request)}`);
      const answer = await invoke(channel, request);
      timeline.push(`answer ${channel} ${qOf(request)}`);
      return answer;
    };
    try {
      const { user } = renderApp(fx.main, { at: '/zta' });
      await screen.findByTestId('zta-count');
      const q = s.rows.hostname[5]!.slice(0, 3).toLowerCase();
      await user.type(screen.getByTestId('zta-search'), q);
      await waitFor(() => expect(timeline).toContain(`answer zta.counts ${q}`));
      // The table's window for the whole search answered before its counts were asked.
      expect(timeline.indexOf(`answer zta.window ${q}`)).toBeGreaterThan(-1);
      expect(timeline.indexOf(`answer zta.window ${q}`)).toBeLessThan(timeline.indexOf(`call zta.counts ${q}`));
      await waitFor(() => expect(Object.values(bandTotals()).reduce((a, b) => a + b, 0)).toBe(expectedRows(s, { q }).length));
    } finally {
      fx.main.invoke = invoke;
    }
  });

  it('keeps filters, sort and the opened host in the address, and an address restores them (a bad value falls back)', async () => {
    const { user, unmount } = renderApp(fx.main, { at: '/zta' });
    await screen.findByTestId('zta-count');
    const entries = window.history.length;
    // Part of the name of a Falcon Windows host: the search finds at least that one.
    const q = s.rows.hostname[s.rows.hostId.findIndex((_, i) => s.rows.platform[i] === 0 && s.connectors[s.rows.connector[i]!]!.vendor === 'falcon')]!.slice(0, 5).toLowerCase();
    await user.selectOptions(screen.getByLabelText('Platform'), 'Windows');
    await user.selectOptions(screen.getByLabelText('Vendor'), 'falcon');
    await user.type(screen.getByTestId('zta-search'), q);
    await user.click(within(screen.getByRole('columnheader', { name: /Hostname/ })).getByRole('button'));
    await waitFor(() => expect(Object.fromEntries(params())).toMatchObject({ platform: 'Windows', vendor: 'falcon', q, sort: 'hostname', order: 'asc' }));
    // Refining replaces the page's entry.
    expect(window.history.length).toBe(entries);
    const expected = s.rows.hostId
      .map((_, i) => i)
      .filter(makeRowFilter(s, { platform: 'Windows', vendor: 'falcon', q }))
      .sort((a, b) => (s.rows.hostname[a]! < s.rows.hostname[b]! ? -1 : s.rows.hostname[a]! > s.rows.hostname[b]! ? 1 : a - b))
      .map((i) => s.rows.hostId[i]);
    await waitFor(() => expect(screen.getByTestId('zta-count')).toHaveTextContent(`${expected.length} of 120`));
    expect(shownHosts()).toEqual(expected.slice(0, shownHosts().length));
    expect(expected.length).toBeGreaterThan(0);

    await user.click(screen.getAllByTestId('zta-row')[0]!);
    expect(await screen.findByTestId('zta-host')).toBeVisible();
    expect(params().get('host')).toBe(expected[0]);
    expect(window.history.length).toBe(entries + 1);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('zta-host')).toBeNull());
    expect(params().has('host')).toBe(false);
    expect(params().get('q')).toBe(q);

    // Opened at an address (a new window: the first one closed, or both would follow the one
    // address): the same view and the host open; a platform it does not know is no filter.
    unmount();
    const hostId = expectedRows(s, { band: 'Suspicious' })[0]!;
    const again = renderApp(fx.main, { at: `/zta?platform=BeOS&band=Suspicious&sort=lastSeen&order=asc&host=${hostId}` });
    const dialog = await screen.findByTestId('zta-host');
    expect(within(dialog).getByRole('heading', { name: s.rows.hostname[s.rows.hostId.indexOf(hostId)]! })).toBeVisible();
    await again.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('zta-host')).toBeNull());
    expect(screen.getByLabelText('Platform')).toHaveValue('');
    expect(screen.getByLabelText('Band')).toHaveValue('Suspicious');
    expect(screen.getByRole('columnheader', { name: /Last seen/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByTestId('zta-count')).toHaveTextContent(`${count(expectedRows(s, { band: 'Suspicious' }).length)} of 120`);
    await waitFor(() => expect(address()).not.toContain('BeOS'));
  });

  it('moves through the rows with the keyboard and opens the focused host with Enter', async () => {
    const { user } = renderApp(fx.main, { at: '/zta' });
    await screen.findByTestId('zta-count');
    const order = expectedRows(s, {});
    await user.click(screen.getAllByTestId('zta-row')[0]!);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('zta-host')).toBeNull());
    screen.getAllByTestId('zta-row')[0]!.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowUp}');
    await waitFor(() => expect(document.activeElement).toHaveAttribute('data-host', order[1]));
    // A page is the rows that fit (600 px of 36 px rows) less one.
    await user.keyboard('{PageDown}');
    await waitFor(() => expect(document.activeElement).toHaveAttribute('data-host', order[1 + 15]));
    await user.keyboard('{Home}{ArrowDown}{Enter}');
    expect(await screen.findByTestId('zta-host')).toBeVisible();
    expect(params().get('host')).toBe(order[1]);
  });

  it('a host’s details say why it has its band, largest contribution first, with its history and vendor facts', async () => {
    // A Defender host with the most indicators counting.
    const defender = s.connectors.find((c) => c.vendor === 'defender')!;
    const details = await Promise.all(
      s.rows.hostId.filter((_, i) => s.connectors[s.rows.connector[i]!] === defender).slice(0, 30).map((hostId) => fx.main.call('zta.host', { connectorId: defender.connectorId, hostId })),
    );
    const d = details.sort((a, b) => b.contributions.filter((c) => c.scoreShare > 0).length - a.contributions.filter((c) => c.scoreShare > 0).length)[0]!;
    const counted = d.contributions.filter((c) => c.scoreShare > 0).sort((a, b) => b.scoreShare - a.scoreShare);
    expect(counted.length).toBeGreaterThan(1);

    renderApp(fx.main, { at: `/zta?host=${d.host.hostId}` });
    const dialog = await screen.findByTestId('zta-host');
    const why = await within(dialog).findByTestId('zta-why');
    expect(within(why).getByRole('heading')).toHaveTextContent(`Why this host is ${d.band}`);
    expect(why).toHaveTextContent(`Score ${d.score!.toFixed(1)} is ${d.band}`);
    const reasons = within(why).getAllByTestId('zta-reason');
    expect(reasons.map((r) => r.querySelector('strong')!.textContent)).toEqual(counted.map((c) => c.detail));
    const widths = reasons.map((r) => parseFloat((r.querySelector('.zta-reason-bar span') as HTMLElement).style.width));
    expect(widths).toEqual(counted.map((c) => Math.min(100, c.scoreShare)));
    expect(widths).toEqual([...widths].sort((a, b) => b - a));
    // The zero ones are named as adding nothing.
    for (const c of d.contributions.filter((x) => x.scoreShare === 0)) expect(within(why).getByText(c.detail)).toBeVisible();

    const history = within(dialog).getByTestId('zta-history');
    expect(within(history).getAllByTestId('zta-history-point')).toHaveLength(d.history.length);
    expect(within(history).getByText('1 cycle')).toBeInTheDocument();
    const cves = within(dialog).getByTestId('zta-cves');
    expect(within(cves).getByRole('heading')).toHaveTextContent(`Vulnerabilities ${d.host.defender!.cveCount}`);
    expect(within(cves).getAllByTestId('zta-cve').map((r) => r.firstElementChild!.textContent)).toEqual(
      [...d.host.defender!.vulnerabilities!].sort((a, b) => (b.cvss ?? -1) - (a.cvss ?? -1)).map((v) => v.cveId).slice(0, within(cves).getAllByTestId('zta-cve').length),
    );
    expect(within(dialog).getByTestId('zta-attributes')).toHaveTextContent(d.host.defender!.riskScore ?? 'not reported');
  });

  it('a Falcon host’s details group its signals, failing groups first, and show the two predefined profiles', async () => {
    const falcon = s.connectors.find((c) => c.vendor === 'falcon')!;
    const i = s.rows.hostId.findIndex((_, k) => s.connectors[s.rows.connector[k]!] === falcon && s.rows.overallAssessment[k] !== null && (s.rows.overallAssessment[k] ?? 100) < 60);
    const d = await fx.main.call('zta.host', { connectorId: falcon.connectorId, hostId: s.rows.hostId[i]! });
    renderApp(fx.main, { at: `/zta?host=${d.host.hostId}` });
    const dialog = await screen.findByTestId('zta-host');
    const profiles = await within(dialog).findByTestId('zta-profiles');
    for (const [id, passed] of Object.entries(d.profiles!)) expect(within(profiles).getByText(id).closest('li')).toHaveTextContent(passed ? 'passes' : 'fails');
    const os = within(dialog).getByTestId('zta-signals-os');
    const groups = [...os.querySelectorAll('summary')].map((g) => Number(/(\d+) failing/.exec(g.textContent ?? '')?.[1] ?? 0));
    expect(groups).toEqual([...groups].sort((a, b) => b - a));
    expect(groups.reduce((a, b) => a + b, 0)).toBe(d.host.falcon!.assessment!.os_signals.filter((x) => x.meets_criteria === 'no').length);
  });

  it('exports the view to CSV: main writes it, the window downloads it, the rows are the table’s', async () => {
    const clicked: Array<{ href: string; download: string }> = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push({ href: this.getAttribute('href')!, download: this.download });
    });
    try {
      const { user } = renderApp(fx.main, { at: '/zta?platform=Windows' });
      await waitFor(() => expect(screen.getByTestId('zta-count')).toHaveTextContent(/of 120/));
      await user.click(screen.getByRole('button', { name: 'Export CSV' }));
      await waitFor(() => expect(clicked).toHaveLength(1));
      expect(fx.main.callsTo('zta.export.start')).toEqual([{ format: 'csv', filter: { platform: 'Windows' } }]);
      expect(clicked[0]!.download).toMatch(/^northbound-zta-.*\.csv$/);
      const offer = await fx.main.appCall<{ file: string }>('downloads.take', clicked[0]!.href.split('/').pop());
      const rows = Papa.parse<Record<string, string>>((await readFile(offer.file, 'utf8')).trim(), { header: true }).data;
      const expected = exportedRows(s, { platform: 'Windows' }).map((i) => exportRecord(snapshotRow(s, i)));
      expect(rows.map((r) => r.host_id)).toEqual(expected.map((r) => r.host_id));
      expect(rows.map((r) => r.band)).toEqual(expected.map((r) => r.band));
      expect(shownHosts()).toEqual(expected.slice(0, shownHosts().length).map((r) => r.host_id));
      await waitFor(() => expect(screen.queryByTestId('zta-export-progress')).toBeNull());
    } finally {
      click.mockRestore();
    }
  });
});

describe('ZTA what-if', () => {
  it('moves the band counts live, says inline that the weights must total 100, and Save rescores the tenant as a cycle of its own', async () => {
    const fx = await scoredMain({ hosts: 80 });
    const { main, defender } = fx;
    const before = await main.call('zta.snapshot');
    const { user } = renderApp(main, { at: '/zta' });
    await screen.findByTestId('zta-count');
    // The chart is drawn from the counts, which may come after the table's first rows.
    await waitFor(() => expect(Object.values(bandTotals()).reduce((a, b) => a + b, 0)).toBe(before.rows.hostId.length));
    const stored = bandTotals();
    const toggle = screen.getByRole('button', { name: 'What-if' });
    await user.click(toggle);
    // It takes the focus when it opens; Escape inside it closes it and gives the focus back (issue 22.7).
    expect(await screen.findByTestId('zta-whatif')).toHaveFocus();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('zta-whatif')).toBeNull());
    expect(toggle).toHaveFocus();
    await user.click(toggle);
    const panel = await screen.findByTestId('zta-whatif');
    await user.selectOptions(within(panel).getByTestId('zta-whatif-tenant'), defender.id);
    // Under the stored settings nothing moves; the page shows the tenant's hosts alone while its what-if is open (C-78).
    await waitFor(() => expect(within(panel).getByTestId('zta-whatif-changed')).toHaveTextContent('0 hosts change band, 0 change score.'));
    const vendorBands = (snap: ZtaSnapshot, vendor: string) => Object.fromEntries(BANDS.map((b, k) => [b, snap.rows.band.filter((x, i) => x === k && snap.connectors[snap.rows.connector[i]!]!.vendor === vendor).length]));
    const defenderStored = vendorBands(before, 'defender');
    await waitFor(() => expect(bandTotals()).toEqual(defenderStored));
    expect(Object.values(stored).reduce((a, b) => a + b, 0)).toBeGreaterThan(Object.values(defenderStored).reduce((a, b) => a + b, 0));

    // A weight that breaks the total: the inline error, and the preview keeps the last valid settings.
    const critical = within(panel).getByLabelText('Critical risk (%)');
    await user.clear(critical);
    await user.type(critical, '90');
    expect(await within(panel).findByText('Weights must total 100 %; critical 90 + operational 40 = 130.')).toBeVisible();
    expect(critical).toHaveAttribute('aria-invalid', 'true');
    expect(within(panel).getByText('Fix the settings marked below: the preview shows the last valid settings.')).toBeVisible();
    expect(within(panel).getByRole('button', { name: 'Save and rescore' })).toBeDisabled();
    expect(bandTotals()).toEqual(defenderStored);

    // Fixed with the other weight, the counts move live: in the panel and in the page's distribution.
    const operational = within(panel).getByLabelText('Operational health (%)');
    await user.clear(operational);
    await user.type(operational, '10');
    await waitFor(() => expect(within(panel).queryByText(/Weights must total/)).toBeNull());
    await waitFor(() => expect(within(panel).getByTestId('zta-whatif-changed')).not.toHaveTextContent(/^0 hosts change band, 0 change score/));
    const whatIf = Object.fromEntries(BANDS.map((b) => [b, Number(within(within(panel).getByTestId(`whatif-band-${b}`)).getAllByRole('cell')[2]!.querySelector('strong')!.textContent)]));
    const falconNow = vendorBands(before, 'falcon');
    await waitFor(() => expect(bandTotals()).toEqual(whatIf));
    expect(screen.getByTestId('zta-whatif-banner')).toHaveTextContent('What-if on Contoso Defender');

    // The slider moves both weights and keeps the total.
    fireEvent.change(within(panel).getByTestId('zta-whatif-slider'), { target: { value: '100' } });
    await waitFor(() => expect(critical).toHaveValue(100));
    expect(operational).toHaveValue(0);
    await waitFor(() => expect(within(panel).getByTestId('risk-weights-total')).toHaveTextContent('Total 100 %.'));
    const previewed = Object.fromEntries(BANDS.map((b) => [b, Number(within(within(panel).getByTestId(`whatif-band-${b}`)).getAllByRole('cell')[2]!.querySelector('strong')!.textContent)]));

    // Saving changes what the SD-WAN enforces: it asks first, with the numbers that move; Cancel stores nothing.
    const changed = within(panel).getByTestId('zta-whatif-changed').textContent!;
    const [, bandMoves] = /^([\d,]+) hosts? change/.exec(changed)!;
    await user.click(within(panel).getByRole('button', { name: 'Save and rescore' }));
    let ask = await screen.findByTestId('zta-whatif-confirm');
    expect(within(ask).getByTestId('zta-whatif-consequences')).toHaveTextContent(`${bandMoves} hosts change band`);
    expect(within(ask).getByTestId('zta-whatif-consequences')).toHaveTextContent(`→ ${previewed['High Risk']}`);
    expect(within(ask).getByTestId('zta-whatif-consequences')).toHaveTextContent('published to the SD-WAN');
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByTestId('zta-whatif-confirm')).toBeNull());
    expect(main.callsTo('zta.applyRisk')).toEqual([]);
    // Escape in the confirmation closes the confirmation only: the panel and its settings stay.
    await user.click(within(panel).getByRole('button', { name: 'Save and rescore' }));
    await screen.findByTestId('zta-whatif-confirm');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('zta-whatif-confirm')).toBeNull());
    expect(screen.getByTestId('zta-whatif')).toBe(panel);
    expect(critical).toHaveValue(100);
    await user.click(within(panel).getByRole('button', { name: 'Save and rescore' }));
    ask = await screen.findByTestId('zta-whatif-confirm');
    await user.click(within(ask).getByRole('button', { name: 'Save and rescore' }));
    await waitFor(() => expect(screen.queryByTestId('zta-whatif')).toBeNull(), { timeout: 15_000 });
    expect(main.callsTo('zta.applyRisk')).toEqual([{ connectorId: defender.id, risk: { weights: { critical: 100, operational: 0 } } }]);
    const after = await main.call('zta.snapshot');
    const tenant = after.connectors.find((c) => c.connectorId === defender.id)!;
    expect(tenant.kind).toBe('rescore');
    // The rescored cycle is what the what-if showed.
    const defenderBands = Object.fromEntries(BANDS.map((b, k) => [b, after.rows.band.filter((x, i) => x === k && after.rows.connector[i] === after.connectors.indexOf(tenant)).length]));
    expect(defenderBands).toEqual(previewed);
    const strip = await screen.findByTestId('zta-connector-Contoso Defender');
    await waitFor(() => expect(within(strip).getByText('rescored')).toBeVisible());
    await waitFor(() => expect(bandTotals()).toEqual(Object.fromEntries(BANDS.map((b) => [b, previewed[b]! + falconNow[b]!]))));

    // A host that moved shows the rescored cycle in its history.
    const moved = after.rows.hostId.findIndex((id, i) => after.rows.connector[i] === after.connectors.indexOf(tenant) && before.rows.score[before.rows.hostId.indexOf(id)] !== after.rows.score[i]);
    await user.type(screen.getByTestId('zta-search'), after.rows.hostId[moved]!);
    await waitFor(() => expect(shownHosts()).toEqual([after.rows.hostId[moved]]));
    await user.click(screen.getByTestId('zta-row'));
    const history = await screen.findByTestId('zta-history');
    expect(within(history).getAllByTestId('zta-history-point').map((r) => r.lastElementChild!.textContent)).toEqual(['poll', 'rescored']);
    expect(history).toHaveTextContent('1 rescored');
  }, 45_000);
});

describe('ZTA search past the store’s count (C-79)', () => {
  it('a search matching more hosts than the store counts says "at least", and the chart says it counted the first ones', async () => {
    const fx = await scoredMain({ hosts: 80, app: { edr: { countCap: 10 } } });
    const s = await fx.main.call('zta.snapshot');
    // The character most hostnames share: a search for it matches far more than 10 hosts.
    const tally = new Map<string, number>();
    for (const h of s.rows.hostname) for (const ch of new Set(h.toLowerCase())) if (/[a-z0-9]/.test(ch)) tally.set(ch, (tally.get(ch) ?? 0) + 1);
    const [ch, n] = [...tally].sort((a, b) => b[1] - a[1])[0]!;
    // More than the first page of rows (100): the window does not reach the end of the matches either.
    expect(n).toBeGreaterThan(101);
    const { user } = renderApp(fx.main, { at: '/zta' });
    expect(await screen.findByTestId('zta-count')).toHaveTextContent(`${s.rows.hostId.length} hosts`);
    expect(screen.queryByTestId('zta-distribution-partial')).toBeNull();
    await user.type(screen.getByTestId('zta-search'), ch);
    // The first page's rows are known to match: at least those; the table has one more row, loading, to read on.
    await waitFor(() => expect(screen.getByTestId('zta-count')).toHaveTextContent(`at least 100 of ${s.rows.hostId.length}`));
    expect(screen.getByTestId('zta-table')).toHaveAttribute('aria-rowcount', '102');
    expect(await screen.findByTestId('zta-distribution-partial')).toHaveTextContent('the bars count the first 10');
  }, 45_000);
});

describe('ZTA empty and offline states', () => {
  it('with no connector it says what to do: add one or open the demo workspace', async () => {
    const main = await MainBridge.start(noPolls);
    renderApp(main, { at: '/zta' });
    const empty = await screen.findByTestId('zta-empty');
    expect(empty).toHaveTextContent('No EDR connector yet.');
    expect(within(empty).getByRole('link', { name: 'Add a connector' })).toHaveAttribute('href', '/#/connectors');
    expect(within(empty).getByRole('button', { name: 'Open demo workspace' })).toBeEnabled();
  });

  it('connectors that never completed a cycle can be polled from the page; the scores show when the cycle completes', async () => {
    const main = await MainBridge.start(noPolls);
    const sim = await main.defender([{ hosts: 12 }]);
    const t = sim.tenants[0]!;
    const c = await main.call('connectors.save', defenderConnectorSave(sim, t, { name: 'New tenant' }));
    const { user } = renderApp(main, { at: '/zta' });
    const never = await screen.findByTestId('zta-never');
    expect(never).toHaveTextContent('No connector has completed a cycle yet.');
    expect(within(never).getByTestId('zta-connector-New tenant')).toHaveTextContent('No completed cycle yet.');
    await user.click(within(never).getByRole('button', { name: 'Poll New tenant now' }));
    expect(await screen.findByTestId('zta-count', {}, { timeout: 15_000 })).toHaveTextContent('12 hosts');
    expect(main.callsTo('connectors.pollNow')).toEqual([{ connectorId: c.id }]);
  });

  it('a vendor that cannot be reached shows as offline with the last good data as of its cycle, not as a failure', async () => {
    const main = await MainBridge.start(noPolls);
    const sim = await main.defender([{ hosts: 12 }]);
    const t = sim.tenants[0]!;
    const c = await main.call('connectors.save', defenderConnectorSave(sim, t, { name: 'Far tenant' }));
    await pollOnce(main, c.id);
    const good = await main.call('zta.snapshot');
    await main.sim(sim).call('close');
    const failed = main.next('edr.progress', (p) => p.connectorId === c.id && p.phase === 'failed', 60_000);
    await main.call('connectors.pollNow', { connectorId: c.id });
    await failed;
    renderApp(main, { at: '/zta' });
    const strip = await screen.findByTestId('zta-connector-Far tenant');
    expect(strip).toHaveAttribute('data-health', 'offline');
    expect(strip).toHaveTextContent(/offline, last good data as of \d{4}-\d{2}-\d{2} /);
    expect(strip).not.toHaveTextContent('failed');
    expect(await screen.findByTestId('zta-count')).toHaveTextContent('12 hosts');
    expect(good.asOf).not.toBeNull();
    expect(strip.querySelector('time')).toHaveAttribute('datetime', good.asOf);
  }, 90_000);
});
