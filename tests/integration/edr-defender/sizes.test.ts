/**
 * Issue 20.5: a tenant's host fields have a length limit. The Defender simulator (real HTTPS on
 * loopback) lists a machine whose host name and OS version are 2,000,000 characters long; the
 * host record the connector hands to the store holds them cut, the full size noted. Falcon's
 * device records are cut where they are parsed (the same limit).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDevices } from '../../../electron/edr/falcon/merge';
import type { DefenderConnector } from '../../../electron/edr/defender';
import type { DefenderSimulator } from '@northbound/simulators/testing/defender';
import { isTruncated, LIMITS } from '../../../shared/model/limits';
import { connectorFor, startSim, tenant } from './harness';

const small = tenant({ hosts: 10, seed: 77 });
let sim: DefenderSimulator;
let connector: DefenderConnector;

beforeAll(async () => {
  sim = await startSim({ tenants: [small] });
  sim.faults.longFields = 2_000_000;
  connector = connectorFor(sim, small);
});
afterAll(async () => {
  await connector?.close();
  await sim?.close();
});

describe('EDR host fields are bounded (issue 20.5)', () => {
  it('Defender: a 2,000,000-character host name and OS version come out cut, with their size', async () => {
    const hosts = await connector.poll();
    expect(hosts).toHaveLength(10);
    const long = hosts.filter((h) => h.hostname.startsWith('host-0.'));
    expect(long).toHaveLength(1);
    expect(long[0]!.hostname).toHaveLength(LIMITS.name);
    expect(long[0]!.hostname.endsWith('… [truncated, 2,000,007 characters]')).toBe(true);
    expect(isTruncated(long[0]!.osVersion!)).toBe(true);
    expect(Math.max(...hosts.map((h) => JSON.stringify(h).length))).toBeLessThan(20_000);
  });

  it('Falcon: a device record’s host name and OS version are cut where it is parsed', () => {
    const { devices } = parseDevices([{ device_id: 'abc', hostname: 'h'.repeat(1_000_000), os_version: 'v'.repeat(300), platform_name: 'Windows' }]);
    expect(devices[0]!.hostname).toHaveLength(LIMITS.name);
    expect(devices[0]!.hostname!.endsWith('… [truncated, 1,000,000 characters]')).toBe(true);
    expect(isTruncated(devices[0]!.os_version!)).toBe(true);
  });
});
