// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import Papa from 'papaparse';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseDeviceCsv } from '../../../renderer/features/onboarding/bulk/csv';
import { FakeBridge, makeProfile } from './support/fake-bridge';
import { ORG_SPECS, makeDevice, makeOrganizations } from './support/fake-inventory-data';
import { stubScrollerSize } from './support/layout';
import { renderApp } from './support/render';

/** 100 device rows (lines 2…101), columns shuffled and oddly cased; lines 10, 50 and 77 are bad. */
function csv100(): string {
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
    rows.push([String(1000 + n), name, 'Acme Retail', country, serial, 'retail-kiosk', '48.1', '11.6', n % 2 ? 'ground floor' : '']);
  }
  return Papa.unparse({ fields: header, data: rows });
}

function bridge() {
  // The node already holds site ID 1030 (line 31) and 1060 (line 61) under other names: those two fail.
  const onNode = [makeDevice({ deviceName: 'old-1030', siteId: '1030' }), makeDevice({ deviceName: 'old-1060', siteId: '1060' })];
  return new FakeBridge({
    profiles: [makeProfile({ id: 'ops', name: 'Ops node' })],
    sessions: [{ profileId: 'ops', state: 'signed-in', authMode: 'basic', username: 'operator' }],
    inventory: { devices: { ops: onNode }, organizations: { ops: makeOrganizations(ORG_SPECS, onNode) } },
  });
}

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
async function startCsv100Job() {
  const b = bridge();
  const { user } = renderApp(b);
  await user.click(screen.getByRole('button', { name: /^Devices/ }));
  await user.click(await screen.findByRole('button', { name: 'Bulk onboard (CSV)…' }));
  const d = within(screen.getByTestId('bulk-onboarding'));
  await user.upload(d.getByTestId('csv-file'), new File([csv100()], 'shops.csv', { type: 'text/csv' }));
  await user.click(await d.findByRole('button', { name: 'Start (97 devices)' }));
  return { b, user, d };
}

