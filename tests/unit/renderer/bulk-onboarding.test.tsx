// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseDeviceCsv } from '../../../renderer/features/onboarding/bulk/csv';
import type { BulkJobState } from '../../../shared/model/inventory';
import { MainBridge } from './support/main-bridge';
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
  it('maps columns in any order and case, keeps line numbers, reports every bad row', () => {
    const parsed = parseDeviceCsv(`\uFEFF${csv100()}`);
    expect(parsed.records).toHaveLength(100);
    expect(parsed.valid).toHaveLength(97);
    expect([...parsed.badLines].sort((a, b) => a - b)).toEqual([10, 50, 77]);
    expect(parsed.issues).toEqual([
      { line: 10, deviceName: 'shop-009', field: 'country', message: 'This is not an ISO 3166-1 country code.' },
      { line: 50, deviceName: 'shop-049', field: 'serialNumber', message: 'Enter the serial number.' },
      { line: 77, deviceName: 'shop-004', field: 'deviceName', message: 'Duplicate device name: already on line 5.' },
    ]);
    expect(parsed.ignoredColumns).toEqual(['notes']);
    expect(parsed.valid[0]).toEqual({ line: 2, device: { deviceName: 'shop-001', siteId: '1001', orgName: 'Acme Retail', serialNumber: 'SN-1', deviceGroup: 'retail-kiosk', locationInfo: { country: 'DE', latitude: '48.1', longitude: '11.6' } } });
  });

  it('counts lines inside quoted fields, skips blank lines, and names missing columns', () => {
    const text = 'deviceName,siteId,orgName,serialNumber,deviceGroup,country,latitude,longitude\r\n"a\nb",1,Acme,S1,g,DE,1,2\r\n\r\nok-2,1,Acme,S2,g,DE,1,2\r\n';
    const parsed = parseDeviceCsv(text);
    expect(parsed.issues.map((i) => [i.line, i.field])).toEqual([
      [2, 'deviceName'],
      [5, 'siteId'],
    ]);
    expect(parseDeviceCsv('deviceName,siteId\nx,1').fileError).toMatch(/no column “orgName”, “serialNumber”/);
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
    expect(within(issues).getByTestId('csv-issue-10')).toHaveTextContent('shop-009countryThis is not an ISO 3166-1 country code.');
    expect(within(issues).getByTestId('csv-issue-50')).toHaveTextContent('serialNumber');
    expect(within(issues).getByTestId('csv-issue-77')).toHaveTextContent('Duplicate device name: already on line 5.');
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
    expect(d.getByRole('button', { name: /Cancel job/ })).toBeEnabled();

    await waitFor(() => expect(job).toHaveAttribute('data-state', 'completed'), { timeout: 15_000 });
    expect(within(job).getByTestId('bulk-counts')).toHaveTextContent('95 onboarded');
    expect(within(job).getByTestId('bulk-counts')).toHaveTextContent('2 failed');
    expect(within(job).getByTestId('bulk-counts')).toHaveTextContent('3 not sent');
    expect(within(job).getByTestId('bulk-row-2')).toHaveTextContent('onboarded');
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
    expect(results.find((r) => r[0] === '3')?.[9]).toBe('onboarded');

    // The two old devices move to other site IDs on the node; the retry sends just those rows as a new job.
    await put('old-1030', '5030');
    await put('old-1060', '5060');
    await user.click(d.getByRole('button', { name: 'Retry failed rows (2)' }));
    await confirm(user, 'Start');
    await waitFor(() => expect(main.callsTo('onboarding.start')).toHaveLength(2));
    const retry = main.callsTo('onboarding.start')[1] as { rows: { line: number }[]; concurrency: number };
    expect(retry.rows.map((r) => r.line)).toEqual([31, 61]);
    expect(retry.concurrency).toBe(10);
    await waitFor(() => expect(d.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed'), { timeout: 10_000 });
    expect(await main.sim(node).call('inventory.device', 'shop-060')).toMatchObject({ siteId: '1060' });
    expect(d.getByTestId('bulk-counts')).toHaveTextContent('2 onboarded');
    expect(d.getByRole('checkbox', { name: 'Only failed rows (0)' })).toBeDisabled();
    expect(d.getByTestId('bulk-row-2')).toHaveTextContent('onboarded');
    await user.click(d.getByRole('button', { name: 'Download results' }));
    const after = Papa.parse<string[]>((await blobs[blobs.length - 1]!.text()).trim()).data;
    expect(after.filter((r) => r[9] === 'onboarded')).toHaveLength(97);
    expect(after.find((r) => r[0] === '61')?.[9]).toBe('onboarded');
    expect(d.queryByRole('button', { name: /Retry failed rows/ })).toBeNull();
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
    expect(d.getByTestId('bulk-counts')).toHaveTextContent('95 onboarded');
    expect(main.callsTo('onboarding.start')).toHaveLength(1);

    await user.click(d.getByRole('button', { name: 'Done' }));
    await user.click(screen.getByRole('button', { name: 'Bulk onboard (CSV)…' }));
    d = within(screen.getByTestId('bulk-onboarding'));
    expect(d.queryByTestId('bulk-job')).toBeNull();
    expect(d.getByTestId('csv-file')).toBeInTheDocument();
  });
});
