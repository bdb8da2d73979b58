/**
 * Issue 7 item 9: a connector with a custom API address (`--api-url`, or a connector whose API
 * address is not the public host) and Cloud Region "autodiscover" keeps that address when it has
 * to sign in again after the vendor revoked its token mid-cycle. The connector is wired as the CLI
 * and the app wire it (createRuntime): baseUrl = the API address, no per-cloud URLs, so the cloud
 * table is the public CrowdStrike hosts. Its HTTP client records every URL and refuses any that is
 * not the simulator, so a re-login sent to api.crowdstrike.com fails here instead of leaving.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { compileRiskConfig, defaultRiskConfig, scoreHost } from '../../../shared/risk';
import { FalconConnector } from '../../../electron/edr/falcon';
import { HttpClient, type HttpRequest, type HttpResponse } from '../../../electron/net';
import { startFalconSimulator, type FalconCloud, type FalconSimulator } from '@northbound/simulators/testing/falcon';
import { pinned } from './helpers';

class RecordingHttp extends HttpClient {
  readonly urls: string[] = [];
  constructor(
    sim: FalconSimulator,
    private readonly allowed: string,
  ) {
    super({ tls: pinned(sim), timeoutMs: 10_000, maxBodyBytes: 64 * 1024 * 1024 });
  }
  override request(req: HttpRequest): Promise<HttpResponse> {
    const url = String(req.url);
    this.urls.push(url);
    if (!url.startsWith(`${this.allowed}/`)) return Promise.reject(new Error(`request outside the simulator: ${url}`));
    return super.request(req);
  }
}

let sim: FalconSimulator | undefined;
let http: RecordingHttp | undefined;
let connector: FalconConnector | undefined;
afterEach(async () => {
  await connector?.close();
  await http?.close();
  await sim?.close();
  sim = http = connector = undefined;
});

async function revokedMidCycle(region: FalconCloud, hosts: number) {
  // 127.0.0.2: a loopback address that is neither a public Falcon host nor the default one.
  sim = await startFalconSimulator({ host: '127.0.0.2', regions: [region], clients: [{ region, tenant: { hosts, seed: 21 } }] });
  const client = sim.clients[0]!;
  const apiUrl = sim.baseUrl(region);
  expect(apiUrl).toMatch(/^https:\/\/127\.0\.0\.2:\d+$/);
  http = new RecordingHttp(sim, apiUrl);
  connector = new FalconConnector({
    tenantId: 'relogin',
    clientId: client.clientId,
    clientSecret: async () => client.clientSecret,
    cloudRegion: 'autodiscover',
    baseUrl: apiUrl,
    tls: pinned(sim),
    http,
    now: () => sim!.clock.now(),
    retry: { baseDelayMs: 20, maxDelayMs: 200 },
  });
  // Revoked after 12 data calls: the scroll is done, the details and assessments are under way.
  sim.faults.revokeTokensAfterCalls = 12;
  const records = await connector.poll();
  const config = compileRiskConfig(defaultRiskConfig);
  const now = new Date(sim.clock.now());
  const scored = new Set(records.map((h) => (scoreHost(h, config, now), h.hostId)));
  const tokenUrls = http.urls.filter((u) => u.endsWith('/oauth2/token'));
  return { sim, client, apiUrl, records, scored, tokenUrls };
}

describe('Falcon re-login with a custom API address and autodiscovery', () => {
  it('signs in again at the custom address after the token is revoked mid-cycle (the tenant answers us-1)', async () => {
    const r = await revokedMidCycle('us-1', 3_000);
    expect(r.sim.faults.revokeTokensAfterCalls).toBeNull();
    expect(r.sim.stats.statuses[401]).toBeGreaterThanOrEqual(1);
    expect(r.tokenUrls).toEqual([`${r.apiUrl}/oauth2/token`, `${r.apiUrl}/oauth2/token`]);
    expect(r.records).toHaveLength(3_000);
    expect(r.scored.size).toBe(3_000);
    for (const i of [0, 1_500, 2_999]) expect(r.scored.has(r.sim.deviceId(r.client.cid, i))).toBe(true);
    expect(connector!.lastPoll).toMatchObject({ hosts: 3_000, tokenRequests: 2, region: 'us-1' });
    expect(http!.urls.every((u) => u.startsWith(`${r.apiUrl}/`))).toBe(true);
  }, 60_000);

  it('keeps the custom address when it answers for another cloud (eu-1), at the first sign-in and the re-login', async () => {
    const r = await revokedMidCycle('eu-1', 1_200);
    expect(r.tokenUrls).toEqual([`${r.apiUrl}/oauth2/token`, `${r.apiUrl}/oauth2/token`]);
    expect(r.scored.size).toBe(1_200);
    expect(connector!.lastPoll).toMatchObject({ hosts: 1_200, tokenRequests: 2, region: 'eu-1' });
    expect(connector!.region()).toBe('eu-1');
  }, 60_000);
});
