/**
 * Permission diagnostics against the simulated Entra ID: each missing permission named, Delegated
 * permissions, missing admin consent and each AADSTS code, each as an AppError with a hint.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError, type AppError } from '../../../shared/model/errors';
import type { DefenderSimulator, DefenderTenantConfig } from '@northbound/simulators/testing/defender';
import { ALL_PERMISSIONS, connectorFor, startSim, tenant } from './harness';

const ok = tenant({ hosts: 10 });
const missingEach = ALL_PERMISSIONS.map((p) => tenant({ hosts: 10, permissions: ALL_PERMISSIONS.filter((x) => x !== p) }));
const missingTwo = tenant({ hosts: 10, permissions: ['Machine.Read.All', 'Alert.Read.All', 'discovery.manage'] });
const delegated = tenant({ hosts: 10, permissionType: 'Delegated' });
const noConsent = tenant({ hosts: 10, consent: false });
const expired = tenant({ hosts: 10, secretExpiresAt: '2020-01-01T00:00:00Z' });
const noMachines = tenant({ hosts: 10, permissions: ALL_PERMISSIONS.filter((p) => p !== 'Machine.Read.All') });
const noVulns = tenant({ hosts: 10, permissions: ALL_PERMISSIONS.filter((p) => p !== 'Vulnerability.Read.All') });
let sim: DefenderSimulator;

beforeAll(async () => {
  sim = await startSim({ tenants: [ok, ...missingEach, missingTwo, delegated, noConsent, expired, noMachines, noVulns] });
});
afterAll(() => sim.close());

async function diagnose(t: Pick<DefenderTenantConfig, 'tenantId' | 'clientId' | 'clientSecret'>) {
  const c = connectorFor(sim, t);
  try {
    return await c.diagnose();
  } finally {
    await c.close();
  }
}

async function pollError(t: DefenderTenantConfig): Promise<AppError> {
  const c = connectorFor(sim, t);
  try {
    const e = await c.poll().then(() => undefined, (err: unknown) => err);
    if (!isAppError(e)) throw new Error(`expected an AppError, got ${String(e)}`);
    return e;
  } finally {
    await c.close();
  }
}

const expectHint = (e: AppError) => {
  expect(e.message.length).toBeGreaterThan(20);
  expect(e.hint).toMatch(/Entra admin center/);
};

describe('diagnose(): permissions', () => {
  it('all five Application permissions with consent: ok', async () => {
    const d = await diagnose(ok);
    expect(d.ok).toBe(true);
    expect(d.problems).toEqual([]);
    expect(d.permissions.map((p) => [p.name, p.granted])).toEqual(ALL_PERMISSIONS.map((p) => [p, true]));
    expect(d.token).toMatchObject({ tenantId: ok.tenantId, appId: ok.clientId, audience: 'https://api.securitycenter.microsoft.com', scp: [] });
    expect(d.token!.roles.sort()).toEqual(['Alert.Read.All', 'Machine.Read.All', 'Vulnerability.Read.All']);
  });

  it.each(ALL_PERMISSIONS.map((p, i) => [p, i] as const))('names the missing %s, and only it', async (name, i) => {
    const d = await diagnose(missingEach[i]!);
    expect(d.ok).toBe(false);
    expect(d.problems).toHaveLength(1);
    const e = d.problems[0]!;
    expect(e.code).toBe('edr.defender.permissions_missing');
    expect(e.details?.missing).toEqual([name]);
    expect(e.message).toContain(name);
    for (const other of ALL_PERMISSIONS.filter((p) => p !== name)) expect(e.message).not.toContain(`${other} (`);
    expect(e.hint).toContain(name.startsWith('discovery') ? 'Microsoft Cloud App Security' : 'WindowsDefenderATP');
    expectHint(e);
    expect(d.permissions.filter((p) => !p.granted).map((p) => p.name)).toEqual([name]);
  });

  it('names every missing permission at once', async () => {
    const d = await diagnose(missingTwo);
    expect(d.problems[0]!.details?.missing).toEqual(['Vulnerability.Read.All', 'discovery.read']);
  });

  it('Delegated permissions: scp present, roles empty', async () => {
    const d = await diagnose(delegated);
    expect(d.ok).toBe(false);
    expect(d.token).toMatchObject({ roles: [] });
    expect(d.token!.scp.length).toBe(3);
    expect(d.permissions.every((p) => p.delegated && !p.granted)).toBe(true);
    const e = d.problems[0]!;
    expect(e.code).toBe('edr.defender.permissions_delegated');
    expect(e.message).toMatch(/Delegated/);
    expect(e.hint).toMatch(/remove the Delegated entries and add them again as Application permissions/);
    expect(e.details?.delegated).toEqual(ALL_PERMISSIONS);
    expect(d.problems).toHaveLength(1);
  });
});

describe('diagnose(): after the operator fixes the app', () => {
  it('a second diagnosis on the same connector sees the new grant (no stale cached token)', async () => {
    const fixable = tenant({ hosts: 10, permissions: ALL_PERMISSIONS.filter((p) => p !== 'discovery.read') });
    sim.tenants.push(fixable);
    const c = connectorFor(sim, fixable);
    try {
      expect((await c.diagnose()).problems[0]!.details?.missing).toEqual(['discovery.read']);
      sim.tenants.find((x) => x.clientId === fixable.clientId)!.permissions.push('discovery.read');
      expect((await c.diagnose()).ok).toBe(true);
    } finally {
      await c.close();
    }
  });
});

describe('diagnose(): token failures (AADSTS)', () => {
  const cases: [string, () => Pick<DefenderTenantConfig, 'tenantId' | 'clientId' | 'clientSecret'>, string, number, number][] = [
    ['admin consent missing', () => noConsent, 'edr.defender.consent_missing', 65001, 400],
    ['invalid secret', () => ({ ...ok, clientSecret: 'wrong-secret-value' }), 'edr.defender.secret_invalid', 7000215, 401],
    ['expired secret', () => expired, 'edr.defender.secret_expired', 7000222, 401],
    ['application not found', () => ({ ...ok, clientId: randomUUID() }), 'edr.defender.app_not_found', 700016, 400],
    ['tenant not found', () => ({ ...ok, tenantId: randomUUID() }), 'edr.defender.tenant_not_found', 90002, 400],
  ];
  it.each(cases)('%s', async (_label, creds, code, aadsts, status) => {
    const d = await diagnose(creds());
    expect(d.ok).toBe(false);
    expect(d.permissions).toEqual([]);
    const e = d.problems[0]!;
    expect(e).toMatchObject({ code, status });
    expect(e.details).toMatchObject({ aadsts, traceId: expect.any(String), correlationId: expect.any(String) });
    expect(e.message).toContain(`AADSTS${aadsts}`);
    if (aadsts !== 90002) expectHint(e);
    else expect(e.hint).toMatch(/Tenant ID/);
  });

  it('the same errors stop a poll', async () => {
    expect((await pollError(noConsent)).code).toBe('edr.defender.consent_missing');
    expect((await pollError({ ...ok, clientSecret: 'nope-nope-nope' })).code).toBe('edr.defender.secret_invalid');
  });

  it('no stored secret', async () => {
    const c = connectorFor(sim, ok, { secrets: { getClientSecret: async () => undefined } });
    const d = await c.diagnose();
    await c.close();
    expect(d.problems[0]!.code).toBe('vault.missing_secret');
  });
});

describe('poll(): a 403 explained from the token', () => {
  it('without Machine.Read.All', async () => {
    const e = await pollError(noMachines);
    expect(e.code).toBe('edr.defender.permissions_missing');
    expect(e.details?.missing).toEqual(['Machine.Read.All']);
  });

  it('without Vulnerability.Read.All (no pointless per-device fallback)', async () => {
    sim.stats.reset();
    const e = await pollError(noVulns);
    expect(e.details?.missing).toEqual(['Vulnerability.Read.All']);
    expect(sim.stats.calls['GET /api/machines/{id}/vulnerabilities'] ?? 0).toBe(0);
  });

  it('with Delegated permissions', async () => {
    expect((await pollError(delegated)).code).toBe('edr.defender.permissions_delegated');
  });
});
