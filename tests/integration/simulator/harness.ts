/** Shared helpers of the simulator tests: real HTTPS over loopback, trusting only the simulator's certificate. */
import { Agent, request } from 'undici';
import { defaultOAuthClientBody, type OAuthClientBody } from '../../../shared/model/oauth-client';
import { startMgmtSimulator, type MgmtSimulator, type MgmtSimulatorOptions, type SimUser } from '@northbound/simulators/testing';

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  json: any;
}

export interface CallOptions {
  headers?: Record<string, string>;
  /** Sent as JSON with Content-Type: application/json. */
  json?: unknown;
  /** Sent raw (no content type added). */
  raw?: string;
  bearer?: string;
  basic?: { username: string; password: string };
}

export interface Harness {
  sim: MgmtSimulator;
  call(port: 'basic' | 'oauth', method: string, path: string, opts?: CallOptions): Promise<Answer>;
  user(role: SimUser['role']): SimUser;
  /** POST /auth/token with the bootstrap client unless another is given. */
  token(username: string, password: string, client?: { clientId: string; clientSecret: string }): Promise<Answer>;
  /** An access token of the user (by role) from the bootstrap client. */
  accessToken(role: SimUser['role']): Promise<string>;
  /** Creates a client with the admin's bootstrap token; returns the 201 body. */
  createClient(patch: Partial<OAuthClientBody>): Promise<Answer['json']>;
  close(): Promise<void>;
}

export const basicHeader = (username: string, password: string) => `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

let nameCounter = 0;
export const clientBody = (patch: Partial<OAuthClientBody> = {}): OAuthClientBody => ({
  ...defaultOAuthClientBody(),
  name: `test-client-${process.pid}-${(nameCounter += 1)}`,
  ...patch,
});

export async function startHarness(opts: MgmtSimulatorOptions = {}): Promise<Harness> {
  const sim = await startMgmtSimulator(opts);
  let agent = new Agent({ connect: { ca: sim.certificatePem } });
  let trusted = sim.certificatePem;

  const call: Harness['call'] = async (port, method, path, o = {}) => {
    if (trusted !== sim.certificatePem) {
      await agent.close();
      agent = new Agent({ connect: { ca: sim.certificatePem } });
      trusted = sim.certificatePem;
    }
    const headers: Record<string, string> = { accept: 'application/json', ...o.headers };
    let body: string | undefined = o.raw;
    if (o.json !== undefined) {
      body = JSON.stringify(o.json);
      headers['content-type'] ??= 'application/json';
    }
    if (o.bearer) headers.authorization = `Bearer ${o.bearer}`;
    if (o.basic) headers.authorization = basicHeader(o.basic.username, o.basic.password);
    const base = port === 'basic' ? sim.basicUrl : sim.oauthUrl;
    const res = await request(`${base}${path}`, { dispatcher: agent, method: method as 'GET', headers, body });
    const text = await res.body.text();
    let json: unknown;
    try {
      json = text ? JSON.parse(text) : undefined;
    } catch {
      json = undefined;
    }
    return { status: res.statusCode, headers: res.headers, text, json };
  };

  const user = (role: SimUser['role']) => {
    const u = sim.users.find((x) => x.role === role);
    if (!u) throw new Error(`no ${role}`);
    return u;
  };

  const token: Harness['token'] = (username, password, client = sim.bootstrapClient) =>
    call('oauth', 'POST', '/auth/token', { json: { client_id: client.clientId, client_secret: client.clientSecret, username, password, grant_type: 'password' } });

  const accessToken = async (role: SimUser['role']) => {
    const u = user(role);
    const r = await token(u.username, u.password);
    if (r.status !== 200) throw new Error(`token for ${role}: ${r.status} ${r.text}`);
    return r.json.access_token as string;
  };

  let adminToken: string | undefined;
  const createClient: Harness['createClient'] = async (patch) => {
    adminToken ??= await accessToken('admin');
    let r = await call('oauth', 'POST', '/auth/admin/clients', { bearer: adminToken, json: clientBody(patch) });
    if (r.status === 401) {
      // the cached token expired (a test moved the clock): one fresh try
      adminToken = await accessToken('admin');
      r = await call('oauth', 'POST', '/auth/admin/clients', { bearer: adminToken, json: clientBody(patch) });
    }
    if (r.status !== 201) throw new Error(`create client: ${r.status} ${r.text}`);
    return r.json;
  };

  return {
    sim,
    call,
    user,
    token,
    accessToken,
    createClient,
    async close() {
      await agent.close();
      await sim.close();
    },
  };
}
