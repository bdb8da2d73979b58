/**
 * One device through the contract against the simulator: next site ID, onboarding, the node's
 * refusals on their fields (siteId in use, unknown organization), fetch, deployment followed to
 * COMPLETED and a failed one (task.progress events, stored status), tasks.get, syslog servers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SEED_DEVICES } from '@northbound/simulators/testing';
import type { DeviceView, SyslogServer, TaskStatus } from '../../../shared/model/inventory';
import { AppError } from '../../../shared/model/errors';
import { startWorld, until, type World } from './world';

let w: World;
let org: string;
beforeAll(async () => {
  w = await startWorld({ sim: { deploySeconds: 1 } });
  org = w.sim.inventory.organizations().find((o) => o.parent !== null)!.name;
});
afterAll(async () => w?.close());

const record = (name: string, siteId: string, patch: Record<string, unknown> = {}) => ({
  deviceName: name,
  siteId,
  orgName: org,
  serialNumber: `SN-${name}`,
  deviceGroup: 'Retail',
  locationInfo: { country: 'de', latitude: '52.52', longitude: '13.405' },
  ...patch,
});
/** A device of its own for a test: stored on the node with a site ID no other test takes. */
const onboardOwn = async (name: string, siteId: string) => w.h.call<DeviceView>('devices.onboard', { profileId: w.profileId, device: record(name, siteId) });
/** MN-43 over the node's devices as they are now: the lowest whole number ≥ 1 no device uses. */
const lowestFreeSiteId = async () => {
  await w.h.call('inventory.refresh', { profileId: w.profileId, what: 'devices' });
  const names = (await w.h.call<{ items: DeviceView[] }>('inventory.devices', { profileId: w.profileId })).items.map((d) => d.deviceName);
  expect(names.length).toBe(w.sim.inventory.deviceCount());
  const used = new Set(names.map((n) => Number(w.sim.inventory.device(n)!.siteId)));
  let n = 1;
  while (used.has(n)) n += 1;
  return String(n);
};
const issues = (e: { details?: Record<string, unknown> } | undefined) => e?.details?.issues as Array<{ path: string; message: string }> | undefined;

