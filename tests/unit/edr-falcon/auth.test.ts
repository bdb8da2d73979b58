/** The token client against a fake transport: single flight, refresh margin, region handling, failures. */
import { describe, expect, it } from 'vitest';
import type { AppError } from '../../../shared/model/errors';
import { FalconAuth, parseToken, TOKEN_REFRESH_MARGIN_MS } from '../../../electron/edr/falcon/auth';
import { FalconErrorCodes } from '../../../electron/edr/falcon/errors';
import { RatePacer } from '../../../electron/edr/falcon/pacer';
import type { FalconCloudSetting } from '../../../electron/edr/falcon/regions';
import { DEFAULT_RETRY } from '../../../electron/edr/falcon/retry';
import { silentLogger } from '../../../electron/log';
import type { HttpClient, HttpRequest, HttpResponse } from '../../../electron/net';

type Answer = { status: number; region?: string; body?: unknown };

function setup(setting: FalconCloudSetting, answers: (req: HttpRequest) => Answer, urls: { baseUrl?: string; publicHosts?: boolean } = {}) {
  const clock = { t: 1_700_000_000_000 };
  const requests: HttpRequest[] = [];
  const http = {
    request: async (req: HttpRequest): Promise<HttpResponse> => {
      requests.push(req);
      await Promise.resolve();
      const a = answers(req);
      return { status: a.status, headers: a.region ? { 'x-cs-region': a.region } : {}, contentType: 'application/json', body: JSON.stringify(a.body ?? {}), url: String(req.url), durationMs: 1 };
    },
  } as unknown as HttpClient;
  const sleep = async () => undefined;
  const auth = new FalconAuth({
    http,
    clientId: 'a'.repeat(32),
    clientSecret: async () => 's'.repeat(40),
    setting,
    ...(urls.publicHosts ? {} : { cloudBaseUrls: { 'us-1': 'https://us1.test', 'eu-1': 'https://eu1.test', 'us-2': 'https://us2.test' } }),
    ...(urls.baseUrl ? { baseUrl: urls.baseUrl } : {}),
    now: () => clock.t,
    sleep,
    retry: { ...DEFAULT_RETRY, maxAttempts: 3 },
    pacer: new RatePacer({ maxInFlight: 1, now: () => clock.t, sleep }),
    logger: silentLogger,
  });
  return { auth, requests, clock };
}

const ok = (region: string, token = 'tok-1', expires: unknown = 1799): Answer => ({ status: 201, region, body: { access_token: token, token_type: 'bearer', expires_in: expires } });

async function failure(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected a failure');
}

