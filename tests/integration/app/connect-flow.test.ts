/**
 * The whole connection flow through the contract router, as the window drives it: demo
 * workspace, a profile for another simulator, trust on first use, OAuth sign-in, an OAuth
 * client created and updated, sign-out with revocation, and a changed certificate refused.
 * At the end, everything that left main (answers, events), every log line and every file
 * written is searched for the secrets used here.
 *
 * Each step is a function; a test runs, on a node and an app of its own, the steps its own step
 * needs first, so every test runs alone and in any order.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startMgmtSimulator, type MgmtSimulator } from '@northbound/simulators/testing';
import type { ProfileView } from '../../../shared/model/profile';
import type { SessionStatus } from '../../../shared/model/session';
import { defaultOAuthClientBody } from '../../../shared/model/oauth-client';
import { startAppHarness, type AppHarness } from '../../support/app-harness';

const ADMIN_PW = 'Adm1n-Pw-for-connect-flow-7Q';
const CLIENT_SECRET = 'Bootstrap-Secret-connect-flow-9Z';
let sim: MgmtSimulator;
let h: AppHarness;

beforeEach(async () => {
  sim = await startMgmtSimulator({
    users: [
      { username: 'admin', password: ADMIN_PW, role: 'admin' },
      { username: 'viewer', password: 'Viewer-Pw-connect-flow-3X', role: 'viewer' },
    ],
    bootstrapClient: { clientSecret: CLIENT_SECRET },
  });
  h = await startAppHarness();
});
afterEach(async () => {
  await h?.close();
  await sim?.close();
});

async function openDemo(): Promise<void> {
  expect(await h.call('app.info')).toMatchObject({ firstRun: true, demoRunning: false, mode: 'browser', secretsPersist: true });
  const demo = await h.call<{ running: boolean; oauthProfileId: string; profileId: string }>('demo.open');
  expect(demo.running).toBe(true);
  const sessions = await h.call<SessionStatus[]>('session.list');
  expect(sessions.find((s) => s.profileId === demo.oauthProfileId)).toMatchObject({ state: 'signed-in', authMode: 'oauth' });
  const basic = await h.call<SessionStatus>('session.signIn', { profileId: demo.profileId });
  expect(basic).toMatchObject({ state: 'signed-in', authMode: 'basic' });
  expect(await h.call('app.info')).toMatchObject({ firstRun: false, demoRunning: true });
}

async function addUntrustedProfile(): Promise<ProfileView> {
  const profile = await h.call<ProfileView>('profiles.save', {
    name: 'Lab node',
    host: '127.0.0.1',
    basicPort: sim.basicPort,
    oauthPort: sim.oauthPort,
    authMode: 'oauth',
    username: 'admin',
    oauthClientId: sim.bootstrapClient.clientId,
    password: ADMIN_PW,
    clientSecret: CLIENT_SECRET,
    tls: { mode: 'pinned' },
  });
  expect(profile).toMatchObject({ hasPassword: true, hasClientSecret: true, tls: { mode: 'pinned' } });
  const res = await h.callRaw('session.signIn', { profileId: profile.id });
  expect(res.ok).toBe(false);
  expect(res.error?.code).toBe('tls.untrusted');
  expect((res.error?.details?.certificate as { fingerprint256: string }).fingerprint256).toBe(sim.fingerprint256);
  expect(sim.stats.count('POST', '/auth/token')).toBe(0);
  return profile;
}

async function trustAndSignIn(profile: ProfileView): Promise<void> {
  const cert = await h.call<{ fingerprint256: string; selfSigned: boolean }>('tls.inspect', { profileId: profile.id });
  expect(cert).toMatchObject({ fingerprint256: sim.fingerprint256, selfSigned: true });
  const wrong = await h.callRaw('tls.trust', { profileId: profile.id, fingerprint256: '00:'.repeat(31) + '00' });
  expect(wrong.error?.code).toBe('tls.pin_mismatch');
  const pinned = await h.call<ProfileView>('tls.trust', { profileId: profile.id, fingerprint256: cert.fingerprint256 });
  expect(pinned.tls).toEqual({ mode: 'pinned', fingerprint256: sim.fingerprint256 });
  const s = await h.call<SessionStatus>('session.signIn', { profileId: profile.id });
  expect(s.state).toBe('signed-in');
  expect(Date.parse(s.accessTokenExpiresAt ?? '')).toBeGreaterThan(Date.now());
  expect(h.pushed.some((p) => p.includes('"session.changed"') && p.includes(profile.id) && p.includes('signed-in'))).toBe(true);
}

/** A signed-in profile on the lab node (its certificate trusted). */
async function signedInProfile(): Promise<ProfileView> {
  const profile = await addUntrustedProfile();
  await trustAndSignIn(profile);
  return profile;
}

/** Returns the new client's secret. */
async function createAndUpdateClient(profile: ProfileView): Promise<string> {
  const body = { ...defaultOAuthClientBody(), name: 'ci-robot', description: 'CI pipeline', allowed_grant_types: ['password', 'refresh_token'] };
  const created = await h.call<{ client: { client_id: string; name: string }; clientSecret: string }>('oauthClients.create', { profileId: profile.id, body });
  const createdSecret = created.clientSecret;
  expect(created.clientSecret.length).toBeGreaterThan(10);
  expect(sim.getClient(created.client.client_id)).toMatchObject({ name: 'ci-robot', description: 'CI pipeline' });
  const known = await h.call<Array<{ client_id: string }>>('oauthClients.list', { profileId: profile.id });
  expect(known.map((c) => c.client_id)).toContain(created.client.client_id);
  expect(JSON.stringify(known)).not.toContain(createdSecret);
  const dup = await h.callRaw('oauthClients.create', { profileId: profile.id, body });
  expect(dup.error?.code).toBe('oauth.existing_client_found');
  const updated = await h.call<{ description: string }>('oauthClients.update', { profileId: profile.id, clientId: created.client.client_id, body: { ...body, description: 'CI pipeline v2', enabled: false } });
  expect(updated.description).toBe('CI pipeline v2');
  expect(sim.getClient(created.client.client_id)?.enabled).toBe(false);
  return createdSecret;
}