describe('onboarding one device', () => {
  // Site IDs: the seed takes 1..60; only the onboarding test below takes the lowest free one (61
  // when it runs first), every other test's device has a site ID of its own from 500 up, so the
  // tests pass alone and in any order.
  it('suggests the next free site ID', async () => {
    const expected = await lowestFreeSiteId();
    expect(Number(expected)).toBeGreaterThan(DEFAULT_SEED_DEVICES);
    expect(await w.h.call('devices.nextSiteId', { profileId: w.profileId })).toEqual({ siteId: expected });
  });

  it('onboards a device: stored with status saved, country upper case, inventory.changed', async () => {
    const { siteId } = await w.h.call<{ siteId: string }>('devices.nextSiteId', { profileId: w.profileId });
    const d = await w.h.call<DeviceView>('devices.onboard', { profileId: w.profileId, device: record('berlin-edge-01', siteId) });
    expect(d).toMatchObject({ ...record('berlin-edge-01', siteId), locationInfo: { country: 'DE', latitude: '52.52', longitude: '13.405' }, deploymentStatus: 'saved', lastTaskId: null });
    expect(w.sim.inventory.device('berlin-edge-01')).toMatchObject({ siteId, deploymentStatus: 'SAVED' });
    const stored = await w.h.call<{ items: DeviceView[] }>('inventory.devices', { profileId: w.profileId });
    expect(stored.items).toContainEqual(d);
    expect(w.events('inventory.changed')).toContainEqual({ profileId: w.profileId, what: ['devices'], counts: { devices: stored.items.length, organizations: expect.any(Number) } });
    expect(await w.h.call('devices.nextSiteId', { profileId: w.profileId })).toEqual({ siteId: String(Number(siteId) + 1) });
  });

  it('puts "site ID in use" (HTTP 500, code 0) on siteId', async () => {
    await onboardOwn('lyon-edge-01', '501');
    const res = await w.h.callRaw('devices.onboard', { profileId: w.profileId, device: record('berlin-edge-02', '501') });
    expect(res.ok).toBe(false);
    expect(res.error?.code).toBe('api.0');
    expect(issues(res.error)).toEqual([{ path: 'siteId', message: 'Site ID 501 is already used by device lyon-edge-01 on the node.' }]);
    expect(w.sim.inventory.device('berlin-edge-02')).toBeUndefined();
  });

  it('puts an unknown organization (4016) on orgName', async () => {
    const res = await w.h.callRaw('devices.onboard', { profileId: w.profileId, device: record('berlin-edge-03', '503', { orgName: 'No-Such-Org' }) });
    expect(res.error?.code).toBe('api.4016');
    expect(issues(res.error)).toEqual([{ path: 'orgName', message: 'There is no organization named No-Such-Org on the node.' }]);
  });

  it('puts a field the node refuses (4017 with a field path) on that field', async () => {
    // The contract refuses this record before sending; a node with stricter rules would refuse it
    // itself. The service path sends it as it is, to prove the mapping on the simulator's answer.
    const bad = { ...record('berlin-edge-04', '504'), locationInfo: { country: 'XX', latitude: '52.52', longitude: '13.405' } };
    const e = await w.h.app.inventory.onboard(w.profileId, bad).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).code).toBe('api.4017');
    expect(issues(e as AppError)?.[0]?.path).toBe('locationInfo.country');
    const viaContract = await w.h.callRaw('devices.onboard', { profileId: w.profileId, device: bad });
    expect(viaContract.error?.code).toBe('request.invalid');
  });

  it('lists an organization’s device groups from the node, else from the stored devices with why (issue 22.11, C-57)', async () => {
    await onboardOwn('groups-edge-01', '520');
    const fromNode = await w.h.call<{ source: string; groups: Array<{ name: string; devices: number }>; note: string | null }>('devices.groups', { profileId: w.profileId, orgName: org });
    expect(fromNode.source).toBe('node');
    expect(fromNode.note).toBeNull();
    // The node's own list holds the group of the device onboarded here, counted from the store.
    expect(fromNode.groups).toContainEqual({ name: 'Retail', devices: expect.any(Number) });
    expect(fromNode.groups.find((g) => g.name === 'Retail')!.devices).toBeGreaterThanOrEqual(1);
    expect(fromNode.groups.map((g) => g.name)).toEqual([...fromNode.groups.map((g) => g.name)].sort((a, b) => a.localeCompare(b, 'en', { numeric: true })));

    w.sim.faults.unservedPaths = ['/nextgen/'];
    const unserved = await w.h.call<{ source: string; groups: Array<{ name: string }>; note: string }>('devices.groups', { profileId: w.profileId, orgName: org });
    expect(unserved).toMatchObject({ source: 'stored', note: 'The node does not list device groups.' });
    expect(unserved.groups.map((g) => g.name)).toContain('Retail');
    w.sim.faults.unservedPaths = [];
    w.sim.faults.failingPaths = ['/nextgen/'];
    const failing = await w.h.call<{ source: string; note: string }>('devices.groups', { profileId: w.profileId, orgName: org });
    expect(failing.source).toBe('stored');
    expect(failing.note).toMatch(/^The node’s device groups could not be read: /);
    w.sim.faults.failingPaths = [];

    expect((await w.h.callRaw('devices.groups', { profileId: w.profileId, orgName: '  ' })).error?.code).toBe('request.invalid');
    expect((await w.h.callRaw('devices.groups', { profileId: 'nope', orgName: org })).error?.code).toBe('not_found');
  });

  it('fetches one device fresh from the node', async () => {
    await onboardOwn('hamburg-edge-01', '505');
    expect(await w.h.call<DeviceView>('devices.get', { profileId: w.profileId, deviceName: 'hamburg-edge-01' })).toMatchObject({ deviceName: 'hamburg-edge-01', deploymentStatus: 'saved' });
    const missing = await w.h.callRaw('devices.get', { profileId: w.profileId, deviceName: 'nope-01' });
    // The node's VOAEException 404 (a Spring-style body), with its own words.
    expect(missing.error).toMatchObject({ code: 'http.404', message: expect.stringContaining('device work flow nope-01 does not exist') });
  });

  it('deploys and follows the task to COMPLETED through task.progress events', async () => {
    await onboardOwn('munich-edge-01', '506');
    const t = await w.h.call<TaskStatus>('devices.deploy', { profileId: w.profileId, deviceName: 'munich-edge-01' });
    expect(t).toMatchObject({ profileId: w.profileId, deviceName: 'munich-edge-01', state: 'pending', percent: 0 });
    const progress = () => w.events<TaskStatus>('task.progress').filter((p) => p.taskId === t.taskId);
    await until('the task to complete', () => progress().some((p) => p.state === 'completed'));
    const states = progress().map((p) => `${p.state}:${p.percent}`);
    expect(states[0]).toBe('pending:0');
    expect(states).toContain('in-progress:20');
    expect(states.at(-1)).toBe('completed:100');
    expect(progress().at(-1)!.message).toMatch(/completed/);
    const percents = progress().map((p) => p.percent);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
    expect(w.sim.inventory.device('munich-edge-01')?.deploymentStatus).toBe('DEPLOYED');
    const stored = (await w.h.call<{ items: DeviceView[] }>('inventory.devices', { profileId: w.profileId })).items.find((d) => d.deviceName === 'munich-edge-01');
    expect(stored).toMatchObject({ deploymentStatus: 'deployed', lastTaskId: t.taskId });
    const done = await w.h.call<TaskStatus>('tasks.get', { profileId: w.profileId, taskId: t.taskId });
    expect(done).toMatchObject({ state: 'completed', percent: 100, endedAt: expect.any(String) });
    // The step log: the console's request, then every node message with the node's own time, in order.
    expect(done.steps.map((s) => [s.timeFrom, s.message.replace(/:.*/, '')])).toEqual([
      ['console', `Deployment of munich-edge-01 requested (task ${t.taskId}).`],
      ['node', 'Deployment of munich-edge-01 queued.'],
      ['node', 'Staging'],
      ['node', 'Configuration'],
      ['node', 'Verification'],
      ['node', 'Deployment of munich-edge-01 completed.'],
    ]);
    const times = done.steps.slice(1).map((s) => Date.parse(s.at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(done.steps.at(-1)!.at).toBe(new Date(Date.parse(done.endedAt!)).toISOString());
    // Issue 22.6: with no refresh asked, the task's end reads the list and the state again: the
    // node's status, the new appliance, and what the record fetch had added (the group) kept.
    const after = await until('the device list read again after the task', async () => {
      const d = (await w.h.call<{ items: DeviceView[] }>('inventory.devices', { profileId: w.profileId })).items.find((x) => x.deviceName === 'munich-edge-01');
      return d?.appliance ? d : undefined;
    });
    expect(after).toMatchObject({ workflowStatus: 'Deployed', deploymentStatus: 'deployed', deviceGroup: 'Retail', serialNumber: 'SN-munich-edge-01', lastTaskId: t.taskId, appliance: { reachability: expect.stringMatching(/^(reachable|unreachable)$/) } });
  });

  it('follows a failed deployment to FAILED with the node’s error message', async () => {
    await onboardOwn('paris-edge-01', '507');
    w.sim.faults.deployFailures = 1;
    const t = await w.h.call<TaskStatus>('devices.deploy', { profileId: w.profileId, deviceName: 'paris-edge-01' });
    const end = await until('the task to fail', () => w.events<TaskStatus>('task.progress').find((p) => p.taskId === t.taskId && p.state === 'failed'));
    expect(end.percent).toBe(50);
    expect(end.message).toMatch(/did not acknowledge/);
    const stored = (await w.h.call<{ items: DeviceView[] }>('inventory.devices', { profileId: w.profileId })).items.find((d) => d.deviceName === 'paris-edge-01');
    expect(stored).toMatchObject({ deploymentStatus: 'failed', lastTaskId: t.taskId });
    expect(w.sim.inventory.runningTasks()).toBe(0);
    // The list read again after the task (its status from the node) keeps the console's task, so the
    // device's details can show why it failed (issue 22.6).
    const after = await until('the device list read again after the task', async () => {
      const d = (await w.h.call<{ items: DeviceView[] }>('inventory.devices', { profileId: w.profileId })).items.find((x) => x.deviceName === 'paris-edge-01');
      return d?.workflowStatus ? d : undefined;
    });
    expect(after).toMatchObject({ deploymentStatus: 'failed', lastTaskId: t.taskId, deviceGroup: 'Retail' });
    expect(await w.h.call<TaskStatus>('tasks.get', { profileId: w.profileId, taskId: t.taskId })).toMatchObject({ state: 'failed', message: expect.stringMatching(/did not acknowledge/) });
  });

  it('finds the last deployment task of a failed device the console never followed in the node’s task list (issue 22.6, C-56)', async () => {
    await w.h.call('inventory.refresh', { profileId: w.profileId, what: 'devices' });
    const items = (await w.h.call<{ items: DeviceView[] }>('inventory.devices', { profileId: w.profileId })).items;
    // The last of the seeded failed devices (the test below takes the first).
    const unknown = items.filter((d) => d.deploymentStatus === 'failed' && d.lastTaskId === null && !d.deviceName.includes('-edge-'));
    expect(unknown.length).toBeGreaterThanOrEqual(2);
    const seeded = unknown.at(-1)!;
    const expected = w.sim.inventory.device(seeded.deviceName)!.lastTaskId!;
    const found = await w.h.call<TaskStatus | null>('tasks.lastOf', { profileId: w.profileId, deviceName: seeded.deviceName });
    expect(found).toMatchObject({ taskId: expected, deviceName: seeded.deviceName, state: 'failed', message: expect.stringMatching(/did not acknowledge/) });
    // Kept: the device now names it, and it survives the next list refresh.
    await w.h.call('inventory.refresh', { profileId: w.profileId, what: 'devices' });
    expect((await w.h.call<{ items: DeviceView[] }>('inventory.devices', { profileId: w.profileId })).items.find((d) => d.deviceName === seeded.deviceName)?.lastTaskId).toBe(expected);
    // A device never deployed has none; a node without a task list gives none rather than an error.
    const saved = items.find((d) => d.deploymentStatus === 'saved' && d.lastTaskId === null)!;
    expect(await w.h.call('tasks.lastOf', { profileId: w.profileId, deviceName: saved.deviceName })).toBeNull();
    w.sim.faults.unservedPaths = ['/mgmt/tasks/task'];
    try {
      expect(await w.h.call('tasks.lastOf', { profileId: w.profileId, deviceName: unknown[0]!.deviceName })).toBeNull();
    } finally {
      w.sim.faults.unservedPaths = [];
    }
  });

  it('asks the node for a task it did not follow, once it is finished answers from the store', async () => {
    await w.h.call('inventory.refresh', { profileId: w.profileId, what: 'devices' });
    const items = (await w.h.call<{ items: DeviceView[] }>('inventory.devices', { profileId: w.profileId })).items;
    // The node's list carries no task IDs: the seeded failed device's task is known from the simulator.
    const seeded = items.find((d) => d.deploymentStatus === 'failed' && d.lastTaskId === null && !d.deviceName.includes('-edge-') && w.sim.inventory.device(d.deviceName)?.lastTaskId)!;
    const taskId = w.sim.inventory.device(seeded.deviceName)!.lastTaskId!;
    const before = w.sim.stats.count('GET', '/mgmt/tasks/task/');
    const t = await w.h.call<TaskStatus>('tasks.get', { profileId: w.profileId, taskId });
    expect(t).toMatchObject({ taskId, deviceName: seeded.deviceName, state: 'failed', percent: 50 });
    expect(await w.h.call<TaskStatus>('tasks.get', { profileId: w.profileId, taskId })).toEqual(t);
    expect(w.sim.stats.count('GET', '/mgmt/tasks/task/')).toBe(before + 1);
    expect((await w.h.callRaw('tasks.get', { profileId: w.profileId, taskId: '999999' })).error?.code).toBe('api.4015');
  });
});

