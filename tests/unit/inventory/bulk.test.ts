/** Bulk onboarding jobs against an in-memory node: concurrency, skip, dry run, failures, cancel, deploy, events. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { BulkJobState, BulkRowResult } from '../../../shared/model/inventory';
import { AppError } from '../../../shared/model/errors';
import { until } from '../../support/until';
import { deviceFields, startService, type ServiceHarness } from './fake-node';

let h: ServiceHarness;
afterEach(async () => h?.close());

const rowsFor = (from: number, to: number, org = 'Org-A') => Array.from({ length: to - from + 1 }, (_, k) => ({ line: k + 2, device: deviceFields(from + k, org) }));
const start = (rows: ReturnType<typeof rowsFor>, opts: { dryRun?: boolean; deploy?: boolean; replace?: boolean; concurrency?: number } = {}) =>
  h.jobs.start({ profileId: 'p1', rows, dryRun: opts.dryRun ?? false, deploy: opts.deploy ?? false, replace: opts.replace ?? false, concurrency: opts.concurrency ?? 4 });

function finished(jobId: string): Promise<BulkJobState> {
  return until(`job ${jobId} to end`, () => {
    const s = h.jobs.get(jobId);
    return s.state !== 'running' && s;
  });
}
const byLine = (s: BulkJobState) => new Map(s.rows.map((r) => [r.line, r]));

describe('bulk onboarding', () => {
  it('never has more calls in flight than the concurrency, and reaches it', async () => {
    h = startService();
    h.node.seed(3);
    const job = start(rowsFor(101, 160), { concurrency: 3 });
    expect(job).toMatchObject({ state: 'running', total: 60, done: 0, concurrency: 3 });
    expect(job.rows).toHaveLength(60);
    const end = await finished(job.jobId);
    expect(end).toMatchObject({ state: 'completed', done: 60, counts: { onboarded: 60, failed: 0, skipped: 0 } });
    expect(h.node.count('PUT')).toBe(60);
    expect(h.node.maxInFlight).toBe(3);
    expect((await h.service.devices('p1')).items).toHaveLength(63);
  });

  it('fails a bad row with its line and field, and the others go on', async () => {
    h = startService();
    h.node.seed(5);
    const rows = rowsFor(201, 210);
    rows[1]!.device = { ...rows[1]!.device, locationInfo: { ...rows[1]!.device.locationInfo, country: 'XX' } };
    rows[3]!.device = { ...rows[3]!.device, siteId: '2' }; // held by seeded branch-0002
    rows[5]!.device = { ...rows[5]!.device, orgName: 'Nope' };
    rows[7]!.device = { ...rows[7]!.device, deviceName: rows[6]!.device.deviceName }; // twice in the file
    rows[8]!.device = { ...rows[8]!.device, siteId: 'abc', serialNumber: '' };
    const end = await finished(start(rows, { concurrency: 2 }).jobId);
    const r = byLine(end);
    expect(end.counts).toMatchObject({ onboarded: 5, failed: 5 });
    expect(r.get(3)).toMatchObject({ outcome: 'failed', field: 'locationInfo.country', message: 'This is not an ISO 3166-1 country code.' });
    expect(r.get(5)).toMatchObject({ outcome: 'failed', field: 'siteId', deviceName: 'branch-0204' });
    expect(r.get(5)!.message).toContain('branch-0002');
    expect(r.get(7)).toMatchObject({ outcome: 'failed', field: 'orgName' });
    expect(r.get(9)).toMatchObject({ outcome: 'failed', field: 'deviceName' });
    expect(r.get(9)!.message).toContain('line 8');
    expect(r.get(10)).toMatchObject({ outcome: 'failed', field: 'siteId' });
    expect(r.get(10)!.message).toContain('serialNumber: Enter the serial number.');
    // Rows that failed validation were never sent.
    expect(h.node.count('PUT')).toBe(7);
  });

  it('running the same file again does no work: identical devices are skipped (MN-48)', async () => {
    h = startService();
    const rows = rowsFor(1, 30);
    rows[0]!.device.siteId = '001'; // the node stores "1"; still the same record
    rows[4]!.device.locationInfo.country = 'de';
    const first = await finished(start(rows).jobId);
    expect(first.counts.onboarded).toBe(30);
    const puts = h.node.count('PUT');
    const second = await finished(start(rows).jobId);
    expect(second).toMatchObject({ state: 'completed', counts: { skipped: 30, onboarded: 0 } });
    expect(h.node.count('PUT')).toBe(puts);
    // A changed record of a device that exists is not sent unless the operator chose replace (issue 22.3).
    const oldSerial = rows[2]!.device.serialNumber;
    rows[2]!.device.serialNumber = 'SN-NEW';
    const third = await finished(start(rows).jobId);
    expect(third.counts).toMatchObject({ skipped: 30, onboarded: 0 });
    expect(h.node.count('PUT')).toBe(puts);
    expect(byLine(third).get(4)).toMatchObject({ outcome: 'skipped', change: 'exists', differs: [{ field: 'serial number', node: oldSerial, file: 'SN-NEW' }] });
    expect(byLine(third).get(4)!.message).toBe(`Skipped (exists): the node has this device with another serial number ${oldSerial} → SN-NEW. Choose “Replace devices that exist” to send it.`);
    expect(byLine(third).get(5)).toMatchObject({ outcome: 'skipped', change: 'same' });
    // With replace: that row is sent and says so; the others are still skipped.
    const fourth = await finished(start(rows, { replace: true }).jobId);
    expect(fourth).toMatchObject({ replace: true, counts: { skipped: 29, onboarded: 1 } });
    expect(h.node.count('PUT')).toBe(puts + 1);
    expect(byLine(fourth).get(4)).toMatchObject({ outcome: 'onboarded', change: 'replaced', message: `Replaced (serial number ${oldSerial} → SN-NEW).` });
    // A new device says it was created.
    const fifth = await finished(start([...rows, { line: 32, device: deviceFields(500) }]).jobId);
    expect(byLine(fifth).get(32)).toMatchObject({ outcome: 'onboarded', change: 'created', message: 'Created.' });
  });

  it('a dry run validates and compares, sends nothing, and predicts refusals', async () => {
    h = startService();
    h.node.seed(10);
    const rows = [...rowsFor(5, 8), ...rowsFor(50, 53)].map((r, k) => ({ ...r, line: k + 2 }));
    rows[1]!.device.serialNumber = 'changed'; // branch-0006 exists with another record
    rows[5]!.device.orgName = 'Unknown-Org';
    rows[6]!.device.siteId = '3'; // held by branch-0003
    rows[7]!.device.locationInfo.latitude = '123';
    const before = h.node.calls.length;
    const end = await finished(start(rows, { dryRun: true }).jobId);
    expect(h.node.calls.slice(before).every((c) => c.startsWith('GET '))).toBe(true);
    expect(end).toMatchObject({ state: 'completed', dryRun: true, counts: { skipped: 4, valid: 1, failed: 3, onboarded: 0 } });
    const r = byLine(end);
    // The device that exists with another record is listed with what differs, and would be skipped…
    expect(r.get(3)).toMatchObject({ outcome: 'skipped', change: 'exists', differs: [expect.objectContaining({ field: 'serial number', file: 'changed' })] });
    expect(r.get(3)!.message).toMatch(/^Would be skipped \(exists\): the node has this device with another serial number .* → changed\./);
    expect(r.get(6)).toMatchObject({ outcome: 'valid', change: 'created' });
    // … unless the operator chose replace.
    const replacing = byLine(await finished(start(rows, { dryRun: true, replace: true }).jobId));
    expect(replacing.get(3)).toMatchObject({ outcome: 'valid', change: 'replaced' });
    expect(replacing.get(3)!.message).toMatch(/^Valid; would replace the device on the node \(serial number .* → changed\)\.$/);
    expect(r.get(7)).toMatchObject({ outcome: 'failed', field: 'orgName' });
    expect(r.get(8)).toMatchObject({ outcome: 'failed', field: 'siteId' });
    expect(r.get(9)).toMatchObject({ outcome: 'failed', field: 'locationInfo.latitude' });
  });

  it('cancel stops starting rows; rows in flight finish; the rest are cancelled', async () => {
    h = startService();
    h.node.delayMs = 25;
    const job = start(rowsFor(1, 40), { concurrency: 2 });
    await until('4 rows onboarded', () => h.jobs.get(job.jobId).counts.onboarded >= 4);
    const atCancel = h.jobs.cancel(job.jobId);
    const inFlight = h.node.inFlight;
    expect(inFlight).toBeGreaterThan(0);
    expect(atCancel.counts.cancelled).toBeGreaterThan(20);
    const putsAtCancel = h.node.count('PUT');
    const end = await finished(job.jobId);
    expect(end.state).toBe('cancelled');
    expect(h.node.count('PUT')).toBe(putsAtCancel);
    expect(end.counts.onboarded + end.counts.cancelled).toBe(40);
    expect(end.counts.onboarded).toBe(putsAtCancel);
    expect(end.rows.filter((r) => r.outcome === 'pending')).toHaveLength(0);
    // Cancelling a finished job changes nothing.
    expect(h.jobs.cancel(job.jobId)).toMatchObject({ state: 'cancelled' });
  });

  it('deploys each onboarded device and follows its task; a failed deployment fails its row', async () => {
    h = startService({ pollMs: 2 });
    h.node.failDeploy.add('branch-0003');
    const end = await finished(start(rowsFor(1, 6), { deploy: true, concurrency: 3 }).jobId);
    expect(end.counts).toMatchObject({ deployed: 5, failed: 1 });
    expect(byLine(end).get(4)!.message).toMatch(/deployment failed.*Commit not acknowledged/);
    expect(h.node.maxInFlight).toBeLessThanOrEqual(3);
    expect(await h.service.store.device('p1', 'branch-0001')).toMatchObject({ deploymentStatus: 'deployed' });
    expect(await h.service.store.device('p1', 'branch-0003')).toMatchObject({ deploymentStatus: 'failed' });
    expect(h.events.filter((e) => e.event === 'task.progress').length).toBeGreaterThanOrEqual(6 * 2);
  });

  it('stops the whole job when the session ends; rows not sent fail with the reason', async () => {
    h = startService();
    const job = start(rowsFor(1, 30), { concurrency: 2 });
    await until('3 rows onboarded', () => h.jobs.get(job.jobId).counts.onboarded >= 3);
    h.node.failAll = new AppError('session.sign_in_required', 'Sign in again to the node.', 'Sign in.');
    const end = await finished(job.jobId);
    expect(end).toMatchObject({ state: 'failed', error: 'Sign in again to the node.' });
    expect(end.counts.failed).toBe(30 - end.counts.onboarded);
    expect(h.node.count('PUT')).toBeLessThan(30);
    expect(end.rows.filter((r) => r.message === 'Not sent: Sign in again to the node.').length).toBeGreaterThan(15);
  });

  it('refuses to start without a signed-in session, before setting up a job', async () => {
    h = startService();
    h.node.sessionState = 'signed-out';
    expect(() => start(rowsFor(1, 3))).toThrow(expect.objectContaining({ code: 'session.not_signed_in' }));
    h.node.sessionState = 'sign-in-required';
    expect(() => start(rowsFor(1, 3))).toThrow(expect.objectContaining({ code: 'session.sign_in_required' }));
    expect(h.node.calls).toEqual([]);
  });

  it('fails every row with the reason when the device list cannot be read', async () => {
    h = startService();
    h.node.failAll = new AppError('net.unreachable', 'The node does not answer.', 'Check the network.');
    const end = await finished(start(rowsFor(1, 5)).jobId);
    expect(end).toMatchObject({ state: 'failed', counts: { failed: 5 } });
    expect(end.rows[0]!.message).toContain('The node does not answer.');
  });

  it('throttles progress events, each with only the rows changed since the last one', async () => {
    // On a fake clock: 120 rows, 4 at a time, 10 ms per node answer = 300 ms of the node's time.
    vi.useFakeTimers();
    let end: BulkJobState;
    const times: number[] = [];
    try {
      h = startService({ progressIntervalMs: 100 });
      h.node.delayMs = 10;
      h.node.jitterMs = 0;
      const started = Date.now();
      const job = start(rowsFor(1, 120), { concurrency: 4 });
      for (let step = 0; step < 2000 && h.jobs.get(job.jobId).state === 'running'; step++) {
        const before = h.events.length;
        await vi.advanceTimersByTimeAsync(5);
        for (const e of h.events.slice(before)) if (e.event === 'onboarding.progress') times.push(Date.now() - started);
      }
      end = h.jobs.get(job.jobId);
    } finally {
      vi.useRealTimers();
    }
    const progress = h.events.filter((e) => e.event === 'onboarding.progress').map((e) => e.payload as BulkJobState);
    expect(progress.length).toBeGreaterThan(1);
    // At most one event per 100 ms of the clock (the last one, the job's end, may follow sooner).
    for (let i = 1; i < times.length - 1; i++) expect(times[i]! - times[i - 1]!).toBeGreaterThanOrEqual(100);
    // Merging the events' rows gives every row's final outcome, and no event repeats an unchanged row.
    const merged = new Map<number, BulkRowResult>();
    for (const p of progress) for (const r of p.rows) merged.set(r.line, r);
    expect([...merged.values()].every((r) => r.outcome === 'onboarded')).toBe(true);
    expect(merged.size).toBe(120);
    expect(progress.reduce((n, p) => n + p.rows.length, 0)).toBe(120);
    expect(progress.at(-1)).toMatchObject({ state: 'completed', done: 120 });
    expect(end.rows).toHaveLength(120);
  });

  it('refuses a second job on the same node while one runs, keeps the last finished jobs', async () => {
    h = startService({ keepJobs: 2 });
    h.node.delayMs = 10;
    const a = start(rowsFor(1, 5));
    expect(() => start(rowsFor(6, 8))).toThrow(/already running/);
    await finished(a.jobId);
    const b = await finished(start(rowsFor(6, 8)).jobId);
    const c = await finished(start(rowsFor(9, 10)).jobId);
    expect(() => h.jobs.get(a.jobId)).toThrow(/no bulk onboarding job/);
    expect(h.jobs.get(b.jobId).counts.onboarded).toBe(3);
    expect(h.jobs.get(c.jobId).counts.onboarded).toBe(2);
  });
});
