/** Shared set-up of the management node client tests: the simulator over real HTTPS on loopback. */
import { defaultOAuthClientBody, type OAuthClientBody } from '../../../shared/model/oauth-client';
import type { TlsTrust } from '../../../shared/model/profile';
import type { SessionStatus } from '../../../shared/model/session';
import { createMemoryLogger } from '../../../electron/log';
import { MgmtClient, type MgmtClientOptions } from '../../../electron/mgmt/client';
import { readJsonResponse, type OAuthOperation } from '../../../electron/mgmt/errors';
import { HttpClient } from '../../../electron/net/http-client';
import { SimClock, startMgmtSimulator, type MgmtSimulator } from '@northbound/simulators/testing';

/** 08:00 UTC: an hour or two of clock moves never cross the daily clean-up at midnight (MN-11). */
export const SIM_START = Date.parse('2030-01-15T08:00:00Z');

export function startSim(): Promise<MgmtSimulator> {
  return startMgmtSimulator({ clock: new SimClock(SIM_START) });
}

export const pinnedTrust = (sim: MgmtSimulator): TlsTrust => ({ mode: 'pinned', fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem });

export const password = (sim: MgmtSimulator, username: string) => sim.users.find((u) => u.username === username)?.password;

export interface ClientSpec {
  authMode?: 'oauth' | 'basic';
  username?: string;
  password?: string | undefined;
  clientId?: string;
  clientSecret?: string | undefined;
  tls?: TlsTrust;
  host?: string;
  /** Default: the simulator's clock. Pass Date.now to let the client's clock disagree with the node's. */
  now?: () => number;
  options?: Partial<MgmtClientOptions>;
}

export interface TestClient {
  client: MgmtClient;
  statuses: SessionStatus[];
  logger: ReturnType<typeof createMemoryLogger>;
}

export function makeClient(sim: MgmtSimulator, spec: ClientSpec = {}): TestClient {
  const username = spec.username ?? 'admin';
  const authMode = spec.authMode ?? 'oauth';
  const statuses: SessionStatus[] = [];
  const logger = createMemoryLogger();
  const pw = 'password' in spec ? spec.password : password(sim, username);
  const secret = 'clientSecret' in spec ? spec.clientSecret : sim.bootstrapClient.clientSecret;
  const client = new MgmtClient({
    profile: {
      id: `test-${authMode}-${username}`,
      host: spec.host ?? '127.0.0.1',
      basicPort: sim.basicPort,
      oauthPort: sim.oauthPort,
      authMode,
      username,
      oauthClientId: spec.clientId ?? sim.bootstrapClient.clientId,
      tls: spec.tls ?? pinnedTrust(sim),
    },
    secrets: { getPassword: async () => pw, getClientSecret: async () => secret },
    logger,
    now: spec.now ?? (() => sim.clock.now()),
    onStatus: (s) => statuses.push(s),
    ...spec.options,
  });
  return { client, statuses, logger };
}

export const clientBody = (name: string, over: Partial<OAuthClientBody> = {}): OAuthClientBody => ({ ...defaultOAuthClientBody(), name, ...over });

/**
 * The client's own pipeline (HttpClient + readJsonResponse) for requests a well-behaved client
 * never sends (missing token, wrong grant type): it shows how such answers surface.
 */
export function rawCaller(sim: MgmtSimulator) {
  const http = new HttpClient({ tls: pinnedTrust(sim) });
  return {
    async call(
      method: string,
      path: string,
      o: { port?: 'basic' | 'oauth'; bearer?: string; basic?: [string, string]; json?: unknown; body?: string; headers?: Record<string, string>; operation?: OAuthOperation } = {},
    ): Promise<unknown> {
      const port = o.port ?? 'oauth';
      const auth: Record<string, string> = o.bearer ? { authorization: `Bearer ${o.bearer}` } : o.basic ? { authorization: `Basic ${Buffer.from(o.basic.join(':')).toString('base64')}` } : {};
      const res = await http.request({
        method,
        url: `${port === 'oauth' ? sim.oauthUrl : sim.basicUrl}${path}`,
        headers: { ...auth, ...(o.headers ?? {}) },
        ...(o.json !== undefined ? { json: o.json } : {}),
        ...(o.body !== undefined ? { body: o.body } : {}),
      });
      return readJsonResponse(res, { operation: o.operation ?? 'use', host: '127.0.0.1', port: port === 'oauth' ? sim.oauthPort : sim.basicPort, method, path });
    },
    /** A token for a user of the bootstrap client, straight from /auth/token. */
    async token(username = 'admin'): Promise<{ access_token: string; refresh_token: string }> {
      return (await this.call('POST', '/auth/token', {
        operation: 'token',
        json: { client_id: sim.bootstrapClient.clientId, client_secret: sim.bootstrapClient.clientSecret, username, password: password(sim, username), grant_type: 'password' },
      })) as { access_token: string; refresh_token: string };
    },
    close: () => http.close(),
  };
}

/** Expect a promise to reject with an AppError of `code`, and return it. */
export async function failure(p: Promise<unknown>): Promise<{ code: string; message: string; hint: string; status?: number; details?: Record<string, unknown> }> {
  try {
    await p;
  } catch (e) {
    return e as never;
  }
  throw new Error('expected a failure');
}
