/** A full poll cycle against the simulator: scroll past 10,000, every host once, faults survived, pacing. */
import { afterEach, describe, expect, it } from 'vitest';
import { HostRecord } from '../../../shared/model/edr';
import type { FalconPollProgress } from '../../../electron/edr/falcon';
import { FalconParser } from '../../../electron/edr/falcon/falcon-parser';
import { startRig, type Rig } from './helpers';

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

const expectEveryHost = (r: Rig, hosts: HostRecord[], n: number) => {
  expect(hosts).toHaveLength(n);
  const ids = new Set(hosts.map((h) => h.hostId));
  expect(ids.size).toBe(n);
  for (const i of [0, 1, Math.floor(n / 2), n - 1]) expect(ids.has(r.sim.deviceId(r.client.cid, i))).toBe(true);
};

describe('FalconConnector.poll', () => {
  it('lists 12,000 hosts through the scroll endpoint in a healthy cycle with no 429', async () => {
    rig = await startRig({ hosts: 12_000 });
    const parser = new FalconParser();
    const c = rig.connector({ parser });
    const progress: FalconPollProgress[] = [];
    const hosts = await c.poll({ onProgress: (p) => progress.push(p) }).finally(() => parser.close());
    // Every details answer was read on the parser thread, none on main.
    expect(parser.stats).toEqual({ onThread: 12, onMain: 0 });

    expectEveryHost(rig, hosts, 12_000);
    expect(rig.sim.stats.calls).toEqual({
      '/oauth2/token': 1,
      '/devices/queries/devices-scroll/v1': 3,
      '/devices/entities/devices/v2': 12,
      '/zero-trust-assessment/entities/assessments/v1': 120,
    });
    expect(rig.sim.stats.r429).toBe(0);
    expect(rig.sim.stats.maxInFlight).toBeLessThanOrEqual(10);
    expect(c.lastPoll).toMatchObject({ hosts: 12_000, listed: 12_000, missing: 0, invalid: 0, r429: 0, retries: 0, tokenRequests: 1, region: 'us-1' });
    expect(progress.at(-1)).toEqual({ phase: 'hosts', done: 12_000, total: 12_000 });
    expect(progress.filter((p) => p.phase === 'ids').map((p) => p.done)).toEqual([5000, 10_000, 12_000]);

    for (const h of hosts.slice(0, 500)) expect(HostRecord.safeParse(h).success).toBe(true);
    const h = hosts[0]!;
    expect(h).toMatchObject({ vendor: 'falcon', tenantId: 'falcon-test', customerId: rig.client.cid, platform: expect.stringMatching(/^(Windows|Mac|Linux)$/) });
    // Some hosts are not assessed yet, some run in reduced functionality mode, some were not seen for days.
    const unassessed = hosts.filter((x) => x.falcon!.assessment === null).length;
    expect(unassessed).toBeGreaterThan(12_000 * 0.04);
    expect(unassessed).toBeLessThan(12_000 * 0.1);
    expect(c.lastPoll!.assessed).toBe(12_000 - unassessed);
    expect(hosts.some((x) => x.falcon!.reducedFunctionalityMode && !x.falcon!.sensorRunning)).toBe(true);
    const stale = hosts.filter((x) => Date.parse(x.lastSeen!) < rig!.sim.clock.now() - 2 * 86_400_000);
    expect(stale.length).toBeGreaterThan(0);
    expect(stale.every((x) => !x.falcon!.sensorRunning)).toBe(true);
  }, 90_000);

  it('with onHosts hands each merged chunk out a details call’s worth at a time (1,000 hosts) with at most the next chunk under way, and keeps none', async () => {
    rig = await startRig({ hosts: 12_000 });
    const c = rig.connector();
    const batches: { size: number; detailCallsSoFar: number }[] = [];
    const all: HostRecord[] = [];
    const returned = await c.poll({
      onHosts: (b) => {
        batches.push({ size: b.length, detailCallsSoFar: rig!.sim.stats.calls['/devices/entities/devices/v2'] ?? 0 });
        all.push(...b);
      },
    });
    expect(returned).toEqual([]);
    expect(batches.map((b) => b.size)).toEqual(Array(12).fill(1_000));
    // Batch k (from 0) belongs to chunk c = k / 2 (2,000 hosts, two details calls): it is handed out
    // once its chunk's details arrived, and before chunk c + 2 is asked for.
    batches.forEach((b, k) => {
      const c = Math.floor(k / 2);
      expect(b.detailCallsSoFar).toBeGreaterThanOrEqual(2 * (c + 1));
      expect(b.detailCallsSoFar).toBeLessThanOrEqual(2 * (c + 2));
    });
    expectEveryHost(rig, all, 12_000);
    expect(c.lastPoll).toMatchObject({ hosts: 12_000, listed: 12_000 });
  }, 90_000);

  it('when onHosts refuses a batch, the poll fails with that error and the chunk under way is not continued', async () => {
    rig = await startRig({ hosts: 12_000 });
    const c = rig.connector();
    const refused = new Error('refused by the consumer');
    await expect(c.poll({ onHosts: () => Promise.reject(refused) })).rejects.toBe(refused);
    expect(rig.sim.stats.calls['/devices/entities/devices/v2']).toBeLessThanOrEqual(4);
    // Chunks 3 to 6 were never asked for: at most the first two chunks' 20 ZTA calls each.
    expect(rig.sim.stats.calls['/zero-trust-assessment/entities/assessments/v1'] ?? 0).toBeLessThanOrEqual(40);
  }, 90_000);

  it('survives the token expiring mid-cycle with one refresh shared by all calls', async () => {
    rig = await startRig({ hosts: 6_000 });
    rig.sim.faults.expireTokensAfterCalls = 25;
    const c = rig.connector();
    const hosts = await c.poll();
    expectEveryHost(rig, hosts, 6_000);
    expect(rig.sim.stats.calls['/oauth2/token']).toBe(2);
    expect(rig.sim.stats.statuses[401]).toBeGreaterThanOrEqual(1);
    expect(c.lastPoll!.tokenRequests).toBe(2);
  }, 60_000);

  it('refreshes ahead of expiry between cycles instead of waiting for a 401', async () => {
    rig = await startRig({ hosts: 300 });
    const c = rig.connector();
    await c.poll();
    rig.sim.clock.advance(1_700_000);
    await c.poll();
    expect(rig.sim.stats.calls['/oauth2/token']).toBe(2);
    expect(rig.sim.stats.statuses[401]).toBeUndefined();
  }, 30_000);

  it('survives 429 bursts, 5xx, resets and malformed JSON spread over the cycle, with every host present', async () => {
    rig = await startRig({ hosts: 6_000 });
    Object.assign(rig.sim.faults, { every: 3, burst429: 4, serverErrors: 6, resets: 3, malformed: 3, retryAfterS: 1 });
    const c = rig.connector();
    const hosts = await c.poll();
    expectEveryHost(rig, hosts, 6_000);
    expect(rig.sim.stats.r429).toBe(4);
    expect(rig.sim.faults).toMatchObject({ burst429: 0, serverErrors: 0, resets: 0, malformed: 0 });
    expect(c.lastPoll!.r429).toBe(4);
    expect(c.lastPoll!.retries).toBe(12);
    const ztaCalls = rig.sim.stats.calls['/zero-trust-assessment/entities/assessments/v1']!;
    expect(ztaCalls).toBeGreaterThanOrEqual(60);
    expect(ztaCalls).toBeLessThanOrEqual(60 + 16);
  }, 60_000);

  it('slows down when X-RateLimit-Remaining runs low, so a tight budget gets no 429', async () => {
    rig = await startRig({ hosts: 4_000, rateLimit: 20, rateWindowMs: 4_000 });
    const c = rig.connector({ rateWindowMs: 4_000, concurrency: 2 });
    const started = performance.now();
    const hosts = await c.poll();
    expectEveryHost(rig, hosts, 4_000);
    expect(rig.sim.stats.r429).toBe(0);
    expect(c.lastPoll!.slowed).toBeGreaterThan(0);
    // 42 calls against 20 per 4 s with 4 kept in reserve: spaced 200 ms apart once the budget is low.
    expect(performance.now() - started).toBeGreaterThan(2_000);
  }, 60_000);

  it('without pacing the same budget runs into 429s, which are honoured and still deliver every host', async () => {
    rig = await startRig({ hosts: 4_000, rateLimit: 20, rateWindowMs: 4_000 });
    const c = rig.connector({ rateWindowMs: 4_000, concurrency: 2, pacing: false });
    const hosts = await c.poll();
    expectEveryHost(rig, hosts, 4_000);
    expect(rig.sim.stats.r429).toBeGreaterThan(0);
    expect(c.lastPoll!.r429).toBe(rig.sim.stats.r429);
  }, 60_000);
});

