/**
 * Connector Test tells the truth (issue 22.4), through the app's router as the Connectors page
 * calls it: each check is named for the call it makes and passes only when that call succeeded; a
 * check that needs a failed one is listed as not run; a host name that does not resolve fails the
 * token check at once (not retried), with a hint that names the vendor's endpoint, not "the node".
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectorTestResult } from '../../../shared/contract';
import { defenderTenant, startDefenderSimulator, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import { startFalconSimulator, type FalconSimulator } from '@northbound/simulators/testing/falcon';
import { startAppHarness, type AppHarness } from '../../support/app-harness';

const tenant = defenderTenant({ hosts: 20, seed: 3 });
let defender: DefenderSimulator;
let falcon: FalconSimulator;
let h: AppHarness;

beforeAll(async () => {
  [defender, falcon] = await Promise.all([
    startDefenderSimulator({ tenants: [tenant] }),
    startFalconSimulator({
      regions: ['us-1'],
      clients: [
        { region: 'us-1', tenant: { hosts: 5, seed: 2 } },
        { region: 'us-1', tenant: { hosts: 5, seed: 3 }, scopes: ['hosts:read'] },
        { region: 'us-1', tenant: { hosts: 5, seed: 4 }, scopes: ['zero-trust-assessment:read'] },
      ],
    }),
  ]);
});
afterAll(async () => {
  await Promise.all([defender?.close(), falcon?.close()]);
});
beforeEach(async () => {
  h = await startAppHarness({ app: { edr: { firstPullDelayMs: 3_600_000 } } });
});
afterEach(async () => {
  await h?.close();
});

const state = (r: ConnectorTestResult) => r.checks.map((c) => [c.name, c.ok ? 'passed' : c.ran === false ? 'not run' : 'failed']);

async function testFalcon(client: number, extra: Record<string, unknown> = {}): Promise<ConnectorTestResult> {
  const c = falcon.clients[client]!;
  const tls = { mode: 'custom-ca', caName: 'sim.pem', caPem: falcon.certificatePem };
  const saved = await h.call<{ id: string }>('connectors.save', { vendor: 'falcon', tenantId: c.cid, clientId: c.clientId, clientSecret: c.clientSecret, cloudRegion: 'us-1', apiUrl: falcon.baseUrl('us-1'), tls, pollIntervalMinutes: 60, ...extra });
  return h.call<ConnectorTestResult>('connectors.test', { connectorId: saved.id });
}

async function testDefender(extra: Record<string, unknown> = {}): Promise<ConnectorTestResult> {
  const tls = { mode: 'custom-ca', caName: 'sim.pem', caPem: defender.certificatePem };
  const saved = await h.call<{ id: string }>('connectors.save', { vendor: 'defender', tenantId: tenant.tenantId, clientId: tenant.clientId, clientSecret: tenant.clientSecret, apiUrl: defender.apiUrl, idpUrl: defender.idpUrl, tls, pollIntervalMinutes: 60, ...extra });
  return h.call<ConnectorTestResult>('connectors.test', { connectorId: saved.id });
}

describe('Connector Test, Falcon', () => {
  it('both scopes: the token, the Hosts API and the ZTA API, each called and passed', async () => {
    const r = await testFalcon(0);
    expect(state(r)).toEqual([['Token', 'passed'], ['Hosts API', 'passed'], ['Zero Trust Assessment API', 'passed']]);
    expect(r.ok).toBe(true);
    expect(r.checks[1]!.message).toContain('5 visible');
  });

  it('without the ZTA scope: that API’s check fails with Falcon’s answer; the others passed', async () => {
    const r = await testFalcon(1);
    expect(state(r)).toEqual([['Token', 'passed'], ['Hosts API', 'passed'], ['Zero Trust Assessment API', 'failed']]);
    expect(r.ok).toBe(false);
  });

  it('without the Hosts scope: the Hosts API fails and the ZTA API, which needs a host from it, is not run', async () => {
    const r = await testFalcon(2);
    expect(state(r)).toEqual([['Token', 'passed'], ['Hosts API', 'failed'], ['Zero Trust Assessment API', 'not run']]);
  });

  it('a host name that does not resolve: the token fails, nothing else runs, the hint names Falcon’s API, not the node', async () => {
    const r = await testFalcon(0, { apiUrl: 'https://api.no-such-falcon-cloud.invalid' });
    expect(state(r)).toEqual([['Token', 'failed'], ['Hosts API', 'not run'], ['Zero Trust Assessment API', 'not run']]);
    expect(r.checks[0]!.message).toMatch(/api\.no-such-falcon-cloud\.invalid:443.*does not resolve/);
    expect(r.checks[0]!.hint).toContain('the CrowdStrike Falcon API');
    expect(r.checks.map((c) => `${c.message} ${c.hint ?? ''}`).join(' ')).not.toMatch(/\bnode\b/);
  });
});

describe('Connector Test, Defender', () => {
  it('the token, the five permissions, the devices API and the vulnerabilities export API, each passed', async () => {
    const r = await testDefender();
    expect(r.ok).toBe(true);
    expect(r.checks.map((c) => c.name)).toEqual(['Token', 'Machine.Read.All', 'Vulnerability.Read.All', 'Alert.Read.All', 'discovery.manage', 'discovery.read', 'Devices API', 'Vulnerabilities export API']);
    expect(r.checks.every((c) => c.ok)).toBe(true);
  });

  it('a sign-in host that does not resolve: only the token check ran, and failed at once; the hint names the Entra ID sign-in', async () => {
    const r = await testDefender({ idpUrl: 'https://login.no-such-tenant.invalid' });
    expect(state(r)).toEqual([['Token', 'failed'], ['Permissions', 'not run'], ['Devices API', 'not run'], ['Vulnerabilities export API', 'not run']]);
    expect(r.checks[0]!.message).toMatch(/login\.no-such-tenant\.invalid:443.*does not resolve/);
    expect(r.checks[0]!.hint).toContain('Microsoft Entra ID sign-in');
    expect(r.checks.map((c) => `${c.message} ${c.hint ?? ''}`).join(' ')).not.toMatch(/\bnode\b/);
  });
});