describe('Bulk onboarding dialog', () => {
  it('reports the 3 bad rows with their lines, starts a job with the other 97, shows the results and retries the failed ones', async () => {
    const b = bridge();
    const { user } = renderApp(b);
    await user.click(screen.getByRole('button', { name: /^Devices/ }));
    await user.click(await screen.findByRole('button', { name: 'Bulk onboard (CSV)…' }));
    const dialog = screen.getByTestId('bulk-onboarding');
    const d = within(dialog);

    // template: the header and an example row, behind a Blob link
    await waitFor(() => expect(d.getByTestId('csv-template')).toHaveAttribute('href', 'blob:test/1'));
    expect(await blobs[0]!.text()).toBe('deviceName,siteId,orgName,serialNumber,deviceGroup,country,latitude,longitude\r\nbranch-berlin-01,117,Acme,SN-4C1D-0001,branch-small,DE,52.52,13.405\r\n');

    await user.upload(d.getByTestId('csv-file'), new File([csv100()], 'shops.csv', { type: 'text/csv' }));
    expect(await d.findByTestId('csv-summary')).toHaveTextContent('100 rows, 97 valid, 3 with errors');
    const issues = d.getByTestId('csv-issues');
    expect(within(issues).getByTestId('csv-issue-10')).toHaveTextContent('shop-009countryThis is not an ISO 3166-1 country code.');
    expect(within(issues).getByTestId('csv-issue-50')).toHaveTextContent('serialNumber');
    expect(within(issues).getByTestId('csv-issue-77')).toHaveTextContent('Duplicate device name: already on line 5.');
    expect(b.callsTo('onboarding.start')).toHaveLength(0);

    await user.click(d.getByRole('radio', { name: '10' }));
    await user.click(d.getByRole('button', { name: 'Start (97 devices)' }));
    const job = await d.findByTestId('bulk-job');
    const start = b.callsTo('onboarding.start') as { rows: { line: number }[]; concurrency: number; dryRun: boolean }[];
    expect(start).toHaveLength(1);
    expect(start[0]!.rows).toHaveLength(97);
    expect(start[0]!.rows.map((r) => r.line)).not.toContain(10);
    expect(start[0]!.rows.map((r) => r.line)).not.toContain(77);
    expect(start[0]).toMatchObject({ concurrency: 10, dryRun: false });
    expect(within(job).getByTestId('bulk-progress-text')).toHaveTextContent('0 / 97');

    const jobId = [...b.inventory.jobs.keys()][0]!;
    act(() => void b.inventory.progressJob(jobId, [{ line: 2, deviceName: 'shop-001', outcome: 'onboarded' }]));
    await waitFor(() => expect(within(job).getByTestId('bulk-progress-text')).toHaveTextContent('1 / 97'));
    expect(d.getByRole('button', { name: /Cancel job/ })).toBeEnabled();

    act(() => void b.inventory.runJob(jobId));
    await waitFor(() => expect(job).toHaveAttribute('data-state', 'completed'));
    expect(within(job).getByTestId('bulk-counts')).toHaveTextContent('95 onboarded');
    expect(within(job).getByTestId('bulk-counts')).toHaveTextContent('2 failed');
    expect(within(job).getByTestId('bulk-counts')).toHaveTextContent('3 not sent');
    expect(within(job).getByTestId('bulk-row-2')).toHaveTextContent('onboarded');
    expect(within(job).queryByTestId('bulk-row-61')).toBeNull(); // virtualized: far below the window
    await user.click(within(job).getByRole('checkbox', { name: 'Only failed rows (2)' }));
    expect(within(job).getByTestId('bulk-row-61')).toHaveTextContent('failed');
    const failedRow = within(job).getByTestId('bulk-row-31');
    expect(failedRow).toHaveTextContent('failed');
    expect(failedRow).toHaveTextContent('Global device id 1030 is already in use (by old-1030).');

    await user.click(d.getByRole('button', { name: 'Download results' }));
    const results = Papa.parse<string[]>((await blobs[blobs.length - 1]!.text()).trim()).data;
    expect(results[0]).toEqual(['line', 'deviceName', 'siteId', 'orgName', 'serialNumber', 'deviceGroup', 'country', 'latitude', 'longitude', 'result', 'message']);
    expect(results).toHaveLength(101);
    expect(results.find((r) => r[0] === '10')?.slice(-2)).toEqual(['invalid', 'country: This is not an ISO 3166-1 country code.']);
    expect(results.find((r) => r[0] === '31')?.slice(-2)).toEqual(['failed', 'siteId: Global device id 1030 is already in use (by old-1030).']);
    expect(results.find((r) => r[0] === '3')?.[9]).toBe('onboarded');

    // The node frees the two site IDs; the retry sends just those rows as a new job.
    b.inventory.devices.set('ops', b.inventory.devices.get('ops')!.filter((x) => !x.deviceName.startsWith('old-')));
    await user.click(d.getByRole('button', { name: 'Retry failed rows (2)' }));
    await waitFor(() => expect(b.callsTo('onboarding.start')).toHaveLength(2));
    const retry = b.callsTo('onboarding.start')[1] as { rows: { line: number }[]; concurrency: number };
    expect(retry.rows.map((r) => r.line)).toEqual([31, 61]);
    expect(retry.concurrency).toBe(10);
    const second = [...b.inventory.jobs.keys()][1]!;
    act(() => void b.inventory.runJob(second));
    await waitFor(() => expect(d.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed'));
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
    const { b, user, d } = await startCsv100Job();
    await user.click(await d.findByRole('button', { name: /Cancel job/ }));
    await waitFor(() => expect(d.getByTestId('bulk-job')).toHaveAttribute('data-state', 'cancelled'));
    expect(d.getByTestId('bulk-counts')).toHaveTextContent('97 cancelled');
    expect(b.callsTo('onboarding.cancel')).toHaveLength(1);
  });

  it('closing the dialog while a job runs and opening it again shows that job; Done starts afresh', async () => {
    const started = await startCsv100Job();
    const { b, user } = started;
    let d = started.d;
    await user.click(await d.findByRole('button', { name: 'Close (keeps running)' }));
    expect(screen.queryByTestId('bulk-onboarding')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Bulk onboard (CSV)…' }));
    d = within(screen.getByTestId('bulk-onboarding'));
    expect(d.getByTestId('bulk-job')).toHaveAttribute('data-state', 'running');
    const jobId = [...b.inventory.jobs.keys()][0]!;
    act(() => void b.inventory.runJob(jobId));
    await waitFor(() => expect(d.getByTestId('bulk-job')).toHaveAttribute('data-state', 'completed'));
    expect(d.getByTestId('bulk-counts')).toHaveTextContent('95 onboarded');
    expect(b.callsTo('onboarding.start')).toHaveLength(1);

    await user.click(d.getByRole('button', { name: 'Done' }));
    await user.click(screen.getByRole('button', { name: 'Bulk onboard (CSV)…' }));
    d = within(screen.getByTestId('bulk-onboarding'));
    expect(d.queryByTestId('bulk-job')).toBeNull();
    expect(d.getByTestId('csv-file')).toBeInTheDocument();
  });
});
