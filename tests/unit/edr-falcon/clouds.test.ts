/**
 * The console's Falcon cloud table (electron/edr/falcon/regions.ts) against the vendor's clouds
 * and API hosts as the simulator keeps them, copied from CrowdStrike's SDKs
 * (packages/simulators/src/vendor/falcon-clouds.ts): two copies, so a wrong console table shows.
 */
import { describe, expect, it } from 'vitest';
import { FALCON_CLOUDS as VENDOR_CLOUDS, FALCON_CLOUD_HOSTS } from '@northbound/simulators/testing/falcon';
import { FALCON_CLOUDS, FALCON_CLOUD_BASE_URLS } from '../../../electron/edr/falcon/regions';

describe('Falcon clouds', () => {
  it('the console offers exactly the vendor’s clouds, each at its documented API host over HTTPS', () => {
    expect([...FALCON_CLOUDS].sort()).toEqual([...VENDOR_CLOUDS].sort());
    for (const cloud of VENDOR_CLOUDS) expect(FALCON_CLOUD_BASE_URLS[cloud]).toBe(`https://${FALCON_CLOUD_HOSTS[cloud]}`);
  });
});
