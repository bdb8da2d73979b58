import { describe, expect, it } from 'vitest';
import type { BulkJobState } from '../../../shared/model/inventory';
import { applyTaskToDevices, mergeJob } from '../../../renderer/api/inventory-cache';
import { naturalKey } from '../../../shared/model/device-window';
import { buildDeviceIndex, filterDevices } from '../../support/device-order';
import { makeDevice, makeDevices } from './support/device-data';

describe('device index', () => {
  const devices = makeDevices(20_000);
  const index = buildDeviceIndex(devices);
  const none = { query: '', org: '', group: '', status: '' as const };

  it('sorts names naturally (edge-9 before edge-10) and site IDs as numbers, both ways', () => {
    const small = buildDeviceIndex([makeDevice({ deviceName: 'edge-10', siteId: '10' }), makeDevice({ deviceName: 'Edge-9', siteId: '9' }), makeDevice({ deviceName: 'edge-100', siteId: '100' })]);
    const names = (rows: Int32Array) => [...rows].map((i) => small.devices[i]!.deviceName);
    expect(names(filterDevices(small, 'deviceName', false, none))).toEqual(['Edge-9', 'edge-10', 'edge-100']);
    expect(names(filterDevices(small, 'siteId', true, none))).toEqual(['edge-100', 'edge-10', 'Edge-9']);
    expect(naturalKey('a-2') < naturalKey('a-10')).toBe(true);
  });

  it('filters exactly like a plain scan would, in the chosen order', () => {
    const c = { query: 'edge-01', org: 'Acme', group: 'datacenter', status: 'deployed' as const };
    const rows = filterDevices(index, 'orgName', false, c);
    const expected = devices.filter((d) => d.orgName === 'Acme' && d.deviceGroup === 'datacenter' && d.deploymentStatus === 'deployed' && `${d.deviceName}\0${d.siteId}\0${d.serialNumber}`.toLowerCase().includes('edge-01'));
    expect(rows.length).toBe(expected.length);
    expect(new Set([...rows].map((i) => devices[i]!.deviceName))).toEqual(new Set(expected.map((d) => d.deviceName)));
    expect(filterDevices(index, 'deviceName', false, { ...none, org: 'No such org' }).length).toBe(0);
  });
});

describe('inventory cache', () => {
  const job = (over: Partial<BulkJobState>): BulkJobState => ({
    jobId: 'j1',
    profileId: 'ops',
    dryRun: false,
    deploy: false,
    replace: false,
    concurrency: 4,
    state: 'running',
    total: 3,
    done: 0,
    counts: { onboarded: 0, deployed: 0, skipped: 0, failed: 0, cancelled: 0, valid: 0 },
    startedAt: '2026-01-01T00:00:00.000Z',
    finishedAt: null,
    rows: [2, 3, 4].map((line) => ({ line, deviceName: `d${line}`, outcome: 'pending' as const })),
    ...over,
  });

  it('merges the changed rows of a progress event into the full list', () => {
    const merged = mergeJob(job({}), job({ done: 1, rows: [{ line: 3, deviceName: 'd3', outcome: 'failed', message: 'no' }] }));
    expect(merged.done).toBe(1);
    expect(merged.rows.map((r) => r.outcome)).toEqual(['pending', 'failed', 'pending']);
  });

  it('keeps an event that overtook the start answer', () => {
    const event = job({ done: 1, rows: [{ line: 2, deviceName: 'd2', outcome: 'onboarded' }] });
    const merged = mergeJob(event, job({}));
    expect(merged.done).toBe(1);
    expect(merged.rows.map((r) => [r.line, r.outcome])).toEqual([
      [2, 'onboarded'],
      [3, 'pending'],
      [4, 'pending'],
    ]);
  });

  it('moves a device to the status its task implies, and leaves the list alone otherwise', () => {
    const snap = { profileId: 'ops', fetchedAt: null, total: 2, rows: [makeDevice({ deviceName: 'a' }), makeDevice({ deviceName: 'b' })] };
    const task = { profileId: 'ops', taskId: '7', deviceName: 'b', state: 'in-progress' as const, percent: 20, message: '', startedAt: null, endedAt: null, steps: [] };
    const next = applyTaskToDevices(snap, task)!;
    expect(next.rows[1]).toMatchObject({ deploymentStatus: 'deploying', lastTaskId: '7' });
    expect(next.rows[0]).toBe(snap.rows[0]);
    expect(applyTaskToDevices(next, { ...task, percent: 50 })).toBe(next);
    expect(applyTaskToDevices(next, { ...task, deviceName: 'not in this window' })).toBe(next);
    expect(applyTaskToDevices(next, { ...task, state: 'failed' })!.rows[1]!.deploymentStatus).toBe('failed');
  });
});
