/** Quitting revokes every OAuth session (MN-13), and the demo workspace comes back on the next start. */
import { afterAll, describe, expect, it } from 'vitest';
import { createNodeAdapters } from '../../../electron/app/node-platform';
import { createApp } from '../../../electron/app/services';
import { createMemoryLogger } from '../../../electron/log';
import { startMgmtSimulator } from '@northbound/simulators/testing';
import type { ProfileView } from '../../../shared/model/profile';
import { startAppHarness } from '../../support/app-harness';

const sims: Array<{ close(): Promise<void> }> = [];
afterAll(async () => {
  for (const s of sims) await s.close();
});

describe('quit', () => {
  it('revokes the tokens of signed-in sessions', async () => {
    const sim = await startMgmtSimulator();
    sims.push(sim);
    const h = await startAppHarness();
    const admin = sim.users.find((u) => u.role === 'admin')!;
    const p = await h.call<ProfileView>('profiles.save', {
      name: 'Node',
      host: '127.0.0.1',
      basicPort: sim.basicPort,
      oauthPort: sim.oauthPort,
      authMode: 'oauth',
      username: admin.username,
      password: admin.password,
      oauthClientId: sim.bootstrapClient.clientId,
      clientSecret: sim.bootstrapClient.clientSecret,
      tls: { mode: 'pinned' },
    });
    await h.call('tls.trust', { profileId: p.id, fingerprint256: sim.fingerprint256 });
    await h.call('session.signIn', { profileId: p.id });
    expect(sim.liveTokenCount(sim.bootstrapClient.clientId)).toBe(1);
    await h.close();
    expect(sim.liveTokenCount(sim.bootstrapClient.clientId)).toBe(0);
    expect(sim.stats.count('POST', '/auth/revoke')).toBe(1);
  });

  it('reopens the demo workspace on the next start, with fresh credentials that work', async () => {
    const h = await startAppHarness({ openDemo: true });
    const first = h.app.demo.status();
    expect(first.running).toBe(true);
    // Second start on the same data folder (same passphrase): the demo profiles are kept and signed in again.
    await h.app.shutdown();
    const adapters = await createNodeAdapters({ dataDir: h.dataDir, passphrase: 'test-vault-passphrase-1', logger: createMemoryLogger(), demoPorts: { basic: 0, oauth: 0 } });
    const again = await createApp(adapters);
    try {
      const status = again.demo.status();
      expect(status.running).toBe(true);
      expect(status.oauthProfileId).toBe(first.oauthProfileId);
      expect(status.fingerprint256).not.toBe(first.fingerprint256);
      expect(again.sessions.status(status.oauthProfileId!).state).toBe('signed-in');
      expect(again.profiles.list().filter((p) => p.demo)).toHaveLength(2);
    } finally {
      await again.shutdown();
      await h.close();
    }
  });
});
