import { until } from '../../support/until';
import { describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../shared/model/errors';
import type { SessionStatus } from '../../../shared/model/session';
import { OAuthSession, type OAuthTransport } from '../../../electron/mgmt/oauth-session';
import { errorFromResponse } from '../../../electron/mgmt/errors';
import { createMemoryLogger } from '../../../electron/log';

const oauthErr = (status: number, error: string, operation: 'token' | 'refresh' | 'revoke' | 'use' = 'use') =>
  errorFromResponse({ status, contentType: 'application/json', body: JSON.stringify({ error, error_description: error }) }, { operation });

/** A fake node: issues numbered tokens, lets each test decide how /auth paths answer. */
function fakeNode(opts: { expiresIn?: unknown; refreshExpiresIn?: unknown } = {}) {
  let n = 0;
  let clock = Date.parse('2030-01-01T00:00:00Z');
  const calls: { path: string; body?: Record<string, string>; bearer?: string }[] = [];
  const tokens = () => {
    n++;
    return { access_token: `access-token-${n}`, refresh_token: `refresh-token-${n}`, token_type: 'Bearer', expires_in: opts.expiresIn ?? '3600', refresh_expires_in: opts.refreshExpiresIn ?? '86400' };
  };
  const handlers: Record<string, (body?: Record<string, string>, bearer?: string) => unknown> = {
    '/auth/token': () => tokens(),
    '/auth/refresh': () => tokens(),
    '/auth/revoke': () => ({ status: 'success' }),
  };
  const transport: OAuthTransport = {
    post: async (path, body, { bearer }) => {
      calls.push({ path, ...(body ? { body } : {}), ...(bearer ? { bearer } : {}) });
      await new Promise((r) => setTimeout(r, 2));
      const h = handlers[path];
      if (!h) throw new Error(`no handler ${path}`);
      return h(body, bearer);
    },
  };
  const statuses: SessionStatus[] = [];
  const session = new OAuthSession({
    profileId: 'p1',
    username: 'admin',
    host: 'node.example',
    transport,
    credentials: async () => ({ clientId: 'client-1', clientSecret: 'client-secret-1', username: 'admin', password: 'password-1' }),
    now: () => clock,
    onStatus: (s) => statuses.push(s),
    logger: createMemoryLogger(),
  });
  return {
    session,
    calls,
    handlers,
    statuses,
    count: (path: string) => calls.filter((c) => c.path === path).length,
    advance: (ms: number) => void (clock += ms),
    now: () => clock,
  };
}

describe('OAuthSession sign-in', () => {
  it('uses the password grant and reports expiry (expires_in as string)', async () => {
    const f = fakeNode();
    const s = await f.session.signIn();
    expect(f.calls[0]).toEqual({ path: '/auth/token', body: { client_id: 'client-1', client_secret: 'client-secret-1', username: 'admin', password: 'password-1', grant_type: 'password' } });
    expect(s.state).toBe('signed-in');
    expect(s.accessTokenExpiresAt).toBe('2030-01-01T01:00:00.000Z');
    expect(s.refreshTokenExpiresAt).toBe('2030-01-02T00:00:00.000Z');
    expect(f.statuses.map((x) => x.state)).toEqual(['signing-in', 'signed-in']);
  });

  it('accepts expires_in as a number', async () => {
    const f = fakeNode({ expiresIn: 120, refreshExpiresIn: 600 });
    expect((await f.session.signIn()).accessTokenExpiresAt).toBe('2030-01-01T00:02:00.000Z');
  });

  it('"-1" means the token never expires: no refresh, ever', async () => {
    const f = fakeNode({ expiresIn: '-1', refreshExpiresIn: '-1' });
    const s = await f.session.signIn();
    expect(s.accessTokenExpiresAt).toBeNull();
    expect(s.refreshTokenExpiresAt).toBeNull();
    f.advance(365 * 86_400_000);
    await f.session.withToken(async (t) => expect(t).toBe('access-token-1'));
    expect(f.count('/auth/refresh')).toBe(0);
  });

  it('concurrent sign-ins share one token request', async () => {
    const f = fakeNode();
    await Promise.all([f.session.signIn(), f.session.signIn(), f.session.signIn()]);
    expect(f.count('/auth/token')).toBe(1);
  });

  it('a failed sign-in leaves state error with the reason', async () => {
    const f = fakeNode();
    f.handlers['/auth/token'] = () => {
      throw oauthErr(401, 'invalid_grant', 'token');
    };
    await expect(f.session.signIn()).rejects.toMatchObject({ code: 'oauth.invalid_grant' });
    expect(f.session.status()).toMatchObject({ state: 'error', error: { code: 'oauth.invalid_grant' } });
    await expect(f.session.withToken(async () => 1)).rejects.toMatchObject({ code: 'session.not_signed_in' });
  });

  it('a token answer without access_token is mgmt.unexpected_response', async () => {
    const f = fakeNode();
    f.handlers['/auth/token'] = () => ({ token_type: 'Bearer' });
    await expect(f.session.signIn()).rejects.toMatchObject({ code: 'mgmt.unexpected_response' });
  });
});

describe('OAuthSession refresh (C-1)', () => {
  it('refreshes ahead of expiry (less than 60 s left) with the refresh grant', async () => {
    const f = fakeNode();
    await f.session.signIn();
    f.advance(3600_000 - 59_000);
    await f.session.withToken(async (t) => expect(t).toBe('access-token-2'));
    expect(f.calls[1]).toEqual({ path: '/auth/refresh', body: { grant_type: 'refresh_token', client_id: 'client-1', client_secret: 'client-secret-1', refresh_token: 'refresh-token-1' } });
  });

  it('uses 10 % of the life as margin for short tokens', async () => {
    const f = fakeNode({ expiresIn: '300' });
    await f.session.signIn();
    f.advance(260_000); // 40 s left, margin is 30 s
    await f.session.withToken(async (t) => expect(t).toBe('access-token-1'));
    f.advance(15_000); // 25 s left
    await f.session.withToken(async (t) => expect(t).toBe('access-token-2'));
  });

  it('20 concurrent calls on an expired token: one refresh, each call done once with the new token', async () => {
    const f = fakeNode();
    await f.session.signIn();
    f.advance(3601_000);
    const seen: string[] = [];
    await Promise.all(Array.from({ length: 20 }, () => f.session.withToken(async (t) => void seen.push(t))));
    expect(f.count('/auth/refresh')).toBe(1);
    expect(seen).toEqual(Array(20).fill('access-token-2'));
  });

  it('node says access_token_expired (clock skew): one refresh for all callers, each retried once', async () => {
    const f = fakeNode();
    await f.session.signIn();
    const attempts = new Map<string, number>();
    const call = (i: number) =>
      f.session.withToken(async (t) => {
        attempts.set(`${i}:${t}`, (attempts.get(`${i}:${t}`) ?? 0) + 1);
        await new Promise((r) => setTimeout(r, 1));
        if (t === 'access-token-1') throw oauthErr(401, 'access_token_expired');
        return i;
      });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => call(i)));
    expect(results).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(f.count('/auth/refresh')).toBe(1);
    for (let i = 0; i < 20; i++) {
      expect(attempts.get(`${i}:access-token-1`)).toBe(1);
      expect(attempts.get(`${i}:access-token-2`)).toBe(1);
    }
  });

  it('retries only once: a second expiry answer is surfaced', async () => {
    const f = fakeNode();
    await f.session.signIn();
    const fn = vi.fn(async () => {
      throw oauthErr(401, 'access_token_expired');
    });
    await expect(f.session.withToken(fn)).rejects.toMatchObject({ code: 'oauth.access_token_expired' });
    expect(fn).toHaveBeenCalledTimes(2);
    expect(f.count('/auth/refresh')).toBe(1);
  });

  it('uses the rotated refresh token for the next refresh', async () => {
    const f = fakeNode();
    await f.session.signIn();
    f.advance(3600_000);
    await f.session.withToken(async () => 1);
    f.advance(3600_000);
    await f.session.withToken(async () => 1);
    expect(f.calls.filter((c) => c.path === '/auth/refresh').map((c) => c.body?.refresh_token)).toEqual(['refresh-token-1', 'refresh-token-2']);
    expect(f.statuses.at(-1)?.accessTokenExpiresAt).toBe(new Date(f.now() + 3600_000).toISOString());
  });
});