describe('FalconConnector.poll edge cases', () => {
  it('a parser thread that cannot start: the answer it had is asked again, the rest are read on main, every host arrives', async () => {
    rig = await startRig({ hosts: 3_000 });
    const parser = new FalconParser({ entry: '/nonexistent/falcon-parse-thread.cjs' });
    const c = rig.connector({ parser });
    const hosts = await c.poll();
    expectEveryHost(rig, hosts, 3_000);
    expect(parser.threaded).toBe(false);
    expect(parser.stats).toEqual({ onThread: 0, onMain: 3 });
    expect(rig.sim.stats.calls['/devices/entities/devices/v2']).toBeGreaterThan(3);
    expect(c.lastPoll!.retries).toBeGreaterThan(0);
  }, 90_000);

  it('a reader that fails for its own reasons is not taken for Falcon being unreachable: the poll fails with that error after one details call', async () => {
    rig = await startRig({ hosts: 1_000 });
    const broken = new FalconParser({ start: () => { throw new Error('not used'); } });
    broken.devices = () => Promise.reject(new TypeError('a bug in the reader'));
    const c = rig.connector({ parser: broken });
    await expect(c.poll()).rejects.toThrow(new TypeError('a bug in the reader'));
    expect(rig.sim.stats.calls['/devices/entities/devices/v2']).toBe(1);
  }, 90_000);

  it('polls an empty tenant to an empty list with a single scroll call', async () => {
    rig = await startRig({ hosts: 0 });
    const c = rig.connector();
    expect(await c.poll()).toEqual([]);
    expect(rig.sim.stats.calls).toEqual({ '/oauth2/token': 1, '/devices/queries/devices-scroll/v1': 1 });
  });
});
