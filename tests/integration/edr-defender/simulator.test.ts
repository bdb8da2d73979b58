/** The simulator's wire shapes: Entra ID token answers and AADSTS bodies, Defender entities, paging, errors, rate limits. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../../electron/net/http-client';
import { decodeJwt } from '../../../electron/edr/defender/token';
import { MCAS_APP_ID, machineId, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import { startSim, tenant } from './harness';

const t = tenant({ hosts: 25, seed: 3 });
const limited = tenant({ hosts: 10, seed: 4 });
const noVuln = tenant({ hosts: 10, permissions: ['Machine.Read.All'] });
let sim: DefenderSimulator;
let http: HttpClient;
const tokens: Record<string, string> = {};

type Json = Record<string, unknown> & { value?: Record<string, unknown>[] };

async function tokenFor(x: typeof t, scope = 'https://api.securitycenter.microsoft.com/.default') {
  const res = await http.request({ method: 'POST', url: `${sim.idpUrl}/${x.tenantId}/oauth2/v2.0/token`, form: { client_id: x.clientId, client_secret: x.clientSecret, grant_type: 'client_credentials', scope } });
  return { status: res.status, json: JSON.parse(res.body) as Json };
}

async function get(path: string, bearer?: string) {
  const url = path.startsWith('https://') ? path : `${sim.apiUrl}${path}`;
  const res = await http.request({ method: 'GET', url, headers: bearer ? { authorization: `Bearer ${bearer}` } : {} });
  return { status: res.status, headers: res.headers, json: JSON.parse(res.body) as Json };
}

beforeAll(async () => {
  sim = await startSim({ tenants: [t, limited, noVuln] });
  http = new HttpClient({ tls: { mode: 'pinned', fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem } });
  for (const x of [t, limited, noVuln]) tokens[x.tenantId] = (await tokenFor(x)).json.access_token as string;
});
afterAll(async () => {
  await http.close();
  await sim.close();
});

describe('Entra ID token endpoint', () => {
  it('v2.0 client credentials: Bearer JWT with aud, tid, appid and the Application roles', async () => {
    const { status, json } = await tokenFor(t);
    expect(status).toBe(200);
    expect(json).toMatchObject({ token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599 });
    const claims = decodeJwt(json.access_token as string)!;
    expect(claims).toMatchObject({ aud: 'https://api.securitycenter.microsoft.com', tid: t.tenantId, appid: t.clientId });
    expect(claims.roles!.sort()).toEqual(['Alert.Read.All', 'Machine.Read.All', 'Vulnerability.Read.All']);
    expect(claims.scp).toBeUndefined();
  });

  it('the Cloud App Security resource carries discovery.manage and discovery.read', async () => {
    const claims = decodeJwt((await tokenFor(t, `${MCAS_APP_ID}/.default`)).json.access_token as string)!;
    expect(claims.aud).toBe(MCAS_APP_ID);
    expect(claims.roles!.sort()).toEqual(['discovery.manage', 'discovery.read']);
  });

  it('the v1 endpoint of spec §4.1 answers with string numbers', async () => {
    const res = await http.request({ method: 'POST', url: `${sim.idpUrl}/${t.tenantId}/oauth2/token`, form: { client_id: t.clientId, client_secret: t.clientSecret, grant_type: 'client_credentials', resource: 'https://api.securitycenter.microsoft.com' } });
    expect(JSON.parse(res.body)).toMatchObject({ token_type: 'Bearer', expires_in: '3599', resource: 'https://api.securitycenter.microsoft.com' });
  });

  it('AADSTS error bodies have the real shape', async () => {
    const { status, json } = await tokenFor({ ...t, clientSecret: 'bad-secret-value' });
    expect(status).toBe(401);
    expect(json).toMatchObject({ error: 'invalid_client', error_codes: [7000215], trace_id: expect.any(String), correlation_id: expect.any(String), timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ$/) });
    expect(json.error_description).toMatch(/^AADSTS7000215: Invalid client secret provided\..*\r\nTrace ID: /s);
    const scope = await tokenFor(t, 'https://api.securitycenter.microsoft.com/Machine.Read.All');
    expect(scope.json).toMatchObject({ error: 'invalid_scope', error_codes: [1002012] });
  });
});

describe('Defender API', () => {
  it('machines: real field names, $top/$skip paging, absolute nextLink', async () => {
    const first = await get('/api/machines?$top=10', tokens[t.tenantId]);
    expect(first.status).toBe(200);
    expect(first.json['@odata.context']).toBe(`${sim.apiUrl}/api/$metadata#Machines`);
    expect(first.json.value).toHaveLength(10);
    const m = first.json.value![0]!;
    for (const f of ['id', 'computerDnsName', 'firstSeen', 'lastSeen', 'osPlatform', 'osVersion', 'osBuild', 'version', 'osProcessor', 'lastIpAddress', 'lastExternalIpAddress', 'agentVersion', 'healthStatus', 'deviceValue', 'rbacGroupId', 'rbacGroupName', 'riskScore', 'exposureLevel', 'isAadJoined', 'aadDeviceId', 'machineTags', 'defenderAvStatus', 'onboardingStatus', 'ipAddresses']) expect(m).toHaveProperty(f);
    expect(m.id).toMatch(/^[0-9a-f]{40}$/);
    expect(m.id).toBe(machineId(t.seed, 0));
    expect(first.json['@odata.nextLink']).toBe(`${sim.apiUrl}/api/machines?$top=10&$skip=10`);
    const last = await get(`${sim.apiUrl}/api/machines?$top=10&$skip=20`, tokens[t.tenantId]);
    expect(last.json.value).toHaveLength(5);
    expect(last.json['@odata.nextLink']).toBeUndefined();
    const tooMany = await get('/api/machines?$top=10001', tokens[t.tenantId]);
    expect(tooMany.status).toBe(400);
    expect((tooMany.json.error as Json).code).toBe('ODataError');
  });

  it('per-machine vulnerabilities and 404 for an unknown device', async () => {
    const ok = await get(`/api/machines/${machineId(t.seed, 3)}/vulnerabilities`, tokens[t.tenantId]);
    expect(ok.status).toBe(200);
    for (const v of ok.json.value!) expect(v).toMatchObject({ id: expect.stringMatching(/^CVE-\d{4}-\d+$/), name: expect.any(String), severity: expect.stringMatching(/^(Low|Medium|High|Critical)$/), cvssV3: expect.any(Number), exploitVerified: expect.any(Boolean), publishedOn: expect.any(String) });
    const missing = await get(`/api/machines/${'0'.repeat(40)}/vulnerabilities`, tokens[t.tenantId]);
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ code: 'ResourceNotFound', target: expect.any(String) });
  });

  it('bulk export: records with deviceId/cveId/cvssScore, null-CVE rows, $skiptoken nextLink', async () => {
    const page = await get('/api/machines/SoftwareVulnerabilitiesByMachine?pageSize=7', tokens[t.tenantId]);
    expect(page.json.value).toHaveLength(7);
    const row = page.json.value![0]!;
    for (const f of ['id', 'deviceId', 'deviceName', 'osPlatform', 'softwareVendor', 'softwareName', 'softwareVersion', 'cveId', 'cvssScore', 'vulnerabilitySeverityLevel', 'exploitabilityLevel', 'lastSeenTimestamp']) expect(row).toHaveProperty(f);
    expect(page.json['@odata.nextLink']).toMatch(new RegExp(`^${sim.apiUrl}/api/machines/SoftwareVulnerabilitiesByMachine\\?pageSize=7&\\$skiptoken=`));
    let rows = 0;
    let next: string | undefined = `${sim.apiUrl}/api/machines/SoftwareVulnerabilitiesByMachine?pageSize=40`;
    let nullRows = 0;
    while (next) {
      const p = await get(next, tokens[t.tenantId]);
      rows += p.json.value!.length;
      nullRows += p.json.value!.filter((r) => r.cveId === null).length;
      next = p.json['@odata.nextLink'] as string | undefined;
    }
    expect(rows).toBeGreaterThan(25);
    expect(nullRows).toBeGreaterThan(0);
  });

  it('401 without or with a revoked token, 403 without the role, in the documented error shape', async () => {
    const none = await get('/api/machines');
    expect(none.status).toBe(401);
    expect(none.json.error).toMatchObject({ code: 'Unauthorized', message: expect.any(String), target: expect.any(String) });
    const forbidden = await get(`/api/machines/${machineId(noVuln.seed, 0)}/vulnerabilities`, tokens[noVuln.tenantId]);
    expect(forbidden.status).toBe(403);
    expect(forbidden.json.error).toMatchObject({ code: 'Forbidden' });
    expect((forbidden.json.error as Json).message).toContain('Vulnerability.Read.All');
    const mcas = (await tokenFor(t, `${MCAS_APP_ID}/.default`)).json.access_token as string;
    expect((await get('/api/machines', mcas)).status).toBe(401);
  });

  it('101st machines call within a minute: 429 with Retry-After and the TooManyRequests body', async () => {
    const bearer = tokens[limited.tenantId];
    for (let i = 0; i < 100; i++) expect((await get('/api/machines?$top=1', bearer)).status).toBe(200);
    const over = await get('/api/machines?$top=1', bearer);
    expect(over.status).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(over.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(over.json.error).toMatchObject({ code: 'TooManyRequests', target: expect.any(String) });
    sim.clock.advance(60_000);
    expect((await get('/api/machines?$top=1', bearer)).status).toBe(200);
  });
});