describe('OAuthSession end of session (C-2)', () => {
  it.each(['invalid_refresh_token', 'invalid_client', 'client_expired', 'client_secret_expired', 'user_credentials_not_matched'])('refresh failing with %s → sign-in-required', async (error) => {
    const f = fakeNode();
    await f.session.signIn();
    f.handlers['/auth/refresh'] = () => {
      throw oauthErr(401, error, 'refresh');
    };
    f.advance(3601_000);
    const err = await f.session.withToken(async () => 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ code: 'session.sign_in_required', details: { reason: `oauth.${error}` } });
    expect((err as AppError).hint).toMatch(/^Sign in again/);
    expect(f.session.status()).toMatchObject({ state: 'sign-in-required', error: { code: `oauth.${error}` } });
    // Later calls do not hit the node again.
    await expect(f.session.withToken(async () => 1)).rejects.toMatchObject({ code: 'session.sign_in_required' });
    expect(f.count('/auth/refresh')).toBe(1);
  });

  it('a refresh that fails for a passing reason keeps the session', async () => {
    const f = fakeNode();
    await f.session.signIn();
    f.handlers['/auth/refresh'] = () => {
      throw new AppError('net.unreachable', 'down', 'retry');
    };
    f.advance(3601_000);
    await expect(f.session.withToken(async () => 1)).rejects.toMatchObject({ code: 'net.unreachable' });
    expect(f.session.status().state).toBe('signed-in');
  });

  it('refresh ahead failing before expiry falls back to the current token', async () => {
    const f = fakeNode();
    await f.session.signIn();
    f.handlers['/auth/refresh'] = () => {
      throw new AppError('net.timeout', 'slow', 'retry');
    };
    f.advance(3600_000 - 30_000);
    await f.session.withToken(async (t) => expect(t).toBe('access-token-1'));
  });

  it('a call answered with user_credentials_not_matched ends the session', async () => {
    const f = fakeNode();
    await f.session.signIn();
    await expect(
      f.session.withToken(async () => {
        throw oauthErr(401, 'user_credentials_not_matched');
      }),
    ).rejects.toMatchObject({ code: 'oauth.user_credentials_not_matched', message: expect.stringContaining('credentials changed') });
    expect(f.session.status()).toMatchObject({ state: 'sign-in-required', error: { code: 'oauth.user_credentials_not_matched' } });
    await expect(f.session.withToken(async () => 1)).rejects.toMatchObject({ code: 'session.sign_in_required', details: { reason: 'oauth.user_credentials_not_matched' } });
  });

  it('access_forbidden is passed through and keeps the session', async () => {
    const f = fakeNode();
    await f.session.signIn();
    await expect(
      f.session.withToken(async () => {
        throw oauthErr(401, 'access_forbidden');
      }),
    ).rejects.toMatchObject({ code: 'oauth.access_forbidden' });
    expect(f.session.status().state).toBe('signed-in');
  });

  it('signing in again after sign-in-required works', async () => {
    const f = fakeNode();
    await f.session.signIn();
    f.handlers['/auth/refresh'] = () => {
      throw oauthErr(401, 'invalid_refresh_token', 'refresh');
    };
    f.advance(3601_000);
    await f.session.withToken(async () => 1).catch(() => undefined);
    expect((await f.session.signIn()).state).toBe('signed-in');
  });
});

