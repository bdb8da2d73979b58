/** What the operator is told: wrong cloud, autodiscovery, bad credentials, missing scopes, outages, cancellation. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/model/errors';
import { FalconErrorCodes } from '../../../electron/edr/falcon';
import { createMemoryLogger } from '../../../electron/log';
import { startRig, type Rig } from './helpers';

let rig: Rig;
beforeAll(async () => {
  rig = await startRig({
    clients: [
      { region: 'eu-1', tenant: { hosts: 250, seed: 21 }, members: [{ hosts: 120, seed: 22 }] },
      { region: 'us-gov-1', tenant: { hosts: 30, seed: 23 } },
      { region: 'us-1', tenant: { hosts: 30, seed: 24 }, scopes: ['hosts:read'] },
    ],
  });
});
afterAll(() => rig.close());

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(AppError);
    return e as AppError;
  }
  throw new Error('expected a failure');
}

describe('cloud region', () => {
  it('tells the operator which cloud the tenant lives in when the region is wrong', async () => {
    const e = await failure(rig.connector({ cloudRegion: 'us-1' }).poll());
    expect(e.code).toBe(FalconErrorCodes.wrongRegion);
    expect(e.message).toBe('Your Falcon tenant lives in eu-1, but the connector is set to us-1.');
    expect(e.hint).toContain('Set Cloud Region to eu-1');
    expect(e.details).toMatchObject({ configured: 'us-1', actual: 'eu-1', baseUrl: rig.sim.baseUrl('eu-1') });
  });

  it('autodiscovers the cloud from X-Cs-Region and polls there', async () => {
    rig.sim.stats.reset();
    const c = rig.connector({ cloudRegion: 'autodiscover' });
    const hosts = await c.poll();
    expect(hosts).toHaveLength(250);
    expect(c.region()).toBe('eu-1');
    expect(rig.sim.stats.calls['/oauth2/token']).toBe(2);
    await c.poll();
    expect(rig.sim.stats.calls['/oauth2/token']).toBe(2);
  });

  it('follows a 308 answer of the token endpoint the same way', async () => {
    rig.sim.faults.wrongRegionAs308 = true;
    try {
      const c = rig.connector({ cloudRegion: 'autodiscover' });
      expect(await c.signIn()).toEqual({ region: 'eu-1', baseUrl: rig.sim.baseUrl('eu-1') });
      expect((await c.probeHosts()).hosts).toBe(250);
    } finally {
      rig.sim.faults.wrongRegionAs308 = false;
    }
  });

  it('reads a Flight Control member tenant with member_cid', async () => {
    const member = rig.client.members[0]!;
    const hosts = await rig.connector({ memberCid: member.cid }).poll();
    expect(hosts).toHaveLength(120);
    expect(new Set(hosts.map((h) => h.customerId))).toEqual(new Set([member.cid]));
  });
});

describe('credentials and scopes', () => {
  it('explains refused credentials with a hint about the id, the secret and the scopes', async () => {
    const logger = createMemoryLogger();
    const e = await failure(rig.connector({ clientSecret: () => 'wrong-secret-value-0123456789', logger }).poll());
    expect(e.code).toBe(FalconErrorCodes.authFailed);
    expect(e.message).toContain('HTTP 403');
    expect(e.hint).toContain('Client ID and Client Secret');
    expect(e.hint).toContain('Hosts: Read and Zero Trust Assessment: Read');
    expect(logger.lines.join('\n')).not.toContain('wrong-secret-value-0123456789');
  });

  it('points GovCloud tenants at the explicit region, as autodiscovery cannot reach them', async () => {
    const gov = rig.sim.clients[1]!;
    const e = await failure(rig.connector({ clientId: gov.clientId, clientSecret: () => gov.clientSecret, cloudRegion: 'autodiscover' }).poll());
    expect(e.code).toBe(FalconErrorCodes.authFailed);
    expect(e.hint).toContain('us-gov-1');
    const ok = await rig.connector({ clientId: gov.clientId, clientSecret: () => gov.clientSecret, cloudRegion: 'us-gov-1' }).poll();
    expect(ok).toHaveLength(30);
  });

  it('names the missing scope when the API client may not read assessments', async () => {
    const narrow = rig.sim.clients[2]!;
    const e = await failure(rig.connector({ clientId: narrow.clientId, clientSecret: () => narrow.clientSecret, cloudRegion: 'us-1' }).poll());
    expect(e.code).toBe(FalconErrorCodes.forbidden);
    expect(e.hint).toContain('Zero Trust Assessment: Read');
  });
});

describe('outages and cancellation', () => {
  it('gives up after the bounded retries when the API keeps failing', async () => {
    rig.sim.stats.reset();
    Object.assign(rig.sim.faults, { every: 1, serverErrors: 100 });
    try {
      const e = await failure(rig.connector({ retry: { maxAttempts: 3, baseDelayMs: 5, maxDelayMs: 10 } }).poll());
      expect(e.message).toContain('after 3 attempts');
      expect(rig.sim.stats.calls['/devices/queries/devices-scroll/v1']).toBe(3);
    } finally {
      rig.sim.faults.serverErrors = 0;
    }
  });

  it('stops promptly when the poll is cancelled', async () => {
    Object.assign(rig.sim.faults, { slowCalls: 1000, slowMs: 300 });
    try {
      const c = rig.connector();
      const ac = new AbortController();
      const polling = c.poll({ signal: ac.signal });
      setTimeout(() => ac.abort(), 400);
      const e = await failure(polling);
      expect(e.code).toBe('cancelled');
      // Stopped at the abort: a handful of the 1,000 slow (300 ms) answers were asked for, not the
      // whole poll (which would take minutes and end the test on its time limit first).
      expect(1000 - rig.sim.faults.slowCalls).toBeLessThan(20);
      await expect(c.poll({ signal: ac.signal })).rejects.toMatchObject({ code: 'cancelled' });
    } finally {
      Object.assign(rig.sim.faults, { slowCalls: 0, slowMs: 0 });
    }
  });

  it('treats an answer slower than the timeout like an outage and retries it', async () => {
    // A rig of its own: requests a cancelled poll left on the wire cannot use up this fault.
    const own = await startRig({ hosts: 250 });
    try {
      Object.assign(own.sim.faults, { slowCalls: 1, slowMs: 1_500 });
      const c = own.connector({ timeoutMs: 500 });
      expect(await c.poll()).toHaveLength(250);
      expect(c.lastPoll!.retries).toBe(1);
    } finally {
      await own.close();
    }
  });
});
