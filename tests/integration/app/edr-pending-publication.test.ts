/**
 * Scores are never lost for want of a publication target: a cycle polled while no management
 * node is signed in (and no broker is configured) stays pending, the Connectors page says why,
 * and the scores go out once, as soon as the operator signs in to a node.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectorStatus } from '../../../shared/contract';
import type { ProfileView } from '../../../shared/model/profile';
import { NO_TARGET } from '../../../electron/edr/publisher';
import { startMgmtSimulator, type MgmtSimulator } from '@northbound/simulators/testing';
import { defenderTenant, startDefenderSimulator, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { until } from '../../support/until';

const tenant = defenderTenant({ hosts: 40, seed: 3 });
let defender: DefenderSimulator;
let mgmt: MgmtSimulator;
let h: AppHarness;

beforeAll(async () => {
  defender = await startDefenderSimulator({ tenants: [tenant] });
});
afterAll(async () => {
  await defender?.close();
});
// Each test has its own app and its own node, so what one node received is what that test sent.
beforeEach(async () => {
  const saved = process.env.NORTHBOUND_AMQP_URL;
  delete process.env.NORTHBOUND_AMQP_URL;
  try {
    mgmt = await startMgmtSimulator();
    h = await startAppHarness({ app: { edr: { publishDelayMs: 20, firstPullDelayMs: 3_600_000 } } });
  } finally {
    if (saved !== undefined) process.env.NORTHBOUND_AMQP_URL = saved;
  }
});
afterEach(async () => {
  await h?.close();
  await mgmt?.close();
});

function statusOnceTrue(connectorId: string, done: (c: ConnectorStatus) => boolean): Promise<ConnectorStatus> {
  return until(
    `connector ${connectorId} in the awaited state`,
    async () => {
      const c = (await h.call<ConnectorStatus[]>('connectors.list')).find((x) => x.id === connectorId)!;
      return done(c) && c;
    },
    20_000,
  );
}

/** A Defender connector polled once while no node is signed in: its cycle completed, publication pending. */
async function pendingCycle(): Promise<{ connectorId: string; cycleId: number; status: ConnectorStatus }> {
  const saved = await h.call<{ id: string }>('connectors.save', {
    vendor: 'defender',
    tenantId: tenant.tenantId,
    clientId: tenant.clientId,
    clientSecret: tenant.clientSecret,
    pollIntervalMinutes: 60,
    apiUrl: defender.apiUrl,
    idpUrl: defender.idpUrl,
    tls: { mode: 'custom-ca', caName: 'simulator.pem', caPem: defender.certificatePem },
  });
  const connectorId = saved.id;
  const cycleId = (await h.call<{ cycleId: number }>('connectors.pollNow', { connectorId })).cycleId;
  const status = await statusOnceTrue(connectorId, (x) => x.lastCycle?.id === cycleId && x.lastCycle.publishError !== undefined);
  return { connectorId, cycleId, status };
}

describe('publication waits for a target', () => {
  it('a cycle completed with no node signed in stays pending, with the reason on the page', async () => {
    const { status: c } = await pendingCycle();
    expect(c.lastCycle).toMatchObject({ status: 'completed', hosts: 40, publishedAt: null, publishError: NO_TARGET });
    expect(mgmt.receivedScores).toHaveLength(0);
  });

  it('signing in to a node publishes the pending scores once', async () => {
    const { connectorId, cycleId } = await pendingCycle();
    expect(mgmt.receivedScores).toHaveLength(0);
    const op = mgmt.users.find((u) => u.role === 'operator')!;
    const profile = await h.call<ProfileView>('profiles.save', {
      name: 'Lab node',
      host: '127.0.0.1',
      basicPort: mgmt.basicPort,
      oauthPort: mgmt.oauthPort,
      authMode: 'basic',
      username: op.username,
      password: op.password,
      tls: { mode: 'pinned' },
    });
    const cert = await h.call<{ fingerprint256: string }>('tls.inspect', { profileId: profile.id });
    await h.call('tls.trust', { profileId: profile.id, fingerprint256: cert.fingerprint256 });
    const before = h.pushed.length;
    await h.call('session.signIn', { profileId: profile.id });

    const c = await statusOnceTrue(connectorId, (x) => x.lastCycle?.publishedAt !== null);
    expect(c.lastCycle).toMatchObject({ id: cycleId, status: 'completed' });
    expect(c.lastCycle?.publishError).toBeUndefined();
    const got = mgmt.receivedScores.filter((r) => r.message.cycleId === cycleId);
    expect(got).toHaveLength(1);
    expect(got[0]!.message).toMatchObject({ vendor: 'defender', tenantId: tenant.tenantId, summary: { hosts: 40 } });
    // The page was told: a connectors.changed event for this connector after the publication.
    expect(h.pushed.slice(before).filter((p) => p.includes('"connectors.changed"') && p.includes(connectorId))).toHaveLength(1);
    // Signing in again does not send the cycle twice.
    await h.call('session.signOut', { profileId: profile.id });
    await h.call('session.signIn', { profileId: profile.id });
    // The sign-in's pass over the pending cycles, run to its end (the same pass the sign-in starts).
    await h.app.edr.publisher.publishPending();
    expect(mgmt.receivedScores.filter((r) => r.message.cycleId === cycleId)).toHaveLength(1);
  });
});