async function refuseBadClientBody(profile: ProfileView): Promise<void> {
  const before = sim.stats.count('POST', '/auth/admin/clients');
  const res = await h.callRaw('oauthClients.create', { profileId: profile.id, body: { ...defaultOAuthClientBody(), name: 'x', max_access_tokens: 0 } });
  expect(res.error?.code).toBe('request.invalid');
  // The field in words in the message (C-23), its path in the issues for the form.
  expect(res.error?.message).toBe('The request is not valid: Maximum number of access tokens: Allow at least one access token. (and 1 more)');
  expect(res.error?.details?.issues).toContainEqual({ path: 'body.max_access_tokens', message: 'Allow at least one access token.' });
  expect(sim.stats.count('POST', '/auth/admin/clients')).toBe(before);
}

async function signOutRevokes(profile: ProfileView): Promise<void> {
  expect(sim.liveTokenCount(sim.bootstrapClient.clientId, 'admin')).toBeGreaterThan(0);
  const s = await h.call<SessionStatus>('session.signOut', { profileId: profile.id });
  expect(s.state).toBe('signed-out');
  expect(sim.stats.count('POST', '/auth/revoke')).toBeGreaterThan(0);
  expect(sim.liveTokenCount(sim.bootstrapClient.clientId, 'admin')).toBe(0);
}

async function refuseChangedCertificate(profile: ProfileView): Promise<void> {
  await sim.rotateCertificate();
  // The operator looks at the node's certificate again and sees the new one. This probe's round
  // trips on loopback also let the client read the end of its pooled connection, which the node
  // closed with the rotation (the FIN is already there), so the sign-in below opens a new one.
  expect((await h.call<{ fingerprint256: string }>('tls.inspect', { profileId: profile.id })).fingerprint256).toBe(sim.fingerprint256);
  const res = await h.callRaw('session.signIn', { profileId: profile.id });
  expect(res.error?.code).toBe('tls.pin_mismatch');
  expect(res.error?.message).toMatch(/changed|different/i);
  expect(sim.stats.count('POST', '/auth/token')).toBeGreaterThan(0);
  const tokensBefore = sim.stats.requests.filter((r) => r.path === '/auth/token').length;
  await h.callRaw('session.signIn', { profileId: profile.id });
  expect(sim.stats.requests.filter((r) => r.path === '/auth/token').length).toBe(tokensBefore);
}

describe('connect flow through the contract', () => {
  it('starts on first run and opens the demo workspace, signed in over OAuth', async () => {
    await openDemo();
  });

  it('adds a profile and refuses to talk to an unknown certificate, offering it for comparison', async () => {
    await addUntrustedProfile();
  });

  it('trusts the certificate the operator compared and signs in', async () => {
    await trustAndSignIn(await addUntrustedProfile());
  });

  it('creates an OAuth client, shows its secret once and keeps only its description', async () => {
    await createAndUpdateClient(await signedInProfile());
  });

  it('refuses a bad client body before anything is sent, naming the field', async () => {
    await refuseBadClientBody(await signedInProfile());
  });

  it('signs out and revokes the token', async () => {
    await signOutRevokes(await signedInProfile());
  });

  it('refuses a pinned certificate that changed, with a clear warning', async () => {
    const profile = await signedInProfile();
    await signOutRevokes(profile);
    await refuseChangedCertificate(profile);
  });

  it('never lets a secret out: not in answers, events, log lines or files', async () => {
    // The whole flow above, on this test's own app and node.
    await openDemo();
    const profile = await signedInProfile();
    const createdSecret = await createAndUpdateClient(profile);
    await refuseBadClientBody(profile);
    await signOutRevokes(profile);
    await refuseChangedCertificate(profile);

    const demoSim = h.app.demo.simulator!;
    const secrets = [ADMIN_PW, CLIENT_SECRET, 'Viewer-Pw-connect-flow-3X', demoSim.bootstrapClient.clientSecret, ...demoSim.users.map((u) => u.password)];
    const files = await h.files();
    expect(files.map((f) => f.file).some((f) => f.endsWith('vault.json'))).toBe(true);
    expect(h.logs.length).toBeGreaterThan(5);
    const haystacks: Array<[string, string]> = [
      ...h.answers.map((a) => ['answer', a] as [string, string]),
      ...h.pushed.map((p) => ['event', p] as [string, string]),
      ...h.logs.map((l) => ['log', l] as [string, string]),
      ...files.map((f) => [`file ${f.file}`, f.text] as [string, string]),
    ];
    // The created client's secret is shown once by design: it may appear in that one answer only.
    for (const [where, text] of haystacks) {
      for (const s of secrets) expect(text.includes(s), `${s} found in ${where}`).toBe(false);
      if (where !== 'answer') expect(text.includes(createdSecret), `new client secret found in ${where}`).toBe(false);
    }
    expect(h.answers.filter((a) => a.includes(createdSecret))).toHaveLength(1);
  });
});
