/**
 * Deployment and task status on the simulator clock (MN-44, MN-45): the tests move the clock with
 * `sim.clock.advance`, so every stage is reached without waiting.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SimClock, startMgmtSimulator } from '@northbound/simulators/testing';
import { startHarness, type Harness } from './harness';

const START = Date.parse('2030-01-15T08:00:00Z');
let h: Harness;
beforeAll(async () => {
  h = await startHarness({ clock: new SimClock(START), seedOrganizations: 5, seedDevices: 10 });
});
afterEach(() => {
  h.sim.faults.deployFailures = 0;
});
afterAll(async () => {
  await h.close();
});

const WRAP = 'mgmt.sdwan-device-workflow';
const T = 'mgmt-tasks.';
const devicePath = (name: string) => `/mgmt/sdwan/workflow/devices/device/${encodeURIComponent(name)}`;
const deployPath = (name: string) => `/mgmt/sdwan/workflow/devices/device/deploy/${encodeURIComponent(name)}`;
const operator = () => h.user('operator');

let serial = 0;
/** Names of the devices the tests added (the list, sorted by name, has them among the seeded ones). */
const made = new Set<string>();
/** A new SAVED device on the node. */
async function newDevice(): Promise<string> {
  serial += 1;
  const name = `deploy-${serial}`;
  made.add(name);
  const r = await h.call('basic', 'PUT', devicePath(name), {
    basic: operator(),
    json: { [WRAP]: { deviceName: name, siteId: String(5000 + serial), orgName: 'Contoso', serialNumber: `SN-D-${serial}`, deviceGroup: 'Contoso-Office', locationInfo: { country: 'DE', longitude: '13.4', latitude: '52.5' } } },
  });
  expect(r.status).toBe(200);
  return name;
}

const deploy = (name: string) => h.call('basic', 'POST', deployPath(name), { basic: operator() });
const task = async (id: string) => {
  const r = await h.call('basic', 'GET', `/mgmt/tasks/task/${id}`, { basic: h.user('viewer') });
  expect(r.status).toBe(200);
  return r.json['mgmt-tasks.task'];
};
/** Issue 8: the status strings of the list; only "Deployed" is recorded, the others are our choice. */
const WORKFLOW_STATUS: Record<string, string> = { SAVED: 'Saved', DEPLOYING: 'In Progress', DEPLOYED: 'Deployed', FAILED: 'Failed' };
/**
 * The device's status and latest task as the simulator holds them (the wire no longer carries
 * them: real list records have workflowStatus only), checked against what the list answers.
 */
const device = async (name: string) => {
  const list = (await h.call('basic', 'GET', '/mgmt/sdwan/workflow/devices?limit=500', { basic: h.user('viewer') })).json['mgmt.sdwan-device-list'] as Array<{ deviceName: string; workflowStatus: string }>;
  const view = h.sim.inventory.device(name)!;
  expect(list.find((d) => d.deviceName === name)?.workflowStatus).toBe(WORKFLOW_STATUS[view.deploymentStatus]);
  return view;
};
const messages = (t: Awaited<ReturnType<typeof task>>, kind: 'progress' | 'error'): string[] =>
  t[`${T}${kind}messages`][`${T}${kind}message`].map((m: Record<string, string>) => m[`${T}message`]);

