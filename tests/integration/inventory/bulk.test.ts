/**
 * Bulk onboarding through the contract against the simulator: 100 rows with 3 bad ones, the same
 * file again (nothing sent), calls in flight never above the concurrency, cancel, dry run, and
 * deployment of each onboarded device.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BulkJobState, BulkRowResult } from '../../../shared/model/inventory';
import { startWorld, until, type World } from './world';

let w: World;
let orgs: string[];
let inFlight = 0;
let maxInFlight = 0;
beforeAll(async () => {
  w = await startWorld({ sim: { deploySeconds: 1 }, inventory: { progressIntervalMs: 100 } });
  orgs = w.sim.inventory.organizations().filter((o) => o.parent !== null).map((o) => o.name);
  // Count the calls main has in flight on this session for inventory: the alarm collector shares
  // the session and reads /mgmt/fault/ on its own schedule, which is not the job's concurrency.
  const session = w.h.app.sessions.get(w.profileId);
  const request = session.request.bind(session);
  session.request = (async (...args: Parameters<typeof request>) => {
    if (String(args[1]).startsWith('/mgmt/fault/')) return request(...args);
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    try {
      return await request(...args);
    } finally {
      inFlight -= 1;
    }
  }) as typeof session.request;
});
afterAll(async () => w?.close());

const row = (k: number, line: number) => ({
  line,
  device: {
    deviceName: `bulk-${k}`,
    siteId: String(1000 + k),
    orgName: orgs[k % orgs.length]!,
    serialNumber: `SN-B-${k}`,
    deviceGroup: 'Office',
    locationInfo: { country: 'FR', latitude: '48.8566', longitude: '2.3522' },
  },
});
const file = (from: number, n: number) => Array.from({ length: n }, (_, i) => row(from + i, i + 2));

let started: BulkJobState | undefined;
async function run(rows: ReturnType<typeof file>, opts: { dryRun?: boolean; deploy?: boolean; concurrency?: number } = {}): Promise<BulkJobState> {
  const job = await w.h.call<BulkJobState>('onboarding.start', { profileId: w.profileId, rows, ...opts });
  started = job;
  return until('the job to end', async () => {
    const s = await w.h.call<BulkJobState>('onboarding.get', { jobId: job.jobId });
    return s.state === 'running' ? undefined : s;
  }, 60_000);
}

// Each test has devices of its own (names bulk-<k>, site IDs 1000 + k, k ranges apart), so that
// the tests pass alone and in any order: 1-100, 200-210, 300-499, 600-603, 700-799, 800-804.
const hundred = (from: number) => {
  const rows = file(from, 100);
  rows[8]!.device.locationInfo.country = 'XX'; // line 10: refused by the record's rules
  rows[38]!.device.orgName = 'No-Such-Org'; // line 40: the node answers 4016
  rows[68]!.device.siteId = '5'; // line 70: a seeded device holds site ID 5 (HTTP 500, code 0)
  return rows;
};

describe('bulk onboarding', () => {
  it('onboards 97 of 100 rows; the 3 bad ones fail with their lines and fields', async () => {
    w.sim.faults.dataDelayMs = 15;
    maxInFlight = 0;
    const putsBefore = w.sim.stats.count('PUT', '/mgmt/sdwan/workflow/devices/device/');
    const end = await run(hundred(1), { concurrency: 4 });
    w.sim.faults.dataDelayMs = 0;
    expect(end).toMatchObject({ state: 'completed', total: 100, done: 100, counts: { onboarded: 97, failed: 3, skipped: 0 } });
    const failed = end.rows.filter((r) => r.outcome === 'failed');
    expect(failed.map((r) => [r.line, r.field])).toEqual([
      [10, 'locationInfo.country'],
      [40, 'orgName'],
      [70, 'siteId'],
    ]);
    expect(failed[2]!.message).toMatch(/Site ID 5 is already used by device/);
    // The record's own rules refused line 10 (a data error, no retry); the node refused the others.
    expect(failed.map((r) => r.dataError ?? false)).toEqual([true, false, false]);
    expect(w.sim.stats.count('PUT', '/mgmt/sdwan/workflow/devices/device/') - putsBefore).toBe(99);
    expect(w.sim.inventory.device('bulk-1')).toMatchObject({ siteId: '1001', deploymentStatus: 'SAVED' });
    expect(w.sim.inventory.device('bulk-9')).toBeUndefined();
    // Concurrency as main saw it: reached, never exceeded.
    expect(maxInFlight).toBeLessThanOrEqual(4);
    expect(maxInFlight).toBeGreaterThanOrEqual(3);
    // The start answer has every row (line 10 already failed); events carry only changed rows; merged they give the final table.
    expect(started!.rows).toHaveLength(100);
    expect(started!.rows.find((r) => r.line === 10)).toMatchObject({ outcome: 'failed', field: 'locationInfo.country' });
    const events = w.events<BulkJobState>('onboarding.progress').filter((e) => e.jobId === end.jobId);
    const merged = new Map<number, BulkRowResult>(started!.rows.map((r) => [r.line, r]));
    for (const e of events) for (const r of e.rows) merged.set(r.line, r);
    expect([...merged.values()].sort((a, b) => a.line - b.line)).toEqual(end.rows);
    expect(events.reduce((n, e) => n + e.rows.length, 0)).toBeLessThan(200);
    const stored = await w.h.call<{ items: Array<{ deviceName: string }> }>('inventory.devices', { profileId: w.profileId });
    const names = new Set(hundred(1).map((r) => r.device.deviceName));
    expect(stored.items.filter((d) => names.has(d.deviceName))).toHaveLength(97);
  });

  it('running the same file again sends nothing: the 97 are skipped, the 3 fail again', async () => {
    const first = await run(hundred(700), { concurrency: 4 });
    expect(first.counts).toMatchObject({ onboarded: 97, failed: 3 });
    const puts = w.sim.stats.count('PUT', '/');
    const end = await run(hundred(700), { concurrency: 4 });
    expect(end.counts).toMatchObject({ skipped: 97, failed: 3, onboarded: 0 });
    // The two rows the node refused are sent again (they might pass now); nothing else is.
    expect(w.sim.stats.count('PUT', '/') - puts).toBe(2);
    expect(end.rows.find((r) => r.line === 2)).toMatchObject({ outcome: 'skipped' });
  });

  it('a dry run reads and compares only; what it predicts the node would refuse is a data error', async () => {
    const onNode = file(800, 5);
    expect((await run(onNode)).counts).toMatchObject({ onboarded: 5 });
    const rows = [...onNode, ...file(200, 5).map((r, i) => ({ ...r, line: 7 + i }))];
    rows.push({ ...row(210, 12), device: { ...row(210, 12).device, orgName: 'No-Such-Org' } });
    const writes = w.sim.stats.count('PUT', '/') + w.sim.stats.count('POST', '/');
    const end = await run(rows, { dryRun: true });
    expect(w.sim.stats.count('PUT', '/') + w.sim.stats.count('POST', '/')).toBe(writes);
    expect(end).toMatchObject({ dryRun: true, counts: { skipped: 5, valid: 5, onboarded: 0, failed: 1 } });
    expect(end.rows.find((r) => r.line === 12)).toMatchObject({ outcome: 'failed', field: 'orgName', dataError: true });
    expect(end.rows.filter((r) => r.dataError)).toHaveLength(1);
    expect(w.sim.inventory.device('bulk-200')).toBeUndefined();
  });

  it('cancel stops starting rows; rows in flight finish; the rest are cancelled', async () => {
    w.sim.faults.dataDelayMs = 40;
    try {
      const job = await w.h.call<BulkJobState>('onboarding.start', { profileId: w.profileId, rows: file(300, 200), concurrency: 2 });
      await until('a few rows onboarded', async () => ((await w.h.call<BulkJobState>('onboarding.get', { jobId: job.jobId })).counts.onboarded >= 5 ? true : undefined));
      const cancelled = await w.h.call<BulkJobState>('onboarding.cancel', { jobId: job.jobId });
      expect(cancelled.counts.cancelled).toBeGreaterThan(150);
      const end = await until('the job to end', async () => {
        const s = await w.h.call<BulkJobState>('onboarding.get', { jobId: job.jobId });
        return s.state === 'running' ? undefined : s;
      });
      expect(end.state).toBe('cancelled');
      expect(end.counts.onboarded + end.counts.cancelled).toBe(200);
      expect(end.counts.onboarded).toBeLessThanOrEqual(cancelled.counts.onboarded + 2);
      const onNode = Array.from({ length: 200 }, (_, i) => w.sim.inventory.device(`bulk-${300 + i}`)).filter(Boolean).length;
      expect(onNode).toBe(end.counts.onboarded);
      // Nothing is still on its way to the node: the count is final.
      await until('no request in flight on the node', () => w.sim.stats.open.size === 0);
      expect(Array.from({ length: 200 }, (_, i) => w.sim.inventory.device(`bulk-${300 + i}`)).filter(Boolean).length).toBe(onNode);
    } finally {
      w.sim.faults.dataDelayMs = 0;
    }
  });

  it('deploys each onboarded device and follows its task', async () => {
    w.sim.faults.deployFailures = 1;
    const end = await run(file(600, 4), { deploy: true, concurrency: 2 });
    expect(end.counts).toMatchObject({ deployed: 3, failed: 1 });
    expect(end.rows.find((r) => r.outcome === 'failed')!.message).toMatch(/deployment failed/);
    const statuses = Array.from({ length: 4 }, (_, i) => w.sim.inventory.device(`bulk-${600 + i}`)!.deploymentStatus).sort();
    expect(statuses).toEqual(['DEPLOYED', 'DEPLOYED', 'DEPLOYED', 'FAILED']);
    expect(w.sim.inventory.runningTasks()).toBe(0);
  });
});
