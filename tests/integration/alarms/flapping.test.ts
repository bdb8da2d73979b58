/**
 * Issue 12, must show (spec section 6): an interface that goes down and up again within 2 seconds
 * is invisible to a status poll every 5 seconds, and appears in the console as two alarm changes,
 * even when the console itself only asks every 5 seconds: it asks for the changes since its
 * cursor (last_change_after), and the node keeps each alarm's status changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AlarmSource } from '../../../electron/alarms/source';
import { until } from '../../support/until';
import { startAlarmWorld, type AlarmWorld } from './world';

let w: AlarmWorld;
let source: AlarmSource;

beforeAll(async () => {
  w = await startAlarmWorld();
});
afterAll(async () => {
  await source?.stop();
  await w?.close();
});

describe('a flapping interface', () => {
  it('shows as two changes where a 5-second status poll shows nothing', async () => {
    const devices = (await w.client.request<Record<string, Array<{ deviceName: string }>>>('GET', '/mgmt/sdwan/workflow/devices?offset=0&limit=1'))!;
    const deviceName = devices['mgmt.sdwan-device-list']![0]!.deviceName;
    source = await AlarmSource.open({ id: 'node-a', store: w.store, api: w.api, pollIntervalMs: 5_000, logger: w.logger });
    source.start();
    await until('the first poll', () => source.status().state === 'live', 15_000);

    // The status a 5-second poll sees: the device's active alarms, before and after the flap.
    const statusPoll = async () => ({ at: Date.now(), active: (await w.api.page({ offset: 0, limit: 500 })).items.filter((i) => i.head.deviceName === deviceName && !i.head.cleared) });
    const before = await statusPoll();
    const [down, up] = await w.sim.alarms.generator.flap(deviceName, 'vni-0/1', 800);
    const after = await statusPoll();
    expect(after.at - before.at).toBeLessThan(5_000); // two consecutive polls of a 5-second status poll
    for (const poll of [before, after]) expect(poll.active.filter((i) => i.head.object === 'vni-0/1' && i.head.type === 'interface-down')).toEqual([]);

    // The console, polling changes every 5 seconds, stores both.
    const stored = await until(
      'both changes of the flap stored',
      async () => {
        const row = (await w.store.list('node-a', { cleared: 'all', device: deviceName, type: 'interface-down', text: 'vni-0/1' }, 0, 10)).rows[0];
        const d = row && (await w.store.detail('node-a', row.id));
        return d && d.statusChanges.length === 2 && d;
      },
      15_000,
    );
    expect(stored.statusChanges.map((c) => c.severity)).toEqual(['major', 'cleared']);
    const [t0, t1] = stored.statusChanges.map((c) => Date.parse(c.at)) as [number, number];
    expect(t1 - t0).toBeGreaterThanOrEqual(800);
    expect(t1 - t0).toBeLessThan(2_000);
    expect(down.kind === 'change' && down.change.eventTime).toBe(t0);
    expect(up.kind === 'change' && up.change.eventTime).toBe(t1);
    expect(stored).toMatchObject({ cleared: true, severity: 'cleared', text: 'Interface vni-0/1 is up' });
  }, 30_000);
});