describe('deployment (MN-44, MN-45)', () => {
  it('202 TaskResponse; PENDING 1 s, IN_PROGRESS 20 / 50 / 80 % over deploySeconds, then COMPLETED and DEPLOYED', async () => {
    const name = await newDevice();
    expect(await device(name)).toMatchObject({ deploymentStatus: 'SAVED', lastTaskId: null });
    const startedAt = h.sim.clock.now();
    const r = await deploy(name);
    expect(r.status).toBe(202);
    const id = r.json.TaskResponse['task-id'] as string;
    expect(r.json).toEqual({ TaskResponse: { 'task-id': expect.stringMatching(/^\d+$/), link: `/mgmt/tasks/task/${id}` } });

    const pending = await task(id);
    expect(pending).toMatchObject({
      [`${T}id`]: id,
      [`${T}task-name`]: `Deploy ${name}`,
      [`${T}task-description`]: expect.stringContaining(name),
      [`${T}task-status`]: 'PENDING',
      [`${T}percentage-completion`]: 0,
      [`${T}end-time`]: null,
      [`${T}errormessages`]: { [`${T}errormessage`]: [] },
    });
    expect(Date.parse(pending[`${T}start-time`]) - startedAt).toBeGreaterThanOrEqual(0);
    expect(Date.parse(pending[`${T}start-time`]) - startedAt).toBeLessThan(500);
    expect(await device(name)).toMatchObject({ deploymentStatus: 'DEPLOYING', lastTaskId: id });

    const seen: Array<[string, number]> = [];
    for (const step of [1000, 2000, 2000, 1000]) {
      h.sim.clock.advance(step);
      const t = await task(id);
      seen.push([t[`${T}task-status`], t[`${T}percentage-completion`]]);
      expect((await device(name)).deploymentStatus).toBe('DEPLOYING');
    }
    // 1 s: staging; 1 + 6/3 s: configuration; 1 + 2*6/3 s: verification; 6 s: still verifying.
    expect(seen).toEqual([
      ['IN_PROGRESS', 20],
      ['IN_PROGRESS', 50],
      ['IN_PROGRESS', 80],
      ['IN_PROGRESS', 80],
    ]);

    h.sim.clock.advance(1000);
    const done = await task(id);
    expect(done[`${T}task-status`]).toBe('COMPLETED');
    expect(done[`${T}percentage-completion`]).toBe(100);
    expect(Date.parse(done[`${T}end-time`]) - Date.parse(done[`${T}start-time`])).toBe(7000);
    expect(messages(done, 'progress')).toEqual([
      expect.stringMatching(/queued/),
      expect.stringMatching(/^Staging/),
      expect.stringMatching(/^Configuration/),
      expect.stringMatching(/^Verification/),
      expect.stringMatching(/completed/),
    ]);
    const times = done[`${T}progressmessages`][`${T}progressmessage`].map((m: Record<string, string>) => Date.parse(m[`${T}time`]!));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(await device(name)).toMatchObject({ deploymentStatus: 'DEPLOYED', lastTaskId: id });
  });

  it('deployFailures: the next deployment fails at 50 % with an error message and the device is FAILED', async () => {
    const name = await newDevice();
    h.sim.faults.deployFailures = 1;
    const id = (await deploy(name)).json.TaskResponse['task-id'] as string;
    expect(h.sim.faults.deployFailures).toBe(0);
    h.sim.clock.advance(1500);
    expect((await task(id))[`${T}task-status`]).toBe('IN_PROGRESS');
    h.sim.clock.advance(1600);
    const failed = await task(id);
    expect(failed).toMatchObject({ [`${T}task-status`]: 'FAILED', [`${T}percentage-completion`]: 50 });
    expect(messages(failed, 'error')).toEqual([expect.stringMatching(new RegExp(`^Configuration of ${name} failed`))]);
    expect(failed[`${T}end-time`]).not.toBeNull();
    expect(await device(name)).toMatchObject({ deploymentStatus: 'FAILED', lastTaskId: id });

    // The fault is used up: the next deployment of the same device succeeds.
    const again = (await deploy(name)).json.TaskResponse['task-id'] as string;
    expect(again).not.toBe(id);
    h.sim.clock.advance(7000);
    expect((await task(again))[`${T}task-status`]).toBe('COMPLETED');
    expect((await device(name)).deploymentStatus).toBe('DEPLOYED');
  });

  it('deployFailures counts deployments: N = 2 fails two, the third succeeds', async () => {
    const names = [await newDevice(), await newDevice(), await newDevice()];
    h.sim.faults.deployFailures = 2;
    const ids: string[] = [];
    for (const n of names) ids.push((await deploy(n)).json.TaskResponse['task-id'] as string);
    h.sim.clock.advance(7000);
    const states = await Promise.all(ids.map(async (id) => (await task(id))[`${T}task-status`]));
    expect(states).toEqual(['FAILED', 'FAILED', 'COMPLETED']);
  });

  it('a deployment already running for the device: 400 code 4007 DUPLICATE_REQUEST; after it ends a new one starts', async () => {
    const name = await newDevice();
    const id = (await deploy(name)).json.TaskResponse['task-id'] as string;
    const pending = await deploy(name);
    expect(pending.status).toBe(400);
    expect(pending.json.error).toMatchObject({ http_status_code: 400, code: 4007, message: 'DUPLICATE_REQUEST', description: expect.stringContaining(id) });
    h.sim.clock.advance(3000);
    expect((await deploy(name)).json.error.code).toBe(4007);
    h.sim.clock.advance(4000);
    const next = await deploy(name);
    expect(next.status).toBe(202);
    expect(next.json.TaskResponse['task-id']).not.toBe(id);
  });

  it('a changed PUT during a deployment saves the record (SAVED) but the running task still blocks a second one', async () => {
    const name = await newDevice();
    const id = (await deploy(name)).json.TaskResponse['task-id'] as string;
    const current = await device(name);
    expect(current.deploymentStatus).toBe('DEPLOYING');
    const { deploymentStatus: _s, lastTaskId: _t, ...plain } = current;
    const r = await h.call('basic', 'PUT', devicePath(name), { basic: operator(), json: { [WRAP]: { ...plain, serialNumber: 'SN-NEW' } } });
    expect(r.json[WRAP]).toMatchObject({ serialNumber: 'SN-NEW' });
    expect(await device(name)).toMatchObject({ deploymentStatus: 'SAVED', lastTaskId: id });
    expect((await deploy(name)).json.error.code).toBe(4007);
    h.sim.clock.advance(7000);
    expect((await device(name)).deploymentStatus).toBe('SAVED');
  });

  it('unknown device or task: 404 code 4015 NO_DATA_FOUND', async () => {
    const d = await deploy('no-such-device');
    expect([d.status, d.json.error.code, d.json.error.message]).toEqual([404, 4015, 'NO_DATA_FOUND']);
    const t = await h.call('basic', 'GET', '/mgmt/tasks/task/999999', { basic: operator() });
    expect([t.status, t.json.error.code, t.json.error.message]).toEqual([404, 4015, 'NO_DATA_FOUND']);
  });

  it('works with a bearer token; a viewer may read tasks but not deploy', async () => {
    const name = await newDevice();
    const r = await h.call('oauth', 'POST', deployPath(name), { bearer: await h.accessToken('operator') });
    expect(r.status).toBe(202);
    const t = await h.call('oauth', 'GET', r.json.TaskResponse.link, { bearer: await h.accessToken('viewer') });
    expect(t.json['mgmt-tasks.task']['mgmt-tasks.task-status']).toBe('PENDING');
    const viewer = await h.call('basic', 'POST', deployPath(name), { basic: h.user('viewer') });
    expect([viewer.status, viewer.json.error.code, viewer.json.error.message]).toEqual([401, 0, 'Access forbidden']);
  });

  it('seeded devices link to finished tasks (deployed or failed)', async () => {
    const names = ((await h.call('basic', 'GET', '/mgmt/sdwan/workflow/devices?limit=500', { basic: operator() })).json['mgmt.sdwan-device-list'] as Array<{ deviceName: string }>)
      .map((d) => d.deviceName)
      .filter((n) => !made.has(n));
    expect(names).toHaveLength(10);
    const list = await Promise.all(names.map(device));
    expect(list.filter((x) => x.lastTaskId !== null).length).toBeGreaterThan(0);
    for (const d of list.filter((x) => x.lastTaskId !== null)) {
      const t = await task(d.lastTaskId!);
      expect(t[`${T}task-status`]).toBe(d.deploymentStatus === 'DEPLOYED' ? 'COMPLETED' : 'FAILED');
    }
  });
});

describe('deploySeconds option', () => {
  it('0 completes right after the pending second; a negative value is refused', async () => {
    const fast = await startHarness({ clock: new SimClock(START), seedOrganizations: 2, seedDevices: 1, deploySeconds: 0 });
    try {
      const [d] = (await fast.call('basic', 'GET', '/mgmt/sdwan/workflow/devices', { basic: fast.user('admin') })).json['mgmt.sdwan-device-list'];
      const id = (await fast.call('basic', 'POST', deployPath(d.deviceName), { basic: fast.user('admin') })).json.TaskResponse['task-id'];
      fast.sim.clock.advance(1000);
      const t = (await fast.call('basic', 'GET', `/mgmt/tasks/task/${id}`, { basic: fast.user('admin') })).json['mgmt-tasks.task'];
      expect([t['mgmt-tasks.task-status'], t['mgmt-tasks.percentage-completion']]).toEqual(['COMPLETED', 100]);
    } finally {
      await fast.close();
    }
    await expect(startMgmtSimulator({ deploySeconds: -1 })).rejects.toThrow(RangeError);
  });
});
