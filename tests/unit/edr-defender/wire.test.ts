/** Small pieces: retry helpers, AADSTS mapping, JWT decoding, permission checks, paging guard, simulator data. */
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/model/errors';
import { DefenderApi } from '../../../electron/edr/defender/api';
import { checkPermissions, explainForbidden, permissionProblems } from '../../../electron/edr/defender/diagnose';
import { aadstsCode, tokenError } from '../../../electron/edr/defender/errors';
import { SlidingWindowLimiter, realClock } from '../../../electron/edr/defender/limiter';
import { parseRetryAfter } from '../../../electron/edr/defender/retry';
import { decodeJwt, type TokenProvider } from '../../../electron/edr/defender/token';
import { DEFAULT_RETRY, DEFENDER_RESOURCE, MCAS_RESOURCE } from '../../../electron/edr/defender/types';
import type { HttpClient } from '../../../electron/net/http-client';
import { silentLogger } from '../../../electron/log';
import { bulkRowsOf, machineAt, machineId, machineIndex } from '@northbound/simulators/testing/defender';

describe('retry helpers', () => {
  it('Retry-After as seconds or an HTTP date', () => {
    const now = Date.UTC(2025, 0, 1, 0, 0, 0);
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter('Wed, 01 Jan 2025 00:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe('AADSTS errors', () => {
  const ctx = { tenantId: 't', clientId: 'c', status: 400 };
  it.each([
    [90002, 'edr.defender.tenant_not_found'],
    [700016, 'edr.defender.app_not_found'],
    [7000215, 'edr.defender.secret_invalid'],
    [7000222, 'edr.defender.secret_expired'],
    [65001, 'edr.defender.consent_missing'],
    [50126, 'edr.defender.token_refused'],
  ])('AADSTS%s → %s', (code, want) => {
    const e = tokenError({ error: 'x', error_description: `AADSTS${code}: words.\r\nTrace ID: 1`, error_codes: [code] }, ctx);
    expect(e).toBeInstanceOf(AppError);
    expect(e.code).toBe(want);
    expect(e.details?.aadsts).toBe(code);
    expect(e.hint.length).toBeGreaterThan(30);
  });
  it('reads the code from the description when error_codes is absent', () => {
    expect(aadstsCode({ error_description: 'AADSTS7000222: expired' })).toBe(7000222);
    expect(tokenError({ error: 'invalid_client' }, ctx).message).toContain('invalid_client');
  });
});

describe('token claims and permissions', () => {
  const jwt = (claims: object) => `e30.${Buffer.from(JSON.stringify(claims)).toString('base64url')}.sig`;
  it('decodeJwt reads the payload only', () => {
    expect(decodeJwt(jwt({ roles: ['A'] }))).toEqual({ roles: ['A'] });
    expect(decodeJwt('nope')).toBeUndefined();
    expect(decodeJwt('a.!!!.c')).toBeUndefined();
  });

  it('roles per resource decide; scp without roles means Delegated', () => {
    const checks = checkPermissions({ [DEFENDER_RESOURCE]: { roles: ['machine.read.all', 'Alert.Read.All'] }, [MCAS_RESOURCE]: { roles: [], scp: 'discovery.read discovery.manage' } });
    expect(checks.map((c) => [c.name, c.granted, c.delegated])).toEqual([
      ['Machine.Read.All', true, false],
      ['Vulnerability.Read.All', false, false],
      ['Alert.Read.All', true, false],
      ['discovery.manage', false, true],
      ['discovery.read', false, true],
    ]);
    const problems = permissionProblems(checks, 'app');
    expect(problems.map((p) => p.code)).toEqual(['edr.defender.permissions_delegated', 'edr.defender.permissions_missing']);
    expect(problems[1]!.details?.missing).toEqual(['Vulnerability.Read.All']);
  });

  it('explainForbidden names the role the endpoint needs', () => {
    expect(explainForbidden({ roles: ['Machine.Read.All'] }, 'bulk', 'a')?.details?.missing).toEqual(['Vulnerability.Read.All']);
    expect(explainForbidden({ roles: ['Machine.ReadWrite.All'] }, 'machines', 'a')).toBeUndefined();
    expect(explainForbidden({ roles: [], scp: 'Machine.Read.All' }, 'machines', 'a')?.code).toBe('edr.defender.permissions_delegated');
  });
});

describe('paging guard', () => {
  it('never follows a nextLink to another origin (the token would leak)', async () => {
    const http = { request: async () => ({ status: 200, headers: {}, contentType: 'application/json', body: JSON.stringify({ value: [], '@odata.nextLink': 'https://evil.example/api/machines?$skip=1' }), url: '', durationMs: 1 }) } as unknown as HttpClient;
    const tokens = { get: async () => 'tok', invalidate: () => undefined } as unknown as TokenProvider;
    const limiter = () => new SlidingWindowLimiter([{ calls: 10, windowMs: 1_000 }], realClock());
    const api = new DefenderApi({ http, apiUrl: 'https://api.securitycenter.microsoft.com', tokens, limiters: { machines: limiter(), vulnerabilities: limiter(), bulk: limiter() }, clock: realClock(), retry: DEFAULT_RETRY, rateScale: 1, logger: silentLogger });
    await expect(api.page('machines', api.url('/api/machines'), 'listed the devices')).rejects.toMatchObject({ code: 'edr.defender.foreign_next_link' });
  });
});

describe('simulator data', () => {
  it('is deterministic per (seed, index) and differs across seeds', () => {
    expect(machineAt(1, 5, 0)).toEqual(machineAt(1, 5, 0));
    expect(machineAt(1, 5, 0).record.id).not.toBe(machineAt(2, 5, 0).record.id);
    expect(bulkRowsOf(1, 5, 0)).toEqual(bulkRowsOf(1, 5, 0));
  });

  it('maps machine ids back to their index without a table, for any tenant size', () => {
    for (const i of [0, 1, 9_999, 99_999]) expect(machineIndex(77, 100_000, machineId(77, i))).toBe(i);
    expect(machineIndex(77, 10, machineId(77, 10))).toBeUndefined();
    expect(machineIndex(78, 100_000, machineId(77, 3))).toBeUndefined();
    expect(machineIndex(77, 100_000, 'x'.repeat(40))).toBeUndefined();
  });
});
