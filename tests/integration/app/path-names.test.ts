/**
 * Issue 7.4: names stay names. `devices.get {deviceName: ".."}` used to reach the node's device
 * list (URL parsing removes `..` even after encodeURIComponent). Every channel whose name becomes
 * a path segment refuses "", "." and ".." in the contract, and main refuses them again where the
 * path is built, so nothing is sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { devicePath, deployPath, taskPath } from '../../../electron/inventory/node-api';
import { pathSegment } from '../../../electron/net/path-segment';
import { startAppHarness, type AppHarness } from '../../support/app-harness';

let h: AppHarness;
let profileId = '';
beforeAll(async () => {
  h = await startAppHarness({ openDemo: true, app: { demoEdr: false } });
  profileId = h.app.demo.status().oauthProfileId!;
  await h.call('session.signIn', { profileId });
});
afterAll(async () => h?.close());

describe('names that become path segments', () => {
  it('are refused by every channel before anything is sent to the node', async () => {
    const stats = h.app.demo.simulator!.stats;
    stats.reset();
    for (const name of ['..', '.']) {
      for (const [channel, request] of [
        ['devices.get', { profileId, deviceName: name }],
        ['devices.deploy', { profileId, deviceName: name }],
        ['tasks.get', { profileId, taskId: name }],
        ['oauthClients.update', { profileId, clientId: name, body: { name: 'x', grant_types: ['password'] } }],
      ] as const) {
        const res = await h.callRaw(channel, request);
        expect(res.ok, `${channel} ${name}`).toBe(false);
        expect(res.error?.code, `${channel} ${name}`).toBe('request.invalid');
        expect(res.error?.message, `${channel} ${name}`).toMatch(/cannot be "\." or "\.\."/);
      }
    }
    // The connection's alarm source polls the node's alarm list in the background (issue 12); nothing else may be sent.
    expect(stats.requests.filter((r) => !r.path.startsWith('/mgmt/fault/'))).toEqual([]);
    // An ordinary name still goes through to the node (which does not know it).
    const unknown = await h.callRaw('devices.get', { profileId, deviceName: 'no-such-device-1' });
    expect(unknown.error?.code).not.toBe('request.invalid');
    expect(stats.count('GET', '/mgmt/sdwan/workflow/devices/device/no-such-device-1')).toBe(1);
  });

  it('are refused again where main builds the path, whoever calls it', () => {
    for (const bad of ['', '.', '..']) {
      expect(() => devicePath(bad)).toThrow(expect.objectContaining({ code: 'request.invalid' }));
      expect(() => deployPath(bad)).toThrow(expect.objectContaining({ code: 'request.invalid' }));
      expect(() => taskPath(bad)).toThrow(expect.objectContaining({ code: 'request.invalid' }));
      expect(() => pathSegment(bad, 'machine ID')).toThrow(/machine ID cannot be empty/);
    }
    expect(devicePath('...')).toBe('/mgmt/sdwan/workflow/devices/device/...');
    expect(devicePath('a/../b')).toBe('/mgmt/sdwan/workflow/devices/device/a%2F..%2Fb');
  });
});
