// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { controlChars } from '../../support/control-chars';
import { parseDeviceCsv } from '../../../renderer/features/onboarding/bulk/csv';
import type { BulkJobState } from '../../../shared/model/inventory';
import { MainBridge } from './support/main-bridge';
import { bytesOf, xlsxBytes } from './support/files';
import { stubScrollerSize } from './support/layout';
import { renderApp } from './support/render';

/** 100 device rows (lines 2…101), columns shuffled and oddly cased; lines 10, 50 and 77 are bad. */
function csv100(org = 'Acme Retail'): string {
  const header = ['SiteId', 'DEVICENAME', 'orgname', 'Country', 'serialNumber', 'deviceGroup', 'Latitude', 'longitude', 'notes'];
  const rows: string[][] = [];
  for (let n = 1; n <= 100; n++) {
    const line = n + 1;
    let name = `shop-${String(n).padStart(3, '0')}`;
    let country = 'DE';
    let serial = `SN-${n}`;
    if (line === 10) country = 'XX';
    if (line === 50) serial = '';
    if (line === 77) name = 'shop-004'; // the name of line 5
    rows.push([String(1000 + n), name, org, country, serial, 'retail-kiosk', '48.1', '11.6', n % 2 ? 'ground floor' : '']);
  }
  return Papa.unparse({ fields: header, data: rows });
}

const location = { country: 'DE', latitude: '48.1', longitude: '11.6' };

/**
 * A signed-in connection "Ops node" to a simulator whose devices old-1030 and old-1060 hold site
 * IDs 1030 (line 31) and 1060 (line 61) under other names: those two rows fail. The node answers
 * every data call after `delayMs`, so a job of 97 rows is seen running.
 */
async function opsNode(delayMs: number) {
  const main = await MainBridge.start();
  const node = await main.node({ seedDevices: 0, seedOrganizations: 14 });
  const ops = await main.addNodeProfile(node, { name: 'Ops node' });
  const org = (await main.sim(node).call<Array<{ name: string; parent: string | null }>>('inventory.organizations')).find((o) => o.parent !== null)!.name;
  const put = (deviceName: string, siteId: string) =>
    main.call('devices.onboard', { profileId: ops.id, device: { deviceName, siteId, orgName: org, serialNumber: `SN-${deviceName}`, deviceGroup: 'legacy', locationInfo: location } });
  await put('old-1030', '1030');
  await put('old-1060', '1060');
  await main.call('inventory.refresh', { profileId: ops.id, what: 'organizations' });
  await main.sim(node).set('faults.dataDelayMs', delayMs);
  return { main, node, ops, org, put };
}

/** Answers the confirmation of a consequential action with its confirming button. */
async function confirm(user: ReturnType<typeof renderApp>['user'], label: string) {
  await user.click(within(await screen.findByTestId('confirm-dialog')).getByRole('button', { name: label }));
}

const jobOf = async (main: MainBridge, n = 0) => {
  const started = main.answersTo('onboarding.start')[n]!.value as BulkJobState;
  return main.call('onboarding.get', { jobId: started.jobId });
};

