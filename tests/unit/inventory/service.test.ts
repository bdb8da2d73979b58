/** InventoryService against the in-memory node: refresh, single device, deploy followed, tasks, node answers read. */
import { until } from '../../support/until';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TaskStatus } from '../../../shared/model/inventory';
import { readSyslogServers, taskFromNode } from '../../../electron/inventory/node-api';
import { deviceFields, startService, type ServiceHarness } from './fake-node';

let h: ServiceHarness;
afterEach(async () => h?.close());

const eventsOf = <T,>(name: string) => h.events.filter((e) => e.event === name).map((e) => e.payload as T);

describe('InventoryService', () => {
  it('refreshes devices and organizations into the store, with progress and one changed event', async () => {
    h = startService({ progressIntervalMs: 0 });
    h.node.seed(1234);
    const r = await h.service.refresh('p1', 'all');
    expect(r).toMatchObject({ devices: 1234, organizations: 3 });
    expect(await h.service.devices('p1')).toMatchObject({ profileId: 'p1', fetchedAt: r.fetchedAt });
    expect((await h.service.organizations('p1')).items.map((o) => o.name)).toEqual(['Org-A', 'Org-B', 'Org-C']);
    expect((await h.service.organizations('p1')).items[0]).toMatchObject({ devices: 1234, effectivePlan: 'Gold' });
    const progress = eventsOf<{ what: string; done: number; total: number | null }>('inventory.progress').filter((p) => p.what === 'devices');
    expect(progress.map((p) => p.done)).toEqual([0, 500, 1000, 1234]);
    expect(eventsOf('inventory.changed')).toEqual([{ profileId: 'p1', what: ['organizations', 'devices'], counts: { devices: 1234, organizations: 3 } }]);
  });

  it('joins a refresh already running instead of paging twice', async () => {
    h = startService();
    h.node.seed(700);
    const [a, b] = await Promise.all([h.service.refresh('p1', 'devices'), h.service.refresh('p1', 'devices')]);
    expect(a.devices).toBe(700);
    expect(b.devices).toBe(700);
    expect(h.node.count('GET', '/mgmt/sdwan/workflow/devices')).toBe(2);
  });

  it('keeps what a node sends as sent (an odd country stays), leaves out only a record without a name, counts it and says so', async () => {
    h = startService();
    h.node.seed(4);
    h.node.devices.get('branch-0003')!.locationInfo.country = 'ZZ';
    h.node.devices.get('branch-0002')!.deviceName = ' ';
    await h.service.refresh('p1', 'devices');
    const stored = await h.service.devices('p1');
    expect(stored.items.map((d) => d.deviceName)).toEqual(['branch-0001', 'branch-0003', 'branch-0004']);
    expect(stored.items[1]!.locationInfo?.country).toBe('ZZ');
    expect(stored.unreadable).toBe(1);
    expect(eventsOf<{ message: string }>('notice')[0]!.message).toMatch(/1 device record\(s\) from the node could not be read/);
  });

  it('onboards one device (stored, changed event) and maps refusals to fields', async () => {
    h = startService();
    h.node.seed(2);
    const d = await h.service.onboard('p1', deviceFields(9));
    expect(d).toMatchObject({ deviceName: 'branch-0009', deploymentStatus: 'saved', lastTaskId: null });
    expect(await h.service.store.device('p1', 'branch-0009')).toEqual(d);
    expect(h.node.calls.at(-1)).toBe('PUT /mgmt/sdwan/workflow/devices/device/branch-0009');
    expect(eventsOf('inventory.changed')).toEqual([{ profileId: 'p1', what: ['devices'], counts: { devices: 1, organizations: 0 } }]);
    await expect(h.service.onboard('p1', { ...deviceFields(10), siteId: '2' })).rejects.toMatchObject({ code: 'api.0', details: { issues: [{ path: 'siteId' }] } });
    await expect(h.service.onboard('p1', deviceFields(11, 'Nope'))).rejects.toMatchObject({ code: 'api.4016', details: { issues: [{ path: 'orgName' }] } });
  });

  it('fetches one device, and drops a stored device the node no longer has', async () => {
    h = startService();
    h.node.seed(3);
    await h.service.refresh('p1', 'devices');
    h.node.devices.get('branch-0001')!.serialNumber = 'SN-CHANGED';
    expect(await h.service.getDevice('p1', 'branch-0001')).toMatchObject({ serialNumber: 'SN-CHANGED', deploymentStatus: 'deployed' });
    expect((await h.service.store.device('p1', 'branch-0001'))?.serialNumber).toBe('SN-CHANGED');
    const changed = eventsOf('inventory.changed').length;
    await h.service.getDevice('p1', 'branch-0001');
    expect(eventsOf('inventory.changed')).toHaveLength(changed);
    h.node.devices.delete('branch-0002');
    await expect(h.service.getDevice('p1', 'branch-0002')).rejects.toMatchObject({ code: 'api.4015' });
    expect(await h.service.store.device('p1', 'branch-0002')).toBeUndefined();
  });

  it('deploys: answers pending at once, follows the task to the end in the background', async () => {
    h = startService({ pollMs: 5 });
    await h.service.onboard('p1', deviceFields(1));
    const t = await h.service.deploy('p1', 'branch-0001');
    expect(t).toMatchObject({ state: 'pending', percent: 0, deviceName: 'branch-0001', taskId: '1' });
    expect(await h.service.store.device('p1', 'branch-0001')).toMatchObject({ deploymentStatus: 'deploying', lastTaskId: '1' });
    await until('the task to complete', () => eventsOf<TaskStatus>('task.progress').at(-1)?.state === 'completed');
    const states = eventsOf<TaskStatus>('task.progress').map((p) => p.state);
    expect(states[0]).toBe('pending');
    expect(states).toContain('in-progress');
    expect(await h.service.store.device('p1', 'branch-0001')).toMatchObject({ deploymentStatus: 'deployed', lastTaskId: '1' });
    // Following ends with the task: no poll can come after it.
    await until('main to stop following the finished task', () => !h.service.following('p1', '1'));
    const polls = h.node.count('GET', '/mgmt/tasks/task/');
    expect(await h.service.task('p1', '1')).toMatchObject({ state: 'completed', percent: 100 });
    expect(h.node.count('GET', '/mgmt/tasks/task/')).toBe(polls);
  });

  it('stops following a task after maxMs and says so', async () => {
    h = startService({ pollMs: 5, maxMs: 40 });
    h.node.taskPolls = 1000;
    await h.service.onboard('p1', deviceFields(1));
    await h.service.deploy('p1', 'branch-0001');
    await until('the notice that following stopped', () => eventsOf('notice').length > 0);
    expect(eventsOf<{ message: string }>('notice')[0]!.message).toMatch(/Stopped following the deployment of branch-0001/);
    // tasks.get then asks the node (the task is not finished).
    const before = h.node.count('GET', '/mgmt/tasks/task/');
    expect(await h.service.task('p1', '1')).toMatchObject({ state: 'in-progress' });
    expect(h.node.count('GET', '/mgmt/tasks/task/')).toBe(before + 1);
  });
});

