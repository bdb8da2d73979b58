/**
 * Issue 20.8: a page must not read another local HTTPS service's error text. A connection is
 * pointed at a loopback HTTPS service (not a management node) and its certificate pinned through
 * `tls.inspect` + `tls.trust`, as a page can; `profiles.test` and `session.signIn` then make main
 * send it requests. Whatever it answers, no word of it reaches the page: the answer says the
 * status and that the address has not answered as a management node. (The node's own messages
 * after it has answered as one: tests/integration/mgmt/api-errors.test.ts, oauth-clients.test.ts.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { makeCert, startTlsServer } from '../../unit/net/tls-fixture';

const SECRET = 'SECRET-TEXT';
let h: AppHarness;
let service: Awaited<ReturnType<typeof startTlsServer>>;
let answer = { status: 401, body: '' };
const seen: string[] = [];

beforeAll(async () => {
  h = await startAppHarness();
  service = await startTlsServer(await makeCert(), (req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(answer.status, { 'content-type': 'application/json' }).end(answer.body);
  });
});
afterAll(async () => {
  await h?.close();
  await service?.close();
});

/** Error bodies of the shapes the console reads (Spring, custom API, OAuth, YANG) and a bare one, each carrying the service's text. */
const BODIES = {
  spring: { timestamp: '2025-01-01T00:00:00Z', status: 0, error: 'Unauthorized', message: SECRET, path: '/x' },
  bare: { message: SECRET },
  custom: { error: { http_status_code: 0, code: 0, message: SECRET, description: SECRET } },
  customKnownCode: { error: { http_status_code: 0, code: 4017, message: SECRET, description: SECRET } },
  oauth: { error: SECRET, error_description: SECRET },
  oauthKnownError: { error: 'access_forbidden', error_description: SECRET },
  yang: { errors: { error: [{ 'error-type': 'application', 'error-tag': SECRET, 'error-message': SECRET }] } },
};

async function pinnedProfile(authMode: 'basic' | 'oauth'): Promise<string> {
  const p = await h.call<{ id: string }>('profiles.save', {
    name: `local service (${authMode})`,
    host: '127.0.0.1',
    basicPort: service.port,
    oauthPort: service.port,
    authMode,
    username: 'admin',
    password: 'Some-Password-1',
    ...(authMode === 'oauth' ? { oauthClientId: 'client-1', clientSecret: 'Some-Client-Secret-1' } : {}),
    tls: { mode: 'pinned' },
  });
  const cert = await h.call<{ fingerprint256: string }>('tls.inspect', { profileId: p.id });
  await h.call('tls.trust', { profileId: p.id, fingerprint256: cert.fingerprint256 });
  return p.id;
}

describe.each(['basic', 'oauth'] as const)('a loopback HTTPS service that is no management node (%s)', (authMode) => {
  let profileId = '';
  beforeAll(async () => {
    profileId = await pinnedProfile(authMode);
  });

  it.each([401, 500])('answering %i: neither profiles.test nor session.signIn shows its text, in any body shape', async (status) => {
    for (const [shape, body] of Object.entries(BODIES)) {
      answer = { status, body: JSON.stringify(shape === 'spring' ? { ...body, status } : body) };
      const before = seen.length;
      const pushedBefore = h.pushed.length;
      for (const channel of ['profiles.test', 'session.signIn']) {
        const res = await h.callRaw(channel, { profileId });
        const text = JSON.stringify(res);
        expect(text, `${channel}, ${shape} body`).not.toContain(SECRET);
        // A refusal says the status; one the console has its own wording for (a known code) keeps that wording.
        const known = shape === 'customKnownCode' || shape === 'oauthKnownError';
        if (!res.ok && !known) expect(res.error?.message, `${channel}, ${shape} body`).toMatch(new RegExp(`HTTP ${status}.*has not answered as a management node`));
        if (res.ok) expect(text).toMatch(/"authenticated":false/);
        await h.callRaw('session.signOut', { profileId });
      }
      expect(seen.length).toBeGreaterThan(before); // the requests did reach the service
      expect(h.pushed.slice(pushedBefore).join('\n'), `events, ${shape} body`).not.toContain(SECRET);
    }
  });

  it('a 200 that is not the organization list is not a sign-in, and its text is not shown either', async () => {
    answer = { status: 200, body: JSON.stringify(authMode === 'basic' ? BODIES.bare : { access_token: 'tok-1', token_type: 'bearer', expires_in: 3600, [SECRET]: SECRET }) };
    const test = await h.callRaw('profiles.test', { profileId });
    expect(test.ok).toBe(false);
    expect(test.error?.message).toMatch(/did not answer as a management node/);
    expect(JSON.stringify(test)).not.toContain(SECRET);
    if (authMode === 'basic') {
      const signIn = await h.callRaw('session.signIn', { profileId });
      expect(signIn.error?.message).toMatch(/did not answer as a management node/);
      expect(JSON.stringify(signIn)).not.toContain(SECRET);
    }
    await h.callRaw('session.signOut', { profileId });
  });

  it('nothing of it went into the logs either', () => {
    expect(h.logs.join('\n')).not.toContain(SECRET);
  });
});
