/** Shared helpers of the Falcon tests: the simulator over real HTTPS on loopback, trusted by its pinned certificate. */
import type { TlsTrust } from '../../../shared/model/profile';
import { FalconConnector, type FalconCloud, type FalconConnectorOptions } from '../../../electron/edr/falcon';
import { HttpClient, type HttpResponse } from '../../../electron/net';
import { startFalconSimulator, type FalconSimClient, type FalconSimulator, type FalconSimulatorOptions } from '@northbound/simulators/testing/falcon';

export const pinned = (sim: FalconSimulator): TlsTrust => ({ mode: 'pinned', fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem });

export interface Rig {
  sim: FalconSimulator;
  client: FalconSimClient;
  /** A connector for the sim's first client (overrides win); closed by `close`. */
  connector(overrides?: Partial<FalconConnectorOptions>): FalconConnector;
  /** Raw HTTPS to a simulated cloud, for protocol tests. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test assertions dig into vendor JSON freely
  call(region: FalconCloud, req: { method: string; path: string; bearer?: string; form?: Record<string, string>; json?: unknown }): Promise<HttpResponse & { json: any }>;
  token(region?: FalconCloud, client?: FalconSimClient): Promise<string>;
  close(): Promise<void>;
}

export async function startRig(opts: FalconSimulatorOptions = {}): Promise<Rig> {
  const sim = await startFalconSimulator(opts);
  const client = sim.clients[0]!;
  const open: FalconConnector[] = [];
  const http = new HttpClient({ tls: pinned(sim), timeoutMs: 10_000, maxBodyBytes: 64 * 1024 * 1024 });
  const call: Rig['call'] = async (region, req) => {
    const res = await http.request({
      method: req.method,
      url: `${sim.baseUrl(region)}${req.path}`,
      ...(req.bearer ? { headers: { authorization: `Bearer ${req.bearer}` } } : {}),
      ...(req.form ? { form: req.form } : {}),
      ...(req.json !== undefined ? { json: req.json } : {}),
    });
    let json: unknown;
    try {
      json = JSON.parse(res.body);
    } catch {
      json = undefined;
    }
    return { ...res, json };
  };
  return {
    sim,
    client,
    connector(overrides = {}) {
      const c = new FalconConnector({
        tenantId: 'falcon-test',
        clientId: client.clientId,
        clientSecret: async () => client.clientSecret,
        cloudRegion: client.region,
        cloudBaseUrls: sim.baseUrls(),
        tls: pinned(sim),
        now: () => sim.clock.now(),
        retry: { baseDelayMs: 20, maxDelayMs: 200 },
        ...overrides,
      });
      open.push(c);
      return c;
    },
    call,
    async token(region = client.region, c = client) {
      const res = await call(region, { method: 'POST', path: '/oauth2/token', form: { client_id: c.clientId, client_secret: c.clientSecret } });
      if (res.status !== 201) throw new Error(`token: ${res.status} ${res.body}`);
      return res.json.access_token as string;
    },
    async close() {
      await Promise.all(open.splice(0).map((c) => c.close()));
      await http.close();
      await sim.close();
    },
  };
}