describe('OAuthSession sign-out (MN-13)', () => {
  it('revokes with the bearer token and forgets it', async () => {
    const f = fakeNode();
    await f.session.signIn();
    const s = await f.session.signOut();
    expect(f.calls.at(-1)).toEqual({ path: '/auth/revoke', bearer: 'access-token-1' });
    expect(s).toMatchObject({ state: 'signed-out' });
    expect(s.error).toBeUndefined();
    await expect(f.session.withToken(async () => 1)).rejects.toMatchObject({ code: 'session.not_signed_in' });
  });

  it('a failed revoke still signs out, and says the token stays valid', async () => {
    const f = fakeNode();
    await f.session.signIn();
    f.handlers['/auth/revoke'] = () => {
      throw new AppError('net.unreachable', 'Cannot reach node', 'Is the node up?');
    };
    const s = await f.session.signOut();
    expect(s.state).toBe('signed-out');
    expect(s.error?.message).toMatch(/could not be told to revoke/);
  });

  it('an already unknown token (invalid_token) is a clean sign-out', async () => {
    const f = fakeNode();
    await f.session.signIn();
    f.handlers['/auth/revoke'] = () => {
      throw oauthErr(401, 'invalid_token', 'revoke');
    };
    expect((await f.session.signOut()).error).toBeUndefined();
  });

  it('a refresh answer arriving after sign-out does not revive the session', async () => {
    const f = fakeNode();
    await f.session.signIn();
    f.advance(3601_000);
    const pending = f.session.withToken(async () => 1).catch((e: unknown) => e);
    await f.session.signOut();
    expect(await pending).toMatchObject({ code: 'session.not_signed_in' });
    expect(f.session.status().state).toBe('signed-out');
    // The pair that arrived late is revoked as well.
    await until('the late pair to be revoked', () => f.calls.filter((c) => c.path === '/auth/revoke').length >= 2);
    expect(f.calls.filter((c) => c.path === '/auth/revoke').map((c) => c.bearer)).toEqual(['access-token-1', 'access-token-2']);
  });
});

describe('secrets', () => {
  it('never logs the password, client secret or tokens', async () => {
    const logger = createMemoryLogger();
    const f = fakeNode();
    const s = new OAuthSession({
      profileId: 'p',
      username: 'admin',
      transport: { post: async (path, body, o) => (logger.info('post', { path, body, o }), { access_token: 'access-token-xyz', refresh_token: 'refresh-token-xyz', expires_in: '60' }) },
      credentials: async () => ({ clientId: 'c', clientSecret: 'client-secret-xyz', username: 'admin', password: 'password-xyz' }),
      logger,
      now: f.now,
    });
    await s.signIn();
    logger.info('token is access-token-xyz and password-xyz');
    await s.signOut();
    const all = logger.lines.join('\n');
    for (const secret of ['client-secret-xyz', 'password-xyz', 'access-token-xyz', 'refresh-token-xyz']) expect(all).not.toContain(secret);
  });
});