describe('syslog servers', () => {
  let basic: string;
  beforeAll(async () => {
    basic = await w.addProfile('basic');
  });

  it('an OAuth connection reaches the configuration API on the basic-auth port, as the same user (spec 4.1, C-9)', async () => {
    // The servers on the node as the basic-auth profile reads them (other tests of this file add some).
    const onNode = await w.h.call<SyslogServer[]>('syslog.list', { profileId: basic });
    const before = w.sim.stats.requests.filter((r) => r.path.startsWith('/api/')).length;
    expect(await w.h.call('syslog.list', { profileId: w.profileId })).toEqual(onNode);
    const calls = w.sim.stats.requests.filter((r) => r.path.startsWith('/api/')).slice(before);
    expect(calls.map((r) => [r.port, r.status])).toEqual([['basic', 200]]);
  });

  it('creates a server and answers the new list', async () => {
    const before = await w.h.call<SyslogServer[]>('syslog.list', { profileId: basic });
    expect(before.map((s) => s.host)).not.toContain('logs.example.net');
    const list = await w.h.call<SyslogServer[]>('syslog.create', { profileId: basic, server: { host: 'logs.example.net', port: 514, enabled: true } });
    expect(list).toEqual([...before, { host: 'logs.example.net', port: 514, enabled: true }]);
    const dup = await w.h.callRaw('syslog.create', { profileId: basic, server: { host: 'logs.example.net', port: 6514, enabled: true } });
    expect(dup.error?.code).toBe('yang.data-exists');
    expect(issues(dup.error)?.[0]?.path).toBe('host');
  });

  it('puts a malformed port on port', async () => {
    const servers = await w.h.call<SyslogServer[]>('syslog.list', { profileId: basic });
    // Through the contract a port outside 1-65535 never leaves main.
    const before = w.sim.stats.count('POST', '/api/config/system/syslog-servers');
    const refused = await w.h.callRaw('syslog.create', { profileId: basic, server: { host: 'logs2', port: 70000, enabled: true } });
    expect(refused.error?.code).toBe('request.invalid');
    expect(w.sim.stats.count('POST', '/api/config/system/syslog-servers')).toBe(before);
    // The node's own refusal (here provoked by sending past the contract) lands on the same field.
    const e = await w.h.app.inventory.syslogCreate(basic, { host: 'logs2', port: 70000, enabled: true }).catch((x: unknown) => x);
    expect((e as AppError).code).toBe('yang.malformed-message');
    expect(issues(e as AppError)).toEqual([{ path: 'port', message: '"70000" is not a valid port value (1-65535).' }]);
    expect(await w.h.call('syslog.list', { profileId: basic })).toEqual(servers);
  });
});
