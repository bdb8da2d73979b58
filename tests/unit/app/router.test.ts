import { describe, expect, it } from 'vitest';
import { createRouter, type Handlers } from '../../../electron/app/router';
import { createMemoryLogger } from '../../../electron/log';
import { AppError } from '../../../shared/model/errors';

const base = (over: Partial<Handlers>): Handlers =>
  new Proxy(over as Handlers, {
    get: (t, k: string) => (t as Record<string, unknown>)[k] ?? (async () => { throw new Error(`no handler ${k}`); }),
  });

describe('router', () => {
  it('refuses a channel that is not in the contract', async () => {
    const r = createRouter(base({}), createMemoryLogger());
    const res = await r.invoke('fs.writeFile', { path: '/etc/passwd' });
    expect(res).toMatchObject({ ok: false, error: { code: 'channel.unknown' } });
  });

  it('validates the request and names the field at fault', async () => {
    let called = false;
    const r = createRouter(base({ 'session.signIn': async () => { called = true; throw new Error('unreachable'); } }), createMemoryLogger());
    const res = await r.invoke('session.signIn', { profileId: '' });
    expect(called).toBe(false);
    expect(res.ok).toBe(false);
    if (!res.ok) {
      expect(res.error.code).toBe('request.invalid');
      // The field in words (C-23), not its key.
      expect(res.error.message).toBe('The request is not valid: Choose a connection.');
      expect(res.error.details?.issues).toEqual([{ path: 'profileId', message: 'Choose a connection.' }]);
    }
  });

  it('passes typed errors through with their hint', async () => {
    const r = createRouter(base({ 'session.signIn': async () => { throw new AppError('oauth.invalid_grant', 'Wrong user name or password.', 'Check the password.'); } }), createMemoryLogger());
    expect(await r.invoke('session.signIn', { profileId: 'p1' })).toEqual({ ok: false, error: { code: 'oauth.invalid_grant', message: 'Wrong user name or password.', hint: 'Check the password.' } });
  });

  it('hides the text of unexpected errors from the window but logs it', async () => {
    const log = createMemoryLogger();
    const r = createRouter(base({ 'demo.open': async () => { throw new Error('ECONNRESET at /home/op/.secret'); } }), log);
    const res = await r.invoke('demo.open', {});
    expect(res).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(JSON.stringify(res)).not.toContain('.secret');
    expect(log.lines.join('\n')).toContain('ECONNRESET');
  });

  it('strips anything outside the response schema, so a stray secret never crosses', async () => {
    const r = createRouter(
      base({
        'profiles.list': async () =>
          [{ id: 'a', name: 'n', host: 'h', basicPort: 1, oauthPort: 2, authMode: 'basic', username: 'u', tls: { mode: 'system' }, hasPassword: true, hasClientSecret: false, demo: false, createdAt: 'x', updatedAt: 'y', password: 'hunter2-secret' }] as never,
      }),
      createMemoryLogger(),
    );
    const res = await r.invoke('profiles.list', {});
    expect(res.ok).toBe(true);
    expect(JSON.stringify(res)).not.toContain('hunter2-secret');
  });

  it('reports a handler answer outside its schema as a bug, not as data', async () => {
    const r = createRouter(base({ 'settings.get': async () => ({ theme: 'purple' }) as never }), createMemoryLogger());
    expect(await r.invoke('settings.get', {})).toMatchObject({ ok: false, error: { code: 'internal' } });
  });
});