describe('closing', () => {
  it('ends a running refresh, bulk job and task follower promptly', async () => {
    h = startService({ pollMs: 5 });
    h.node.taskPolls = 100_000;
    h.node.seed(2000);
    await h.service.onboard('p1', deviceFields(5000));
    await h.service.deploy('p1', 'branch-5000');
    // From now on the node takes a minute per answer: only closing can end the work (within the test's timeout).
    h.node.delayMs = 60_000;
    const refresh = h.service.refresh('p1', 'devices').catch((e: unknown) => e);
    const job = h.jobs.start({ profileId: 'p1', rows: [{ line: 2, device: deviceFields(6000) }], dryRun: false, deploy: false, replace: false, concurrency: 1 });
    await until('the refresh to be waiting on the node', () => h.node.calls.some((c) => c.startsWith('GET /mgmt/sdwan/workflow/devices?')));
    await Promise.all([h.jobs.close(), h.service.close()]);
    expect(await refresh).toMatchObject({ code: 'cancelled' });
    expect(h.jobs.get(job.jobId).state).toBe('cancelled');
  });
});

describe('node answers', () => {
  it('reads the devices’ state on a schedule only while the session is signed in (issue 22.6)', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      h = startService({ stateRefreshMs: 60_000 });
      const reads = vi.spyOn(h.service, 'refreshState').mockResolvedValue(true);
      h.service.onSession('p1', 'signed-in');
      h.service.onSession('p1', 'signed-in'); // a second sign-in event starts no second timer
      vi.advanceTimersByTime(60_000 * 3);
      expect(reads.mock.calls).toEqual([['p1'], ['p1'], ['p1']]);
      h.service.onSession('p1', 'signed-out');
      vi.advanceTimersByTime(60_000 * 3);
      expect(reads).toHaveBeenCalledTimes(3);
      h.service.onSession('p2', 'signed-in');
      await h.service.close();
      vi.advanceTimersByTime(60_000 * 3);
      expect(reads).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reads no state on schedule for a connection whose device list was never read', async () => {
    h = startService();
    expect(await h.service.refreshState('p1')).toBe(false);
    expect(h.node.calls).toEqual([]);
  });

  it('reads a task with or without the vendor prefix', () => {
    const prefixed = {
      'x-tasks.task': {
        'x-tasks.id': '12',
        'x-tasks.task-name': 'Deploy branch-7',
        'x-tasks.task-status': 'FAILED',
        'x-tasks.percentage-completion': '50',
        'x-tasks.progressmessages': { 'x-tasks.progressmessage': [{ 'x-tasks.message': 'Staging', 'x-tasks.time': '2026-05-01T10:00:01Z' }] },
        'x-tasks.errormessages': { 'x-tasks.errormessage': { 'x-tasks.message': 'Commit failed' } },
        'x-tasks.start-time': '2026-05-01T10:00:00Z',
      },
    };
    const seenAt = new Date('2026-05-01T10:00:09Z');
    expect(taskFromNode(prefixed, 'p', '12', undefined, undefined, seenAt)).toEqual({
      profileId: 'p',
      taskId: '12',
      deviceName: 'branch-7',
      state: 'failed',
      percent: 50,
      message: 'Commit failed',
      startedAt: '2026-05-01T10:00:00Z',
      endedAt: null,
      // The node's time where it gave one; when the console saw it otherwise.
      steps: [
        { at: '2026-05-01T10:00:01.000Z', message: 'Staging', level: 'info', timeFrom: 'node' },
        { at: '2026-05-01T10:00:09.000Z', message: 'Commit failed', level: 'error', timeFrom: 'console' },
      ],
    });
    expect(taskFromNode({ task: { id: '3', 'task-status': 'IN_PROGRESS', 'percentage-completion': 20 } }, 'p', '3', 'b')).toMatchObject({ state: 'in-progress', percent: 20, deviceName: 'b' });
    expect(() => taskFromNode({}, 'p', '1')).toThrow(/cannot read/);
  });

  it('reads syslog servers with ports as strings, and a 204 as none', () => {
    expect(readSyslogServers({ 'syslog-servers': { server: [{ host: 'log1', port: '514', enabled: true }, { host: 'bad', port: 'x', enabled: true }] } })).toEqual([{ host: 'log1', port: 514, enabled: true }]);
    expect(readSyslogServers({ 'syslog-servers': { server: { host: 'one', port: 6514, enabled: false } } })).toEqual([{ host: 'one', port: 6514, enabled: false }]);
    expect(readSyslogServers(undefined)).toEqual([]);
  });
});
