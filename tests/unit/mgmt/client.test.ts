import { describe, expect, it } from 'vitest';
import type { MgmtSession } from '../../../electron/app/sessions';
import { MgmtClient, type MgmtClientOptions } from '../../../electron/mgmt/client';
import { parseSeconds, parseTokenResponse, refreshMarginMs } from '../../../electron/mgmt/token';
import { defaultOAuthClientBody } from '../../../shared/model/oauth-client';

const options = (over: Partial<MgmtClientOptions['profile']> = {}): MgmtClientOptions => ({
  profile: { id: 'p1', host: '127.0.0.1', basicPort: 1, oauthPort: 2, authMode: 'oauth', username: 'admin', oauthClientId: 'c1', tls: { mode: 'system' }, ...over },
  secrets: { getPassword: async () => 'password-1', getClientSecret: async () => undefined },
});

describe('MgmtClient (no network)', () => {
  it('fits the app’s MgmtSession interface', () => {
    const session: MgmtSession = new MgmtClient(options());
    expect(session.status()).toEqual({ profileId: 'p1', state: 'signed-out', authMode: 'oauth', username: 'admin' });
    void session.close();
  });

  it('a missing client secret stops sign-in before anything is sent', async () => {
    const c = new MgmtClient(options());
    await expect(c.signIn()).rejects.toMatchObject({ code: 'vault.missing_secret', hint: 'Enter the client secret in the connection form.' });
    expect(c.status()).toMatchObject({ state: 'error', error: { code: 'vault.missing_secret' } });
    await c.close();
  });

  it('an OAuth profile without client id is request.invalid', async () => {
    const c = new MgmtClient(options({ oauthClientId: undefined }));
    await expect(c.signIn()).rejects.toMatchObject({ code: 'request.invalid', details: { issues: [{ path: 'oauthClientId' }] } });
    await c.close();
  });

  it('OAuth client management needs an OAuth profile', async () => {
    const c = new MgmtClient(options({ authMode: 'basic' }));
    await expect(c.createOAuthClient({ ...defaultOAuthClientBody(), name: 'x' })).rejects.toMatchObject({ code: 'mgmt.oauth_required' });
    await c.close();
  });

  it('requests need a session', async () => {
    const c = new MgmtClient(options({ authMode: 'basic' }));
    await expect(c.request('GET', '/mgmt/organization/orgs')).rejects.toMatchObject({ code: 'session.not_signed_in' });
    await c.close();
  });
});

describe('token responses (MN-3)', () => {
  it('reads expires_in as string, number, -1, or absent', () => {
    expect(parseSeconds('3600')).toBe(3600);
    expect(parseSeconds(3600)).toBe(3600);
    expect(parseSeconds('-1')).toBeNull();
    expect(parseSeconds(-1)).toBeNull();
    expect(parseSeconds(undefined)).toBeUndefined();
    expect(parseSeconds('soon')).toBeUndefined();
  });

  it('computes expiry times from the clock', () => {
    const t = parseTokenResponse({ access_token: 'access-abc', refresh_token: 'refresh-abc', expires_in: '60', refresh_expires_in: '-1' }, 1_000);
    expect(t).toMatchObject({ accessToken: 'access-abc', refreshToken: 'refresh-abc', accessExpiresAt: 61_000, refreshExpiresAt: null, lifetimeMs: 60_000 });
    expect(parseTokenResponse({ access_token: 'access-abc' }, 0)).toMatchObject({ accessExpiresAt: undefined, refreshExpiresAt: undefined });
  });

  it('refresh margin: 60 s or 10 % of the life, whichever is smaller', () => {
    expect(refreshMarginMs(3_600_000)).toBe(60_000);
    expect(refreshMarginMs(300_000)).toBe(30_000);
    expect(refreshMarginMs(undefined)).toBe(60_000);
  });
});
