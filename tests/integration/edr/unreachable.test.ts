/**
 * One retry budget per failure, not one per layer: a vendor whose token endpoint cannot be reached
 * costs one token fetch's attempts, then the poll fails. Each API call fetched its token inside its
 * own retries, and a token fetch that had spent its attempts counted as one transient failure of
 * the call, so the call tried it again: 6 × 6 = 36 connections and 42 s before the operator saw
 * "cannot reach" (found as the e2e ZTA test's 42 s wait for a failed poll after a restart without
 * network). The endpoint here is a real TCP listener on loopback that drops every connection.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FalconConnector } from '../../../electron/edr/falcon';
import { DefenderConnector } from '../../../electron/edr/defender';
import { DefenderApi } from '../../../electron/edr/defender/api';
import { SlidingWindowLimiter, realClock } from '../../../electron/edr/defender/limiter';
import { TokenProvider } from '../../../electron/edr/defender/token';
import { DEFAULT_RETRY, DEFENDER_RESOURCE } from '../../../electron/edr/defender/types';
import { silentLogger } from '../../../electron/log';
import { HttpClient } from '../../../electron/net/http-client';
import { isAppError } from '../../../shared/model/errors';

const ATTEMPTS = 4;
const fast = { maxAttempts: ATTEMPTS, baseDelayMs: 1, maxDelayMs: 2 };

let closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.reverse()) await c();
  closers = [];
});

/** A listener that accepts and at once resets every connection; counts them. */
async function dropEverything(): Promise<{ url: string; connections: () => number }> {
  let connections = 0;
  const server = net.createServer((s) => {
    connections += 1;
    s.resetAndDestroy();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  closers.push(() => new Promise<void>((r) => server.close(() => r())));
  return { url: `https://127.0.0.1:${(server.address() as net.AddressInfo).port}`, connections: () => connections };
}

describe('a vendor that cannot be reached', () => {
  it('Falcon: the poll fails after one token fetch’s attempts', async () => {
    const endpoint = await dropEverything();
    const f = new FalconConnector({ tenantId: 't', clientId: 'c', clientSecret: () => 's', cloudRegion: 'us-1', baseUrl: endpoint.url, tls: { mode: 'system' }, retry: fast });
    closers.push(() => f.close());
    const e = await f.poll({ onProgress: () => undefined }).catch((x: unknown) => x as Error);
    expect(isAppError(e) && e.code).toBe('net.unreachable');
    expect((e as Error).message).toMatch(new RegExp(`/oauth2/token after ${ATTEMPTS} attempts`));
    expect(endpoint.connections()).toBe(ATTEMPTS);
  });

  it('Defender: the poll fails after one token fetch’s attempts', async () => {
    const endpoint = await dropEverything();
    const d = new DefenderConnector({
      tenantId: '00000000-0000-4000-8000-000000000001',
      clientId: '00000000-0000-4000-8000-000000000002',
      secrets: { getClientSecret: async () => 's' },
      idpUrl: endpoint.url,
      apiUrl: endpoint.url,
      tls: { mode: 'system' },
      retry: fast,
    });
    closers.push(() => d.close());
    const e = await d.poll({ onProgress: () => undefined }).catch((x: unknown) => x as Error);
    expect(isAppError(e)).toBe(true);
    expect(endpoint.connections()).toBe(ATTEMPTS);
  });

  it('Defender: a call whose token must be fetched again mid-cycle fails after that fetch’s attempts', async () => {
    const endpoint = await dropEverything();
    const http = new HttpClient({ tls: { mode: 'system' }, timeoutMs: 5_000 });
    closers.push(() => http.close());
    const retry = { ...DEFAULT_RETRY, ...fast };
    const tokens = new TokenProvider({ http, idpUrl: endpoint.url, tenantId: 't', clientId: 'c', secrets: { getClientSecret: async () => 's' }, resource: DEFENDER_RESOURCE, now: Date.now, logger: silentLogger, retry });
    const limiter = () => new SlidingWindowLimiter([{ calls: 100, windowMs: 1_000 }], realClock());
    const api = new DefenderApi({ http, apiUrl: endpoint.url, tokens, limiters: { machines: limiter(), vulnerabilities: limiter(), bulk: limiter() }, clock: realClock(), retry, rateScale: 1, logger: silentLogger });
    const e = await api.getJson('machines', api.url('/api/machines'), 'listed the devices').catch((x: unknown) => x as Error);
    expect(isAppError(e) && e.code).toBe('net.unreachable');
    expect(endpoint.connections()).toBe(ATTEMPTS);
  });
});