describe('FalconAuth', () => {
  it('sends the client credentials as a form and shares one request among concurrent callers', async () => {
    const { auth, requests } = setup('us-1', () => ok('us-1'));
    const [a, b, c] = await Promise.all([auth.token(), auth.token(), auth.token()]);
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'POST', url: 'https://us1.test/oauth2/token', form: { client_id: 'a'.repeat(32), client_secret: 's'.repeat(40) } });
    expect(a).toBe(b);
    expect(c).toMatchObject({ token: 'tok-1', region: 'us-1', baseUrl: 'https://us1.test' });
  });

  it('reuses the token until the refresh margin before expiry, then fetches a new one', async () => {
    let n = 0;
    const { auth, requests, clock } = setup('us-1', () => ok('us-1', `tok-${++n}`));
    await auth.token();
    clock.t += 1799_000 - TOKEN_REFRESH_MARGIN_MS - 1;
    expect((await auth.token()).token).toBe('tok-1');
    clock.t += 2;
    expect((await auth.token()).token).toBe('tok-2');
    expect(requests).toHaveLength(2);
  });

  it('drops a token on invalidate, but not a newer one that already replaced it', async () => {
    let n = 0;
    const { auth, requests } = setup('us-1', () => ok('us-1', `tok-${++n}`));
    await auth.token();
    auth.invalidate('tok-1');
    expect((await auth.token()).token).toBe('tok-2');
    auth.invalidate('tok-1');
    expect((await auth.token()).token).toBe('tok-2');
    expect(requests).toHaveLength(2);
  });

  it('reports a wrong configured region with the region from X-Cs-Region', async () => {
    const { auth } = setup('us-2', () => ok('eu-1'));
    const e = await failure(auth.token());
    expect(e.code).toBe(FalconErrorCodes.wrongRegion);
    expect(e.details).toMatchObject({ configured: 'us-2', actual: 'eu-1', baseUrl: 'https://eu1.test' });
  });

  it('autodiscovers: asks us-1, then takes its token from the named cloud', async () => {
    const { auth, requests } = setup('autodiscover', (req) => ok('eu-1', String(req.url).includes('eu1') ? 'eu-token' : 'us-token'));
    expect(await auth.token()).toMatchObject({ token: 'eu-token', region: 'eu-1', baseUrl: 'https://eu1.test' });
    expect(requests.map((r) => r.url)).toEqual(['https://us1.test/oauth2/token', 'https://eu1.test/oauth2/token']);
    expect(auth.region()).toBe('eu-1');
  });

  it('autodiscovery at a custom address keeps it, for the first token and every re-login', async () => {
    let n = 0;
    const { auth, requests } = setup('autodiscover', () => ok('eu-1', `tok-${++n}`), { baseUrl: 'https://falcon-proxy.corp.example:8443/', publicHosts: true });
    expect(await auth.token()).toMatchObject({ token: 'tok-1', region: 'eu-1', baseUrl: 'https://falcon-proxy.corp.example:8443' });
    auth.invalidate('tok-1');
    expect(await auth.token()).toMatchObject({ token: 'tok-2', region: 'eu-1', baseUrl: 'https://falcon-proxy.corp.example:8443' });
    expect(requests.map((r) => r.url)).toEqual(['https://falcon-proxy.corp.example:8443/oauth2/token', 'https://falcon-proxy.corp.example:8443/oauth2/token']);
    expect(auth.region()).toBe('eu-1');
  });

  it('autodiscovery at a public host follows X-Cs-Region to that cloud, and signs in there again', async () => {
    let n = 0;
    const { auth, requests } = setup('autodiscover', () => ok('us-2', `tok-${++n}`), { baseUrl: 'https://api.crowdstrike.com', publicHosts: true });
    expect(await auth.token()).toMatchObject({ token: 'tok-2', region: 'us-2', baseUrl: 'https://api.us-2.crowdstrike.com' });
    auth.invalidate('tok-2');
    await auth.token();
    expect(requests.map((r) => r.url)).toEqual(['https://api.crowdstrike.com/oauth2/token', 'https://api.us-2.crowdstrike.com/oauth2/token', 'https://api.us-2.crowdstrike.com/oauth2/token']);
  });

  it('turns 400, 401 and 403 into auth_failed, and retries 5xx a bounded number of times', async () => {
    for (const status of [400, 401, 403]) {
      const e = await failure(setup('us-1', () => ({ status, body: { errors: [{ code: status, message: 'nope' }] } })).auth.token());
      expect(e.code).toBe(FalconErrorCodes.authFailed);
      expect(e.message).toContain('nope');
    }
    const { auth, requests } = setup('us-1', () => ({ status: 503 }));
    expect((await failure(auth.token())).message).toContain('after 3 attempts');
    expect(requests).toHaveLength(3);
  });
});

describe('parseToken', () => {
  it('accepts expires_in as a number or a string of digits', () => {
    expect(parseToken('{"access_token":"t","expires_in":1799}')).toEqual({ token: 't', expiresInS: 1799 });
    expect(parseToken('{"access_token":"t","expires_in":"1799"}')).toEqual({ token: 't', expiresInS: 1799 });
    expect(parseToken('{"access_token":"","expires_in":1799}')).toBeUndefined();
    expect(parseToken('{"access_token":"t"}')).toBeUndefined();
    expect(parseToken('<html>')).toBeUndefined();
  });
});