const blobs: Blob[] = [];
let restore: () => void;
beforeEach(() => {
  restore = stubScrollerSize(300);
  blobs.length = 0;
  URL.createObjectURL = vi.fn((b: Blob) => {
    blobs.push(b);
    return `blob:test/${blobs.length}`;
  });
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => restore());

describe('CSV parsing', () => {
  it('maps columns in any order and case, keeps line numbers, reports every bad row under its column as the file names it', () => {
    const parsed = parseDeviceCsv(`\uFEFF${csv100()}`);
    expect(parsed.records).toHaveLength(100);
    expect(parsed.valid).toHaveLength(97);
    expect([...parsed.badLines].sort((a, b) => a - b)).toEqual([10, 50, 77]);
    expect(parsed.issues).toEqual([
      { line: 10, deviceName: 'shop-009', field: 'country', column: 'Country', message: 'This is not an ISO 3166-1 country code.' },
      { line: 50, deviceName: 'shop-049', field: 'serialNumber', column: 'serialNumber', message: 'Enter the serial number.' },
      { line: 77, deviceName: 'shop-004', field: 'deviceName', column: 'DEVICENAME', message: 'Line 5 has the same device name; each device once per file: rename or remove one of them.' },
    ]);
    expect(parsed.ignoredColumns).toEqual(['notes']);
    expect(parsed.valid[0]).toEqual({ line: 2, device: { deviceName: 'shop-001', siteId: '1001', orgName: 'Acme Retail', serialNumber: 'SN-1', deviceGroup: 'retail-kiosk', locationInfo: { country: 'DE', latitude: '48.1', longitude: '11.6' } } });
  });
});

/** The Devices page's CSV dialog with csv100() chosen and its 97 valid rows started as a job. */
async function startCsv100Job(delayMs: number) {
  const fx = await opsNode(delayMs);
  const { user } = renderApp(fx.main);
  await user.click(screen.getByRole('link', { name: /^Devices/ }));
  await user.click(await screen.findByRole('button', { name: 'Bulk onboard (CSV)…' }));
  const d = within(screen.getByTestId('bulk-onboarding'));
  await user.upload(d.getByTestId('csv-file'), new File([csv100(fx.org)], 'shops.csv', { type: 'text/csv' }));
  await user.click(await d.findByRole('button', { name: 'Start (97 devices)' }));
  await confirm(user, 'Start');
  return { ...fx, user, d };
}

describe('Bulk onboarding dialog', () => {
  it('reports the 3 bad rows with their lines, starts a job with the other 97, shows the results and retries the failed ones', async () => {
    const { main, node, org, put } = await opsNode(40);
    const { user } = renderApp(main);
    await user.click(screen.getByRole('link', { name: /^Devices/ }));
    await user.click(await screen.findByRole('button', { name: 'Bulk onboard (CSV)…' }));
    const dialog = screen.getByTestId('bulk-onboarding');
    const d = within(dialog);

    // template: the header and an example row, behind a Blob link
    await waitFor(() => expect(d.getByTestId('csv-template')).toHaveAttribute('href', 'blob:test/1'));
    expect(await blobs[0]!.text()).toBe('deviceName,siteId,orgName,serialNumber,deviceGroup,country,latitude,longitude\r\nbranch-berlin-01,117,Acme,SN-4C1D-0001,branch-small,DE,52.52,13.405\r\n');

    await user.upload(d.getByTestId('csv-file'), new File([csv100(org)], 'shops.csv', { type: 'text/csv' }));
    expect(await d.findByTestId('csv-summary')).toHaveTextContent('100 rows, 97 valid, 3 with errors');
    const issues = d.getByTestId('csv-issues');
    expect(within(issues).getByTestId('csv-issue-10')).toHaveTextContent('shop-009CountryThis is not an ISO 3166-1 country code.');
    expect(within(issues).getByTestId('csv-issue-50')).toHaveTextContent('serialNumber');
    expect(within(issues).getByTestId('csv-issue-77')).toHaveTextContent('Line 5 has the same device name');
    expect(d.getByTestId('csv-issue-count')).toHaveTextContent(/^3 problems below\./);
    expect(main.callsTo('onboarding.start')).toHaveLength(0);

    await user.click(d.getByRole('radio', { name: '10' }));
    await user.click(d.getByRole('button', { name: 'Start (97 devices)' }));
    // A run that writes to the node asks first, naming what will happen; Cancel has the focus.
    const ask = await screen.findByTestId('confirm-dialog');
    expect(ask).toHaveAccessibleName(`Onboard 97 devices on Ops node?`);
    expect(within(ask).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(main.callsTo('onboarding.start')).toHaveLength(0);
    await confirm(user, 'Start');
    const job = await d.findByTestId('bulk-job');
    const start = main.callsTo('onboarding.start') as { rows: { line: number }[]; concurrency: number; dryRun: boolean }[];
    expect(start).toHaveLength(1);
    expect(start[0]!.rows).toHaveLength(97);
    expect(start[0]!.rows.map((r) => r.line)).not.toContain(10);
    expect(start[0]!.rows.map((r) => r.line)).not.toContain(77);
    expect(start[0]).toMatchObject({ concurrency: 10, dryRun: false });
    // Rows come back while the job runs (the node answers each call after 40 ms).
    await waitFor(() => expect(within(job).getByTestId('bulk-progress-text')).toHaveTextContent(/^[1-9]\d? \/ 97/));
    expect(job).toHaveAttribute('data-state', 'running');
    expect(job).toHaveTextContent('up to 10 calls in flight');
    expect(d.getByRole('button', { name: /Cancel job/ })).toBeEnabled();

    await waitFor(() => expect(job).toHaveAttribute('data-state', 'completed'), { timeout: 15_000 });
    expect(job).not.toHaveTextContent('in flight');
    expect(within(job).getByTestId('bulk-counts')).toHaveTextContent('95 created');
    expect(within(job).getByTestId('bulk-counts')).toHaveTextContent('2 failed');
    expect(within(job).getByTestId('bulk-counts')).toHaveTextContent('3 not sent');
    expect(within(job).getByTestId('bulk-row-2')).toHaveTextContent('createdCreated.');
    expect(within(job).queryByTestId('bulk-row-61')).toBeNull(); // virtualized: far below the window
    await user.click(within(job).getByRole('checkbox', { name: 'Only failed rows (2)' }));
    expect(within(job).getByTestId('bulk-row-61')).toHaveTextContent('failed');
    // The node's refusal, as main recorded it for the row.
    const ran = await jobOf(main);
    const refusal = ran.rows.find((r) => r.line === 31)!;
    expect(refusal).toMatchObject({ outcome: 'failed', field: 'siteId' });
    expect(refusal.message).toMatch(/1030/);
    const failedRow = within(job).getByTestId('bulk-row-31');
    expect(failedRow).toHaveTextContent('failed');
    expect(failedRow).toHaveTextContent(refusal.message!);

    await user.click(d.getByRole('button', { name: 'Download results' }));
    const results = Papa.parse<string[]>((await blobs[blobs.length - 1]!.text()).trim()).data;
    expect(results[0]).toEqual(['line', 'deviceName', 'siteId', 'orgName', 'serialNumber', 'deviceGroup', 'country', 'latitude', 'longitude', 'result', 'message']);
    expect(results).toHaveLength(101);
    expect(results.find((r) => r[0] === '10')?.slice(-2)).toEqual(['invalid', 'country: This is not an ISO 3166-1 country code.']);
    expect(results.find((r) => r[0] === '31')?.slice(-2)).toEqual(['failed', `siteId: ${refusal.message}`]);
    expect(results.find((r) => r[0] === '3')?.[9]).toBe('created');

    // The two old devices move to other site IDs on the node; the retry sends just those rows as a new job.
    await put('old-1030', '5030');
    await put('old-1060', '5060');
    await user.click(d.getByRole('button', { name: 'Retry failed rows (2)' }));
    await confirm(user, 'Start');
    await waitFor(() => expect(main.callsTo('onboarding.start')).toHaveLength(2));
    const retry = main.callsTo('onboarding.start')[1] as { rows: { line: number }[]; concurrency: number };
    expect(retry.rows.map((r) => r.line)).toEqual([31, 61]);
    expect(retry.concurrency).toBe(10);
    // The first job shows "completed" too until the retry's job replaces it: wait for the retry's own counts.
    await waitFor(
      () => {
        expect(d.getByTestId('bulk-counts')).toHaveTextContent('2 created');
        expect(d.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed');
      },
      { timeout: 10_000 },
    );
    expect(await main.sim(node).call('inventory.device', 'shop-060')).toMatchObject({ siteId: '1060' });
    expect(d.getByRole('checkbox', { name: 'Only failed rows (0)' })).toBeDisabled();
    expect(d.getByTestId('bulk-row-2')).toHaveTextContent('created');
    await user.click(d.getByRole('button', { name: 'Download results' }));
    const after = Papa.parse<string[]>((await blobs[blobs.length - 1]!.text()).trim()).data;
    expect(after.filter((r) => r[9] === 'created')).toHaveLength(97);
    expect(after.find((r) => r[0] === '61')?.[9]).toBe('created');
    expect(d.queryByRole('button', { name: /Retry failed rows/ })).toBeNull();
  });

  it('the results CSV gives the file\'s own values back as text: a formula (with a line break too) is neutralised, a control character escaped', async () => {
    const fx = await opsNode(0);
    const { user, d } = await openBulk(fx);
    const header = 'deviceName,siteId,orgName,serialNumber,deviceGroup,country,latitude,longitude';
    const file = [header, `shop-1,101,${fx.org},SN-1,retail,DE,48.1,11.6`, '"=HYPERLINK(""http://x"")",102,Acme,SN-2,retail,DE,48.1,11.6', `shop-3,103,${fx.org},"-2+3\nsecond line",retail,DE,48.1,11.6`, `shop-4,104,"@SUM(1)
x",SN-4,"grp\x1b]0;t\x07",DE,48.1,11.6`].join('\r\n');
    await user.upload(d.getByTestId('csv-file'), new File([file], 'hostile.csv', { type: 'text/csv' }));
    await user.click(await d.findByRole('checkbox', { name: /Dry run/ }));
    await user.click(await d.findByRole('button', { name: /^Start dry run/ }));
    await waitFor(() => expect(d.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed'), { timeout: 15_000 });
    await user.click(d.getByRole('button', { name: 'Download results' }));
    const text = await blobs[blobs.length - 1]!.text();
    expect(controlChars(text)).toEqual([]);
    const rows = Papa.parse<Record<string, string>>(text.trim(), { header: true, delimiter: ',' }).data;
    expect(rows.map((r) => [r.line, r.deviceName, r.serialNumber, r.orgName, r.deviceGroup])).toEqual([
      ['2', 'shop-1', 'SN-1', fx.org, 'retail'],
      ['3', `'=HYPERLINK("http://x")`, 'SN-2', 'Acme', 'retail'],
      ['4', 'shop-3', "'-2+3\nsecond line", fx.org, 'retail'],
      ['6', 'shop-4', 'SN-4', "'@SUM(1)\nx", 'grp\\u001B]0;t\\u0007'],
    ]);
  });

  it('cancels a running job: rows not started are cancelled', async () => {
    const { main, user, d } = await startCsv100Job(300);
    await user.click(await d.findByRole('button', { name: /Cancel job/ }));
    await waitFor(() => expect(d.getByTestId('bulk-job')).toHaveAttribute('data-state', 'cancelled'), { timeout: 10_000 });
    const job = await jobOf(main);
    expect(job.state).toBe('cancelled');
    expect(job.counts.cancelled).toBeGreaterThan(50);
    expect(d.getByTestId('bulk-counts')).toHaveTextContent(`${job.counts.cancelled} cancelled`);
    expect(main.callsTo('onboarding.cancel')).toHaveLength(1);
  });

  it('closing the dialog while a job runs and opening it again shows that job; Done starts afresh', async () => {
    const started = await startCsv100Job(60);
    const { main, user } = started;
    let d = started.d;
    await user.click(await d.findByRole('button', { name: 'Close (keeps running)' }));
    expect(screen.queryByTestId('bulk-onboarding')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Bulk onboard (CSV)…' }));
    d = within(screen.getByTestId('bulk-onboarding'));
    expect(d.getByTestId('bulk-job')).toHaveAttribute('data-state', 'running');
    await waitFor(() => expect(d.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed'), { timeout: 15_000 });
    expect(d.getByTestId('bulk-counts')).toHaveTextContent('95 created');
    expect(main.callsTo('onboarding.start')).toHaveLength(1);

    await user.click(d.getByRole('button', { name: 'Done' }));
    await user.click(screen.getByRole('button', { name: 'Bulk onboard (CSV)…' }));
    d = within(screen.getByTestId('bulk-onboarding'));
    expect(d.queryByTestId('bulk-job')).toBeNull();
    expect(d.getByTestId('csv-file')).toBeInTheDocument();
  });
});

/** The Devices page's CSV dialog, opened on the connection of `fx`. */
async function openBulk(fx: Awaited<ReturnType<typeof opsNode>>) {
  const { user } = renderApp(fx.main);
  await user.click(screen.getByRole('link', { name: /^Devices/ }));
  await user.click(await screen.findByRole('button', { name: 'Bulk onboard (CSV)…' }));
  return { user, d: within(screen.getByTestId('bulk-onboarding')) };
}

describe('What the dialog says about a file', () => {
  it('an unclosed quote is one problem for its line, in words; the rows after it are still read', async () => {
    const fx = await opsNode(0);
    const { user, d } = await openBulk(fx);
    const lines = csv100(fx.org).split('\r\n');
    lines[6] = lines[6]!.replace(`,${fx.org},`, `,"${fx.org},`); // line 7
    await user.upload(d.getByTestId('csv-file'), new File([lines.join('\r\n')], 'shops.csv', { type: 'text/csv' }));
    expect(await d.findByTestId('csv-summary')).toHaveTextContent('100 rows, 96 valid, 4 with errors.');
    const issues = d.getByTestId('csv-issues');
    expect(within(issues).getAllByTestId('csv-issue-7')).toHaveLength(1);
    expect(within(issues).getByTestId('csv-issue-7')).toHaveTextContent('7shop-006orgnameA quoted value is not closed — add the closing " or remove the opening one.');
    expect(within(issues).queryByTestId('csv-issue-8')).toBeNull();
    expect(d.getByTestId('csv-issue-count')).toHaveTextContent(/^4 problems below\./);
    expect(screen.getByTestId('bulk-onboarding')).not.toHaveTextContent(/Quoted field unterminated/i);
    expect(d.getByTestId('bulk-start')).toHaveTextContent('Start (96 devices)');
  });

  it('a workbook or a binary file is refused as such: no rows, no columns made of its bytes', async () => {
    const fx = await opsNode(0);
    const { d } = await openBulk(fx);
    // Any file can be chosen ("All files" in the system's dialog), not only what the input suggests.
    const anyFile = userEvent.setup({ delay: null, applyAccept: false });
    await anyFile.upload(d.getByTestId('csv-file'), new File([xlsxBytes()], 'devices.xlsx', { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }));
    expect(await d.findByTestId('csv-file-error')).toHaveTextContent('This is an Excel workbook; save it as CSV (UTF-8) first and choose that file');
    expect(d.getByTestId('csv-summary')).toHaveTextContent(/^devices\.xlsx, [\d.]+ B\.$/);
    expect(d.queryByTestId('csv-issues')).toBeNull();
    expect(d.getByTestId('bulk-start')).toBeDisabled();

    await anyFile.upload(d.getByTestId('csv-file'), new File([bytesOf('deviceName,siteId\n', [0x00, 0x9c, 0x13, 0x00, 0xff, 0x2c, 0x41])], 'devices.csv', { type: 'text/csv' }));
    await waitFor(() => expect(d.getByTestId('csv-file-error')).toHaveTextContent(/^This file is not text \(it holds binary data\)/));
    expect(d.getByTestId('csv-summary')).not.toHaveTextContent('Ignored columns');
    expect(d.getByTestId('bulk-start')).toBeDisabled();
  });

  it('a finished dry run offers Retry failed rows only for rows a retry could fix, and shows no calls in flight', async () => {
    const fx = await opsNode(0);
    const { user, d } = await openBulk(fx);
    await user.upload(d.getByTestId('csv-file'), new File([csv100(fx.org)], 'shops.csv', { type: 'text/csv' }));
    await user.click(await d.findByRole('checkbox', { name: /Dry run/ }));
    // The node's device list is unavailable: the run stops and no row is checked; a retry can fix that.
    await fx.main.sim(fx.node).set('faults.failingPaths', ['/mgmt/sdwan/workflow/devices']);
    await user.click(d.getByRole('button', { name: 'Start dry run (97 devices)' }));
    await waitFor(() => expect(d.getByTestId('bulk-job')).toHaveAttribute('data-state', 'failed'), { timeout: 15_000 });
    expect(d.getByTestId('bulk-job')).not.toHaveTextContent('in flight');
    expect(d.getByTestId('bulk-counts')).toHaveTextContent('97 failed');
    await fx.main.sim(fx.node).set('faults.failingPaths', []);
    await user.click(d.getByRole('button', { name: 'Retry failed rows (97)' }));
    await waitFor(() => expect(fx.main.callsTo('onboarding.start')).toHaveLength(2));
    await waitFor(() => expect(d.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed'), { timeout: 15_000 });
    // Two rows' site IDs are taken on the node: the same data fails the same way, so no retry.
    expect(d.getByTestId('bulk-counts')).toHaveTextContent('95 would create');
    expect(d.getByTestId('bulk-counts')).toHaveTextContent('2 failed');
    expect((await jobOf(fx.main, 1)).rows.filter((r) => r.outcome === 'failed').map((r) => [r.line, r.dataError])).toEqual([
      [31, true],
      [61, true],
    ]);
    expect(d.queryByRole('button', { name: /Retry failed rows/ })).toBeNull();
    expect(d.getByTestId('bulk-job')).not.toHaveTextContent('in flight');
    expect(d.getByRole('button', { name: 'Onboard for real' })).toBeEnabled();
  });
});
